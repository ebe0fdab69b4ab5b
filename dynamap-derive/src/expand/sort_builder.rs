//! What `#[derive(Entity)]` generates for an index whose sort key is several of the item's
//! own attributes (`sk = fields(year, month)`): a builder that gives the leading attributes
//! by name, `Event::by_date_sk().year(2024).month(3)`, whose type is also the sort-key
//! shape of the index's queries.
//!
//! Values given as a tuple were matched to attributes by type only, so with `year: i32,
//! month: i32`, `(month,)` passed for a year. Here each stage of the builder is a type of
//! its own (`EventByDateSk<N>`, `N` attributes given) offering only the next attribute's
//! method, and only stages with at least one attribute are sort conditions, for this entity
//! and index alone.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Ident, LitStr};

use super::keys::type_span;
use super::render::part_type;
use crate::model::{EntityModel, FieldModel, IndexKey, IndexModel};
use crate::names::{snake_case, upper_camel_case};

/// An index whose sort key is two or more fields' own attributes, with those fields.
pub(super) struct MultiSortKey<'m> {
    index: &'m LitStr,
    fields: Vec<&'m FieldModel<'m>>,
}

impl<'m> MultiSortKey<'m> {
    /// The multi-attribute sort key of `index`, if it has one whose fields all exist (a
    /// missing field is reported by the checks, not here).
    pub(super) fn of(model: &'m EntityModel<'_>, index: &'m IndexModel) -> Option<Self> {
        let Some(IndexKey::Field(key)) = &index.sk else {
            return None;
        };
        let fields: Vec<_> = key
            .fields
            .iter()
            .filter_map(|f| model.field(&f.to_string()))
            .collect();
        (fields.len() > 1 && fields.len() == key.fields.len()).then_some(MultiSortKey {
            index: &index.name,
            fields,
        })
    }

    /// `EventByDateSk`: the builder's type, also the index queries' sort-key shape.
    pub(super) fn type_ident(&self, model: &EntityModel<'_>) -> Ident {
        let entity = model.ident.to_string();
        let index = upper_camel_case(&snake_case(&self.index.value()));
        format_ident!(
            "{}{}Sk",
            entity.trim_start_matches("r#"),
            index,
            span = self.index.span()
        )
    }

    /// Resolves like the macro's own tokens but points at the index's name, so the
    /// builders' impls are shown there in diagnostics, not at `#[derive(Entity)]`.
    fn span(&self) -> Span {
        Span::call_site().located_at(self.index.span())
    }

    /// `by_date_sk`: the entity's function that starts the builder.
    fn start_ident(&self) -> Ident {
        let index = snake_case(&self.index.value());
        format_ident!("{}_sk", index, span = self.index.span())
    }

    /// `year`, then `month`: the attributes' fields in key order, for docs.
    fn field_list(&self) -> String {
        self.fields
            .iter()
            .map(|f| format!("`{}`", f.ident))
            .collect::<Vec<_>>()
            .join(", then ")
    }
}

/// Every multi-attribute sort key of the entity's indexes.
fn multi_sort_keys<'m>(model: &'m EntityModel<'_>) -> impl Iterator<Item = MultiSortKey<'m>> {
    model
        .indexes
        .iter()
        .filter_map(|index| MultiSortKey::of(model, index))
}

/// The builders' types, one per multi-attribute sort key, emitted beside the entity (not in
/// the derive's `const _` block) so that code can name them.
pub(crate) fn sort_builder_types(model: &EntityModel<'_>) -> TokenStream {
    let vis = model.vis;
    let types = multi_sort_keys(model).map(|key| {
        let ty = key.type_ident(model);
        let doc = format!(
            "The leading sort key attributes of index `{index}` for `{entity}` queries, given by \
             name in key order ({fields}) from `{ident}::{start}()`: the sort-key shape of \
             `{ident}::{method}(...)` queries.\n\n`GIVEN` counts the attributes given. Sort \
             conditions (`sk_eq`, `sk_gt`, `sk_between`, ...) take a builder with at least one: \
             equal on each given attribute but the last, compared on the last.",
            index = key.index.value(),
            entity = model.entity_name,
            fields = key.field_list(),
            ident = model.ident,
            start = key.start_ident(),
            method = snake_case(&key.index.value()),
        );
        quote_spanned! {key.span()=>
            #[doc = #doc]
            #[derive(::core::clone::Clone, ::core::fmt::Debug)]
            #[must_use = "a sort key builder does nothing until a query's sort condition takes it"]
            #vis struct #ty<const GIVEN: usize = 0>(::dynamap::__private::SortValues);
        }
    });
    quote!(#(#types)*)
}

/// Each stage's method giving the next attribute, and the stages that are sort conditions.
pub(crate) fn sort_builder_impls(model: &EntityModel<'_>) -> TokenStream {
    let vis = model.vis;
    let impls = multi_sort_keys(model).map(|key| {
        let ty = key.type_ident(model);
        let steps = key.fields.iter().enumerate().map(|(given, field)| {
            let (name, field_ty) = (field.ident, part_type(field));
            let (now, next) = (
                Literal::usize_unsuffixed(given),
                Literal::usize_unsuffixed(given + 1),
            );
            let doc = format!(
                "Attribute `{}` (field `{name}`): equal to `{name}` if another attribute follows \
                 it, compared by the sort condition if it is the last given.",
                field.attribute
            );
            let param = quote_spanned!(type_span(field_ty)=>
                #name: impl ::dynamap::__private::KeyAttributeArg<#field_ty>
            );
            quote_spanned! {key.span()=>
                impl #ty<#now> {
                    #[doc = #doc]
                    #vis fn #name(self, #param) -> #ty<#next> {
                        #ty(self.0.then::<#field_ty, _>(&#name))
                    }
                }
            }
        });
        let conditions = (1..=key.fields.len()).map(|given| {
            let given = Literal::usize_unsuffixed(given);
            quote_spanned! {key.span()=>
                impl ::dynamap::__private::Sealed<(::dynamap::__private::SortArgsSeal, #ty)> for #ty<#given> {}

                impl ::dynamap::__private::SortArgs<#ty> for #ty<#given> {
                    fn bound(
                        &self,
                        _: &[::dynamap::__private::Segment],
                    ) -> ::core::result::Result<::dynamap::__private::SortBound, (usize, ::dynamap::__private::KeyPartError)> {
                        self.0.bound()
                    }
                }
            }
        });
        quote!(#(#steps)* #(#conditions)*)
    });
    quote!(#(#impls)*)
}

/// `Event::by_date_sk()`, in the entity's `impl` block: the builder with nothing given.
pub(super) fn sort_builder_start(model: &EntityModel<'_>, key: &MultiSortKey<'_>) -> TokenStream {
    let vis = model.vis;
    let ty = key.type_ident(model);
    let start = key.start_ident();
    let doc = format!(
        "The sort key attributes of index `{}` to give by name ({}), for a sort condition of \
         `{}::{}(...)` queries: `.sk_eq({}::{start}().{}(..))`.",
        key.index.value(),
        key.field_list(),
        model.ident,
        snake_case(&key.index.value()),
        model.ident,
        key.fields[0].ident,
    );
    quote! {
        #[doc = #doc]
        #vis fn #start() -> #ty {
            #ty(::dynamap::__private::SortValues::new())
        }
    }
}
