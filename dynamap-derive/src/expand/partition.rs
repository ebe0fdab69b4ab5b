//! What `#[derive(Entity)]` generates for queries: a partition builder for the table and
//! one per index, and a typed attribute constant per stored field.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;

use super::keys::type_span;
use super::render::{
    direct_module, hole_ident, hole_type, holes_of, part_type, render_holes, schema, via_traits,
};
use super::sort_builder::{NamedSortKey, sort_builder_start, sort_segments};
use crate::model::{EntityModel, FieldModel, Hole, IndexKey, IndexModel};
use crate::names::{lookup_method, snake_case};
use crate::template::Template;

/// `partition(...)` for the table, `<index>(...)` (the index name in snake case) for
/// each index the entity declares templates for, and `by_<lookup>(...)` for each lookup.
pub(crate) fn partition_builders(model: &EntityModel<'_>) -> TokenStream {
    let table_doc = format!(
        "Every `{}` item of the partition `{}` with these fields: a query's starting point.",
        model.entity_name,
        model.pk.describe()
    );
    let table_shape = table_sort_shape(model);
    let table_sort_start = NamedSortKey::of_table(model).map(|key| sort_builder_start(model, &key));
    let table = match &model.pk {
        IndexKey::Template(pk) => partition_builder(
            model,
            &format_ident!("partition"),
            quote!(Self),
            pk,
            model.sk.as_ref(),
            table_shape,
            quote!(__dynamap_schema.pk),
            quote!(::core::option::Option::None),
            table_doc,
        ),
        IndexKey::Field(_) => match model.primary_field(true) {
            Some(field) => table_attribute_partition_builder(model, field, table_shape, table_doc),
            None => TokenStream::new(),
        },
    };
    let indexes = model.indexes.iter().map(|index| {
        let name = &index.name;
        let method = format_ident!("{}", snake_case(&name.value()), span = name.span());
        let describe = |key: &IndexKey| match key {
            IndexKey::Template(t) => t.text(),
            IndexKey::Field(k) => format!(
                "fields({})",
                k.fields
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let doc = format!(
            "Every `{}` item under `{}` in index `{}`: a query's starting point.",
            model.entity_name,
            describe(&index.pk),
            name.value()
        );
        let attribute = quote!(match __dynamap_schema.index(#name) {
            ::core::option::Option::Some(index) => index.pk,
            ::core::option::Option::None => "",
        });
        let sk = index.sk.as_ref();
        let shape = sort_shape(model, index);
        // A sort key of several parts is given by name, from a builder.
        let sort_start =
            NamedSortKey::of_index(model, index).map(|key| sort_builder_start(model, &key));
        let builder = match &index.pk {
            IndexKey::Template(pk) => partition_builder(
                model,
                &method,
                quote!(Self),
                pk,
                sk,
                shape,
                attribute,
                quote!(::core::option::Option::Some(#name)),
                doc,
            ),
            IndexKey::Field(key) => {
                let fields: Vec<_> = key
                    .fields
                    .iter()
                    .filter_map(|f| model.field(&f.to_string()))
                    .collect();
                if fields.len() != key.fields.len() {
                    return TokenStream::new();
                }
                attribute_partition_builder(model, &method, &fields, sk, shape, name, doc)
            }
        };
        quote!(#builder #sort_start)
    });
    let lookups = model.lookups.iter().enumerate().map(|(i, lookup)| {
        let name = &lookup.name;
        let method = format_ident!("{}", lookup_method(&name.value()), span = name.span());
        let doc = format!(
            "The keys of the `{}` entities whose lookup {:?} is under `{}`: a query's starting point (`.owners()` reads the entities).",
            model.entity_name,
            name.value(),
            lookup.pk.text()
        );
        let sk = lookup.sk.clone().map(IndexKey::Template);
        let named = NamedSortKey::of_lookup(model, lookup);
        let shape = match &named {
            Some(key) => {
                let ty = key.type_ident(model);
                quote!(#ty)
            }
            None => template_shape(model, lookup.sk.as_ref()),
        };
        let builder = partition_builder(
            model,
            &method,
            quote!(::dynamap::__private::OwnerKey<Self, #i>),
            &lookup.pk,
            sk.as_ref(),
            shape,
            quote!(__dynamap_schema.pk),
            quote!(::core::option::Option::None),
            doc,
        );
        let sort_start = named.map(|key| sort_builder_start(model, &key));
        quote!(#builder #sort_start)
    });
    quote!(#table #table_sort_start #(#indexes)* #(#lookups)*)
}

/// The entity types of the entity's lookup items, which lookup queries read.
pub(crate) fn lookup_types(model: &EntityModel<'_>) -> TokenStream {
    if model.lookups.is_empty() {
        return TokenStream::new();
    }
    let types = model
        .lookups
        .iter()
        .map(|lookup| format!("{}.{}", model.entity_name, lookup.name.value()));
    quote! {
        const LOOKUP_TYPES: &'static [&'static str] = &[#(#types),*];
    }
}

/// The sort-key shape of the table's partitions: the generated builder type for a sort key
/// of several parts, which gives them by name, the single-part shapes otherwise.
pub(crate) fn table_sort_shape(model: &EntityModel<'_>) -> TokenStream {
    match NamedSortKey::of_table(model) {
        Some(key) => {
            let ty = key.type_ident(model);
            quote!(#ty)
        }
        None => key_shape(model, model.sk.as_ref()),
    }
}

/// The table's sort key template as partition keys keep it (empty without one).
pub(crate) fn table_sort_segments(model: &EntityModel<'_>) -> TokenStream {
    let segments = model
        .sk
        .as_ref()
        .and_then(IndexKey::template)
        .map(|template| sort_segments(model, template))
        .unwrap_or_default();
    quote!(&[#(#segments),*])
}

/// The builder of an index partition whose key is made of fields' own attributes (one, or
/// several in a multi-attribute key): it takes the fields' values themselves.
fn attribute_partition_builder(
    model: &EntityModel<'_>,
    method: &Ident,
    fields: &[&FieldModel<'_>],
    sk: Option<&IndexKey>,
    shape: TokenStream,
    index: &syn::LitStr,
    doc: String,
) -> TokenStream {
    let vis = model.vis;
    let schema = schema(model);
    let entity = &model.entity_name;
    let params = fields.iter().map(|f| {
        let (name, ty) = (f.ident, part_type(f));
        quote_spanned!(type_span(ty)=> #name: impl ::dynamap::__private::KeyAttributeArg<#ty>)
    });
    let values = fields.iter().enumerate().map(|(i, f)| {
        let (name, ty) = (f.ident, part_type(f));
        let field_name = name.to_string();
        quote! {
            ::dynamap::__private::partition_attribute::<#ty>(&#name, #entity, match __dynamap_index {
                ::core::option::Option::Some(index) => index.pk_at(#i).0,
                ::core::option::Option::None => "",
            }, #field_name)
        }
    });
    let segments = sk
        .and_then(IndexKey::template)
        .map(|template| sort_segments(model, template))
        .unwrap_or_default();
    quote! {
        #[doc = #doc]
        #vis fn #method(#(#params),*) -> ::dynamap::__private::PartitionKey<Self, #shape> {
            let __dynamap_index = #schema.index(#index);
            let values = ::core::iter::Iterator::collect(::core::iter::IntoIterator::into_iter([#(#values),*]));
            ::dynamap::__private::PartitionKey::from_attributes(values, ::core::option::Option::Some(#index), {
                const __DYNAMAP_SORT: &[::dynamap::__private::Segment] = &[#(#segments),*];
                __DYNAMAP_SORT
            })
        }
    }
}

/// The builder of a table partition whose key is a field's own attribute
/// (`pk = field(user_id)`): it takes the field's value itself.
fn table_attribute_partition_builder(
    model: &EntityModel<'_>,
    field: &FieldModel<'_>,
    shape: TokenStream,
    doc: String,
) -> TokenStream {
    let vis = model.vis;
    let schema = schema(model);
    let entity = &model.entity_name;
    let (name, ty) = (field.ident, part_type(field));
    let field_name = name.to_string();
    let param =
        quote_spanned!(type_span(ty)=> #name: impl ::dynamap::__private::KeyAttributeArg<#ty>);
    let segments = model
        .sk
        .as_ref()
        .and_then(IndexKey::template)
        .map(|template| sort_segments(model, template))
        .unwrap_or_default();
    quote! {
        #[doc = #doc]
        #vis fn partition(#param) -> ::dynamap::__private::PartitionKey<Self, #shape> {
            let value = ::dynamap::__private::partition_attribute::<#ty>(&#name, #entity, #schema.pk, #field_name);
            ::dynamap::__private::PartitionKey::from_attribute(value, ::core::option::Option::None, {
                const __DYNAMAP_SORT: &[::dynamap::__private::Segment] = &[#(#segments),*];
                __DYNAMAP_SORT
            })
        }
    }
}

#[allow(clippy::too_many_arguments)] // what differs between the table's, indexes' and lookups'
fn partition_builder(
    model: &EntityModel<'_>,
    method: &Ident,
    item: TokenStream,
    pk: &Template,
    sk: Option<&IndexKey>,
    shape: TokenStream,
    attribute: TokenStream,
    index: TokenStream,
    doc: String,
) -> TokenStream {
    let vis = model.vis;
    let schema = schema(model);
    // One argument per hole: a computed part is given by its own value (a day, not a
    // timestamp in it). A shard is not given: the partition is every shard of it.
    let holes = holes_of(model, std::iter::once(pk));
    let shards = holes.iter().find_map(|hole| match hole {
        Hole::Computed(part) => part.shards(),
        Hole::Field(_) => None,
    });
    let params = holes.iter().filter(|hole| !is_shard(**hole)).map(|&hole| {
        let (name, ty) = (hole_ident(hole), hole_type(hole));
        quote_spanned!(type_span(ty)=> #name: impl ::dynamap::__private::KeyArg<#ty>)
    });
    let render = render_holes(
        model,
        pk,
        attribute,
        quote!(MAX_PARTITION_KEY_BYTES),
        |hole| {
            let name = hole_ident(hole);
            quote!(#name)
        },
    );
    let segments = sk
        .and_then(IndexKey::template)
        .map(|template| sort_segments(model, template))
        .unwrap_or_default();
    let partition = quote!(::dynamap::__private::PartitionKey::from_rendered(#render, #index, {
        const __DYNAMAP_SORT: &[::dynamap::__private::Segment] = &[#(#segments),*];
        __DYNAMAP_SORT
    }));
    let (partition, doc) = match shards {
        None => (partition, doc),
        Some(count) => (
            quote! {
                ::dynamap::__private::PartitionKey::sharded(
                    ::core::iter::Iterator::collect((0..#count).map(|shard: u16| #partition)),
                )
            },
            format!(
                "{doc} Every one of its {count} shards, read as one partition merged in sort order."
            ),
        ),
    };
    quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)] // one argument per key field, as the template says
        #vis fn #method(#(#params),*) -> ::dynamap::__private::PartitionKey<#item, #shape> {
            let __dynamap_schema = &#schema;
            #partition
        }
    }
}

/// The shard part, which partition builders fan out over rather than take.
fn is_shard(hole: Hole<'_>) -> bool {
    matches!(hole, Hole::Computed(part) if part.shards().is_some())
}

/// The sort-key shape of an index's queries: `AttributeKey<T>` for a sort key that is a
/// field's own attribute of type `T`, the generated builder type for a sort key of several
/// parts (attributes or holes), the template's part types otherwise.
fn sort_shape(model: &EntityModel<'_>, index: &IndexModel) -> TokenStream {
    let sk = index.sk.as_ref();
    if let Some(key) = NamedSortKey::of_index(model, index) {
        let ty = key.type_ident(model);
        return quote!(#ty);
    }
    key_shape(model, sk)
}

/// The sort-key shape of a single-attribute sort key: `AttributeKey<T>` for a field's own
/// attribute of type `T`, the template's part types otherwise.
fn key_shape(model: &EntityModel<'_>, sk: Option<&IndexKey>) -> TokenStream {
    if let Some(IndexKey::Field(key)) = sk {
        let ty = key
            .fields
            .first()
            .and_then(|f| model.field(&f.to_string()))
            .map(part_type);
        return quote!(::dynamap::__private::AttributeKey<#ty>);
    }
    template_shape(model, sk.and_then(IndexKey::template))
}

/// The tuple of a sort key template's part types, in hole order (`()` without a sort key).
fn template_shape(model: &EntityModel<'_>, sk: Option<&Template>) -> TokenStream {
    let types = sk
        .into_iter()
        .flat_map(Template::holes)
        .filter_map(|hole| model.hole(hole))
        .map(hole_type);
    quote!((#(#types,)*))
}

/// `Sensor::CITY`: each stored field's attribute name and value type, for filters,
/// conditions and projections. `Option<T>` fields compare with `T`.
pub(crate) fn field_attrs(model: &EntityModel<'_>) -> TokenStream {
    let vis = model.vis;
    // Compressed and TTL fields are stored in a form a condition on the field's type would
    // not match, so they get no constant.
    let plain = |f: &&FieldModel<'_>| !f.skip && f.compressed.is_none() && !f.ttl;
    let consts = model.fields.iter().filter(plain).map(|f: &FieldModel<'_>| {
        let name = format_ident!("{}", f.ident.to_string().trim_start_matches("r#").to_uppercase(), span = f.ident.span());
        let ty = part_type(f);
        let attribute = &f.attribute;
        let doc = format!("Attribute `{attribute}` (field `{}`), for updates, conditions and filters.", f.ident);
        // Updates, conditions and filters store values as the field does.
        let encode = match &f.with {
            None => {
                let via = via_traits();
                quote_spanned! {type_span(f.ty)=>
                    #via
                    (&::dynamap::__private::Via::<#ty>::NEW).encode(value)
                }
            }
            Some(with) => match direct_module(with) {
                Some(module) => quote!(#module::to_attribute(value)),
                None => {
                    let field_ty = f.ty;
                    let whole = if f.option_inner.is_some() {
                        quote!(&::core::option::Option::Some(::core::clone::Clone::clone(value)))
                    } else {
                        quote!(value)
                    };
                    quote! {
                        struct __DynamapWith<'a>(&'a #field_ty);
                        impl ::dynamap::__private::serde::Serialize for __DynamapWith<'_> {
                            fn serialize<S: ::dynamap::__private::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                                #with::serialize(self.0, serializer)
                            }
                        }
                        ::dynamap::__private::serialized(&__DynamapWith(#whole))
                    }
                }
            },
        };
        let value = quote!(::dynamap::__private::Attr::with_encoder(#attribute, {
            fn encode(value: &#ty) -> ::core::result::Result<::dynamap::__private::AttributeValue, ::dynamap::__private::String> {
                ::dynamap::__private::expression_encoded({ #encode })
            }
            encode
        }));
        let value = if f.list { quote!(#value.stored_as_list()) } else { value };
        if f.protection == crate::model::Protection::Encrypted {
            let doc = format!("Attribute `{attribute}` (field `{}`), encrypted: no expression can use it.", f.ident);
            return quote! {
                #[doc = #doc]
                #vis const #name: ::dynamap::__private::EncryptedAttr<Self, #ty> = ::dynamap::__private::EncryptedAttr::new(#attribute);
            };
        }
        quote! {
            #[doc = #doc]
            #vis const #name: ::dynamap::__private::Attr<Self, #ty> = #value;
        }
    });
    quote!(#(#consts)*)
}
