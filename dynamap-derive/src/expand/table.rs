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
        let pk = &index.pk;
        let sk = option(index.sk.as_ref());
        let pk_type = scalar_type(index.pk_type.as_ref());
        let sk_type = scalar_type(index.sk_type.as_ref());
        let projection = match (&index.projection, &index.include) {
            (_, Some(include)) => quote!(::dynamap::__private::Projection::Include(&[#(#include),*])),
            (Some(p), None) if p.value() == "keys_only" => quote!(::dynamap::__private::Projection::KeysOnly),
            _ => quote!(::dynamap::__private::Projection::All),
        };
        quote!(::dynamap::__private::IndexSchema { name: #name, pk: #pk, sk: #sk, pk_type: #pk_type, sk_type: #sk_type, projection: #projection })
    });
    quote! {
        const _: () = {
            impl ::dynamap::__private::Table for #ident {
                const SCHEMA: ::dynamap::__private::TableSchema = ::dynamap::__private::TableSchema {
                    type_name: #type_name,
                    pk: #pk,
                    sk: #sk,
                    entity_type: #entity_type,
                    ttl: #ttl,
                    indexes: &[#(#indexes),*],
                };
            }
        };
    }
}

fn check_index(cx: &mut Ctxt, index: &TableIndex) {
    match &index.name {
        None if index.given.contains("name") => {}
        None => cx.error_at(
            &index.path,
            "index needs a name: `index(name = \"GSI1\", pk = \"GSI1PK\")`",
        ),
        Some(name) => check_name(cx, name),
    }
    match &index.pk {
        None if index.given.contains("pk") => {}
        None => cx.error_at(
            &index.path,
            "index needs a partition key attribute: `pk = \"GSI1PK\"`",
        ),
        Some(pk) => check_name(cx, pk),
    }
    if let Some(sk) = &index.sk {
        check_name(cx, sk);
    }
    for kind in [&index.pk_type, &index.sk_type].into_iter().flatten() {
        if parse_scalar_type(&kind.value()).is_none() {
            cx.error_at(
                kind,
                "a key attribute's type is \"S\" (string), \"N\" (number) or \"B\" (binary)",
            );
        }
    }
    if let (Some(kind), None) = (&index.sk_type, &index.sk) {
        cx.error_at(kind, "`sk_type` needs a sort key attribute: `sk = \"...\"`");
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
    let table_keys = [&attrs.pk, &attrs.sk].into_iter().flatten();
    for name in table_keys {
        types.push((name.value(), "String"));
    }
    for index in &attrs.indexes {
        let keys = [(&index.pk, &index.pk_type), (&index.sk, &index.sk_type)];
        for (name, kind) in keys {
            let Some(name) = name else { continue };
            let kind = kind
                .as_ref()
                .and_then(|k| parse_scalar_type(&k.value()))
                .unwrap_or("String");
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

/// `S`/`string`, `N`/`number`, `B`/`binary` to the variant of `ScalarType`.
fn parse_scalar_type(text: &str) -> Option<&'static str> {
    match text {
        "S" | "string" => Some("String"),
        "N" | "number" => Some("Number"),
        "B" | "binary" => Some("Binary"),
        _ => None,
    }
}

fn scalar_type(lit: Option<&LitStr>) -> TokenStream {
    let variant = lit
        .and_then(|lit| parse_scalar_type(&lit.value()))
        .unwrap_or("String");
    let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
    quote!(::dynamap::__private::ScalarType::#variant)
}

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
