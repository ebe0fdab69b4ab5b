//! Generated decoding of a whole item: `from_item`, and `read_fields` (each field on its
//! own, for projections). Both move each attribute into its field's slot in one pass over
//! the item, keeping the key attributes aside, then read the primary-key fields whose
//! attributes are missing back from the key.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::decode::decode_field;
use super::render::{self, schema, via_traits};
use crate::model::{EntityModel, FieldModel, SchemaModel, Upgrade};

pub(super) fn from_item(model: &EntityModel<'_>) -> TokenStream {
    let prelude = prelude(model, |read| quote!(#read));
    let fields = model.fields.iter().enumerate().map(|(i, f)| {
        let ident = f.ident;
        let value = field_value(model, i, f);
        quote!(#ident: #value)
    });
    let schema = schema(model);
    let entity = &model.entity_name;
    let aliases = &model.aliases;
    // Checked on whole reads only: a projection does not fetch the constants.
    let constants = (!model.constants.is_empty()).then(|| {
        quote! {
            ::dynamap::__private::check_constants(
                &__dynamap_item,
                &#schema,
                #entity,
                &[#(#aliases),*],
                <Self as ::dynamap::__private::EntityGlue>::WRITE.constants,
            )?;
        }
    });
    quote! {
        fn from_item(__dynamap_item: ::dynamap::__private::Item) -> ::dynamap::__private::Result<Self> {
            #constants
            #prelude
            // A closure, so that a field's error can name the item by the key kept aside.
            let __dynamap_read = || -> ::dynamap::__private::Result<Self> {
                ::core::result::Result::Ok(Self { #(#fields,)* })
            };
            __dynamap_read().map_err(|err| {
                ::dynamap::__private::named_item(err, __dynamap_key_pk.as_ref(), __dynamap_key_sk.as_ref())
            })
        }
    }
}

/// `read_fields` of `EntityFields`: each field's `Result` on its own, so that a field the
/// item lacks fails only if a projection takes it. `fields` is the generated struct.
pub(super) fn read_fields(model: &EntityModel<'_>, fields: &Ident) -> TokenStream {
    let prelude = prelude(model, |read| quote!(#fields::whole(#read)));
    let values = model.fields.iter().enumerate().map(|(i, f)| {
        let (ident, ty) = (f.ident, f.ty);
        let value = field_value(model, i, f);
        // A closure, so the field's `?` and `return` end its own `Result` only.
        quote! {
            __dynamap_fields.#ident.value = (|| -> ::dynamap::__private::Result<#ty> {
                ::core::result::Result::Ok(#value)
            })();
        }
    });
    quote! {
        // `Ok(value?)` converts a field's error, or is a plain value, by field.
        #[allow(clippy::needless_question_mark)]
        fn read_fields(__dynamap_item: ::dynamap::__private::Item) -> ::dynamap::__private::Result<#fields> {
            #prelude
            let mut __dynamap_fields = <Self as ::dynamap::__private::EntityFields>::FIELDS;
            #(#values)*
            ::core::result::Result::Ok(__dynamap_fields)
        }
    }
}

/// Everything before the fields are read: the entity-type check, an older version's
/// upgrade (its value passed through `whole`), and the pass into slots, with key recovery.
fn prelude(model: &EntityModel<'_>, whole: impl Fn(TokenStream) -> TokenStream) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let via = via_traits();
    let stored: Vec<(usize, &FieldModel<'_>)> = model
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skip)
        .collect();
    let slots = stored.iter().map(|(i, _)| slot(*i));
    let arms = stored.iter().map(|(i, f)| {
        let (slot, attribute) = (slot(*i), &f.attribute);
        // A field mapped to a table key attribute (`field(x)`) is also the key kept aside,
        // which names the item in errors.
        let key = [(true, quote!(__dynamap_key_pk)), (false, quote!(__dynamap_key_sk))]
            .into_iter()
            .find(|(pk, _)| model.primary_field(*pk).is_some_and(|k| k.ident == f.ident))
            .map(|(_, key)| quote!(#key = ::core::option::Option::Some(::core::clone::Clone::clone(&__dynamap_value));));
        quote!(#attribute => { #key #slot = ::core::option::Option::Some(__dynamap_value); })
    });
    let keys = key_fields(model);
    // The key attributes, kept aside (moved, not copied): to read key fields back from, and
    // to name the item when it does not decode.
    let key_arms = quote! {
        __dynamap_other if __dynamap_other == __dynamap_schema.pk => __dynamap_key_pk = ::core::option::Option::Some(__dynamap_value),
        __dynamap_other if ::core::option::Option::Some(__dynamap_other) == __dynamap_schema.sk => __dynamap_key_sk = ::core::option::Option::Some(__dynamap_value),
    };
    let key_slots = quote! {
        #[allow(unused_mut)]
        let mut __dynamap_key_pk: ::core::option::Option<::dynamap::__private::AttributeValue> = ::core::option::Option::None;
        #[allow(unused_mut)]
        let mut __dynamap_key_sk: ::core::option::Option<::dynamap::__private::AttributeValue> = ::core::option::Option::None;
    };
    let pass = (!stored.is_empty()).then(|| {
        quote! {
            for (__dynamap_name, __dynamap_value) in __dynamap_item {
                match __dynamap_name.as_str() {
                    #(#arms)*
                    #key_arms
                    _ => {}
                }
            }
        }
    });
    let recovery = recovery(model, &keys);
    let upgrade = model
        .schema
        .as_ref()
        .map(|schema| upgrade(model, schema, whole));
    quote! {
        #via
        let __dynamap_schema = &#schema;
        ::dynamap::__private::check_entity_type(&__dynamap_item, __dynamap_schema, #entity, <Self as ::dynamap::__private::Entity>::ALIASES)?;
        #upgrade
        #(let mut #slots: ::core::option::Option<::dynamap::__private::AttributeValue> = ::core::option::Option::None;)*
        #key_slots
        #pass
        #recovery
    }
}

/// The fields of the primary key templates with the index of each in `model.fields`, in
/// the order of `Entity::KeyParts`.
pub(super) fn key_fields<'m>(model: &'m EntityModel<'_>) -> Vec<(usize, &'m FieldModel<'m>)> {
    render::key_fields(model)
        .into_iter()
        .filter_map(|f| {
            let i = model.fields.iter().position(|g| g.ident == f.ident)?;
            Some((i, f))
        })
        .collect()
}

/// Binds `__dynamap_recovered_{field}` for each primary-key field: its part parsed from
/// the key when any of their attributes is missing (one parse for all of them), else `None`.
fn recovery(model: &EntityModel<'_>, keys: &[(usize, &FieldModel<'_>)]) -> TokenStream {
    if keys.is_empty() {
        return TokenStream::new();
    }
    let vars: Vec<Ident> = keys.iter().map(|(_, f)| recovered(f)).collect();
    let part = |f: &FieldModel<'_>| {
        format_ident!(
            "__dynamap_part_{}",
            f.ident.to_string().trim_start_matches("r#")
        )
    };
    let parts: Vec<Ident> = keys.iter().map(|(_, f)| part(f)).collect();
    let pattern = render::key_parts_pattern(model, |f| {
        let part = part(f);
        Some(quote!(#part))
    });
    let missing = keys.iter().map(|(i, _)| {
        let slot = slot(*i);
        quote!(#slot.is_none())
    });
    let nones = keys.iter().map(|_| quote!(::core::option::Option::None));
    let nones2 = nones.clone();
    quote! {
        let (#(#vars,)*) = if #(#missing)||* {
            match ::dynamap::__private::recover_key::<Self>(__dynamap_key_pk.as_ref(), __dynamap_key_sk.as_ref())? {
                ::core::option::Option::Some(#pattern) => (#(::core::option::Option::Some(#parts),)*),
                ::core::option::Option::None => (#(#nones,)*),
            }
        } else {
            (#(#nones2,)*)
        };
    }
}

/// Field `i`'s value, read from its slot (and, for a key field, its recovered part).
fn field_value(model: &EntityModel<'_>, i: usize, field: &FieldModel<'_>) -> TokenStream {
    let in_key = key_fields(model).iter().any(|(k, _)| *k == i);
    let recovered = in_key.then(|| recovered(field));
    decode_field(&model.entity_name, field, &slot(i), recovered.as_ref())
}

fn slot(index: usize) -> Ident {
    format_ident!("__dynamap_slot_{}", index)
}

fn recovered(field: &FieldModel<'_>) -> Ident {
    format_ident!(
        "__dynamap_recovered_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}

/// The start of decoding for an entity with a schema version: an item of an older version
/// reads through its upgrade and returns (through `whole`); one of a newer version is an
/// error.
fn upgrade(
    model: &EntityModel<'_>,
    schema: &SchemaModel,
    whole: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let entity = &model.entity_name;
    let current = schema.current;
    let arms = schema.upgrades.iter().map(|(version, upgrade)| {
        let read = match upgrade {
            Upgrade::Via(via) => quote_spanned! {via.span()=>
                ::core::convert::Into::<Self>::into(
                    ::dynamap::__private::read_older::<#via>(__dynamap_item, #entity, #version)?,
                )
            },
            Upgrade::With(with) => quote_spanned! {with.span()=>
                {
                    let __dynamap_upgrade: fn(::dynamap::__private::Item) -> ::core::result::Result<Self, ::dynamap::__private::AttributeError> = #with;
                    ::dynamap::__private::upgraded(__dynamap_upgrade(__dynamap_item), #entity, #version)?
                }
            },
        };
        let read = whole(read);
        quote!(#version => return ::core::result::Result::Ok(#read),)
    });
    quote! {
        match ::dynamap::__private::stored_schema_version(&__dynamap_item, #entity, #current, __dynamap_schema)? {
            #(#arms)*
            _ => {}
        }
    }
}
