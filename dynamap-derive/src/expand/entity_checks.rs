//! Compile-time checks the `Entity` derive emits: trait bounds that hold only when the
//! entity fits its table's layout (see `dynamap::__private::layout`), each reported at the
//! attribute concerned with a message saying what to change; and trait assertions on field
//! types.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::keys::key_part_check;
use super::render::{hole_type, holes_of, part_type, schema};
use crate::model::{EntityModel, FieldModel, IndexKey};

/// Checks, at compile time, that the entity fits its table's layout.
pub(super) fn layout_checks(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let table_sk = match &model.sk {
        Some(sk) => require(
            model,
            key_span(sk),
            "TableSortKeyAllowed",
            quote!(#schema.sk.is_some()),
        ),
        None => require(
            model,
            model.table.span(),
            "TableSortKeyRequired",
            quote!(#schema.sk.is_none()),
        ),
    };
    let primary = primary_key_checks(model);
    let fields = model
        .fields
        .iter()
        .filter(|f| !f.skip && !is_field_key(model, f))
        .map(|f| {
            let attribute = &f.attribute;
            // One check per name, so that a mistake is one error saying what to change.
            let reserved = require(
                model,
                f.attribute_span,
                "AttributeFreeForFields",
                quote!(
                    !#schema.is_reserved_attribute(#attribute)
                        || #schema.is_multi_attribute_key(#attribute)
                ),
            );
            let index_key = unmapped_index_key(model, f);
            quote!(#reserved #index_key)
        });
    let indexes = model.indexes.iter().map(|index| {
        let name = &index.name;
        let exists = require(
            model,
            name.span(),
            "IndexOfTable",
            quote!(::dynamap::__private::layout::has_index(&#schema, #name)),
        );
        let local = index.local;
        let kind = require(
            model,
            name.span(),
            if local {
                "IndexIsLocal"
            } else {
                "IndexIsGlobal"
            },
            quote!(::dynamap::__private::layout::index_is_local(&#schema, #name, #local)),
        );
        let has_sk = index.sk.is_some();
        let sk_fits =
            quote!(::dynamap::__private::layout::index_sort_key_fits(&#schema, #name, #has_sk));
        let sk_check = match &index.sk {
            Some(sk) => require(model, key_span(sk), "IndexSortKeyAllowed", sk_fits),
            None => require(model, name.span(), "IndexSortKeyRequired", sk_fits),
        };
        let key_types = [("pk", Some(&index.pk)), ("sk", index.sk.as_ref())]
            .into_iter()
            .filter_map(|(part, key)| Some(key_type_checks(model, name, part, key?)));
        quote! {
            #exists
            #kind
            #sk_check
            #(#key_types)*
        }
    });
    let field_storage = model.fields.iter().map(|f| field_storage_checks(model, f));
    let constants = model.constants.iter().map(|(name, _)| {
        require(
            model,
            name.span(),
            "AttributeFreeForConstants",
            quote!(!#schema.is_reserved_attribute(#name)),
        )
    });
    quote! {
        #table_sk
        #primary
        #(#constants)*
        #(#fields)*
        #(#indexes)*
        #(#field_storage)*
    }
}

/// A field stored under a key attribute of a multi-attribute index the entity does not map:
/// a constant panicking, at the field, with a message naming the index, its table and the
/// fix (`dynamap::__private::layout::unmapped_index_key`), which a trait's message could not.
fn unmapped_index_key(model: &EntityModel<'_>, field: &FieldModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let name = field.ident.to_string();
    let name = name.trim_start_matches("r#");
    let attribute = &field.attribute;
    let span = Span::call_site().located_at(field.attribute_span);
    quote_spanned! {span=>
        const _: () = {
            let __dynamap_message = ::dynamap::__private::layout::unmapped_index_key(&#schema, #entity, #name, #attribute);
            if !__dynamap_message.is_empty() {
                ::core::panic!("{}", __dynamap_message.as_str());
            }
        };
    }
}

/// `const _: () = <Fits<{ condition }> as Check<Table>>::OK;`, spanned at `span`: a trait
/// error there, with the check's message, when the condition is false.
fn require(
    model: &EntityModel<'_>,
    span: Span,
    check: &str,
    condition: TokenStream,
) -> TokenStream {
    let table = &model.table;
    let check = format_ident!("{check}");
    let span = Span::call_site().located_at(span);
    quote_spanned! {span=>
        const _: () = <::dynamap::__private::layout::Fits<{ #condition }>
            as ::dynamap::__private::layout::#check<#table>>::OK;
    }
}

fn key_span(key: &IndexKey) -> Span {
    match key {
        IndexKey::Template(t) => t.source.span(),
        IndexKey::Field(k) => k.path.span(),
    }
}

/// True for a field mapped to an index key with `field(...)` or `fields(...)`: it is stored
/// under the index's key attribute on purpose.
fn is_field_key(model: &EntityModel<'_>, field: &FieldModel<'_>) -> bool {
    let primary = std::iter::once(&model.pk).chain(model.sk.as_ref());
    let indexes = model
        .indexes
        .iter()
        .flat_map(|index| std::iter::once(&index.pk).chain(index.sk.as_ref()));
    primary
        .chain(indexes)
        .any(|key| matches!(key, IndexKey::Field(k) if k.fields.contains(field.ident)))
}

/// The table's key types fit the entity's primary key: a template renders a string; a
/// field mapped with `field(x)` is stored under the key attribute's name, as its type.
fn primary_key_checks(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let keys = [(true, Some(&model.pk)), (false, model.sk.as_ref())];
    let checks = keys.into_iter().filter_map(|(is_pk, key)| {
        let key = key?;
        let (name, kind) = if is_pk {
            (quote!(::core::option::Option::Some(#schema.pk)), quote!(#schema.pk_type))
        } else {
            (quote!(#schema.sk), quote!(#schema.sk_type))
        };
        Some(match key {
            IndexKey::Template(template) => require(
                model,
                template.source.span(),
                "TableKeyIsString",
                quote!(#kind.is(::dynamap::__private::ScalarType::String)),
            ),
            IndexKey::Field(key) => {
                let field = key.fields.first().and_then(|f| model.field(&f.to_string()))?;
                let attribute = &field.attribute;
                let ty = part_type(field);
                let ty_span = Span::call_site().located_at(ty.span());
                let field_kind =
                    quote_spanned!(ty_span=> <#ty as ::dynamap::__private::KeyAttribute>::TYPE);
                let name_check = require(
                    model,
                    field.attribute_span,
                    "TableKeyAttributeName",
                    quote!(match #name {
                        ::core::option::Option::Some(name) => ::dynamap::__private::str_eq(name, #attribute),
                        ::core::option::Option::None => true,
                    }),
                );
                let type_check = require(
                    model,
                    ty.span(),
                    "TableKeyAttributeType",
                    quote!(#field_kind.is(#kind)),
                );
                quote!(#name_check #type_check)
            }
        })
    });
    quote!(#(#checks)*)
}

/// An index key's declared type fits what the entity stores there: a template renders a
/// string into a single-attribute key; `field(x)` / `fields(x, y)` store each field under
/// the key attribute's own name, as its own type, one field per attribute.
fn key_type_checks(
    model: &EntityModel<'_>,
    index: &syn::LitStr,
    part: &str,
    key: &IndexKey,
) -> TokenStream {
    let schema = schema(model);
    let part_path = match part {
        "pk" => quote!(::dynamap::__private::layout::Part::Pk),
        _ => quote!(::dynamap::__private::layout::Part::Sk),
    };
    let given = match key {
        IndexKey::Template(_) => 1usize,
        IndexKey::Field(key) => key.fields.len(),
    };
    let arity = require(
        model,
        key_span(key),
        "IndexKeyArity",
        quote!(::dynamap::__private::layout::index_key_len_is(&#schema, #index, #part_path, #given)),
    );
    let attributes = match key {
        IndexKey::Template(template) => vec![require(
            model,
            template.source.span(),
            "IndexKeyIsString",
            quote!(::dynamap::__private::layout::index_key_is_string_at(&#schema, #index, #part_path, 0)),
        )],
        IndexKey::Field(key) => key
            .fields
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let field = model.field(&name.to_string())?;
                let field_attribute = &field.attribute;
                let ty = part_type(field);
                let ty_span = Span::call_site().located_at(ty.span());
                let kind_of_field =
                    quote_spanned!(ty_span=> <#ty as ::dynamap::__private::KeyAttribute>::TYPE);
                let name_check = require(
                    model,
                    name.span(),
                    "IndexKeyAttributeName",
                    quote!(::dynamap::__private::layout::index_key_name_is(&#schema, #index, #part_path, #i, #field_attribute)),
                );
                let type_check = require(
                    model,
                    name.span(),
                    "IndexKeyAttributeType",
                    quote!(::dynamap::__private::layout::index_key_type_is(&#schema, #index, #part_path, #i, #kind_of_field)),
                );
                Some(quote!(#name_check #type_check))
            })
            .collect(),
    };
    quote! {
        #arity
        #(#attributes)*
    }
}

/// A compressed field's codec is compiled in; a TTL field is a timestamp, stored in the
/// table's TTL attribute.
fn field_storage_checks(model: &EntityModel<'_>, field: &FieldModel<'_>) -> TokenStream {
    if let Some(compressed) = &field.compressed {
        return compressed.check.clone();
    }
    if !field.ttl {
        return TokenStream::new();
    }
    let schema = schema(model);
    let attribute = &field.attribute;
    let ty = part_type(field);
    let has_ttl = require(
        model,
        field.ident.span(),
        "TableHasTtl",
        quote!(#schema.ttl.is_some()),
    );
    let ttl_name = require(
        model,
        field.attribute_span,
        "TtlAttributeName",
        quote!(::dynamap::__private::layout::ttl_attribute_is(&#schema, #attribute)),
    );
    quote! {
        const _: () = ::dynamap::__private::assert_ttl_timestamp::<#ty>();
        #has_ttl
        #ttl_name
    }
}

/// Every hole's type must be a key part; the error points at the field's type, once per
/// field (the same check beside each hole's code is the same error, shown once).
pub(super) fn key_part_assertions(model: &EntityModel<'_>) -> TokenStream {
    let templates = model
        .primary_templates()
        .chain(model.indexes.iter().flat_map(|i| i.templates()))
        .chain(model.lookups.iter().flat_map(|l| l.templates()));
    let asserts = holes_of(model, templates)
        .into_iter()
        .map(|hole| key_part_check(hole_type(hole)));
    quote!(const _: () = { #(#asserts)* };)
}
