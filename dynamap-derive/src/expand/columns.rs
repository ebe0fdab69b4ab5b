//! `Entity::columns` (hidden): the entity's rows in a columnar file, one column per stored field,
//! typed from the field's type (the `T` of an `Option<T>`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::EntityModel;

pub(super) fn columns(model: &EntityModel<'_>) -> TokenStream {
    let columns = model.fields.iter().filter(|f| !f.skip).map(|f| {
        let name = &f.attribute;
        let ty = f.option_inner.unwrap_or(f.ty);
        let probed = quote! {{
            use ::dynamap::__private::probe::{Known as _, Other as _};
            (&&::dynamap::__private::probe::ColumnProbe::<#ty>::new()).column_kind()
        }};
        let kind = if f.compressed.is_some() {
            quote!(::dynamap::__private::ColumnKind::Binary)
        } else if f.with.is_some() {
            quote!(::dynamap::__private::probe::stored_with(#probed))
        } else {
            quote!(::dynamap::__private::probe::stored_plain(#probed))
        };
        quote!(::dynamap::__private::Column::new(#name, #kind))
    });
    quote! {
        fn columns() -> ::dynamap::__private::Vec<::dynamap::__private::Column> {
            ::core::convert::From::from([#(#columns),*])
        }
    }
}
