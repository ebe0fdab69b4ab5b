//! `Entity::to_item`: the item of an entity value, with its keys, type and index keys.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Ident;

use super::keys::type_span;
use super::primary_key::{key_values, self_field};
use super::render::{
    encode_value, fields_of, holes_of, insert_index_key, is_primary_field, schema, via_traits,
};
use crate::model::{EntityModel, FieldModel, Hole, IndexKey, IndexModel};

pub(super) fn to_item(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let capacity = model.fields.len() + 3 + 2 * model.indexes.len();
    // Timestamps that keys hold are rendered once, for every key and their own attribute.
    let once = rendered_once(model);
    let rendered = |field: &FieldModel<'_>| {
        once.iter()
            .any(|f| f.ident == field.ident)
            .then(|| rendered_var(field).into_token_stream())
    };
    let renders = once.iter().map(|field| {
        let (ident, var) = (field.ident, rendered_var(field));
        quote_spanned!(type_span(field.ty)=> let #var = ::dynamap::__private::RenderedTimestamp::new(&self.#ident);)
    });
    let (pk, sk) = key_values(model, self_field, &rendered);
    let indexes = model
        .indexes
        .iter()
        .map(|index| index_attributes(model, index, &rendered));
    // A field mapped to a table key attribute (`field(x)`) is in the item as that key.
    let fields = model
        .fields
        .iter()
        .filter(|f| !f.skip && !is_primary_field(model, f) && rendered(f).is_none())
        .map(|f| encode_value(entity, f, &self_field(f)));
    // Last, after every key has copied their text: the attribute takes the rendered text.
    let rendered_attributes = once.iter().map(|f| {
        let (attribute, var) = (&f.attribute, rendered_var(f));
        quote! {
            ::dynamap::__private::encoded(&mut __dynamap_item, #entity, #attribute, ::dynamap::__private::ToString::to_string(#attribute), #var.into_attribute())?;
        }
    });
    let via = via_traits();
    // Fields stored in their type's own form: a recognized type without one fails here.
    let form_checks = super::stored_form::checks(
        model
            .fields
            .iter()
            .filter(|f| !f.skip && f.with.is_none() && f.compressed.is_none() && !f.ttl)
            .map(|f| f.ty),
    );
    let schema_version = model.schema.as_ref().map(|schema| {
        let version = schema.current.to_string();
        quote! {
            __dynamap_item.insert(
                ::core::convert::From::from(::dynamap::__private::SCHEMA_VERSION_ATTRIBUTE),
                ::dynamap::__private::AttributeValue::N(::core::convert::From::from(#version)),
            );
        }
    });
    let constants = model.constants.iter().map(|(name, value)| {
        let name = name.value();
        quote! {
            __dynamap_item.insert(
                ::core::convert::From::from(#name),
                ::dynamap::__private::AttributeValue::S(::core::convert::From::from(#value)),
            );
        }
    });
    let constants = quote!(#(#constants)*);
    quote! {
        fn to_item(&self) -> ::dynamap::__private::Result<::dynamap::__private::Item> {
            #via
            #form_checks
            let __dynamap_schema = &#schema;
            #(#renders)*
            let __dynamap_pk = #pk?;
            let __dynamap_sk = ::core::option::Option::<::core::result::Result<::dynamap::__private::AttributeValue, ::dynamap::__private::KeyError>>::transpose(#sk)?;
            let mut __dynamap_item = ::dynamap::__private::Item::with_capacity(#capacity);
            __dynamap_item.insert(::core::convert::From::from(__dynamap_schema.pk), __dynamap_pk);
            if let (::core::option::Option::Some(attribute), ::core::option::Option::Some(value)) = (__dynamap_schema.sk, __dynamap_sk) {
                __dynamap_item.insert(::core::convert::From::from(attribute), value);
            }
            __dynamap_item.insert(
                ::core::convert::From::from(__dynamap_schema.entity_type),
                ::dynamap::__private::AttributeValue::S(::core::convert::From::from(#entity)),
            );
            #schema_version
            #constants
            #(#fields)*
            #(#indexes)*
            #(#rendered_attributes)*
            ::core::result::Result::Ok(__dynamap_item)
        }
    }
}

/// Writes an index's key attributes, but only when every field its templates need is
/// present: items missing one stay out of the index (a sparse index). A key that is a
/// field's own attribute is stored with the field; its value is checked here.
fn index_attributes(
    model: &EntityModel<'_>,
    index: &IndexModel,
    rendered: &dyn Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> TokenStream {
    let name = &index.name;
    let entity = &model.entity_name;
    let fields = fields_of(model, index.templates());
    let optional: Vec<_> = fields.iter().filter(|f| f.option_inner.is_some()).collect();
    let bindings = optional
        .iter()
        .map(|f| format_ident!("__dynamap_opt_{}", f.ident));
    let sources = optional.iter().map(|f| {
        let ident = f.ident;
        quote!(&self.#ident)
    });
    let value = |f: &FieldModel<'_>| {
        let ident = f.ident;
        if f.option_inner.is_some() {
            let binding = format_ident!("__dynamap_opt_{}", ident);
            quote!(*#binding)
        } else {
            quote!(self.#ident)
        }
    };
    let mut writes = Vec::new();
    let mut checks = Vec::new();
    // A local index's partition key is the table's, already in the item.
    let pk = (!index.local).then_some(&index.pk);
    for (is_pk, key) in [(true, pk), (false, index.sk.as_ref())] {
        let Some(key) = key else { continue };
        match key {
            IndexKey::Template(template) => {
                writes.push(insert_index_key(model, is_pk, template, value, rendered));
            }
            IndexKey::Field(key) => {
                let limit = if is_pk {
                    quote!(MAX_PARTITION_KEY_BYTES)
                } else {
                    quote!(MAX_SORT_KEY_BYTES)
                };
                for field in key
                    .fields
                    .iter()
                    .filter_map(|f| model.field(&f.to_string()))
                {
                    let field_attribute = &field.attribute;
                    let field_name = field.ident.to_string();
                    checks.push(quote! {
                        ::dynamap::__private::check_key_attribute(&__dynamap_item, #entity, #field_attribute, #field_name, ::dynamap::__private::#limit)?;
                    });
                }
            }
        }
    }
    quote! {
        if let (::core::option::Option::Some(__dynamap_index), #(::core::option::Option::Some(#bindings),)*) = (__dynamap_schema.index(#name), #(#sources,)*) {
            #(#writes)*
        }
        #(#checks)*
    }
}

/// The fields `to_item` renders once for the keys that hold them and their own attribute:
/// timestamps stored by `dynamap::codec::timestamp`, whose attribute is the text their key
/// part is, named by a hole of the primary key or of an index key. (Strings are copied
/// either way; integers are padded in keys and plain in attributes.)
fn rendered_once<'m>(model: &'m EntityModel<'_>) -> Vec<&'m FieldModel<'m>> {
    let templates = [
        model.pk.template(),
        model.sk.as_ref().and_then(IndexKey::template),
    ]
    .into_iter()
    .flatten()
    .chain(model.indexes.iter().flat_map(IndexModel::templates));
    holes_of(model, templates)
        .into_iter()
        .filter_map(|hole| match hole {
            Hole::Field(field) => Some(field),
            Hole::Computed(_) => None,
        })
        .filter(|f| {
            !f.skip
                && f.compressed.is_none()
                && f.option_inner.is_none()
                && !is_primary_field(model, f)
                && f.with.as_ref().is_some_and(is_timestamp_module)
        })
        .collect()
}

/// True for `dynamap::codec::timestamp` (not its `option` module).
fn is_timestamp_module(with: &syn::Path) -> bool {
    with.segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .eq(["dynamap", "codec", "timestamp"])
}

/// The variable holding a field rendered once.
fn rendered_var(field: &FieldModel<'_>) -> Ident {
    format_ident!(
        "__dynamap_rendered_{}",
        field.ident.to_string().trim_start_matches("r#")
    )
}
