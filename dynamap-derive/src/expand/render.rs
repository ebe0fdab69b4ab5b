//! Tokens every expander builds from the model: the table's schema, the fields of key
//! templates and their types, a rendered template, an encoded field value.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Type;

use super::keys::{render, type_span};
use crate::model::{EntityModel, FieldModel};
use crate::template::Template;

/// `<Table as Table>::SCHEMA`: the entity's table layout, for constants and lookups.
pub(super) fn schema(model: &EntityModel<'_>) -> TokenStream {
    let table = &model.table;
    quote!(<#table as ::dynamap::__private::Table>::SCHEMA)
}

/// The fields the holes of `templates` name, each once, in order of first appearance.
pub(super) fn fields_of<'m, 't>(
    model: &'m EntityModel<'_>,
    templates: impl Iterator<Item = &'t Template>,
) -> Vec<&'m FieldModel<'m>> {
    let mut out: Vec<&FieldModel<'_>> = Vec::new();
    for hole in templates.flat_map(Template::holes) {
        if let Some(field) = model.field(hole)
            && !out.iter().any(|f| f.ident == field.ident)
        {
            out.push(field);
        }
    }
    out
}

/// The type a hole renders: the field's type, or `T` for an `Option<T>` field.
pub(super) fn part_type<'a>(field: &FieldModel<'a>) -> &'a Type {
    field.option_inner.unwrap_or(field.ty)
}

/// A template rendered from field values (`value` gives each field's expression) into the
/// key attribute `attribute`, checked against `limit`.
pub(super) fn render_template(
    model: &EntityModel<'_>,
    template: &Template,
    attribute: TokenStream,
    limit: TokenStream,
    value: impl Fn(&FieldModel<'_>) -> TokenStream,
) -> TokenStream {
    let limit = quote!(::dynamap::__private::#limit);
    render(
        &model.entity_name,
        &attribute,
        &limit,
        template,
        |hole| match model.field(hole) {
            Some(field) => (part_type(field).clone(), value(field)),
            None => (syn::parse_quote!(()), quote!(())),
        },
    )
}

/// Stores `source`, a place expression of the field's type, into `__dynamap_item`.
pub(super) fn encode_value(
    entity: &str,
    field: &FieldModel<'_>,
    source: &TokenStream,
) -> TokenStream {
    let attribute = &field.attribute;
    let encode = |value: TokenStream| quote!(::dynamap::__private::encode_field(&mut __dynamap_item, #entity, #attribute, #value)?;);
    // Spanned at the field's type, so a type that is not `Serialize` is reported there.
    let span = type_span(field.ty);
    if let Some(compressed) = &field.compressed {
        let settings = &compressed.settings;
        let encode = |value: TokenStream| {
            quote! {
                ::dynamap::__private::encode_compressed(&mut __dynamap_item, #entity, #attribute, #value, &#settings)?;
            }
        };
        return match field.option_inner {
            None => encode(quote_spanned!(span=> &#source)),
            Some(_) => {
                let encode = encode(quote_spanned!(span=> value));
                quote!(if let ::core::option::Option::Some(value) = &#source { #encode })
            }
        };
    }
    match (&field.with, field.option_inner) {
        (None, None) => encode(quote_spanned!(span=> &#source)),
        (None, Some(_)) => {
            let encode = encode(quote_spanned!(span=> value));
            quote!(if let ::core::option::Option::Some(value) = &#source { #encode })
        }
        (Some(with), optional) => {
            let ty = field.ty;
            let encode = encode(quote!(&__DynamapWith(&#source)));
            let write = quote! {{
                struct __DynamapWith<'a>(&'a #ty);
                impl ::dynamap::__private::serde::Serialize for __DynamapWith<'_> {
                    fn serialize<S: ::dynamap::__private::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                        #with::serialize(self.0, serializer)
                    }
                }
                #encode
            }};
            match optional {
                Some(_) => quote!(if ::core::option::Option::is_some(&#source) #write),
                None => write,
            }
        }
    }
}
