//! `#[derive(EntityProjection)]`: a struct of some of an entity's fields, read on its own.
//!
//! The struct's fields are checked against the entity by the generated code itself: each
//! is read as `fields.<name>` from the entity's `EntityFields::Fields` (one member per
//! entity field, of the field's type), so a name the entity lacks or another type is an
//! error at the projection's field.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Path};

use crate::ctx::Ctxt;

pub(crate) fn expand_entity_projection(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    let entity = entity_attr(&mut cx, input);
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(EntityProjection)]` does not support generic types",
        );
    }
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named.named.iter().collect(),
            Fields::Unit => Vec::new(),
            Fields::Unnamed(_) => {
                cx.error_at(&input.ident, "`#[derive(EntityProjection)]` needs a struct with named fields, named as the entity's");
                Vec::new()
            }
        },
        _ => {
            cx.error_at(&input.ident, "`#[derive(EntityProjection)]` needs a struct with named fields, named as the entity's");
            Vec::new()
        }
    };
    for field in &fields {
        if let Some(attr) = field.attrs.iter().find(|a| a.path().is_ident("dynamap")) {
            cx.error_at(attr, "a projection's fields take no `#[dynamap(...)]` attributes: each is read as the entity's field of the same name");
        }
    }
    let Some(entity) = entity else {
        return cx.into_compile_errors();
    };
    if cx.has_errors() {
        return cx.into_compile_errors();
    }
    let ident = &input.ident;
    let glue = quote!(<#entity as ::dynamap::__private::EntityFields>);
    let names: Vec<_> = fields.iter().filter_map(|f| f.ident.as_ref()).collect();
    // Spanned at the projection's field, where a wrong name or type is reported.
    let at = |f: &syn::Field| Span::call_site().located_at(f.span());
    let attributes = fields.iter().zip(&names).map(|(f, name)| {
        quote_spanned!(at(f)=> __dynamap_out.extend_from_slice(__dynamap_fields.#name.attributes);)
    });
    let values = fields.iter().zip(&names).map(|(f, name)| {
        let ty = &f.ty;
        // The binding's type, not `?`, says what the field must be: a mismatch reads as
        // "expected `u32`, found `u64`" at the projection's field.
        quote_spanned!(at(f)=> #name: {
            let __dynamap_value: #ty = match __dynamap_fields.#name.value {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
            };
            __dynamap_value
        })
    });
    let entity_trait = quote!(<#entity as ::dynamap::__private::Entity>);
    quote! {
        const _: () = {
            impl ::dynamap::__private::Sealed<::dynamap::__private::EntityProjectionSeal> for #ident {}

            impl ::dynamap::__private::EntityProjection for #ident {
                type Entity = #entity;

                fn attribute_names(__dynamap_out: &mut ::dynamap::__private::Vec<&'static str>) {
                    let __dynamap_fields = #glue::FIELDS;
                    #(#attributes)*
                }
            }

            impl ::dynamap::__private::Decode for #ident {
                type Table = #entity_trait::Table;
                const SINGLE_ENTITY: ::core::option::Option<&'static str> = ::core::option::Option::Some(#entity_trait::ENTITY_TYPE);
                const ALIASES: &'static [&'static str] = #entity_trait::ALIASES;
                const ENTITY_TYPES: &'static [&'static str] = &[#entity_trait::ENTITY_TYPE];

                fn decode(
                    __dynamap_item: ::dynamap::__private::Item,
                    _: ::dynamap::__private::UnknownEntity,
                ) -> ::dynamap::__private::Result<::core::option::Option<Self>> {
                    let __dynamap_fields = #glue::read_fields(__dynamap_item)?;
                    ::core::result::Result::Ok(::core::option::Option::Some(Self { #(#values,)* }))
                }
            }
        };
    }
}

/// `#[dynamap(entity = Issue)]`: the entity type. `crate = "..."` is read elsewhere.
fn entity_attr(cx: &mut Ctxt, input: &DeriveInput) -> Option<Path> {
    let mut entity: Option<Path> = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("dynamap")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("entity") {
                let value = meta.value()?;
                if value.peek(syn::LitStr) {
                    return Err(value.error("`entity` is the entity's type, like `entity = Issue`, not its stored name"));
                }
                let path: Path = value.parse()?;
                if entity.replace(path).is_some() {
                    return Err(meta.error("`entity` is given twice"));
                }
                Ok(())
            } else if meta.path.is_ident("crate") {
                meta.value()?.parse::<syn::LitStr>()?;
                Ok(())
            } else {
                Err(meta.error("unknown dynamap attribute; a projection takes `entity = Type` (and `crate = \"...\"`)"))
            }
        });
        if let Err(err) = parsed {
            cx.push(err);
        }
    }
    if entity.is_none() && !cx.has_errors() {
        cx.error_at(
            &input.ident,
            "a projection names its entity: add `#[dynamap(entity = YourEntity)]`",
        );
    }
    entity
}
