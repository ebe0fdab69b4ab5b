//! `EntityGlue::created_attributes`: what an update that creates its item writes besides
//! its changes, so the item is stored as a put would store it: the primary key's fields as
//! attributes of their own, and the index keys rendered from them alone (an update renders
//! the index keys of the fields it sets, not those of the key, which it cannot change).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::render::{
    encode_value, fields_of, insert_index_key, is_primary_field, key_fields, key_parts_pattern,
    schema, via_traits,
};
use crate::model::{EntityModel, FieldModel, IndexKey, IndexModel};

pub(super) fn created_attributes(model: &EntityModel<'_>) -> TokenStream {
    let entity = &model.entity_name;
    let key_fields = key_fields(model);
    let var = |f: &FieldModel<'_>| format_ident!("__dynamap_key_{}", f.ident);
    let pattern = key_parts_pattern(model, |f| {
        let var = var(f);
        Some(quote!(#var))
    });
    // A field mapped to a table key attribute (`field(x)`) is in the key, not set.
    let encodes = key_fields.iter().filter(|f| !f.skip).map(|f| {
        let var = var(f);
        if is_primary_field(model, f) {
            quote!(let _ = &#var;)
        } else {
            encode_value(entity, f, &quote!(#var))
        }
    });
    let index_keys: Vec<TokenStream> = model
        .indexes
        .iter()
        .filter(|index| !is_sparse(model, index))
        .map(|index| key_only_index_keys(model, index, &key_fields, &var))
        .collect();
    let index_keys = if index_keys.iter().all(TokenStream::is_empty) {
        TokenStream::new()
    } else if super::index_updates::described(model) {
        // The library renders them from the tables `derived_key_changes` reads (see
        // `index_updates`), the key's fields in `UpdateHole::key_part` order.
        let entity = &model.entity_name;
        let vars = key_fields.iter().map(|f| var(f));
        quote! {
            ::dynamap::__private::created_index_keys(
                #entity,
                __dynamap_schema,
                &__dynamap_update_holes(),
                __DYNAMAP_INDEX_UPDATES,
                &[#(&#vars),*],
                &mut __dynamap_item,
            )?;
        }
    } else {
        quote!(#(#index_keys)*)
    };
    let via = via_traits();
    let schema = schema(model);
    let capacity = key_fields.len() + 2 * model.indexes.len();
    quote! {
        fn created_attributes(
            pk: &str,
            sk: ::core::option::Option<&str>,
        ) -> ::dynamap::__private::Result<::dynamap::__private::Item> {
            #via
            let __dynamap_schema = &#schema;
            let #pattern = <Self as ::dynamap::__private::Entity>::parse_key(pk, sk)?;
            let mut __dynamap_item = ::dynamap::__private::Item::with_capacity(#capacity);
            #(#encodes)*
            #index_keys
            ::core::result::Result::Ok(__dynamap_item)
        }
    }
}

/// A sparse index (a template with an `Option` field) is rendered whole by the update that
/// sets its optional fields, and left out otherwise.
fn is_sparse(model: &EntityModel<'_>, index: &IndexModel) -> bool {
    fields_of(model, index.templates())
        .iter()
        .any(|f| f.option_inner.is_some())
}

/// The index's key attributes whose templates use primary-key fields only.
fn key_only_index_keys(
    model: &EntityModel<'_>,
    index: &IndexModel,
    key_fields: &[&FieldModel<'_>],
    var: &dyn Fn(&FieldModel<'_>) -> proc_macro2::Ident,
) -> TokenStream {
    let name = &index.name;
    // A local index's partition key is the table's own.
    let pk = (!index.local).then_some(&index.pk);
    let writes = [(true, pk), (false, index.sk.as_ref())]
        .into_iter()
        .filter_map(|(is_pk, key)| match key? {
            IndexKey::Template(template) => Some((is_pk, template)),
            IndexKey::Field(_) => None,
        })
        .filter(|(_, template)| {
            fields_of(model, std::iter::once(*template))
                .iter()
                .all(|f| key_fields.iter().any(|k| k.ident == f.ident))
        })
        .map(|(is_pk, template)| {
            insert_index_key(
                model,
                is_pk,
                template,
                |f| {
                    let var = var(f);
                    quote!(#var)
                },
                &|_| None,
            )
        })
        .collect::<Vec<_>>();
    if writes.is_empty() {
        return TokenStream::new();
    }
    quote! {
        if let ::core::option::Option::Some(__dynamap_index) = __dynamap_schema.index(#name) {
            #(#writes)*
        }
    }
}
