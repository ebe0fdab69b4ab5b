//! Reading one field in generated `from_item`: present, optional, through `with`, or with
//! a default when the attribute is missing.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::FieldModel;

pub(super) fn decode_field(entity: &str, field: &FieldModel<'_>) -> TokenStream {
    if field.skip {
        return quote!(::core::default::Default::default());
    }
    let Some(default) = &field.default else {
        return decode_present(entity, field);
    };
    // A missing attribute reads as the default, so the field is read as optional first.
    let default = match default {
        Some(function) => quote!(#function()),
        None => quote!(::core::default::Default::default()),
    };
    let read = decode_optional(entity, field);
    match field.option_inner {
        None => quote!(#read.unwrap_or_else(|| #default)),
        Some(_) => quote!(#read.or_else(|| #default)),
    }
}

/// Reads a field whose attribute must be present (unless the field is an `Option`).
fn decode_present(entity: &str, field: &FieldModel<'_>) -> TokenStream {
    let attribute = &field.attribute;
    let ty = field.ty;
    if field.option_inner.is_some() {
        return decode_optional(entity, field);
    }
    if field.compressed.is_some() {
        return quote!(::dynamap::__private::decode_compressed::<#ty>(&mut __dynamap_item, #entity, #attribute)?);
    }
    match &field.with {
        None => {
            quote!(::dynamap::__private::decode_field::<#ty>(&mut __dynamap_item, #entity, #attribute)?)
        }
        Some(with) => with_wrapper(
            field,
            with,
            quote!(::dynamap::__private::decode_field::<__DynamapWith>(&mut __dynamap_item, #entity, #attribute)?.0),
        ),
    }
}

/// Reads a field as an `Option` of its value (of `T` for an `Option<T>` field): `None` when
/// the attribute is missing or `NULL`.
fn decode_optional(entity: &str, field: &FieldModel<'_>) -> TokenStream {
    let attribute = &field.attribute;
    let value_ty = field.option_inner.unwrap_or(field.ty);
    if field.compressed.is_some() {
        return quote!(::dynamap::__private::decode_optional_compressed::<#value_ty>(&mut __dynamap_item, #entity, #attribute)?);
    }
    match &field.with {
        None => {
            quote!(::dynamap::__private::decode_optional_field::<#value_ty>(&mut __dynamap_item, #entity, #attribute)?)
        }
        Some(with) => {
            // `with` reads the field's whole type: `Option<T>` for an optional field.
            let unwrap = if field.option_inner.is_some() {
                quote!(.and_then(|w| w.0))
            } else {
                quote!(.map(|w| w.0))
            };
            with_wrapper(
                field,
                with,
                quote!(::dynamap::__private::decode_optional_field::<__DynamapWith>(&mut __dynamap_item, #entity, #attribute)?#unwrap),
            )
        }
    }
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
