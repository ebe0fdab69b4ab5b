//! `#[derive(Entity)]`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;

use super::entity_checks::{key_part_assertions, layout_checks};
use super::keys::{parse, part_var, type_span};
use super::primary_key::{rendered_key, self_field};
use super::render::{hole_type, is_primary_field, key_fields, key_holes, part_type, schema};
use crate::check::entity_model;
use crate::ctx::Ctxt;
use crate::model::{EntityModel, FieldModel, Hole, IndexKey};

pub(crate) fn expand_entity(input: &DeriveInput) -> TokenStream {
    let mut cx = Ctxt::default();
    match entity_model(&mut cx, input) {
        Some(model) if !cx.has_errors() => expand(&model),
        _ => cx.into_compile_errors(),
    }
}

fn expand(model: &EntityModel<'_>) -> TokenStream {
    let ident = model.ident;
    let table = &model.table;
    let entity = &model.entity_name;
    let checks = layout_checks(model);
    let key_part_assertions = key_part_assertions(model);
    let builders = key_builders(model);
    // Each part's type: a field's own (primary-key fields are never `Option`s), or a
    // computed part's declared one.
    let key_types = key_holes(model).into_iter().map(|hole| match hole {
        Hole::Field(field) => field.ty,
        Hole::Computed(part) => &part.ty,
    });
    // Rendered here rather than through `Self::key`, whose arguments need the key fields'
    // types to be key parts: a type that is not is reported once, at the field's type.
    let primary_key = rendered_key(model, self_field, &|_| None);
    let to_item = super::to_item::to_item(model);
    let from_item = super::from_item::from_item(model);
    let entity_fields = super::entity_fields::entity_fields(model);
    let parse_key = parse_key(model);
    let write_meta = super::write_meta::write_meta(model);
    let description = super::description::description(model);
    let aliases = &model.aliases;
    let key_changes = super::key_changes::key_changes(model);
    let lookup_types = super::partition::lookup_types(model);
    let columns = super::columns::columns(model);
    let created_attributes = super::created_item::created_attributes(model);
    let index_tables = super::index_updates::index_tables(model);
    let table_sort = super::partition::table_sort_shape(model);
    let table_sort_segments = super::partition::table_sort_segments(model);
    let versioned = model.fields.iter().any(|f| f.version).then(|| {
        quote! {
            impl ::dynamap::__private::Sealed<::dynamap::__private::VersionedSeal> for #ident {}
            impl ::dynamap::__private::Versioned for #ident {}
        }
    });
    let event_rows = model
        .event_rows
        .as_ref()
        .map(|rows| crate::event_rows::expand(ident, rows));
    let sort_builder_types = super::sort_builder::sort_builder_types(model);
    let sort_builder_impls = super::sort_builder::sort_builder_impls(model);
    quote! {
        #sort_builder_types

        const _: () = {
            #checks
            #key_part_assertions
            #builders
            #sort_builder_impls
            #index_tables

            impl ::dynamap::__private::Entity for #ident {
                type Table = #table;
                type KeyParts = (#(#key_types,)*);
                const ENTITY_TYPE: &'static str = #entity;
                const ALIASES: &'static [&'static str] = &[#(#aliases),*];

                fn primary_key(&self) -> ::dynamap::__private::Key<Self> {
                    #primary_key
                }

                #to_item
                #from_item
                #parse_key
                #description
                #columns
            }

            impl ::dynamap::__private::EntityGlue for #ident {
                type TableSort = #table_sort;
                const TABLE_SORT: &'static [::dynamap::__private::Segment] = #table_sort_segments;
                #write_meta
                #key_changes
                #lookup_types
                #created_attributes
            }

            impl ::dynamap::__private::Sealed<::dynamap::__private::AsEntitySeal> for #ident {}
            impl ::dynamap::__private::Sealed<::dynamap::__private::AsEntitySeal> for &#ident {}

            impl ::dynamap::__private::AsEntity for #ident {
                type Entity = Self;
                fn as_entity(&self) -> &Self {
                    self
                }
            }

            impl ::dynamap::__private::AsEntity for &#ident {
                type Entity = #ident;
                fn as_entity(&self) -> &#ident {
                    self
                }
            }

            #entity_fields
            #versioned
            #event_rows
        };
    }
}

fn key_builders(model: &EntityModel<'_>) -> TokenStream {
    let ident = model.ident;
    let vis = model.vis;
    let param = |f: &&FieldModel<'_>| {
        let (name, ty) = (f.ident, part_type(f));
        if is_primary_field(model, f) {
            quote_spanned!(type_span(ty)=> #name: impl ::dynamap::__private::KeyAttributeArg<#ty>)
        } else {
            quote_spanned!(type_span(ty)=> #name: impl ::dynamap::__private::KeyArg<#ty>)
        }
    };
    let by_name = |f: &FieldModel<'_>| {
        let name = f.ident;
        quote!(#name)
    };
    let key_fields = key_fields(model);
    let key_params = key_fields.iter().map(param);
    let key = rendered_key(model, by_name, &|_| None);
    // Computed parts are computed from values: the arguments are read back into them first.
    let key = if key_holes(model)
        .iter()
        .any(|h| matches!(h, Hole::Computed(_)))
    {
        let schema = schema(model);
        let entity = &model.entity_name;
        // A field mapped with `field(x)` is no template part: its argument is used as given.
        let template_fields: Vec<_> = key_fields
            .iter()
            .filter(|f| !is_primary_field(model, f))
            .collect();
        let names: Vec<_> = template_fields.iter().map(|f| f.ident).collect();
        let types: Vec<_> = template_fields.iter().map(|f| part_type(f)).collect();
        let reads = template_fields.iter().map(|f| {
            let (name, ty, field) = (f.ident, part_type(f), f.ident.to_string());
            let in_pk = model
                .pk
                .template()
                .is_some_and(|t| t.holes().any(|h| f.ident == h));
            let attribute = if in_pk {
                quote!(#schema.pk)
            } else {
                quote!(match #schema.sk { ::core::option::Option::Some(sk) => sk, ::core::option::Option::None => "" })
            };
            quote!(::dynamap::__private::key_arg_value::<#ty>(&#name, #entity, #attribute, #field)?)
        });
        quote! {
            let __dynamap_values: ::core::result::Result<(#(#types,)*), ::dynamap::__private::KeyError> =
                (|| ::core::result::Result::Ok((#(#reads,)*)))();
            match __dynamap_values {
                ::core::result::Result::Ok((#(#names,)*)) => { #key }
                ::core::result::Result::Err(error) => ::dynamap::__private::Key::from_rendered(::core::result::Result::Err(error), ::core::option::Option::None),
            }
        }
    } else {
        key
    };
    let key_doc = format!(
        "The primary key of the `{}` with these key fields: partition key `{}`{}.",
        model.entity_name,
        model.pk.describe(),
        model
            .sk
            .as_ref()
            .map(|sk| format!(", sort key `{}`", sk.describe()))
            .unwrap_or_default()
    );
    let partition_builders = super::partition::partition_builders(model);
    let field_attrs = super::partition::field_attrs(model);
    quote! {
        impl #ident {
            #[doc = #key_doc]
            #[allow(clippy::too_many_arguments)] // one argument per key field, as the template says
            #vis fn key(#(#key_params),*) -> ::dynamap::__private::Key<Self> {
                #key
            }

            #partition_builders
            #field_attrs
        }
    }
}

fn parse_key(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let ty = |hole: &str| {
        let ty = model
            .hole(hole)
            .map_or_else(|| syn::parse_quote!(()), |hole| hole_type(hole).clone());
        (ty, model.key_format(hole))
    };
    let mut bound = Vec::new();
    let mut steps = |key: &IndexKey, attribute: TokenStream, text: TokenStream| match key {
        IndexKey::Template(template) => parse(entity, &attribute, &text, template, &mut bound, ty),
        IndexKey::Field(key) => {
            let Some(field) = key.fields.first().and_then(|f| model.field(&f.to_string())) else {
                return TokenStream::new();
            };
            let name = field.ident.to_string();
            let (ty, var) = (part_type(field), part_var(&name));
            bound.push(name.clone());
            quote! {
                let #var: #ty = ::dynamap::__private::parse_primary_attribute::<#ty>(#entity, #attribute, #name, #text)?;
            }
        }
    };
    let pk = steps(&model.pk, quote!(__dynamap_schema.pk), quote!(pk));
    let sk = model.sk.as_ref().map(|sk| {
        let steps = steps(
            sk,
            quote!(__dynamap_sk_attribute),
            quote!(__dynamap_sk_text),
        );
        quote! {
            let __dynamap_sk_attribute = match __dynamap_schema.sk {
                ::core::option::Option::Some(attribute) => attribute,
                ::core::option::Option::None => "",
            };
            let __dynamap_sk_text = sk.unwrap_or_default();
            #steps
        }
    });
    let sk_param = if model.sk.is_some() {
        quote!(sk)
    } else {
        quote!(_sk)
    };
    let parts = bound.iter().map(|field| part_var(field));
    quote! {
        fn parse_key(
            pk: &str,
            #sk_param: ::core::option::Option<&str>,
        ) -> ::core::result::Result<Self::KeyParts, ::dynamap::__private::KeyError> {
            let __dynamap_schema = &#schema;
            #pk
            #sk
            ::core::result::Result::Ok((#(#parts,)*))
        }
    }
}
