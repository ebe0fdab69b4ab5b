//! `#[dynamap(event_rows(cap = N, time = "field"))]`: the entity is stored as multi-event
//! rows (`dynamap::timeseries::rows`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::attr::{EntityAttrs, EventRowsAttr};
use crate::ctx::Ctxt;
use crate::model::{EventRowsModel, FieldModel};

/// Rows hold their events in one item: past this many, rows would not fit anyway.
const MAX_CAP: u64 = 10_000;

pub(crate) fn event_rows_model(
    cx: &mut Ctxt,
    attr: &EventRowsAttr,
    entity: &EntityAttrs,
    fields: &[FieldModel<'_>],
) -> Option<EventRowsModel> {
    let clashes = [
        (
            !entity.indexes.is_empty(),
            "event rows cannot have index templates: one row holds many events",
        ),
        (
            !entity.lookups.is_empty(),
            "event rows cannot have lookup items: one row holds many events",
        ),
        (
            fields.iter().any(|f| f.version),
            "event rows cannot have a version field: events are written by id, not by version",
        ),
    ];
    for (_, message) in clashes.iter().filter(|(clash, _)| *clash) {
        cx.error_at(&attr.path, *message);
    }
    let cap = match &attr.cap {
        None => None,
        Some(lit) => match lit.base10_parse::<u64>() {
            Ok(n) if (1..=MAX_CAP).contains(&n) => Some(proc_macro2::Literal::u64_unsuffixed(n)),
            _ => {
                cx.error_at(lit, format!("`cap` must be from 1 to {MAX_CAP}"));
                return None;
            }
        },
    };
    let time = match &attr.time {
        None => None,
        Some(lit) => match fields.iter().find(|f| f.ident == lit.value().as_str()) {
            Some(field) if field.option_inner.is_none() && !field.skip => {
                let ty = field.ty;
                Some((field.ident.clone(), quote_spanned!(ty.span()=> #ty)))
            }
            Some(_) => {
                cx.error_at(
                    lit,
                    "the event time field must be stored and not an `Option`",
                );
                return None;
            }
            None => {
                cx.error_at(
                    lit,
                    format!("`time` names no field of this struct: {:?}", lit.value()),
                );
                return None;
            }
        },
    };
    Some(EventRowsModel { cap, time })
}

/// `impl EventRow`.
pub(crate) fn expand(ident: &Ident, model: &EventRowsModel) -> TokenStream {
    let cap = model
        .cap
        .as_ref()
        .map(|cap| quote!(const ROW_CAP: usize = #cap;));
    let time = model.time.as_ref().map(|(field, ty)| {
        quote! {
            fn event_time(&self) -> ::core::option::Option<::dynamap::__private::SystemTime> {
                <#ty as ::dynamap::__private::EventTime>::system_time(&self.#field)
            }
        }
    });
    quote! {
        impl ::dynamap::__private::EventRow for #ident {
            #cap
            #time
        }
    }
}
