//! `#[derive(KeyPart)]`: string-like newtypes and fieldless enums as key parts.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::attr::VariantAttrs;
use crate::ctx::Ctxt;

pub(crate) fn expand_key_part(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(KeyPart)]` does not support generic types",
        );
    }
    let body = match &input.data {
        Data::Struct(data) => newtype(&mut cx, input, &data.fields),
        Data::Enum(data) => fieldless_enum(&mut cx, data),
        Data::Union(_) => {
            cx.error_at(
                &input.ident,
                "`#[derive(KeyPart)]` needs a newtype struct or a fieldless enum",
            );
            None
        }
    };
    match body {
        Some(body) if !cx.has_errors() => {
            let ident = &input.ident;
            quote! {
                const _: () = {
                    impl ::dynamap::__private::KeyPart for #ident {
                        #body
                    }
                };
            }
        }
        _ => cx.into_compile_errors(),
    }
}

/// `struct SensorId(String);` renders and parses as its one field.
fn newtype(cx: &mut Ctxt, input: &DeriveInput, fields: &Fields) -> Option<TokenStream> {
    let only = match fields {
        Fields::Unnamed(f) if f.unnamed.len() == 1 => f.unnamed.first(),
        Fields::Named(f) if f.named.len() == 1 => f.named.first(),
        _ => None,
    };
    let Some(field) = only else {
        cx.error_at(&input.ident, "`#[derive(KeyPart)]` on a struct needs exactly one field, like `struct SensorId(String);`");
        return None;
    };
    let ty = &field.ty;
    let (access, build) = match &field.ident {
        Some(name) => (quote!(self.#name), quote!(Self { #name: inner })),
        None => (quote!(self.0), quote!(Self(inner))),
    };
    Some(quote! {
        fn write_key_part(&self, out: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
            <#ty as ::dynamap::__private::KeyPart>::write_key_part(&#access, out)
        }

        fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
            let inner = <#ty as ::dynamap::__private::KeyPart>::parse_key_part(text)?;
            ::core::result::Result::Ok(#build)
        }
    })
}

/// `enum Kind { Gas, Humidity }` renders each variant as its name, or its
/// `#[dynamap(rename = "...")]`.
fn fieldless_enum(cx: &mut Ctxt, data: &syn::DataEnum) -> Option<TokenStream> {
    let mut names = Vec::new();
    for variant in &data.variants {
        let attrs = VariantAttrs::parse(cx, &variant.attrs);
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_at(
                &variant.ident,
                "`#[derive(KeyPart)]` on an enum needs variants without fields",
            );
        }
        let name = attrs
            .rename
            .as_ref()
            .map_or_else(|| variant.ident.to_string(), syn::LitStr::value);
        if name.is_empty()
            && let Some(lit) = &attrs.rename
        {
            cx.error_at(lit, "key part names cannot be empty");
        }
        if names.iter().any(|(_, n)| n == &name) {
            cx.error_at(
                &variant.ident,
                format!("two variants render as key part {name:?}"),
            );
        }
        names.push((&variant.ident, name));
    }
    if data.variants.is_empty() {
        return Some(quote! {
            fn write_key_part(&self, _: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
                match *self {}
            }
            fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
                ::core::result::Result::Err(::dynamap::__private::KeyPartError::Malformed { text: ::core::convert::From::from(text), expected: "no value (the enum has no variants)" })
            }
        });
    }
    let expected = format!(
        "one of {}",
        names
            .iter()
            .map(|(_, n)| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let writes = names
        .iter()
        .map(|(ident, name)| quote!(Self::#ident => #name));
    let reads = names
        .iter()
        .map(|(ident, name)| quote!(#name => ::core::result::Result::Ok(Self::#ident)));
    Some(quote! {
        fn write_key_part(&self, out: &mut ::dynamap::__private::String) -> ::core::result::Result<(), ::dynamap::__private::KeyPartError> {
            out.push_str(match self { #(#writes,)* });
            ::core::result::Result::Ok(())
        }

        fn parse_key_part(text: &str) -> ::core::result::Result<Self, ::dynamap::__private::KeyPartError> {
            match text {
                #(#reads,)*
                _ => ::core::result::Result::Err(::dynamap::__private::KeyPartError::Malformed {
                    text: ::core::convert::From::from(text),
                    expected: #expected,
                }),
            }
        }
    })
}
