//! Reading one field in generated `from_item`, from the slot its attribute was moved into:
//! present, optional, compressed, through `with`, with a default when the attribute is
//! missing, or, for a primary-key field, read back from the key.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::keys::type_span;
use super::render::{direct_module, part_type};
use crate::model::FieldModel;

/// The field's value from `slot` (an `Option<AttributeValue>`). Needs
/// [`via_traits`](super::render::via_traits) in scope. `recovered`: for a field of the
/// primary key templates, a variable holding the part parsed from the item's key (an
/// `Option`, `None` when the attribute is present or the item has no key), the value when
/// the attribute is missing.
pub(super) fn decode_field(
    entity: &str,
    field: &FieldModel<'_>,
    slot: &Ident,
    recovered: Option<&Ident>,
) -> TokenStream {
    if field.skip {
        return quote!(::core::default::Default::default());
    }
    let attribute = &field.attribute;
    let value = convert(entity, field);
    // A serde `with` module reads an optional field's whole `Option`.
    let flatten =
        (field.option_inner.is_some() && reads_whole_option(field)).then(|| quote!(.flatten()));
    let optional =
        quote!(::dynamap::__private::present(#slot).map(|value| #value).transpose()?#flatten);
    if field.version && field.default.is_none() {
        // No version attribute: the item was written before the entity had a version field,
        // or by another writer. It reads as never versioned (0), which a save can replace.
        let ty = field.ty;
        return quote!(#optional.unwrap_or_else(|| <#ty as ::dynamap::__private::VersionField>::from_version(0)));
    }
    // A set is left out of the item when empty, so a missing one reads as empty.
    let set_default = field.set.then_some(None);
    let Some(default) = field.default.as_ref().or(set_default.as_ref()) else {
        return match field.option_inner {
            Some(_) => optional,
            None => {
                // A set is left out of the item when empty, so a missing one reads as empty.
                let value_ty = part_type(field);
                let plain = field.with.is_none() && field.compressed.is_none();
                let missing_error = quote!(return ::core::result::Result::Err(::dynamap::__private::missing_attribute(#entity, #attribute)));
                let missing = if !plain {
                    missing_error
                } else {
                    quote_spanned! {type_span(field.ty)=>
                        match (&::dynamap::__private::Via::<#value_ty>::NEW).when_missing() {
                            ::core::option::Option::Some(empty) => empty,
                            ::core::option::Option::None => #missing_error,
                        }
                    }
                };
                let otherwise = match recovered {
                    Some(part) => quote! {
                        match #part {
                            ::core::option::Option::Some(part) => part,
                            ::core::option::Option::None => #missing,
                        }
                    },
                    None => missing,
                };
                quote! {
                    match #slot {
                        ::core::option::Option::Some(value) => #value?,
                        ::core::option::Option::None => #otherwise,
                    }
                }
            }
        };
    };
    // A missing attribute reads as the default, so the field is read as optional first.
    let default = match default {
        Some(function) => quote!(#function()),
        None => quote!(::core::default::Default::default()),
    };
    match field.option_inner {
        None => quote!(#optional.unwrap_or_else(|| #default)),
        Some(_) => quote!(#optional.or_else(|| #default)),
    }
}

fn reads_whole_option(field: &FieldModel<'_>) -> bool {
    field
        .with
        .as_ref()
        .is_some_and(|with| direct_module(with).is_none())
}

/// A `Result` of the field's value from `value`, an `AttributeValue` that is present and not
/// `NULL`: of `T` for an `Option<T>` field, except through a serde `with` module, which reads
/// the whole `Option<T>`.
fn convert(entity: &str, field: &FieldModel<'_>) -> TokenStream {
    let attribute = &field.attribute;
    let value_ty = part_type(field);
    let span = type_span(field.ty);
    if field.compressed.is_some() {
        return quote_spanned!(span=> (&::dynamap::__private::Via::<#value_ty>::NEW).decompress_from(value, #entity, #attribute));
    }
    let decode = match &field.with {
        None => quote_spanned!(span=> (&::dynamap::__private::Via::<#value_ty>::NEW).decode(value)),
        Some(with) => match direct_module(with) {
            Some(module) => quote!(#module::from_attribute(value)),
            None => with_wrapper(
                field,
                with,
                quote!(::dynamap::__private::deserialized::<__DynamapWith>(value).map(|w| w.0)),
            ),
        },
    };
    quote!(::dynamap::__private::decoded(#decode, #entity, #attribute))
}

/// `read` in a scope where `__DynamapWith` deserializes the field's type through `with`.
pub(super) fn with_wrapper(
    field: &FieldModel<'_>,
    with: &syn::Path,
    read: TokenStream,
) -> TokenStream {
    let ty = field.ty;
    quote! {{
        struct __DynamapWith(#ty);
        impl<'de> ::dynamap::__private::serde::Deserialize<'de> for __DynamapWith {
            fn deserialize<D: ::dynamap::__private::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #with::deserialize(deserializer).map(__DynamapWith)
            }
        }
        #read
    }}
}
