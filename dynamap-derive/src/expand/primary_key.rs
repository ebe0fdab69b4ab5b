//! The primary key's values rendered from an entity's fields: for `Entity::primary_key`, the
//! key builders and `to_item`.

use proc_macro2::TokenStream;
use quote::quote;

use super::render::{part_type, render_template_from, schema};
use crate::model::{EntityModel, FieldModel, IndexKey};

/// `self.field`: a field's value in methods on the entity.
pub(super) fn self_field(field: &FieldModel<'_>) -> TokenStream {
    let ident = field.ident;
    quote!(self.#ident)
}

/// The primary key rendered from its fields' values (`value` gives each field's expression,
/// `rendered` an already rendered value of a field for its holes, if any): a template
/// renders a string; a field mapped with `field(x)` is its own value.
pub(super) fn rendered_key(
    model: &EntityModel<'_>,
    value: impl Fn(&FieldModel<'_>) -> TokenStream + Copy,
    rendered: &dyn Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> TokenStream {
    let (pk, sk) = key_values(model, value, rendered);
    let schema = schema(model);
    quote! {
        let __dynamap_schema = &#schema;
        ::dynamap::__private::Key::from_attributes(#pk, #sk)
    }
}

/// The primary key's values, as [`rendered_key`] renders them: an expression of type
/// `Result<AttributeValue, KeyError>` for the partition key, and one of type
/// `Option<Result<AttributeValue, KeyError>>` for the sort key. Needs `__dynamap_schema`.
pub(super) fn key_values(
    model: &EntityModel<'_>,
    value: impl Fn(&FieldModel<'_>) -> TokenStream + Copy,
    rendered: &dyn Fn(&FieldModel<'_>) -> Option<TokenStream>,
) -> (TokenStream, TokenStream) {
    let entity = &model.entity_name;
    let key_value = |key: &IndexKey, attribute: TokenStream, limit: TokenStream| match key {
        IndexKey::Template(template) => {
            let key = render_template_from(model, template, attribute, limit, value, rendered);
            quote!(::core::result::Result::map(#key, ::dynamap::__private::AttributeValue::S))
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
    (pk, sk)
}
