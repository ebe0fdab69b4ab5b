//! What `#[derive(Entity)]` tells the write path: the version field, the attributes keys
//! and indexes are made of, and the lookup items kept in sync with the entity.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::render::{fields_of, key_fields, render_template, schema};
use crate::model::EntityModel;
use crate::template::Template;

/// The `WRITE` constant and the `version`, `set_version` and `lookup_keys` methods of the
/// `Entity` impl.
pub(crate) fn write_meta(model: &EntityModel<'_>) -> TokenStream {
    let version_field = model.fields.iter().find(|f| f.version);
    let version = match version_field {
        Some(f) => {
            let attribute = &f.attribute;
            quote!(::core::option::Option::Some(#attribute))
        }
        None => quote!(::core::option::Option::None),
    };
    // A field mapped to a table key attribute (`field(x)`) is a key attribute itself.
    let mut key_attributes = attributes_of(model, model.primary_templates());
    for pk in [true, false] {
        if let Some(field) = model.primary_field(pk) {
            key_attributes.push(field.attribute.clone());
        }
    }
    let optional = model
        .fields
        .iter()
        .filter(|f| !f.skip && (f.option_inner.is_some() || f.set))
        .map(|f| &f.attribute);
    // What an update that creates its item must set: every stored field that is not
    // optional, defaulted, automatic or read back from the primary key.
    let key_fields = key_fields(model);
    let required = model
        .fields
        .iter()
        .filter(|f| {
            !f.skip
                && f.option_inner.is_none()
                && f.default.is_none()
                && !f.set
                && !f.version
                && !f.created_at
                && !f.updated_at
                && !key_fields.iter().any(|k| k.ident == f.ident)
        })
        .map(|f| &f.attribute);
    let indexed = pairs(
        model,
        model
            .indexes
            .iter()
            .map(|i| (i.name.value(), i.templates().collect())),
    );
    let lookup_names = model.lookups.iter().map(|l| &l.name);
    let lookup_attributes = pairs(
        model,
        model
            .lookups
            .iter()
            .map(|l| (l.name.value(), l.templates().collect())),
    );
    let attribute_keys = model.indexes.iter().flat_map(|index| {
        [(true, Some(&index.pk)), (false, index.sk.as_ref())]
            .into_iter()
            .filter_map(|(is_pk, key)| match key? {
                crate::model::IndexKey::Field(key) => Some((is_pk, key)),
                crate::model::IndexKey::Template(_) => None,
            })
            .flat_map(|(is_pk, key)| {
                let limit = if is_pk {
                    quote!(::dynamap::__private::MAX_PARTITION_KEY_BYTES)
                } else {
                    quote!(::dynamap::__private::MAX_SORT_KEY_BYTES)
                };
                key.fields
                    .iter()
                    .filter_map(|f| model.field(&f.to_string()))
                    .map(move |field| {
                        let attribute = &field.attribute;
                        quote!((#attribute, #limit))
                    })
            })
            .collect::<Vec<_>>()
    });
    let timestamp = |pick: fn(&crate::model::FieldModel<'_>) -> bool| match model
        .fields
        .iter()
        .find(|f| pick(f))
    {
        Some(f) => {
            let attribute = &f.attribute;
            quote!(::core::option::Option::Some(#attribute))
        }
        None => quote!(::core::option::Option::None),
    };
    let created_at = timestamp(|f| f.created_at);
    let updated_at = timestamp(|f| f.updated_at);
    let version_methods = version_field.map(|f| {
        let ident = f.ident;
        let ty = f.ty;
        quote_spanned! {ty.span()=>
            fn version(&self) -> u64 {
                <#ty as ::dynamap::__private::VersionField>::to_version(&self.#ident)
            }

            fn set_version(&mut self, version: u64) {
                self.#ident = <#ty as ::dynamap::__private::VersionField>::from_version(version);
            }
        }
    });
    let lookup_keys = (!model.lookups.is_empty()).then(|| lookup_keys(model));
    let schema_version = match &model.schema {
        Some(schema) => {
            let version = schema.current;
            quote!(::core::option::Option::Some(#version))
        }
        None => quote!(::core::option::Option::None),
    };
    let (stored, encrypted, sign_only) = crate::protection::attribute_lists(&model.fields);
    let constant_names = model.constants.iter().map(|(name, _)| name.value());
    let constant_values = model.constants.iter().map(|(_, value)| value);
    quote! {
        const WRITE: ::dynamap::__private::WriteMeta = ::dynamap::__private::WriteMeta {
            version: #version,
            key_attributes: &[#(#key_attributes),*],
            optional_attributes: &[#(#optional),*],
            required_attributes: &[#(#required),*],
            indexed_attributes: &[#(#indexed),*],
            lookups: &[#(#lookup_names),*],
            lookup_attributes: &[#(#lookup_attributes),*],
            attribute_keys: &[#(#attribute_keys),*],
            created_at: #created_at,
            updated_at: #updated_at,
            schema_version: #schema_version,
            constants: &[#((#constant_names, #constant_values)),*],
            stored_attributes: &[#(#stored),*],
            encrypted_attributes: &[#(#encrypted),*],
            sign_only_attributes: &[#(#sign_only),*],
        };
        #version_methods
        #lookup_keys
    }
}

/// The attribute names of the fields `templates` use.
fn attributes_of<'t>(
    model: &EntityModel<'_>,
    templates: impl Iterator<Item = &'t Template>,
) -> Vec<String> {
    fields_of(model, templates)
        .into_iter()
        .map(|f| f.attribute.clone())
        .collect()
}

/// `(attribute, name)` for every field each index or lookup uses.
fn pairs<'t>(
    model: &EntityModel<'_>,
    declared: impl Iterator<Item = (String, Vec<&'t Template>)>,
) -> Vec<TokenStream> {
    declared
        .flat_map(|(name, templates)| {
            attributes_of(model, templates.into_iter())
                .into_iter()
                .map(move |attribute| quote!((#attribute, #name)))
        })
        .collect()
}

fn lookup_keys(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let value = |f: &crate::model::FieldModel<'_>| {
        let ident = f.ident;
        quote!(self.#ident)
    };
    let keys = model.lookups.iter().map(|lookup| {
        let name = &lookup.name;
        let pk = render_template(
            model,
            &lookup.pk,
            quote!(__dynamap_schema.pk),
            quote!(MAX_PARTITION_KEY_BYTES),
            value,
        );
        let sk = match &lookup.sk {
            Some(sk) => {
                let sk = render_template(
                    model,
                    sk,
                    quote!(__dynamap_sk_attribute),
                    quote!(MAX_SORT_KEY_BYTES),
                    value,
                );
                quote!(::core::option::Option::Some(#sk?))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(::dynamap::__private::LookupKey { name: #name, pk: #pk?, sk: #sk })
    });
    quote! {
        fn lookup_keys(&self) -> ::core::result::Result<::dynamap::__private::Vec<::dynamap::__private::LookupKey>, ::dynamap::__private::KeyError> {
            let __dynamap_schema = &#schema;
            let __dynamap_sk_attribute = match __dynamap_schema.sk {
                ::core::option::Option::Some(attribute) => attribute,
                ::core::option::Option::None => "",
            };
            ::core::result::Result::Ok(::dynamap::__private::Vec::from([#(#keys),*]))
        }
    }
}
