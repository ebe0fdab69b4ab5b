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
        let projection = match (&index.projection, &index.include) {
            (_, Some(include)) => quote!(::dynamap::__private::Projection::Include(&[#(#include),*])),
            (Some(p), None) if p.value() == "keys_only" => quote!(::dynamap::__private::Projection::KeysOnly),
            _ => quote!(::dynamap::__private::Projection::All),
        };
        quote!(::dynamap::__private::IndexSchema { name: #name, pk: #pk, sk: #sk, projection: #projection })
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
    if let Some(projection) = &index.projection {
        match projection.value().as_str() {
            "all" | "keys_only" if index.include.is_none() => {}
            "all" | "keys_only" => cx.error_at(projection, "`include(...)` already sets the projection"),
            _ => cx.error_at(projection, "projection is \"all\" or \"keys_only\"; list attributes with `include(\"a\", \"b\")`"),
        }
    }
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
