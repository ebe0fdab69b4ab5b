//! `#[derive(Columnar)]`: the element type of a compressed list, written column by column
//! (a struct's fields each as a column, a fieldless enum's values as variant codes), under
//! the names serde's derives store.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use super::keys::type_span;
use super::serde_shape::{Shape, StoredField, shape};
use crate::ctx::Ctxt;

pub(crate) fn expand_columnar(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let body = match shape(&mut cx, input, "Columnar") {
        Some(Shape::Struct { stored, .. }) if stored.is_empty() => {
            cx.error_at(
                &input.ident,
                "`#[derive(Columnar)]` needs a struct with a stored field",
            );
            return cx.into_compile_errors();
        }
        Some(Shape::Enum(variants)) if variants.is_empty() => {
            cx.error_at(
                &input.ident,
                "`#[derive(Columnar)]` needs an enum with a variant",
            );
            return cx.into_compile_errors();
        }
        Some(Shape::Struct { stored, skipped }) => named_struct(&stored, &skipped),
        Some(Shape::Enum(variants)) => fieldless_enum(&variants),
        None => return cx.into_compile_errors(),
    };
    let ident = &input.ident;
    quote! {
        const _: () = {
            impl ::dynamap::__private::Columnar for #ident {
                #body
            }
        };
    }
}

/// Each stored field is one column, found by name when read.
fn named_struct(stored: &[StoredField<'_>], skipped: &[&syn::Ident]) -> TokenStream {
    let count = stored.len();
    let names = stored.iter().map(|f| &f.name);
    let writes = stored.iter().map(|f| {
        let (ident, ty, name) = (f.ident, f.ty, &f.name);
        let write = quote_spanned! {type_span(ty)=>
            <#ty as ::dynamap::__private::Columnar>::encode_field(values.clone().map(|value| &value.#ident), column)
        };
        quote!(record.field(#name, |column| #write);)
    });
    let column = |f: &StoredField<'_>| format_ident!("__dynamap_column_{}", f.ident);
    let reads = stored.iter().map(|f| {
        let (ty, name, column) = (f.ty, &f.name, column(f));
        // As serde's derive: a missing `Option` is `None`, a missing `default` field its
        // default; a column written before the field was added is missing.
        let missing = if f.may_be_missing() {
            quote!((0..count).map(|_| ::core::default::Default::default()).collect())
        } else {
            quote!(return ::core::result::Result::Err(::dynamap::__private::RecordReader::missing(#name)))
        };
        let read = quote_spanned!(type_span(ty)=> record.column::<#ty>(#name, count)?);
        quote! {
            let mut #column = match #read {
                ::core::option::Option::Some(values) => values,
                ::core::option::Option::None => #missing,
            }
            .into_iter();
        }
    });
    let fields = stored.iter().map(|f| {
        let (ident, column) = (f.ident, column(f));
        // Every column holds `count` values (each decoder checks): `None` is unreachable, but
        // an error rather than a panic.
        quote! {
            #ident: match #column.next() {
                ::core::option::Option::Some(value) => value,
                ::core::option::Option::None => return ::core::result::Result::Err(::dynamap::__private::RecordReader::short()),
            }
        }
    });
    quote! {
        fn encode_column<'__dynamap, I>(values: I, out: &mut ::std::vec::Vec<u8>)
        where
            I: ::core::iter::Iterator<Item = &'__dynamap Self> + ::core::clone::Clone,
            Self: '__dynamap,
        {
            let mut record = ::dynamap::__private::RecordWriter::new(out, #count);
            #(#writes)*
        }

        fn decode_column(
            input: &mut ::dynamap::__private::ColumnInput<'_>,
            count: usize,
        ) -> ::core::result::Result<::std::vec::Vec<Self>, ::dynamap::__private::CodecError> {
            let mut record = ::dynamap::__private::RecordReader::read(input, count, &[#(#names),*])?;
            #(#reads)*
            let mut values = ::std::vec::Vec::with_capacity(count);
            for _ in 0..count {
                values.push(Self {
                    #(#fields,)*
                    #(#skipped: ::core::default::Default::default(),)*
                });
            }
            ::core::result::Result::Ok(values)
        }
    }
}

/// The variants' names once, then each value's variant code.
fn fieldless_enum(variants: &[(&syn::Ident, String)]) -> TokenStream {
    let names = variants.iter().map(|(_, name)| name);
    let names = quote!(&[#(#names),*]);
    let codes = variants
        .iter()
        .enumerate()
        .map(|(code, (ident, _))| quote!(Self::#ident => #code));
    let reads = variants
        .iter()
        .enumerate()
        .map(|(code, (ident, _))| quote!(#code => ::core::result::Result::Ok(Self::#ident)));
    quote! {
        fn encode_column<'__dynamap, I>(values: I, out: &mut ::std::vec::Vec<u8>)
        where
            I: ::core::iter::Iterator<Item = &'__dynamap Self> + ::core::clone::Clone,
            Self: '__dynamap,
        {
            ::dynamap::__private::encode_variants(#names, values.map(|value| match *value { #(#codes,)* }), out);
        }

        fn decode_column(
            input: &mut ::dynamap::__private::ColumnInput<'_>,
            count: usize,
        ) -> ::core::result::Result<::std::vec::Vec<Self>, ::dynamap::__private::CodecError> {
            ::dynamap::__private::decode_variants(input, count, #names)?
                .into_iter()
                .map(|code| match code {
                    #(#reads,)*
                    _ => ::core::result::Result::Err(::dynamap::__private::CodecError::Corrupt("variant code out of range")),
                })
                .collect()
        }
    }
}
