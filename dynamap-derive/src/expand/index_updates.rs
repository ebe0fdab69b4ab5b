//! `derived_key_changes` as a description: each index key a constant template of
//! `Segment`s, each hole once in a table whose functions are generic over the hole's type
//! only, rendered by `dynamap::__private::index_updates`. It replaces the code rendering
//! every key inline (per entity and field) wherever every hole is a field converted by its
//! own type (no computed part, no `with` module, nothing compressed); other entities keep
//! the generated code of `key_changes`. The tables are items of the derive's own scope,
//! [`index_tables`], which `created_attributes` reads too (the index keys an update that
//! creates its item renders from the primary key alone).

use proc_macro2::TokenStream;
use quote::quote;

use super::keys::{key_part_check, type_span};
use super::render::{
    field_list, groups, is_key_field, key_fields, key_parts_pattern, part_type, schema, via_traits,
};
use super::sort_builder::sort_segments;
use crate::model::{EntityModel, FieldModel, Hole};
use crate::template::Template;

/// The names of `templates`' holes, each once, in order of first appearance.
fn hole_names<'t>(templates: impl Iterator<Item = &'t Template>) -> Vec<&'t str> {
    let mut out: Vec<&str> = Vec::new();
    for name in templates.flat_map(Template::holes) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// True when every hole of the entity's index templates is a field the library can read
/// and render by its type alone.
fn describable(model: &EntityModel<'_>) -> bool {
    let templates = model.indexes.iter().flat_map(|i| i.templates());
    hole_names(templates)
        .into_iter()
        .all(|name| match model.hole(name) {
            Some(Hole::Field(field)) => field.with.is_none() && field.compressed.is_none(),
            _ => false,
        })
}

/// True when the entity's index keys are rendered from [`index_tables`]: it has index
/// templates, and the library can describe them.
pub(super) fn described(model: &EntityModel<'_>) -> bool {
    model.indexes.iter().any(|i| i.templates().next().is_some()) && describable(model)
}

/// The tables of a [`described`] entity, as items of the derive's scope: the groups of
/// index keys rendered together, `__DYNAMAP_INDEX_UPDATES`, and the holes they name,
/// `__dynamap_update_holes()`; nothing for other entities.
pub(super) fn index_tables(model: &EntityModel<'_>) -> TokenStream {
    if !described(model) {
        return TokenStream::new();
    }
    let keys = key_fields(model);
    let mut names: Vec<&str> = Vec::new();
    let groups: Vec<TokenStream> = model
        .indexes
        .iter()
        .flat_map(|index| {
            groups(model, index)
                .into_iter()
                .map(move |group| (index, group))
        })
        .map(|(index, group)| {
            let name = index.name.value();
            let group_names = hole_names(group.iter().map(|(_, t)| *t));
            for hole in &group_names {
                if !names.contains(hole) {
                    names.push(hole);
                }
            }
            let fields: Vec<&FieldModel<'_>> =
                group_names.iter().filter_map(|n| model.field(n)).collect();
            let updatable: Vec<_> = fields
                .iter()
                .copied()
                .filter(|f| !is_key_field(model, f))
                .collect();
            let optional: Vec<_> = fields
                .iter()
                .copied()
                .filter(|f| f.option_inner.is_some())
                .collect();
            let (updatable, optional) = (field_list(&updatable), field_list(&optional));
            let key = match group.as_slice() {
                [(true, _)] => format!("index `{name}`'s partition key"),
                [(false, _)] => format!("index `{name}`'s sort key"),
                _ => format!("index `{name}`'s keys"),
            };
            let templates = group
                .iter()
                .map(|(_, t)| t.text())
                .collect::<Vec<_>>()
                .join(" / ");
            let template = |pk: bool| match group.iter().find(|(is_pk, _)| *is_pk == pk) {
                Some((_, template)) => {
                    let segments = sort_segments(model, template);
                    quote!(::core::option::Option::Some(&[#(#segments),*]))
                }
                None => quote!(::core::option::Option::None),
            };
            let (pk, sk) = (template(true), template(false));
            quote! {
                ::dynamap::__private::IndexUpdate {
                    index: #name,
                    key: #key,
                    templates: #templates,
                    fields: #updatable,
                    optional: #optional,
                    holes: &[#(#group_names),*],
                    pk: #pk,
                    sk: #sk,
                }
            }
        })
        .collect();
    let holes: Vec<TokenStream> = names.iter().filter_map(|name| {
        let field = model.field(name)?;
        let attribute = &field.attribute;
        let ty = part_type(field);
        let check = key_part_check(ty);
        let span = type_span(ty);
        let (key_part, read) = match keys.iter().position(|k| k.ident == field.ident) {
            Some(i) => (quote!(::core::option::Option::Some(#i)), quote!(::dynamap::__private::read_nothing)),
            None => {
                let via = via_traits();
                let decode = quote::quote_spanned!(span=> (&::dynamap::__private::Via::<#ty>::NEW).decode(value));
                let read = quote! {
                    |values, entity, attribute| ::dynamap::__private::read_hole::<#ty>(values, entity, attribute, |value| {
                        #via
                        #decode
                    })
                };
                (quote!(::core::option::Option::None), read)
            }
        };
        let write = quote::quote_spanned!(span=> ::dynamap::__private::Hole::<#ty>::NEW.update_writer());
        Some(quote! {
            ::dynamap::__private::UpdateHole {
                name: #name,
                attribute: #attribute,
                key_part: #key_part,
                read: #read,
                write: { #check use ::dynamap::__private::HoleStandIn as _; #write },
            }
        })
    }).collect();
    let count = holes.len();
    quote! {
        const __DYNAMAP_INDEX_UPDATES: &[::dynamap::__private::IndexUpdate] = &[#(#groups),*];
        fn __dynamap_update_holes() -> [::dynamap::__private::UpdateHole; #count] {
            [#(#holes),*]
        }
    }
}

/// `derived_key_changes` through the library and [`index_tables`], or `None` for an
/// entity that is not [`described`].
pub(super) fn derived_key_changes(model: &EntityModel<'_>) -> Option<TokenStream> {
    if !described(model) {
        return None;
    }
    let entity = &model.entity_name;
    let keys = key_fields(model);
    let names = hole_names(model.indexes.iter().flat_map(|i| i.templates()));
    // The primary key's fields, boxed in `Entity::KeyParts` order.
    let var = |i: usize| quote::format_ident!("__dynamap_k_{}", i);
    let vars: Vec<_> = (0..keys.len()).map(var).collect();
    let pattern = key_parts_pattern(model, |f| {
        let var = var(keys.iter().position(|k| k.ident == f.ident)?);
        Some(quote!(#var))
    });
    let parse = if keys.iter().any(|k| {
        names
            .iter()
            .any(|n| model.field(n).is_some_and(|f| f.ident == k.ident))
    }) {
        quote! {
            let #pattern = <Self as ::dynamap::__private::Entity>::parse_key(__dynamap_key.0, __dynamap_key.1)?;
            ::core::result::Result::Ok(::dynamap::__private::Vec::from([#(::dynamap::__private::Box::new(#vars) as ::dynamap::__private::HoleValue),*]))
        }
    } else {
        quote!(::core::result::Result::Ok(::dynamap::__private::Vec::new()))
    };
    let schema = schema(model);
    Some(quote! {
        fn derived_key_changes(
            __dynamap_values: &::dynamap::__private::UpdatedValues<'_>,
            __dynamap_key: (&str, ::core::option::Option<&str>),
        ) -> ::dynamap::__private::Result<::dynamap::__private::Vec<::dynamap::__private::DerivedChange>> {
            let __dynamap_holes = __dynamap_update_holes();
            let mut __dynamap_changes = ::dynamap::__private::Vec::new();
            let mut __dynamap_gaps = ::dynamap::__private::Vec::new();
            ::dynamap::__private::index_updates(
                #entity,
                &#schema,
                __dynamap_values,
                &__dynamap_holes,
                __DYNAMAP_INDEX_UPDATES,
                &mut || { #parse },
                &mut __dynamap_changes,
                &mut __dynamap_gaps,
            )?;
            ::dynamap::__private::UpdatedValues::incomplete(#entity, __dynamap_gaps)?;
            ::core::result::Result::Ok(__dynamap_changes)
        }
    })
}
