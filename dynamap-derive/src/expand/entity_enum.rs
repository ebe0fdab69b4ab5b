//! `#[derive(EntityEnum)]`: an enum of entities of one table, decoded by entity type.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::ctx::Ctxt;

pub(crate) fn expand_entity_enum(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    if !input.generics.params.is_empty() {
        cx.error_at(
            &input.generics,
            "`#[derive(EntityEnum)]` does not support generic types",
        );
    }
    let Data::Enum(data) = &input.data else {
        cx.error_at(&input.ident, "`#[derive(EntityEnum)]` needs an enum whose variants each hold one entity, like `Sensor(Sensor)`");
        return cx.into_compile_errors();
    };
    let mut variants = Vec::new();
    for variant in &data.variants {
        match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                if let Some(field) = fields.unnamed.first() {
                    variants.push((&variant.ident, &field.ty));
                }
            }
            _ => cx.error_at(
                &variant.ident,
                "each variant holds exactly one entity, like `Sensor(Sensor)`",
            ),
        }
    }
    if variants.is_empty() && !cx.has_errors() {
        cx.error_at(
            &input.ident,
            "`#[derive(EntityEnum)]` needs at least one variant",
        );
    }
    if cx.has_errors() {
        return cx.into_compile_errors();
    }

    let ident = &input.ident;
    let name = ident.to_string();
    let first = variants[0].1;
    let table = quote!(<#first as ::dynamap::__private::Entity>::Table);
    // Every variant's entity must live in the same table. A mismatch is reported at the
    // variant as "expected `SameTableAsFirstVariant<App>`, found `...<Audit>`". (No
    // `#[diagnostic::on_unimplemented]` trait: the `diagnostic` namespace does not resolve
    // under `#[no_implicit_prelude]`.) The struct sits in a module so its name shadows no
    // user type the variants name.
    let same_table = variants.iter().skip(1).map(|(_, ty)| {
        let span = Span::call_site().located_at(ty.span());
        quote_spanned! {span=>
            let _: __dynamap_entity_enum::SameTableAsFirstVariant<#table> =
                __dynamap_entity_enum::SameTableAsFirstVariant::<<#ty as ::dynamap::__private::Entity>::Table>(::core::marker::PhantomData);
        }
    });
    let arms = variants.iter().map(|(variant, ty)| {
        quote! {
            if ::dynamap::__private::is_entity(__dynamap_found, <#ty as ::dynamap::__private::Entity>::ENTITY_TYPE, <#ty as ::dynamap::__private::Entity>::ALIASES) {
                // Through the entity's own `Decode`, so the policy applies to it too.
                return <#ty as ::dynamap::__private::Decode>::decode(__dynamap_item, __dynamap_unknown)
                    .map(|entity| entity.map(Self::#variant));
            }
        }
    });
    let types = variants
        .iter()
        .map(|(_, ty)| quote!(<#ty as ::dynamap::__private::Entity>::ENTITY_TYPE));
    let descriptions = variants
        .iter()
        .map(|(_, ty)| quote!(&<#ty as ::dynamap::__private::Entity>::DESCRIPTION));
    let froms = variants.iter().map(|(variant, ty)| {
        quote! {
            impl ::core::convert::From<#ty> for #ident {
                fn from(entity: #ty) -> Self {
                    Self::#variant(entity)
                }
            }
        }
    });
    let row = entity_row(ident, &table, &variants);
    quote! {
        const _: () = {
            mod __dynamap_entity_enum {
                pub struct SameTableAsFirstVariant<T>(pub ::core::marker::PhantomData<T>);
            }
            const _: fn() = || { #(#same_table)* };

            impl ::dynamap::__private::Decode for #ident {
                type Table = #table;
                const SINGLE_ENTITY: ::core::option::Option<&'static str> = ::core::option::Option::None;
                const ENTITY_TYPES: &'static [&'static str] = &[#(#types),*];
                const DESCRIPTIONS: &'static [&'static ::dynamap::__private::EntityDescription] = &[#(#descriptions),*];

                fn decode(
                    __dynamap_item: ::dynamap::__private::Item,
                    __dynamap_unknown: ::dynamap::__private::UnknownEntity,
                ) -> ::dynamap::__private::Result<::core::option::Option<Self>> {
                    let __dynamap_attribute = <#table as ::dynamap::__private::Table>::SCHEMA.entity_type;
                    let __dynamap_found = ::dynamap::__private::entity_type_of(&__dynamap_item, __dynamap_attribute);
                    #(#arms)*
                    ::dynamap::__private::unknown_entity(__dynamap_unknown, #name, __dynamap_attribute, __dynamap_found)
                }
            }

            #(#froms)*
            #row
        };
    }
}

/// `EntityRow`: each variant is a row of its own entity type's table. Every variant type is
/// named as `<Type as Entity>`, as in `Decode`, so a variant that is not an entity is one
/// error, not one per use.
fn entity_row(
    ident: &syn::Ident,
    table: &TokenStream,
    variants: &[(&syn::Ident, &syn::Type)],
) -> TokenStream {
    let by_variant = |body: &dyn Fn(&syn::Type) -> TokenStream| -> TokenStream {
        variants
            .iter()
            .map(|(variant, ty)| {
                let body = body(ty);
                quote!(Self::#variant(__dynamap_entity) => #body,)
            })
            .collect()
    };
    let entity_type = by_variant(&|ty| quote!(<#ty as ::dynamap::__private::Entity>::ENTITY_TYPE));
    let columns = by_variant(&|ty| quote!(<#ty as ::dynamap::__private::Entity>::columns()));
    let item =
        by_variant(&|ty| quote!(<#ty as ::dynamap::__private::Entity>::to_item(__dynamap_entity)));
    quote! {
        impl ::dynamap::__private::EntityRow for #ident {
            fn entity_type(&self) -> &'static str {
                match self { #entity_type }
            }
            fn key_attributes(&self) -> (&'static str, ::core::option::Option<&'static str>) {
                let __dynamap_schema = <#table as ::dynamap::__private::Table>::SCHEMA;
                (__dynamap_schema.pk, __dynamap_schema.sk)
            }
            fn columns(&self) -> ::dynamap::__private::Vec<::dynamap::__private::Column> {
                match self { #columns }
            }
            fn item(&self) -> ::dynamap::__private::Result<::dynamap::__private::Item> {
                match self { #item }
            }
        }
    }
}
