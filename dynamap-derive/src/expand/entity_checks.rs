//! Compile-time checks the `Entity` derive emits: constants whose evaluation panics, at the
//! attribute concerned, when the entity does not fit its table, and trait assertions on
//! field types.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::entity::{fields_of, part_type, schema};
use crate::check::{EntityModel, FieldModel, IndexKey};

/// Checks, at compile time, that the entity fits its table's layout. Each check panics at
/// the attribute it is about, so the const-evaluation error points there.
pub(super) fn layout_checks(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let table = model
        .table
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let has_sk = model.sk.is_some();
    let sk_check = match &model.sk {
        Some(sk) => panic_at(
            sk.source.span(),
            format!("entity `{entity}` has an `sk` template, but table `{table}` has no sort key"),
        ),
        None => panic_at(
            model.table.span(),
            format!(
                "entity `{entity}` needs an `sk` template, because table `{table}` has a sort key"
            ),
        ),
    };
    let fields = model.fields.iter().filter(|f| !f.skip && !is_field_key(model, f)).map(|f| {
        let attribute = &f.attribute;
        let reserved = panic_at(
            f.attribute_span,
            format!(
                "entity `{entity}`: field `{}` is stored as attribute `{attribute}`, which table `{table}` uses for keys or the entity type; rename it with #[dynamap(rename = \"...\")]",
                f.ident
            ),
        );
        quote!(if #schema.is_reserved_attribute(#attribute) { #reserved })
    });
    let indexes = model.indexes.iter().map(|index| {
        let name = &index.name;
        let missing = panic_at(
            name.span(),
            format!("entity `{entity}`: table `{table}` has no index {:?}", name.value()),
        );
        let has_sk = index.sk.is_some();
        let sk_check = match &index.sk {
            Some(sk) => panic_at(
                match sk {
                    IndexKey::Template(t) => t.source.span(),
                    IndexKey::Field(k) => k.path.span(),
                },
                format!("entity `{entity}`: index {:?} of table `{table}` has no sort key, so the index cannot have an `sk` template", name.value()),
            ),
            None => panic_at(
                name.span(),
                format!("entity `{entity}`: index {:?} of table `{table}` has a sort key, so the index needs an `sk` template", name.value()),
            ),
        };
        let key_types = [("pk", Some(&index.pk)), ("sk", index.sk.as_ref())]
            .into_iter()
            .filter_map(|(part, key)| Some(key_type_check(model, &name.value(), part, key?)));
        quote! {
            match #schema.index(#name) {
                ::core::option::Option::None => #missing,
                ::core::option::Option::Some(index) => {
                    if index.sk.is_some() != #has_sk { #sk_check }
                    #(#key_types)*
                }
            }
        }
    });
    let field_storage = model
        .fields
        .iter()
        .map(|f| field_storage_checks(model, f, &table));
    quote! {
        const _: () = {
            if #schema.sk.is_some() != #has_sk { #sk_check }
            #(#fields)*
            #(#indexes)*
        };
        #(#field_storage)*
    }
}

/// True for a field mapped to an index key with `field(...)` or `fields(...)`: it is stored
/// under the index's key attribute on purpose.
fn is_field_key(model: &EntityModel<'_>, field: &FieldModel<'_>) -> bool {
    model.indexes.iter().any(|index| {
        std::iter::once(&index.pk)
            .chain(index.sk.as_ref())
            .any(|key| matches!(key, IndexKey::Field(k) if k.fields.contains(field.ident)))
    })
}

/// An index key's declared type fits what the entity stores there: a template renders a
/// string into a single-attribute key; `field(x)` / `fields(x, y)` store each field under
/// the key attribute's own name, as its own type, one field per attribute.
/// Evaluated inside a `match` binding the table's `index`.
fn key_type_check(model: &EntityModel<'_>, index: &str, part: &str, key: &IndexKey) -> TokenStream {
    let entity = &model.entity_name;
    let (len, at) = match part {
        "pk" => (quote!(index.pk_len()), quote!(pk_at)),
        _ => (quote!(index.sk_len()), quote!(sk_at)),
    };
    let (given, span) = match key {
        IndexKey::Template(template) => (1usize, template.source.span()),
        IndexKey::Field(key) => (key.fields.len(), key.path.span()),
    };
    let wrong_count = panic_at(
        span,
        format!(
            "entity `{entity}`: the {part} of index {index:?} is not made of {given} attribute{}; list one field per key attribute, in key order, with `{part} = fields(...)`",
            if given == 1 { "" } else { "s" }
        ),
    );
    let count_check = quote!(if #len != #given { #wrong_count });
    match key {
        IndexKey::Template(template) => {
            let message = panic_at(
                template.source.span(),
                format!(
                    "entity `{entity}`: the {part} of index {index:?} is not a string attribute, so a template cannot fill it; map it to a field with `{part} = field(...)`"
                ),
            );
            quote! {
                #count_check
                if !index.#at(0).1.is(::dynamap::__private::ScalarType::String) { #message }
            }
        }
        IndexKey::Field(key) => {
            let fields = key.fields.iter().enumerate().filter_map(|(i, name)| {
                let field = model.field(&name.to_string())?;
                let field_attribute = &field.attribute;
                let ty = super::entity::part_type(field);
                let wrong_name = panic_at(
                    name.span(),
                    format!(
                        "entity `{entity}`: field `{name}` is stored as attribute `{field_attribute}`, but it is mapped to {} of index {index:?}, whose attribute has another name; rename the field with #[dynamap(rename = \"...\")] to the index's attribute",
                        ordinal(part, i, key.fields.len())
                    ),
                );
                let wrong_type = panic_at(
                    name.span(),
                    format!(
                        "entity `{entity}`: field `{name}` does not have the type {} of index {index:?} is declared with (`pk_type`/`sk_type` on the table)",
                        ordinal(part, i, key.fields.len())
                    ),
                );
                let ty_span = Span::call_site().located_at(ty.span());
                let kind_of_field =
                    quote_spanned!(ty_span=> <#ty as ::dynamap::__private::KeyAttribute>::TYPE);
                Some(quote! {
                    if !::dynamap::__private::str_eq(index.#at(#i).0, #field_attribute) { #wrong_name }
                    if !index.#at(#i).1.is(#kind_of_field) { #wrong_type }
                })
            });
            quote! {
                #count_check
                #(#fields)*
            }
        }
    }
}

/// "the sk attribute", or "attribute 2 of the sk" in a multi-attribute key.
fn ordinal(part: &str, i: usize, of: usize) -> String {
    if of == 1 {
        format!("the {part} attribute")
    } else {
        format!("attribute {} of the {part}", i + 1)
    }
}

/// A compressed field's codec is compiled in; a TTL field is a timestamp, stored in the
/// table's TTL attribute.
fn field_storage_checks(
    model: &EntityModel<'_>,
    field: &FieldModel<'_>,
    table: &str,
) -> TokenStream {
    if let Some(compressed) = &field.compressed {
        return compressed.check.clone();
    }
    if !field.ttl {
        return TokenStream::new();
    }
    let schema = schema(model);
    let entity = &model.entity_name;
    let attribute = &field.attribute;
    let ty = part_type(field);
    let no_ttl = panic_at(
        field.ident.span(),
        format!(
            "entity `{entity}`: field `{}` is a TTL field, but table `{table}` declares no TTL attribute; add `ttl = \"{attribute}\"` to the table's #[dynamap(...)]",
            field.ident
        ),
    );
    let other = panic_at(
        field.attribute_span,
        format!(
            "entity `{entity}`: TTL field `{}` is stored as attribute `{attribute}`, but the TTL attribute of table `{table}` is another; name the field after it or use #[dynamap(rename = \"...\")]",
            field.ident
        ),
    );
    quote! {
        const _: () = {
            ::dynamap::__private::assert_ttl_timestamp::<#ty>();
            match #schema.ttl {
                ::core::option::Option::None => #no_ttl,
                ::core::option::Option::Some(ttl) => if !::dynamap::__private::str_eq(ttl, #attribute) { #other },
            }
        };
    }
}

/// A compile-time panic reported at `span`. The message is an argument, not the format
/// string, so braces in user-given names are printed as they are.
fn panic_at(span: Span, message: String) -> TokenStream {
    let span = Span::call_site().located_at(span);
    quote_spanned!(span=> ::core::panic!("{}", #message))
}

/// Every hole's type must be a key part; the error points at the field's type.
pub(super) fn key_part_assertions(model: &EntityModel<'_>) -> TokenStream {
    let templates = std::iter::once(&model.pk)
        .chain(model.sk.as_ref())
        .chain(model.indexes.iter().flat_map(|i| i.templates()));
    let asserts = fields_of(model, templates).into_iter().map(|field| {
        let ty = part_type(field);
        quote_spanned!(ty.span()=> ::dynamap::__private::assert_key_part::<#ty>();)
    });
    quote!(const _: () = { #(#asserts)* };)
}
