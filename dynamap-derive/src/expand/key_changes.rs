//! What an update derives from the fields it sets: index keys rendered from the new values
//! (`derived_key_changes`), the new keys of lookup items (`updated_lookup_keys`), and the
//! automatic timestamps (`timestamps`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::decode::with_wrapper;
use super::render::{
    encode_value, field_list, fields_of, groups, is_key_field, key_fields, key_parts_pattern,
    part_type, render_template, schema, via_traits,
};
use crate::model::{EntityModel, FieldModel};
use crate::template::Template;

/// The three methods of the `Entity` impl.
pub(crate) fn key_changes(model: &EntityModel<'_>) -> TokenStream {
    let derived = derived_key_changes(model);
    let lookups = (!model.lookups.is_empty()).then(|| updated_lookup_keys(model));
    let timestamps = timestamps(model);
    quote!(#derived #lookups #timestamps)
}

/// The local holding a field's new value.
fn var(field: &FieldModel<'_>) -> syn::Ident {
    format_ident!("__dynamap_v_{}", field.ident)
}

/// `let __dynamap_v_x: Option<T> = ...;` for each field: a primary-key field's value read
/// from the item's key (it never changes), any other field's new value from the update.
fn decode_new_values(model: &EntityModel<'_>, fields: &[&FieldModel<'_>]) -> TokenStream {
    let entity = &model.entity_name;
    let parts = key_fields(model);
    let parse = parts.iter().any(|k| fields.iter().any(|f| f.ident == k.ident)).then(|| {
        let pattern = key_parts_pattern(model, |k| {
            fields.iter().any(|f| f.ident == k.ident).then(|| {
                let var = var(k);
                quote!(#var)
            })
        });
        let wrap = parts
            .iter()
            .filter(|k| fields.iter().any(|f| f.ident == k.ident))
            .map(|k| {
                let var = var(k);
                let ty = part_type(k);
                quote!(let #var: ::core::option::Option<#ty> = ::core::option::Option::Some(#var);)
            });
        quote! {
            let #pattern = <Self as ::dynamap::__private::Entity>::parse_key(__dynamap_key.0, __dynamap_key.1)?;
            #(#wrap)*
        }
    });
    let reads = fields.iter().filter(|f| !is_key_field(model, f)).map(|field| {
        let var = var(field);
        let attribute = &field.attribute;
        let inner = part_type(field);
        let read = match &field.with {
            // The field's own conversion: direct code for an `Attribute` type, serde otherwise.
            None => {
                let via = via_traits();
                quote! {
                    __dynamap_values.decode_with(#entity, #attribute, |value| {
                        #via
                        (&::dynamap::__private::Via::<#inner>::NEW).decode(value)
                    })?
                }
            }
            Some(with) => {
                let unwrap = if field.option_inner.is_some() {
                    quote!(.and_then(|w| w.0))
                } else {
                    quote!(.map(|w| w.0))
                };
                with_wrapper(
                    field,
                    with,
                    quote!(__dynamap_values.decode::<__DynamapWith>(#entity, #attribute)?#unwrap),
                )
            }
        };
        quote!(let #var: ::core::option::Option<#inner> = #read;)
    });
    quote!(#parse #(#reads)*)
}

fn derived_key_changes(model: &EntityModel<'_>) -> TokenStream {
    if model.indexes.iter().all(|i| i.templates().next().is_none()) {
        return TokenStream::new();
    }
    if let Some(described) = super::index_updates::derived_key_changes(model) {
        return described;
    }
    let schema = schema(model);
    let entity = &model.entity_name;
    let blocks = model.indexes.iter().flat_map(|index| {
        groups(model, index).into_iter().map(move |group| {
            let name = &index.name;
            let fields = fields_of(model, group.iter().map(|(_, t)| *t));
            let updatable: Vec<_> = fields.iter().copied().filter(|f| !is_key_field(model, f)).collect();
            let list = field_list(&updatable);
            let optional: Vec<_> = fields.iter().copied().filter(|f| f.option_inner.is_some()).collect();
            let optional = field_list(&optional);
            let key = match group.as_slice() {
                [(true, _)] => format!("index `{}`'s partition key", name.value()),
                [(false, _)] => format!("index `{}`'s sort key", name.value()),
                _ => format!("index `{}`'s keys", name.value()),
            };
            let templates = group
                .iter()
                .map(|(_, t)| t.text())
                .collect::<Vec<_>>()
                .join(" / ");
            let decode = decode_new_values(model, &fields);
            let vars: Vec<_> = fields.iter().map(|f| var(f)).collect();
            let value = |f: &FieldModel<'_>| {
                let var = var(f);
                quote!(#var)
            };
            let sets = group.iter().map(|(is_pk, template)| {
                if *is_pk {
                    let rendered = render_template(model, template, quote!(__dynamap_index.pk), quote!(MAX_PARTITION_KEY_BYTES), value);
                    quote!(__dynamap_changes.push(::dynamap::__private::DerivedChange::Set(__dynamap_index.pk, ::dynamap::__private::AttributeValue::S(#rendered?)));)
                } else {
                    let rendered = render_template(model, template, quote!(attribute), quote!(MAX_SORT_KEY_BYTES), value);
                    quote! {
                        if let ::core::option::Option::Some(attribute) = __dynamap_index.sk {
                            __dynamap_changes.push(::dynamap::__private::DerivedChange::Set(attribute, ::dynamap::__private::AttributeValue::S(#rendered?)));
                        }
                    }
                }
            });
            let removes = group.iter().map(|(is_pk, _)| {
                if *is_pk {
                    quote!(__dynamap_changes.push(::dynamap::__private::DerivedChange::Remove(__dynamap_index.pk));)
                } else {
                    quote! {
                        if let ::core::option::Option::Some(attribute) = __dynamap_index.sk {
                            __dynamap_changes.push(::dynamap::__private::DerivedChange::Remove(attribute));
                        }
                    }
                }
            });
            quote! {
                let __dynamap_fields: &[(&'static str, &'static str)] = #list;
                if let (true, ::core::option::Option::Some(__dynamap_index)) = (
                    __dynamap_values.touches_any(__dynamap_fields),
                    __dynamap_schema.index(#name),
                ) {
                    // Removing an optional field takes the item out of the sparse index,
                    // whatever the other fields are; setting needs them all to render.
                    if __dynamap_values.removes_any(#optional) {
                        #(#removes)*
                    } else if !__dynamap_values.touches_all(__dynamap_fields) {
                        // Every half-set key is named in one error, not the first alone.
                        __dynamap_gaps.push(::dynamap::__private::UpdatedValues::gap(
                            ::core::convert::From::from(#key), #templates, __dynamap_fields, __dynamap_values,
                        ));
                    } else {
                        #decode
                        if let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) {
                            #(#sets)*
                        }
                    }
                }
            }
        })
    });
    quote! {
        fn derived_key_changes(
            __dynamap_values: &::dynamap::__private::UpdatedValues<'_>,
            __dynamap_key: (&str, ::core::option::Option<&str>),
        ) -> ::dynamap::__private::Result<::dynamap::__private::Vec<::dynamap::__private::DerivedChange>> {
            let __dynamap_schema = &#schema;
            let mut __dynamap_changes = ::dynamap::__private::Vec::new();
            let mut __dynamap_gaps = ::dynamap::__private::Vec::new();
            #(#blocks)*
            ::dynamap::__private::UpdatedValues::incomplete(#entity, __dynamap_gaps)?;
            ::core::result::Result::Ok(__dynamap_changes)
        }
    }
}

fn updated_lookup_keys(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let blocks = model.lookups.iter().map(|lookup| {
        let name = &lookup.name;
        let fields = fields_of(model, lookup.templates());
        let updatable: Vec<_> = fields.iter().copied().filter(|f| !is_key_field(model, f)).collect();
        let list = field_list(&updatable);
        let key = format!("lookup `{}`'s key", name.value());
        let created_key = format!("lookup `{}`'s key, which an update that creates the item writes", name.value());
        let templates = lookup
            .templates()
            .map(Template::text)
            .collect::<Vec<_>>()
            .join(" / ");
        let decode = decode_new_values(model, &fields);
        let vars: Vec<_> = fields.iter().map(|f| var(f)).collect();
        let value = |f: &FieldModel<'_>| {
            let var = var(f);
            quote!(#var)
        };
        let pk = render_template(model, &lookup.pk, quote!(__dynamap_schema.pk), quote!(MAX_PARTITION_KEY_BYTES), value);
        let sk = match &lookup.sk {
            Some(sk) => {
                let sk = render_template(model, sk, quote!(__dynamap_sk_attribute), quote!(MAX_SORT_KEY_BYTES), value);
                quote!(::core::option::Option::Some(#sk?))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            let __dynamap_fields: &[(&'static str, &'static str)] = #list;
            // An update that may create its item writes every lookup with it (one made of
            // primary-key fields alone included), or refuses: an owner without its lookup
            // would leave its value free for another.
            let __dynamap_touched = __dynamap_values.touches_any(__dynamap_fields);
            if __dynamap_touched || __dynamap_values.creates() {
                if !__dynamap_values.touches_all(__dynamap_fields) {
                    let __dynamap_gap_key = if __dynamap_touched { #key } else { #created_key };
                    __dynamap_gaps.push(::dynamap::__private::UpdatedValues::gap(
                        ::core::convert::From::from(__dynamap_gap_key), #templates, __dynamap_fields, __dynamap_values,
                    ));
                } else {
                    #decode
                    // Lookup fields are never optional, and an update cannot remove them.
                    if let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) {
                        __dynamap_keys.push(::dynamap::__private::LookupKey { name: #name, pk: #pk?, sk: #sk });
                    }
                }
            }
        }
    });
    quote! {
        fn updated_lookup_keys(
            __dynamap_values: &::dynamap::__private::UpdatedValues<'_>,
            __dynamap_key: (&str, ::core::option::Option<&str>),
        ) -> ::dynamap::__private::Result<::dynamap::__private::Vec<::dynamap::__private::LookupKey>> {
            let __dynamap_schema = &#schema;
            let __dynamap_sk_attribute = match __dynamap_schema.sk {
                ::core::option::Option::Some(attribute) => attribute,
                ::core::option::Option::None => "",
            };
            let mut __dynamap_keys = ::dynamap::__private::Vec::new();
            let mut __dynamap_gaps = ::dynamap::__private::Vec::new();
            #(#blocks)*
            ::dynamap::__private::UpdatedValues::incomplete(#entity, __dynamap_gaps)?;
            ::core::result::Result::Ok(__dynamap_keys)
        }
    }
}

fn timestamps(model: &EntityModel<'_>) -> TokenStream {
    let entity = &model.entity_name;
    let stamp = |field: Option<&FieldModel<'_>>| match field {
        None => quote!(::core::option::Option::None),
        Some(field) => {
            let ty = field.ty;
            let attribute = &field.attribute;
            let encode = encode_value(entity, field, &quote!(__dynamap_value));
            // Spanned at the field's type, so a type that is not a timestamp is reported there.
            let at = quote_spanned!(super::keys::type_span(ty)=> <#ty as ::dynamap::__private::AutoTimestamp>::at(__dynamap_now));
            let via = via_traits();
            quote! {{
                #via
                let __dynamap_value: #ty = #at;
                let mut __dynamap_item = ::dynamap::__private::Item::with_capacity(1);
                #encode
                __dynamap_item.remove(#attribute).map(|value| (#attribute, value))
            }}
        }
    };
    let created = model.fields.iter().find(|f| f.created_at);
    let updated = model.fields.iter().find(|f| f.updated_at);
    if created.is_none() && updated.is_none() {
        return TokenStream::new();
    }
    let created = stamp(created);
    let updated = stamp(updated);
    quote! {
        fn timestamps(
            __dynamap_now: ::dynamap::__private::SystemTime,
        ) -> ::dynamap::__private::Result<::dynamap::__private::Timestamps> {
            ::core::result::Result::Ok(::dynamap::__private::Timestamps {
                created_at: #created,
                updated_at: #updated,
            })
        }
    }
}
