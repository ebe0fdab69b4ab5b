//! Field types recognized by their path whose serde form must not reach the table by
//! accident: `time` and `uuid` types (stored in dynamap's forms, which need the crate's
//! features of those names), and date-time, decimal and URL types of crates dynamap has no
//! form for (chrono, rust_decimal, url). Generated code checks each at compile time (see
//! `dynamap::codec::form_check`): a type with an `Attribute` implementation passes, so a
//! type of the user's own that only shares a name is not refused once it has a form.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::{GenericArgument, PathArguments, Type};

/// What a recognized type needs to be stored in a chosen form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Needs {
    /// dynamap's `time` feature.
    Time,
    /// dynamap's `uuid` feature.
    Uuid,
    /// A `with` module: dynamap has no form for the type.
    ChosenForm,
}

/// The `time` types dynamap stores (`PlainDateTime` and `SignedDuration` are the newer
/// names of `PrimitiveDateTime` and `Duration`).
const TIME_TYPES: &[&str] = &[
    "OffsetDateTime",
    "PrimitiveDateTime",
    "PlainDateTime",
    "Date",
    "Time",
    "Duration",
    "SignedDuration",
];
/// Names other crates' types are recognized by without their crate's name: none of them is
/// a std or `time` name.
const FOREIGN_NAMES: &[&str] = &["NaiveDate", "NaiveDateTime", "NaiveTime", "Decimal", "Url"];
/// Crates dynamap has no forms for: every type of theirs is refused.
const FOREIGN_CRATES: &[&str] = &["chrono", "rust_decimal", "url"];

fn classify(path: &syn::Path) -> Option<Needs> {
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let (last, prefix) = names.split_last()?;
    let last = last.as_str();
    let in_crate = |name: &str| prefix.iter().any(|segment| segment == name);
    if FOREIGN_CRATES.iter().any(|name| in_crate(name)) {
        return Some(Needs::ChosenForm);
    }
    if prefix.first().is_some_and(|first| first == "time") && TIME_TYPES.contains(&last) {
        return Some(Needs::Time);
    }
    if prefix.first().is_some_and(|first| first == "uuid") && last == "Uuid" {
        return Some(Needs::Uuid);
    }
    // A bare name, or one reached through another path: only names no std or `time` type
    // has, and `DateTime<..>` with its time zone.
    if !prefix.is_empty() {
        return None;
    }
    let has_arguments = path
        .segments
        .last()
        .is_some_and(|s| !matches!(s.arguments, PathArguments::None));
    match last {
        "OffsetDateTime" | "PrimitiveDateTime" => Some(Needs::Time),
        "Uuid" => Some(Needs::Uuid),
        "DateTime" if has_arguments => Some(Needs::ChosenForm),
        name if FOREIGN_NAMES.contains(&name) => Some(Needs::ChosenForm),
        _ => None,
    }
}

/// Every recognized type inside `ty`: itself, or inside its generic arguments, tuples,
/// arrays and references (`Option<T>`, `Vec<T>`, map values).
pub(crate) fn recognized(ty: &Type) -> Vec<(&Type, Needs)> {
    let mut found = Vec::new();
    walk(ty, &mut found);
    found
}

fn walk<'t>(ty: &'t Type, found: &mut Vec<(&'t Type, Needs)>) {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            if let Some(needs) = classify(&path.path) {
                found.push((ty, needs));
                return;
            }
            for segment in &path.path.segments {
                if let PathArguments::AngleBracketed(arguments) = &segment.arguments {
                    for argument in &arguments.args {
                        if let GenericArgument::Type(inner) = argument {
                            walk(inner, found);
                        }
                    }
                }
            }
        }
        Type::Reference(reference) => walk(&reference.elem, found),
        Type::Array(array) => walk(&array.elem, found),
        Type::Slice(slice) => walk(&slice.elem, found),
        Type::Paren(paren) => walk(&paren.elem, found),
        Type::Group(group) => walk(&group.elem, found),
        Type::Tuple(tuple) => tuple.elems.iter().for_each(|elem| walk(elem, found)),
        _ => {}
    }
}

/// The checks of stored fields' types, as one block (nothing when no type is recognized):
/// each recognized type must have a chosen form (implement `Attribute`), or the build fails
/// at the type with what to do.
pub(crate) fn checks<'t>(types: impl IntoIterator<Item = &'t Type>) -> TokenStream {
    let checks: TokenStream = types.into_iter().map(checks_of).collect();
    if checks.is_empty() {
        return checks;
    }
    quote::quote! {{
        use ::dynamap::__private::{FormChosen as _, FormRefused as _};
        #checks
    }}
}

fn checks_of(ty: &Type) -> TokenStream {
    recognized(ty)
        .into_iter()
        .map(|(inner, needs)| {
            // At the type, so the error points at it (not at the derive).
            let span = super::keys::type_span(inner);
            let method = match needs {
                Needs::Time => "needs_time_feature",
                Needs::Uuid => "needs_uuid_feature",
                Needs::ChosenForm => "needs_chosen_form",
            };
            let method = proc_macro2::Ident::new(method, span);
            quote_spanned! {span=>
                (&::dynamap::__private::FormProbe::<#inner>::NEW).#method();
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(ty: &str) -> Vec<Needs> {
        let ty: Type = syn::parse_str(ty).expect("a type");
        recognized(&ty)
            .into_iter()
            .map(|(_, needs)| needs)
            .collect()
    }

    #[test]
    fn recognizes_types_by_path_inside_containers() {
        use Needs::{ChosenForm, Time, Uuid};
        for (ty, expected) in [
            ("time::OffsetDateTime", vec![Time]),
            ("::time::Date", vec![Time]),
            ("Option<time::Duration>", vec![Time]),
            ("OffsetDateTime", vec![Time]),
            ("Vec<uuid::Uuid>", vec![Uuid]),
            ("HashMap<String, Uuid>", vec![Uuid]),
            ("chrono::DateTime<chrono::Utc>", vec![ChosenForm]),
            ("DateTime<Utc>", vec![ChosenForm]),
            ("Option<NaiveDateTime>", vec![ChosenForm]),
            ("rust_decimal::Decimal", vec![ChosenForm]),
            ("Decimal", vec![ChosenForm]),
            ("url::Url", vec![ChosenForm]),
            ("(Url, [NaiveDate; 2])", vec![ChosenForm, ChosenForm]),
            ("sqlx::types::chrono::NaiveDate", vec![ChosenForm]),
        ] {
            assert_eq!(found(ty), expected, "{ty}");
        }
        for ty in [
            "Date",
            "Duration",
            "std::time::Duration",
            "SystemTime",
            "DateTime",
            "my::Decimal",
            "String",
            "Vec<u8>",
            "mytime::OffsetDateTime",
        ] {
            assert_eq!(found(ty), [], "{ty}");
        }
    }
}
