//! Compile-time checks the `Entity` derive emits: constants whose evaluation panics, at the
//! attribute concerned, when the entity does not fit its table, and trait assertions on
//! field types.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::entity::{fields_of, part_type, schema};
use crate::check::{EntityModel, FieldModel};

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
    let fields = model.fields.iter().filter(|f| !f.skip).map(|f| {
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
                sk.source.span(),
                format!("entity `{entity}`: index {:?} of table `{table}` has no sort key, so the index cannot have an `sk` template", name.value()),
            ),
            None => panic_at(
                name.span(),
                format!("entity `{entity}`: index {:?} of table `{table}` has a sort key, so the index needs an `sk` template", name.value()),
            ),
        };
        quote! {
            match #schema.index(#name) {
                ::core::option::Option::None => #missing,
                ::core::option::Option::Some(index) => if index.sk.is_some() != #has_sk { #sk_check },
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
    let templates = std::iter::once(&model.pk).chain(model.sk.as_ref()).chain(
        model
            .indexes
            .iter()
            .flat_map(|i| std::iter::once(&i.pk).chain(i.sk.as_ref())),
    );
    let asserts = fields_of(model, templates).into_iter().map(|field| {
        let ty = part_type(field);
        quote_spanned!(ty.span()=> ::dynamap::__private::assert_key_part::<#ty>();)
    });
    quote!(const _: () = { #(#asserts)* };)
}
