//! `#[derive(Attribute)]`: direct conversion of a nested struct (stored as a map) or a
//! fieldless enum (stored as its variant's name), in the form serde's derives store.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use super::keys::type_span;
use super::render::via_traits;
use super::serde_shape::{Shape, StoredField, shape};
use crate::ctx::Ctxt;

pub(crate) fn expand_attribute(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let body = match shape(&mut cx, input, "Attribute") {
        Some(Shape::Struct { stored, skipped }) => named_struct(&stored, &skipped),
        Some(Shape::Enum(variants)) => fieldless_enum(&variants),
        None => return cx.into_compile_errors(),
    };
    let ident = &input.ident;
    quote! {
        const _: () = {
            impl ::dynamap::__private::Attribute for #ident {
                #body
            }
        };
    }
}

fn named_struct(stored: &[StoredField<'_>], skipped: &[&syn::Ident]) -> TokenStream {
    let via = via_traits();
    let count = stored.len();
    let form_checks = super::stored_form::checks(stored.iter().map(|f| f.ty));
    let inserts = stored.iter().map(|f| {
        let (ident, ty, name) = (f.ident, f.ty, &f.name);
        quote_spanned! {type_span(ty)=>
            (&::dynamap::__private::Via::<#ty>::NEW).insert(&mut __dynamap_map, ::dynamap::__private::ToString::to_string(#name), &self.#ident)?;
        }
    });
    let slot = |i: usize| format_ident!("__dynamap_slot_{}", i);
    let slots = (0..stored.len()).map(slot);
    let arms = stored.iter().enumerate().map(|(i, f)| {
        let (slot, name) = (slot(i), &f.name);
        quote!(#name => #slot = ::core::option::Option::Some(__dynamap_value),)
    });
    let reads = stored.iter().enumerate().map(|(i, f)| {
        let (ident, ty, name, slot) = (f.ident, f.ty, &f.name, slot(i));
        let decode = quote_spanned!(type_span(ty)=> (&::dynamap::__private::Via::<#ty>::NEW).decode(value)?);
        // As serde's derive: a missing `Option` is `None`, a missing `default` field its default.
        let missing = if f.may_be_missing() {
            quote!(::core::default::Default::default())
        } else {
            let message = format!("missing field `{name}`");
            // A set is left out of the map when empty, so a missing one reads as empty.
            quote_spanned! {type_span(ty)=>
                match (&::dynamap::__private::Via::<#ty>::NEW).when_missing() {
                    ::core::option::Option::Some(empty) => empty,
                    ::core::option::Option::None => return ::core::result::Result::Err(::dynamap::__private::missing_field(#message)),
                }
            }
        };
        quote! {
            #ident: match #slot {
                ::core::option::Option::Some(value) => #decode,
                ::core::option::Option::None => #missing,
            }
        }
    });
    let skipped = skipped
        .iter()
        .map(|ident| quote!(#ident: ::core::default::Default::default()));
    quote! {
        fn to_attribute(&self) -> ::core::result::Result<::dynamap::__private::AttributeValue, ::dynamap::__private::AttributeError> {
            #via
            #form_checks
            let mut __dynamap_map = ::dynamap::__private::HashMap::with_capacity(#count);
            #(#inserts)*
            ::core::result::Result::Ok(::dynamap::__private::AttributeValue::M(__dynamap_map))
        }

        fn from_attribute(value: ::dynamap::__private::AttributeValue) -> ::core::result::Result<Self, ::dynamap::__private::AttributeError> {
            #via
            let __dynamap_map = ::dynamap::__private::attribute_map(value)?;
            #(let mut #slots: ::core::option::Option<::dynamap::__private::AttributeValue> = ::core::option::Option::None;)*
            for (__dynamap_name, __dynamap_value) in __dynamap_map {
                match __dynamap_name.as_str() {
                    #(#arms)*
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self { #(#reads,)* #(#skipped,)* })
        }
    }
}

/// A fieldless enum is stored as its variant's name, as serde stores unit variants.
fn fieldless_enum(names: &[(&syn::Ident, String)]) -> TokenStream {
    let expected = names
        .iter()
        .map(|(_, n)| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let expected = format!("one of {expected}");
    let writes = names
        .iter()
        .map(|(ident, name)| quote!(Self::#ident => #name));
    let reads = names
        .iter()
        .map(|(ident, name)| quote!(#name => ::core::result::Result::Ok(Self::#ident)));
    let empty = names.is_empty().then(|| quote!(#[allow(unreachable_code)]));
    quote! {
        #empty
        fn to_attribute(&self) -> ::core::result::Result<::dynamap::__private::AttributeValue, ::dynamap::__private::AttributeError> {
            let name: &str = match *self { #(#writes,)* };
            ::core::result::Result::Ok(::dynamap::__private::AttributeValue::S(::core::convert::From::from(name)))
        }

        fn from_attribute(value: ::dynamap::__private::AttributeValue) -> ::core::result::Result<Self, ::dynamap::__private::AttributeError> {
            let name = ::dynamap::__private::attribute_string(value)?;
            match name.as_str() {
                #(#reads,)*
                _ => ::core::result::Result::Err(::dynamap::__private::unknown_variant(&name, #expected)),
            }
        }
    }
}
