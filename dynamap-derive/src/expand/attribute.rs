//! `#[derive(Attribute)]`: direct conversion of a nested struct (stored as a map) or a
//! fieldless enum (stored as its variant's name), in the form serde's derives store.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use super::keys::type_span;
use super::render::via_traits;
use crate::ctx::Ctxt;

pub(crate) fn expand_attribute(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(Attribute)]` does not support generic types; leave it off and the type is stored through serde",
        );
    }
    for item in serde_items(&input.attrs) {
        let allowed = matches!(&input.data, Data::Enum(_)) && item.name == "rename_all";
        if !allowed {
            unsupported(&mut cx, &item);
        }
    }
    let body = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(fields) => Some(named_struct(&mut cx, fields)),
            _ => None,
        },
        Data::Enum(data) => fieldless_enum(&mut cx, input, data),
        Data::Union(_) => None,
    };
    let Some(body) = body else {
        if !cx.has_errors() {
            cx.error_at(
                &input.ident,
                "`#[derive(Attribute)]` needs a struct with named fields or an enum without fields",
            );
        }
        return cx.into_compile_errors();
    };
    if cx.has_errors() {
        return cx.into_compile_errors();
    }
    let ident = &input.ident;
    quote! {
        const _: () = {
            impl ::dynamap::__private::Attribute for #ident {
                #body
            }
        };
    }
}

/// One `name` or `name = "value"` of a `#[serde(...)]` attribute.
struct SerdeItem {
    name: String,
    value: Option<String>,
    span: Span,
}

fn serde_items(attrs: &[syn::Attribute]) -> Vec<SerdeItem> {
    let mut items = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // Malformed serde attributes are serde's to report.
        let _ = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map_or_else(String::new, ToString::to_string);
            let mut value = None;
            if meta.input.peek(syn::Token![=]) {
                let expr: syn::Expr = meta.value()?.parse()?;
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(lit),
                    ..
                }) = expr
                {
                    value = Some(lit.value());
                }
            } else if meta.input.peek(syn::token::Paren) {
                let _: TokenStream = meta.input.parse()?;
                // `rename(serialize = .., deserialize = ..)` and the like: not followed.
                value = None;
            }
            items.push(SerdeItem {
                name,
                value,
                span: meta.path.span(),
            });
            Ok(())
        });
    }
    items
}

fn unsupported(cx: &mut Ctxt, item: &SerdeItem) {
    cx.push(syn::Error::new(
        item.span,
        format!(
            "`#[derive(Attribute)]` stores the form serde's derives store by default and does not follow #[serde({})]; leave `Attribute` off and this type is stored through serde",
            item.name
        ),
    ));
}

fn named_struct(cx: &mut Ctxt, fields: &syn::FieldsNamed) -> TokenStream {
    struct Stored<'a> {
        ident: &'a syn::Ident,
        ty: &'a syn::Type,
        name: String,
        default: bool,
        optional: bool,
    }
    let mut stored = Vec::new();
    let mut skipped = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("named fields have names");
        let mut name = ident.to_string().trim_start_matches("r#").to_owned();
        let mut default = false;
        let mut skip = false;
        for item in serde_items(&field.attrs) {
            match (item.name.as_str(), &item.value) {
                ("rename", Some(value)) => name.clone_from(value),
                ("default", None) => default = true,
                ("skip", None) => skip = true,
                _ => unsupported(cx, &item),
            }
        }
        if skip {
            skipped.push(ident);
            continue;
        }
        let optional = crate::index_keys::last_segment(&field.ty).as_deref() == Some("Option");
        stored.push(Stored {
            ident,
            ty: &field.ty,
            name,
            default,
            optional,
        });
    }
    let via = via_traits();
    let count = stored.len();
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
        let missing = if f.default || f.optional {
            quote!(::core::default::Default::default())
        } else {
            let message = format!("missing field `{name}`");
            quote!(return ::core::result::Result::Err(::dynamap::__private::missing_field(#message)))
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
fn fieldless_enum(cx: &mut Ctxt, input: &DeriveInput, data: &syn::DataEnum) -> Option<TokenStream> {
    let rename_all = serde_items(&input.attrs)
        .into_iter()
        .find(|item| item.name == "rename_all")
        .and_then(|item| item.value);
    let mut names = Vec::new();
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            cx.error_at(
                &variant.ident,
                "`#[derive(Attribute)]` on an enum needs variants without fields; leave it off and the enum is stored through serde",
            );
            return None;
        }
        let mut name = variant.ident.to_string();
        if let Some(rule) = &rename_all {
            name = super::key_part::apply_rename_all(rule, &name);
        }
        for item in serde_items(&variant.attrs) {
            match (item.name.as_str(), &item.value) {
                ("rename", Some(value)) => name.clone_from(value),
                _ => unsupported(cx, &item),
            }
        }
        names.push((&variant.ident, name));
    }
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
    let empty = data
        .variants
        .is_empty()
        .then(|| quote!(#[allow(unreachable_code)]));
    Some(quote! {
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
    })
}
