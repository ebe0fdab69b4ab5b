//! Tokens every expander builds from the model: the table's schema, the fields of key
//! templates and their types, a rendered template, an encoded field value.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use super::keys::{HoleValue, render, type_span};
use crate::model::{
    Computation, ComputedPart, EntityModel, FieldModel, Hole, IndexKey, IndexModel,
};
use crate::template::Template;

/// `<Table as Table>::SCHEMA`: the entity's table layout, for constants and lookups.
pub(super) fn schema(model: &EntityModel<'_>) -> TokenStream {
    let table = &model.table;
    quote!(<#table as ::dynamap::__private::Table>::SCHEMA)
}

/// The fields `templates` are rendered from, each once, in order of first appearance: the
/// fields their holes name, and the fields their computed parts are computed from.
pub(super) fn fields_of<'m, 't>(
    model: &'m EntityModel<'_>,
    templates: impl Iterator<Item = &'t Template>,
) -> Vec<&'m FieldModel<'m>> {
    let mut out: Vec<&FieldModel<'_>> = Vec::new();
    let mut add = |field: &'m FieldModel<'m>| {
        if !out.iter().any(|f| f.ident == field.ident) {
            out.push(field);
        }
    };
    for hole in holes_of(model, templates) {
        match hole {
            Hole::Field(field) => add(field),
            Hole::Computed(part) => part
                .fields
                .iter()
                .filter_map(|name| model.field(&name.to_string()))
                .for_each(&mut add),
        }
    }
    out
}

/// The holes of `templates`, each once, in order of first appearance.
pub(super) fn holes_of<'m, 't>(
    model: &'m EntityModel<'_>,
    templates: impl Iterator<Item = &'t Template>,
) -> Vec<Hole<'m>> {
    let mut out: Vec<(&str, Hole<'_>)> = Vec::new();
    for name in templates.flat_map(Template::holes) {
        if let Some(hole) = model.hole(name)
            && !out.iter().any(|(seen, _)| *seen == name)
        {
            out.push((name, hole));
        }
    }
    out.into_iter().map(|(_, hole)| hole).collect()
}

/// The primary key's holes, in the order of `Entity::KeyParts` and `parse_key`: each
/// template's holes, and a field whose own attribute is a key attribute (`field(x)`) where
/// its key is.
pub(super) fn key_holes<'m>(model: &'m EntityModel<'_>) -> Vec<Hole<'m>> {
    let mut out: Vec<Hole<'m>> = Vec::new();
    for key in std::iter::once(&model.pk).chain(model.sk.as_ref()) {
        let holes = match key {
            IndexKey::Template(template) => holes_of(model, std::iter::once(template)),
            IndexKey::Field(key) => key
                .fields
                .iter()
                .filter_map(|f| model.field(&f.to_string()))
                .map(Hole::Field)
                .collect(),
        };
        for hole in holes {
            if !out.iter().any(|seen| hole_ident(*seen) == hole_ident(hole)) {
                out.push(hole);
            }
        }
    }
    out
}

/// True for a field whose own attribute is the table's key attribute (`pk = field(x)`).
pub(super) fn is_primary_field(model: &EntityModel<'_>, field: &FieldModel<'_>) -> bool {
    [model.primary_field(true), model.primary_field(false)]
        .into_iter()
        .flatten()
        .any(|f| f.ident == field.ident)
}

/// The fields the primary key's holes name, in `Entity::KeyParts` order. Its computed
/// parts are computed from these fields only (the derive checks it).
pub(super) fn key_fields<'m>(model: &'m EntityModel<'_>) -> Vec<&'m FieldModel<'m>> {
    key_holes(model)
        .into_iter()
        .filter_map(|hole| match hole {
            Hole::Field(field) => Some(field),
            Hole::Computed(_) => None,
        })
        .collect()
}

/// A pattern for `parse_key`'s tuple: `bind(field)` for each field of the key (`None`
/// for `_`), `_` for each computed part.
pub(super) fn key_parts_pattern(
    model: &EntityModel<'_>,
    bind: impl Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> TokenStream {
    let parts = key_holes(model).into_iter().map(|hole| match hole {
        Hole::Field(field) => bind(field).unwrap_or_else(|| quote!(_)),
        Hole::Computed(_) => quote!(_),
    });
    quote!((#(#parts,)*))
}

/// The type a hole renders: the field's type, or `T` for an `Option<T>` field; a computed
/// part's declared type.
pub(super) fn hole_type<'a>(hole: Hole<'a>) -> &'a Type {
    match hole {
        Hole::Field(field) => part_type(field),
        Hole::Computed(part) => &part.ty,
    }
}

/// The name a hole binds: the field's, or the computed part's.
pub(super) fn hole_ident<'a>(hole: Hole<'a>) -> &'a syn::Ident {
    match hole {
        Hole::Field(field) => field.ident,
        Hole::Computed(part) => &part.name,
    }
}

/// The type a hole renders: the field's type, or `T` for an `Option<T>` field.
pub(super) fn part_type<'a>(field: &FieldModel<'a>) -> &'a Type {
    field.option_inner.unwrap_or(field.ty)
}

/// A template rendered from field values (`value` gives each field's expression, of the
/// field's type) into the key attribute `attribute`, checked against `limit`. Computed
/// parts are computed from their fields' values.
pub(super) fn render_template(
    model: &EntityModel<'_>,
    template: &Template,
    attribute: TokenStream,
    limit: TokenStream,
    value: impl Fn(&FieldModel<'_>) -> TokenStream,
) -> TokenStream {
    render_template_from(model, template, attribute, limit, value, &|_| None)
}

/// As [`render_template`], where `rendered(field)` may give a hole an already rendered
/// value of the field (see `to_item`); computed parts still read the field's `value`.
pub(super) fn render_template_from(
    model: &EntityModel<'_>,
    template: &Template,
    attribute: TokenStream,
    limit: TokenStream,
    value: impl Fn(&FieldModel<'_>) -> TokenStream,
    rendered: &dyn Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> TokenStream {
    render_holes(model, template, attribute, limit, |hole| match hole {
        Hole::Field(field) => rendered(field).unwrap_or_else(|| value(field)),
        Hole::Computed(part) => computed_value(model, part, &value),
    })
}

/// A template rendered from each hole's value: `value` gives an expression of a type
/// implementing `KeyArg<T>`, `T` the hole's type.
pub(super) fn render_holes(
    model: &EntityModel<'_>,
    template: &Template,
    attribute: TokenStream,
    limit: TokenStream,
    value: impl Fn(Hole<'_>) -> TokenStream,
) -> TokenStream {
    let limit = quote!(::dynamap::__private::#limit);
    render(
        &model.entity_name,
        &attribute,
        &limit,
        template,
        |name| match model.hole(name) {
            Some(hole) => HoleValue {
                ty: hole_type(hole).clone(),
                value: value(hole),
                format: model.key_format(name),
            },
            None => HoleValue {
                ty: syn::parse_quote!(()),
                value: quote!(()),
                format: model.key_format(name),
            },
        },
    )
}

/// A computed part's value, of its declared type, from its fields' values.
fn computed_value(
    model: &EntityModel<'_>,
    part: &ComputedPart,
    value: &impl Fn(&FieldModel<'_>) -> TokenStream,
) -> TokenStream {
    let inputs: Vec<TokenStream> = part
        .fields
        .iter()
        .filter_map(|name| model.field(&name.to_string()))
        .map(value)
        .collect();
    let ty = &part.ty;
    match &part.how {
        Computation::Function(function) => {
            // Spanned at the declared type, so a function returning another type is
            // reported there.
            quote_spanned!(type_span(ty)=> {
                let __dynamap_part: #ty = #function(#(&#inputs),*);
                __dynamap_part
            })
        }
        Computation::Shard(count) => {
            let adds = part
                .fields
                .iter()
                .filter_map(|name| model.field(&name.to_string()))
                .zip(&inputs)
                .map(|(field, input)| {
                    let field_ty = part_type(field);
                    quote_spanned!(type_span(field_ty)=> __dynamap_shard.add::<#field_ty>(&#input);)
                });
            quote!({
                let mut __dynamap_shard = ::dynamap::__private::ShardHash::new();
                #(#adds)*
                __dynamap_shard.finish(#count)
            })
        }
    }
}

/// Inserts an index key attribute rendered from `template` into `__dynamap_item`: the
/// index's partition key (`is_pk`) or, when the table's index has one, its sort key. Needs
/// `__dynamap_index` (the index's schema) in scope.
pub(super) fn insert_index_key(
    model: &EntityModel<'_>,
    is_pk: bool,
    template: &Template,
    value: impl Fn(&FieldModel<'_>) -> TokenStream,
    rendered: &dyn Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> TokenStream {
    let (limit, attribute) = if is_pk {
        (quote!(MAX_PARTITION_KEY_BYTES), quote!(__dynamap_index.pk))
    } else {
        (quote!(MAX_SORT_KEY_BYTES), quote!(attribute))
    };
    let key = render_template_from(model, template, attribute.clone(), limit, value, rendered);
    let insert = quote! {
        __dynamap_item.insert(::core::convert::From::from(#attribute), ::dynamap::__private::AttributeValue::S(#key?));
    };
    if is_pk {
        insert
    } else {
        quote! {
            if let ::core::option::Option::Some(attribute) = __dynamap_index.sk { #insert }
        }
    }
}

/// Stores `source`, a place expression of the field's type, into `__dynamap_item`. Needs
/// [`via_traits`] in scope.
pub(super) fn encode_value(
    entity: &str,
    field: &FieldModel<'_>,
    source: &TokenStream,
) -> TokenStream {
    let attribute = &field.attribute;
    // Spanned at the field's type, so a type that cannot be stored is reported there.
    let span = type_span(field.ty);
    if let Some(compressed) = &field.compressed {
        let settings = &compressed.settings;
        let value_ty = part_type(field);
        // A list of a `Columnar` type is written by its generated code, anything else
        // through serde (see `dynamap::codec::ViaColumns`).
        let encode = |value: TokenStream| {
            quote_spanned! {span=>
                (&::dynamap::__private::Via::<#value_ty>::NEW).compress_into(&mut __dynamap_item, #entity, #attribute, #value, &#settings)?;
            }
        };
        // A list of a type without `Columnar` gets a note at the field's type (see
        // `dynamap::__private::SerdeList`), unless a format was chosen. Spanned at the
        // user's own tokens, not the derive's: rustc shows no deprecation inside a
        // derive's output.
        let list = crate::index_keys::last_segment(value_ty).as_deref() == Some("Vec");
        let note = (list && !compressed.format_chosen).then(|| {
            let call = quote_spanned! {value_ty.span()=>
                (&::dynamap::__private::Via::<#value_ty>::NEW).list_codec();
            };
            quote!({
                use ::dynamap::__private::{ColumnarList as _, SerdeList as _};
                #call
            })
        });
        return match field.option_inner {
            None => {
                let encode = encode(quote_spanned!(span=> &#source));
                quote!(#note #encode)
            }
            Some(_) => {
                let encode = encode(quote_spanned!(span=> value));
                quote!(#note if let ::core::option::Option::Some(value) = &#source { #encode })
            }
        };
    }
    let name = quote!(::dynamap::__private::ToString::to_string(#attribute));
    let store = |value: TokenStream| quote!(::dynamap::__private::encoded(&mut __dynamap_item, #entity, #attribute, #name, #value)?;);
    let value_ty = part_type(field);
    let write = match &field.with {
        // Inserted in place: no `Result<AttributeValue, _>` to move the value through.
        None => quote_spanned! {span=>
            ::dynamap::__private::inserted(#entity, #attribute, (&::dynamap::__private::Via::<#value_ty>::NEW).insert(&mut __dynamap_item, #name, value))?;
        },
        Some(with) => match direct_module(with) {
            Some(module) => store(quote!(#module::to_attribute(value))),
            None => {
                // A `with` module serializes the field's whole type, `Option` included.
                let ty = field.ty;
                let write =
                    store(quote!(::dynamap::__private::serialized(&__DynamapWith(&#source))));
                let write = quote! {{
                    struct __DynamapWith<'a>(&'a #ty);
                    impl ::dynamap::__private::serde::Serialize for __DynamapWith<'_> {
                        fn serialize<S: ::dynamap::__private::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                            #with::serialize(self.0, serializer)
                        }
                    }
                    #write
                }};
                return match field.option_inner {
                    Some(_) => quote!(if ::core::option::Option::is_some(&#source) #write),
                    None => write,
                };
            }
        },
    };
    match field.option_inner {
        None => quote!({ let value = &#source; #write }),
        Some(_) => quote!(if let ::core::option::Option::Some(value) = &#source { #write }),
    }
}

/// The traits `(&Via::<T>::NEW).encode(..)` and `.decode(..)` resolve to, imported where
/// generated code converts fields.
pub(super) fn via_traits() -> TokenStream {
    quote!(
        use ::dynamap::__private::{ViaColumns as _, ViaDirect as _, ViaSerde as _};
    )
}

/// dynamap's own `with` modules convert without serde: `codec::timestamp`,
/// `codec::epoch_seconds` (TTL fields use it too), and their `option` variants, whose
/// `Option` the generated code handles itself. Returns the module to call.
pub(super) fn direct_module(with: &syn::Path) -> Option<TokenStream> {
    let segments: Vec<String> = with.segments.iter().map(|s| s.ident.to_string()).collect();
    let mut names: Vec<&str> = segments.iter().map(String::as_str).collect();
    if names.last() == Some(&"option") {
        names.pop();
    }
    match names.as_slice() {
        ["dynamap", "codec", "timestamp"] => Some(quote!(::dynamap::codec::timestamp)),
        ["dynamap", "codec" | "__private", "epoch_seconds"] => {
            Some(quote!(::dynamap::codec::epoch_seconds))
        }
        _ => None,
    }
}

/// Whether `field` is a part of the primary key (its value never changes in an update).
pub(super) fn is_key_field(model: &EntityModel<'_>, field: &FieldModel<'_>) -> bool {
    key_fields(model).iter().any(|k| k.ident == field.ident)
}

/// `&[(attribute, field), ...]` of `fields`.
pub(super) fn field_list(fields: &[&FieldModel<'_>]) -> TokenStream {
    let pairs = fields.iter().map(|f| {
        let attribute = &f.attribute;
        let name = f.ident.to_string();
        quote!((#attribute, #name))
    });
    quote!(&[#(#pairs),*])
}

/// The templates of an index re-rendered together: each on its own when no field is
/// optional; all of them at once in a sparse index, whose key attributes are written or
/// removed together.
pub(super) fn groups<'m>(
    model: &EntityModel<'_>,
    index: &'m IndexModel,
) -> Vec<Vec<(bool, &'m Template)>> {
    let keys: Vec<(bool, &Template)> = [(true, Some(&index.pk)), (false, index.sk.as_ref())]
        .into_iter()
        .filter_map(|(is_pk, key)| Some((is_pk, key?.template()?)))
        .collect();
    let sparse = fields_of(model, keys.iter().map(|(_, t)| *t))
        .iter()
        .any(|f| f.option_inner.is_some());
    if sparse {
        vec![keys]
    } else {
        keys.into_iter().map(|key| vec![key]).collect()
    }
}
