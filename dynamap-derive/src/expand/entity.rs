//! `#[derive(Entity)]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::DeriveInput;

use super::entity_checks::{key_part_assertions, layout_checks};
use super::keys::{parse, part_var, type_span};
use super::render::{
    encode_value, fields_of, hole_type, insert_index_key, is_primary_field, key_fields, key_holes,
    part_type, render_template, schema, via_traits,
};
use crate::check::entity_model;
use crate::ctx::Ctxt;
use crate::model::{EntityModel, FieldModel, Hole, IndexKey, IndexModel};

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
    let primary_key = rendered_key(model, |f| {
        let ident = f.ident;
        quote!(self.#ident)
    });
    let to_item = to_item(model);
    let from_item = super::from_item::from_item(model);
    let entity_fields = super::entity_fields::entity_fields(model);
    let parse_key = parse_key(model);
    let write_meta = super::write_meta::write_meta(model);
    let aliases = &model.aliases;
    let key_changes = super::key_changes::key_changes(model);
    let lookup_types = super::partition::lookup_types(model);
    let columns = super::columns::columns(model);
    let created_attributes = super::created_item::created_attributes(model);
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
                #columns
            }

            impl ::dynamap::__private::EntityGlue for #ident {
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
    let key = rendered_key(model, by_name);
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

/// The primary key rendered from its fields' values (`value` gives each field's expression):
/// a template renders a string; a field mapped with `field(x)` is its own value.
fn rendered_key(
    model: &EntityModel<'_>,
    value: impl Fn(&FieldModel<'_>) -> TokenStream + Copy,
) -> TokenStream {
    let entity = &model.entity_name;
    let key_value = |key: &IndexKey, attribute: TokenStream, limit: TokenStream| match key {
        IndexKey::Template(template) => {
            let rendered = render_template(model, template, attribute, limit, value);
            quote!(::core::result::Result::map(#rendered, ::dynamap::__private::AttributeValue::S))
        }
        IndexKey::Field(key) => {
            let Some(field) = key.fields.first().and_then(|f| model.field(&f.to_string())) else {
                return quote!(::core::unreachable!());
            };
            let (ty, name) = (part_type(field), field.ident.to_string());
            let expr = value(field);
            quote!(::dynamap::__private::primary_attribute::<#ty>(&#expr, #entity, #attribute, #name, ::dynamap::__private::#limit))
        }
    };
    let pk = key_value(
        &model.pk,
        quote!(__dynamap_schema.pk),
        quote!(MAX_PARTITION_KEY_BYTES),
    );
    let sk = match &model.sk {
        Some(sk) => {
            let sk = key_value(
                sk,
                quote!(__dynamap_sk_attribute),
                quote!(MAX_SORT_KEY_BYTES),
            );
            quote! {
                ::core::option::Option::Some({
                    let __dynamap_sk_attribute = match __dynamap_schema.sk {
                        ::core::option::Option::Some(attribute) => attribute,
                        ::core::option::Option::None => "",
                    };
                    #sk
                })
            }
        }
        None => quote!(::core::option::Option::None),
    };
    let schema = schema(model);
    quote! {
        let __dynamap_schema = &#schema;
        ::dynamap::__private::Key::from_attributes(#pk, #sk)
    }
}

fn to_item(model: &EntityModel<'_>) -> TokenStream {
    let schema = schema(model);
    let entity = &model.entity_name;
    let capacity = model.fields.len() + 3 + 2 * model.indexes.len();
    let indexes = model
        .indexes
        .iter()
        .map(|index| index_attributes(model, index));
    // A field mapped to a table key attribute (`field(x)`) is in the item as that key.
    let fields = model
        .fields
        .iter()
        .filter(|f| !f.skip && !is_primary_field(model, f))
        .map(|f| encode_field(entity, f));
    let via = via_traits();
    let schema_version = model.schema.as_ref().map(|schema| {
        let version = schema.current.to_string();
        quote! {
            __dynamap_item.insert(
                ::core::convert::From::from(::dynamap::__private::SCHEMA_VERSION_ATTRIBUTE),
                ::dynamap::__private::AttributeValue::N(::core::convert::From::from(#version)),
            );
        }
    });
    let constants = model.constants.iter().map(|(name, value)| {
        let name = name.value();
        quote! {
            __dynamap_item.insert(
                ::core::convert::From::from(#name),
                ::dynamap::__private::AttributeValue::S(::core::convert::From::from(#value)),
            );
        }
    });
    let constants = quote!(#(#constants)*);
    quote! {
        fn to_item(&self) -> ::dynamap::__private::Result<::dynamap::__private::Item> {
            #via
            let __dynamap_schema = &#schema;
            let (__dynamap_pk, __dynamap_sk) = ::dynamap::__private::Key::into_attribute_values(::dynamap::__private::Entity::primary_key(self))?;
            let mut __dynamap_item = ::dynamap::__private::Item::with_capacity(#capacity);
            __dynamap_item.insert(::core::convert::From::from(__dynamap_schema.pk), __dynamap_pk);
            if let (::core::option::Option::Some(attribute), ::core::option::Option::Some(value)) = (__dynamap_schema.sk, __dynamap_sk) {
                __dynamap_item.insert(::core::convert::From::from(attribute), value);
            }
            __dynamap_item.insert(
                ::core::convert::From::from(__dynamap_schema.entity_type),
                ::dynamap::__private::AttributeValue::S(::core::convert::From::from(#entity)),
            );
            #schema_version
            #constants
            #(#fields)*
            #(#indexes)*
            ::core::result::Result::Ok(__dynamap_item)
        }
    }
}

/// Writes an index's key attributes, but only when every field its templates need is
/// present: items missing one stay out of the index (a sparse index). A key that is a
/// field's own attribute is stored with the field; its value is checked here.
fn index_attributes(model: &EntityModel<'_>, index: &IndexModel) -> TokenStream {
    let name = &index.name;
    let entity = &model.entity_name;
    let fields = fields_of(model, index.templates());
    let optional: Vec<_> = fields.iter().filter(|f| f.option_inner.is_some()).collect();
    let bindings = optional
        .iter()
        .map(|f| format_ident!("__dynamap_opt_{}", f.ident));
    let sources = optional.iter().map(|f| {
        let ident = f.ident;
        quote!(&self.#ident)
    });
    let value = |f: &FieldModel<'_>| {
        let ident = f.ident;
        if f.option_inner.is_some() {
            let binding = format_ident!("__dynamap_opt_{}", ident);
            quote!(*#binding)
        } else {
            quote!(self.#ident)
        }
    };
    let mut writes = Vec::new();
    let mut checks = Vec::new();
    // A local index's partition key is the table's, already in the item.
    let pk = (!index.local).then_some(&index.pk);
    for (is_pk, key) in [(true, pk), (false, index.sk.as_ref())] {
        let Some(key) = key else { continue };
        match key {
            IndexKey::Template(template) => {
                writes.push(insert_index_key(model, is_pk, template, value));
            }
            IndexKey::Field(key) => {
                let limit = if is_pk {
                    quote!(MAX_PARTITION_KEY_BYTES)
                } else {
                    quote!(MAX_SORT_KEY_BYTES)
                };
                for field in key
                    .fields
                    .iter()
                    .filter_map(|f| model.field(&f.to_string()))
                {
                    let field_attribute = &field.attribute;
                    let field_name = field.ident.to_string();
                    checks.push(quote! {
                        ::dynamap::__private::check_key_attribute(&__dynamap_item, #entity, #field_attribute, #field_name, ::dynamap::__private::#limit)?;
                    });
                }
            }
        }
    }
    quote! {
        if let (::core::option::Option::Some(__dynamap_index), #(::core::option::Option::Some(#bindings),)*) = (__dynamap_schema.index(#name), #(#sources,)*) {
            #(#writes)*
        }
        #(#checks)*
    }
}

fn encode_field(entity: &str, field: &FieldModel<'_>) -> TokenStream {
    let ident = field.ident;
    encode_value(entity, field, &quote!(self.#ident))
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
