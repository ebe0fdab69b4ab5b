//! What `#[derive(Entity)]` generates for reading in part: `EntityFields` (each field
//! decoded on its own, which `#[derive(EntityProjection)]` reads through) and, when every
//! field can be left out, `PartialRead` (which `project` with field constants asks for).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::from_item::{key_fields, read_fields};
use crate::model::{EntityModel, FieldModel};

pub(super) fn entity_fields(model: &EntityModel<'_>) -> TokenStream {
    let ident = model.ident;
    let entity = &model.entity_name;
    // A name no user type has: the block also names the field types.
    let fields = format_ident!("__DynamapFieldsOf{}", ident);
    let names: Vec<_> = model.fields.iter().map(|f| f.ident).collect();
    let types = model.fields.iter().map(|f| f.ty);
    let unread = model.fields.iter().map(|f| {
        let attribute = &f.attribute;
        let attributes = if f.skip {
            quote!(&[])
        } else {
            quote!(&[#attribute])
        };
        quote!(::dynamap::__private::Field::unread(#entity, #attributes))
    });
    let read = read_fields(model, &fields);
    let partial = partial_read(model);
    quote! {
        #[doc(hidden)]
        pub struct #fields {
            #(pub #names: ::dynamap::__private::Field<#types>,)*
        }

        impl #fields {
            /// A whole entity (an older item's upgrade): every field present.
            fn whole(entity: #ident) -> Self {
                let mut fields = <#ident as ::dynamap::__private::EntityFields>::FIELDS;
                #(fields.#names.value = ::core::result::Result::Ok(entity.#names);)*
                fields
            }
        }

        impl ::dynamap::__private::EntityFields for #ident {
            type Fields = #fields;
            const FIELDS: #fields = #fields { #(#names: #unread,)* };
            #read
        }

        #partial
    }
}

/// `PartialRead`, when no field needs its attribute: optional, defaulted, skipped, a
/// version (missing reads as 0) or read back from the primary key.
fn partial_read(model: &EntityModel<'_>) -> Option<TokenStream> {
    let keys = key_fields(model);
    let can_be_left_out = |(i, f): (usize, &FieldModel<'_>)| {
        f.skip
            || f.option_inner.is_some()
            || f.default.is_some()
            || f.set
            || f.version
            || keys.iter().any(|(k, _)| *k == i)
    };
    if !model.fields.iter().enumerate().all(can_be_left_out) {
        return None;
    }
    let ident = model.ident;
    Some(quote! {
        impl ::dynamap::__private::Sealed<::dynamap::__private::PartialReadSeal> for #ident {}
        impl ::dynamap::__private::PartialRead for #ident {}
    })
}
