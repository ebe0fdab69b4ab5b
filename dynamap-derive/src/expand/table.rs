//! `#[derive(Table)]`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, LitStr};

use crate::attr::{TableAttrs, TableIndex};
use crate::ctx::Ctxt;

pub(crate) fn expand_table(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let attrs = TableAttrs::parse(&mut cx, &input.attrs);
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(Table)]` does not support generic types",
        );
    }
    if attrs.pk.is_none() && !attrs.given.contains("pk") {
        cx.error_at(
            &input.ident,
            "table needs a partition key attribute: add `#[dynamap(pk = \"PK\")]`",
        );
    }
    for lit in [&attrs.pk, &attrs.sk, &attrs.entity_type, &attrs.ttl]
        .into_iter()
        .flatten()
    {
        check_name(&mut cx, lit);
    }
    check_table_key_types(&mut cx, &attrs);
    check_local_indexes(&mut cx, &attrs);
    let mut index_names = BTreeSet::new();
    for index in &attrs.indexes {
        check_index(&mut cx, index);
        if let Some(name) = &index.name
            && !index_names.insert(name.value())
        {
            cx.error_at(name, format!("duplicate index name {:?}", name.value()));
        }
    }
    check_key_types(&mut cx, &attrs);
    if cx.has_errors() {
        return cx.into_compile_errors();
    }

    let ident = &input.ident;
    let type_name = ident.to_string();
    let pk = &attrs.pk;
    let sk = option(attrs.sk.as_ref());
    let entity_type = attrs
        .entity_type
        .as_ref()
        .map_or_else(|| quote!("_type"), |lit| quote!(#lit));
    let ttl = option(attrs.ttl.as_ref());
    let indexes = attrs.indexes.iter().map(|index| {
        let name = &index.name;
        let local = index.local;
        // A local index's partition key is the table's own.
        let table_pk = index.local.then(|| {
            vec![
                attrs
                    .pk
                    .clone()
                    .unwrap_or_else(|| LitStr::new("", proc_macro2::Span::call_site())),
            ]
        });
        let table_pk_type = index
            .local
            .then(|| attrs.pk_type.clone().map(|kind| vec![kind]))
            .flatten();
        let pk = key_attributes(
            table_pk.as_ref().or(index.pk.as_ref()),
            table_pk_type.as_ref().or(index.pk_type.as_ref()),
        );
        let sk = key_attributes(index.sk.as_ref(), index.sk_type.as_ref());
        let (pk_first, pk_type) = match pk.first() {
            Some((name, kind)) => (quote!(#name), kind.clone()),
            None => (quote!(""), quote!(::dynamap::__private::ScalarType::String)),
        };
        let (sk_first, sk_type) = match sk.first() {
            Some((name, kind)) => (quote!(::core::option::Option::Some(#name)), kind.clone()),
            None => (
                quote!(::core::option::Option::None),
                quote!(::dynamap::__private::ScalarType::String),
            ),
        };
        let more = |attributes: &[(LitStr, TokenStream)]| {
            let more = attributes.iter().skip(1).map(|(name, kind)| {
                quote!(::dynamap::__private::key_attribute_schema(#name, #kind))
            });
            quote!(&[#(#more),*])
        };
        let (pk_more, sk_more) = (more(&pk), more(&sk));
        let projection = match (&index.projection, &index.include) {
            (_, Some(include)) => {
                quote!(::dynamap::__private::Projection::Include(&[#(#include),*]))
            }
            (Some(p), None) if p.value() == "keys_only" => {
                quote!(::dynamap::__private::Projection::KeysOnly)
            }
            _ => quote!(::dynamap::__private::Projection::All),
        };
        quote!(::dynamap::__private::index_schema(
            #name, #pk_first, #sk_first, #pk_type, #sk_type, #pk_more, #sk_more, #projection, #local,
        ))
    });
    let table_type = |kind: Option<&LitStr>| {
        let variant = kind
            .and_then(|kind| parse_scalar_type(&kind.value()))
            .unwrap_or("String");
        let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
        quote!(::dynamap::__private::ScalarType::#variant)
    };
    let (pk_type, sk_type) = (
        table_type(attrs.pk_type.as_ref()),
        table_type(attrs.sk_type.as_ref()),
    );
    let key_format = attrs.key_format.as_ref().map(|format| {
        let format = format.apply(quote!(::dynamap::__private::KeyFormat::ESCAPED));
        quote!(const KEY_FORMAT: ::dynamap::__private::KeyFormat = #format;)
    });
    quote! {
        const _: () = {
            impl ::dynamap::__private::Table for #ident {
                const SCHEMA: ::dynamap::__private::TableSchema = ::dynamap::__private::table_schema(
                    #type_name, #pk, #sk, #pk_type, #sk_type, #entity_type, #ttl, &[#(#indexes),*],
                );
                #key_format
            }
        };
    }
}

/// The table's own key types: `S`, `N` or `B`, and a sort key type only with a sort key.
fn check_table_key_types(cx: &mut Ctxt, attrs: &TableAttrs) {
    for kind in [&attrs.pk_type, &attrs.sk_type].into_iter().flatten() {
        if parse_scalar_type(&kind.value()).is_none() {
            cx.error_at(
                kind,
                "a key attribute's type is \"S\" (string), \"N\" (number) or \"B\" (binary)",
            );
        }
    }
    if let (None, Some(kind)) = (&attrs.sk, &attrs.sk_type) {
        cx.error_at(kind, "`sk_type` needs a sort key attribute: `sk = \"SK\"`");
    }
}

/// Local indexes share the table's partition key: the table needs a sort key (DynamoDB
/// allows them only on such tables), each gives one sort key attribute and no `pk`, and a
/// table has at most five.
fn check_local_indexes(cx: &mut Ctxt, attrs: &TableAttrs) {
    let locals: Vec<_> = attrs.indexes.iter().filter(|i| i.local).collect();
    for index in &locals {
        if attrs.sk.is_none() {
            cx.error_at(
                &index.path,
                "a local index needs a table with a sort key: add `sk = \"SK\"` to the table",
            );
        }
        if let Some(pk) = index.pk.iter().flatten().next() {
            cx.error_at(
                pk,
                "a local index's partition key is the table's own: give only `sk`",
            );
        }
        match &index.sk {
            None if !index.given.contains("sk") => cx.error_at(
                &index.path,
                "local_index needs a sort key attribute: `sk = \"LSI1SK\"`",
            ),
            Some(names) if names.len() > 1 => {
                cx.error_at(&names[1], "a local index's sort key is one attribute")
            }
            _ => {}
        }
    }
    if let Some(extra) = locals.get(MAX_LOCAL_INDEXES) {
        cx.error_at(
            &extra.path,
            format!("a table has at most {MAX_LOCAL_INDEXES} local indexes"),
        );
    }
}

/// DynamoDB's limit of local secondary indexes per table.
const MAX_LOCAL_INDEXES: usize = 5;

fn check_index(cx: &mut Ctxt, index: &TableIndex) {
    match &index.name {
        None if index.given.contains("name") => {}
        None => cx.error_at(
            &index.path,
            "index needs a name: `index(name = \"GSI1\", pk = \"GSI1PK\")`",
        ),
        Some(name) => check_name(cx, name),
    }
    for (key, types, example) in [
        (&index.pk, &index.pk_type, "pk = \"GSI1PK\""),
        (&index.sk, &index.sk_type, "sk = \"GSI1SK\""),
    ] {
        let part = &example[..2];
        match key {
            None if part == "pk" && !index.local && !index.given.contains("pk") => cx.error_at(
                &index.path,
                "index needs a partition key attribute: `pk = \"GSI1PK\"`",
            ),
            None => {}
            Some(names) if names.is_empty() || names.len() > MAX_KEY_ATTRIBUTES => {
                let message = format!(
                    "an index's {part} is one attribute (`{example}`) or a list of up to {MAX_KEY_ATTRIBUTES} (`{part}(\"a\", \"b\")`), not {}",
                    names.len()
                );
                match names.get(MAX_KEY_ATTRIBUTES) {
                    Some(extra) => cx.error_at(extra, message),
                    None => cx.error_at(&index.path, message),
                }
            }
            Some(names) => names.iter().for_each(|name| check_name(cx, name)),
        }
        let Some(types) = types else { continue };
        for kind in types {
            if parse_scalar_type(&kind.value()).is_none() {
                cx.error_at(
                    kind,
                    "a key attribute's type is \"S\" (string), \"N\" (number) or \"B\" (binary)",
                );
            }
        }
        match (key, types.first()) {
            (None, Some(kind)) => cx.error_at(
                kind,
                format!("`{part}_type` needs a key attribute: `{example}`"),
            ),
            (Some(names), Some(kind)) if names.len() != types.len() => cx.error_at(
                kind,
                format!(
                    "`{part}_type` gives {} type{} for {} attributes: one type per attribute, in the same order",
                    types.len(),
                    if types.len() == 1 { "" } else { "s" },
                    names.len()
                ),
            ),
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    for name in index.pk.iter().chain(&index.sk).flatten() {
        if !seen.insert(name.value()) {
            cx.error_at(
                name,
                format!(
                    "attribute {:?} appears twice in this index's key",
                    name.value()
                ),
            );
        }
    }
    if let Some(projection) = &index.projection {
        match projection.value().as_str() {
            "all" | "keys_only" if index.include.is_none() => {}
            "all" | "keys_only" => cx.error_at(projection, "`include(...)` already sets the projection"),
            _ => cx.error_at(projection, "projection is \"all\" or \"keys_only\"; list attributes with `include(\"a\", \"b\")`"),
        }
    }
}

/// One attribute cannot be a string key in one place and a number key in another.
fn check_key_types(cx: &mut Ctxt, attrs: &TableAttrs) {
    let mut types: Vec<(String, &'static str)> = Vec::new();
    let table_keys = [(&attrs.pk, &attrs.pk_type), (&attrs.sk, &attrs.sk_type)];
    for (name, kind) in table_keys {
        let Some(name) = name else { continue };
        let kind = kind
            .as_ref()
            .and_then(|kind| parse_scalar_type(&kind.value()))
            .unwrap_or("String");
        types.push((name.value(), kind));
    }
    for index in &attrs.indexes {
        let pk = key_types(index.pk.as_ref(), index.pk_type.as_ref());
        let sk = key_types(index.sk.as_ref(), index.sk_type.as_ref());
        for (name, kind) in pk.into_iter().chain(sk) {
            match types.iter().find(|(n, _)| *n == name.value()) {
                Some((_, declared)) if *declared != kind => cx.error_at(
                    name,
                    format!(
                        "attribute {:?} is already a key of another type ({declared}); one attribute has one type",
                        name.value()
                    ),
                ),
                Some(_) => {}
                None => types.push((name.value(), kind)),
            }
        }
    }
}

/// Each key attribute with the variant name of its declared type (`String` by default).
fn key_types<'a>(
    names: Option<&'a Vec<LitStr>>,
    types: Option<&'a Vec<LitStr>>,
) -> Vec<(&'a LitStr, &'static str)> {
    let types = types.map(Vec::as_slice).unwrap_or_default();
    names
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, name)| {
            let kind = types
                .get(i)
                .and_then(|k| parse_scalar_type(&k.value()))
                .unwrap_or("String");
            (name, kind)
        })
        .collect()
}

/// Each key attribute with its `ScalarType` tokens.
fn key_attributes(
    names: Option<&Vec<LitStr>>,
    types: Option<&Vec<LitStr>>,
) -> Vec<(LitStr, TokenStream)> {
    key_types(names, types)
        .into_iter()
        .map(|(name, kind)| {
            let variant = syn::Ident::new(kind, proc_macro2::Span::call_site());
            (
                name.clone(),
                quote!(::dynamap::__private::ScalarType::#variant),
            )
        })
        .collect()
}

/// `S`/`string`, `N`/`number`, `B`/`binary` to the variant of `ScalarType`.
fn parse_scalar_type(text: &str) -> Option<&'static str> {
    match text {
        "S" | "string" => Some("String"),
        "N" | "number" => Some("Number"),
        "B" | "binary" => Some("Binary"),
        _ => None,
    }
}

/// At most four attributes make one multi-attribute key, as in DynamoDB.
const MAX_KEY_ATTRIBUTES: usize = 4;

fn check_name(cx: &mut Ctxt, lit: &LitStr) {
    if lit.value().is_empty() {
        cx.error_at(lit, "attribute and index names cannot be empty");
    }
}

fn option(lit: Option<&LitStr>) -> TokenStream {
    match lit {
        Some(lit) => quote!(::core::option::Option::Some(#lit)),
        None => quote!(::core::option::Option::None),
    }
}
