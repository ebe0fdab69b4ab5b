//! `#[derive(KeyPart)]`: string-like newtypes and fieldless enums as key parts.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::attr::VariantAttrs;
use crate::ctx::Ctxt;

pub(crate) fn expand_key_part(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(KeyPart)]` does not support generic types",
        );
    }
    let body = match &input.data {
        Data::Struct(data) => newtype(&mut cx, input, &data.fields),
        Data::Enum(data) => fieldless_enum(&mut cx, input, data),
        Data::Union(_) => {
            cx.error_at(
                &input.ident,
                "`#[derive(KeyPart)]` needs a newtype struct or a fieldless enum",
            );
            None
        }
    };
    // With a mistake reported, the impls are still emitted, with a body that never runs
    // (the build fails), so that the entities using the type report nothing more: the
    // mistake is one error, at its span.
    let body = body.filter(|_| !cx.has_errors()).unwrap_or_else(|| {
        quote! {
            fn write_key_part(&self, _: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
                ::core::unreachable!()
            }

            fn parse_key_part(_: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
                ::core::unreachable!()
            }
        }
    });
    let errors = cx.into_compile_errors();
    if !input.generics.params.is_empty() {
        return errors;
    }
    let ident = &input.ident;
    // A fieldless enum is also an attribute key (a string): its variant's name is what serde
    // stores, so the key value and the stored attribute agree.
    let attribute_key = matches!(input.data, Data::Enum(_)).then(|| quote! {
        impl ::dynamap::__private::KeyAttribute for #ident {
            const TYPE: ::dynamap::__private::ScalarType = ::dynamap::__private::ScalarType::String;

            fn to_key_value(&self) -> ::core::result::Result<::dynamap::__private::AttributeValue, ::dynamap::__private::KeyPartError> {
                let mut text = ::dynamap::__private::String::new();
                <Self as ::dynamap::__private::KeyPart>::write_key_part(self, &mut text)?;
                ::core::result::Result::Ok(::dynamap::__private::AttributeValue::S(text))
            }
        }
    });
    quote! {
        #errors
        const _: () = {
            impl ::dynamap::__private::KeyPart for #ident {
                #body
            }
            #attribute_key
        };
    }
}

/// `struct SensorId(String);` renders and parses as its one field.
fn newtype(cx: &mut Ctxt, input: &DeriveInput, fields: &Fields) -> Option<TokenStream> {
    let only = match fields {
        Fields::Unnamed(f) if f.unnamed.len() == 1 => f.unnamed.first(),
        Fields::Named(f) if f.named.len() == 1 => f.named.first(),
        _ => None,
    };
    let Some(field) = only else {
        cx.error_at(&input.ident, "`#[derive(KeyPart)]` on a struct needs exactly one field, like `struct SensorId(String);`");
        return None;
    };
    let ty = &field.ty;
    let (access, build) = match &field.ident {
        Some(name) => (quote!(self.#name), quote!(Self { #name: inner })),
        None => (quote!(self.0), quote!(Self(inner))),
    };
    Some(quote! {
        fn write_key_part(&self, out: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
            <#ty as ::dynamap::__private::KeyPart>::write_key_part(&#access, out)
        }

        fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
            let inner = <#ty as ::dynamap::__private::KeyPart>::parse_key_part(text)?;
            ::core::result::Result::Ok(#build)
        }

        // Written as the field is in every key format: lower-cased if it is text, its
        // numbers in the format's form.
        const TEXT: bool = <#ty as ::dynamap::__private::KeyPart>::TEXT;

        fn write_key_part_as(&self, out: &mut ::dynamap::__private::String, numbers: ::dynamap::__private::Numbers) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
            <#ty as ::dynamap::__private::KeyPart>::write_key_part_as(&#access, out, numbers)
        }

        fn parse_key_part_as(text: &str, numbers: ::dynamap::__private::Numbers) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
            let inner = <#ty as ::dynamap::__private::KeyPart>::parse_key_part_as(text, numbers)?;
            ::core::result::Result::Ok(#build)
        }
    })
}

/// `enum Kind { Gas, Humidity }` renders each variant as the name serde stores it under:
/// its own name, its `#[serde(rename = "...")]`, or the enum's `#[serde(rename_all = "...")]`.
/// The key and the stored attribute then always agree. `#[dynamap(rename = "...")]` on a
/// variant must name the same text (it changes nothing serde stores, so a different name
/// would make the key say one thing and the attribute another).
fn fieldless_enum(cx: &mut Ctxt, input: &DeriveInput, data: &syn::DataEnum) -> Option<TokenStream> {
    let rename_all = serde_names(&input.attrs).rename_all;
    let mut names = Vec::new();
    for variant in &data.variants {
        let attrs = VariantAttrs::parse(cx, &variant.attrs);
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_at(
                &variant.ident,
                "`#[derive(KeyPart)]` on an enum needs variants without fields",
            );
        }
        let stored = serde_names(&variant.attrs).rename.unwrap_or_else(|| {
            let ident = variant.ident.to_string();
            match &rename_all {
                Some(rule) => apply_rename_all(rule, &ident),
                None => ident,
            }
        });
        if let Some(lit) = &attrs.rename
            && lit.value() != stored
        {
            cx.error_at(
                lit,
                format!(
                    "key text {:?} differs from {stored:?}, the name serde stores this variant under, so the key and the attribute would disagree; name the variant once with #[serde(rename = {:?})], which the key uses too",
                    lit.value(),
                    lit.value()
                ),
            );
        }
        let name = stored;
        if name.is_empty() {
            cx.error_at(&variant.ident, "key part names cannot be empty");
        }
        if names.iter().any(|(_, n)| n == &name) {
            cx.error_at(
                &variant.ident,
                format!("two variants render as key part {name:?}"),
            );
        }
        names.push((&variant.ident, name));
    }
    if data.variants.is_empty() {
        return Some(quote! {
            fn write_key_part(&self, _: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
                match *self {}
            }
            fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
                ::core::result::Result::Err(::dynamap::__private::KeyPartError::Malformed { text: ::core::convert::From::from(text), expected: "no value (the enum has no variants)" })
            }
        });
    }
    let expected = format!(
        "one of {}",
        names
            .iter()
            .map(|(_, n)| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let writes = names
        .iter()
        .map(|(ident, name)| quote!(Self::#ident => #name));
    let reads = names
        .iter()
        .map(|(ident, name)| quote!(#name => ::core::result::Result::Ok(Self::#ident)));
    Some(quote! {
        fn write_key_part(&self, out: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
            out.push_str(match self { #(#writes,)* });
            ::core::result::Result::Ok(())
        }

        fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
            match text {
                #(#reads,)*
                _ => ::core::result::Result::Err(::dynamap::__private::KeyPartError::Malformed {
                    text: ::core::convert::From::from(text),
                    expected: #expected,
                }),
            }
        }
    })
}

/// The `rename` and `rename_all` of `#[serde(...)]` attributes; everything else is serde's.
#[derive(Default)]
struct SerdeNames {
    rename: Option<String>,
    rename_all: Option<String>,
}

fn serde_names(attrs: &[syn::Attribute]) -> SerdeNames {
    let mut out = SerdeNames::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // Malformed serde attributes are serde's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let slot = if meta.path.is_ident("rename") {
                Some(&mut out.rename)
            } else if meta.path.is_ident("rename_all") {
                Some(&mut out.rename_all)
            } else {
                None
            };
            if meta.input.peek(syn::Token![=]) {
                let value: syn::Expr = meta.value()?.parse()?;
                if let (
                    Some(slot),
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(lit),
                        ..
                    }),
                ) = (slot, value)
                {
                    *slot = Some(lit.value());
                }
            } else if meta.input.peek(syn::token::Paren) {
                // `rename(serialize = "..", deserialize = "..")`: the serialized name is stored.
                let mut serialized = None;
                meta.parse_nested_meta(|inner| {
                    let value: syn::LitStr = inner.value()?.parse()?;
                    if inner.path.is_ident("serialize") {
                        serialized = Some(value.value());
                    }
                    Ok(())
                })?;
                if let (Some(slot), Some(name)) = (slot, serialized) {
                    *slot = Some(name);
                }
            }
            Ok(())
        });
    }
    out
}

/// serde's `rename_all` rules, for a variant name in `PascalCase`.
pub(super) fn apply_rename_all(rule: &str, variant: &str) -> String {
    let words = pascal_words(variant);
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    match rule {
        "lowercase" => variant.to_lowercase(),
        "UPPERCASE" => variant.to_uppercase(),
        "camelCase" => {
            let mut out = String::new();
            for (i, word) in lower.iter().enumerate() {
                if i == 0 {
                    out.push_str(word);
                } else {
                    out.push_str(&capitalize(word));
                }
            }
            out
        }
        "snake_case" => lower.join("_"),
        "SCREAMING_SNAKE_CASE" => lower.join("_").to_uppercase(),
        "kebab-case" => lower.join("-"),
        "SCREAMING-KEBAB-CASE" => lower.join("-").to_uppercase(),
        _ => variant.to_owned(),
    }
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `CarbonDioxide` → `["Carbon", "Dioxide"]`, as serde splits it: before each uppercase letter.
fn pascal_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for ch in name.chars() {
        match words.last_mut() {
            Some(word) if !ch.is_uppercase() => word.push(ch),
            _ => words.push(ch.to_string()),
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::apply_rename_all;

    #[test]
    fn rename_all_follows_serde() {
        let cases = [
            ("lowercase", "carbondioxide"),
            ("UPPERCASE", "CARBONDIOXIDE"),
            ("camelCase", "carbonDioxide"),
            ("snake_case", "carbon_dioxide"),
            ("SCREAMING_SNAKE_CASE", "CARBON_DIOXIDE"),
            ("kebab-case", "carbon-dioxide"),
            ("SCREAMING-KEBAB-CASE", "CARBON-DIOXIDE"),
            ("PascalCase", "CarbonDioxide"),
        ];
        for (rule, expected) in cases {
            assert_eq!(apply_rename_all(rule, "CarbonDioxide"), expected, "{rule}");
        }
    }
}
