//! What `#[derive(Entity)]` generates for a sort key of several parts, the table's or an
//! index's: a builder that gives the leading parts by name, and whose type is also the
//! sort-key shape of the table's or index's queries.
//!
//! - A template sort key of two or more holes (`sk = "LOC#{building}#{floor}#{room}"`):
//!   `Sensor::gsi1_sk().building("A").floor("2")` (an index), `Sensor::sk().building("A")`
//!   (the table), rendered into a segment-exact prefix or a whole key.
//! - A multi-attribute sort key (`sk = fields(year, month)`):
//!   `Event::by_date_sk().year(2024).month(3)`, each value its attribute's.
//!
//! Values given as a tuple are matched to parts by position and type only, so with two
//! `String` parts `(floor, building)` passes for `(building, floor)`. Here each stage of the
//! builder is a type of its own (`SensorGsi1Sk<N>`, `N` parts given) offering only the next
//! part's method, and only stages with at least one part are sort conditions, for this
//! entity and key alone. A template key's shape still takes a tuple of leading parts
//! (`TemplateShape`), as a key of one part does; a multi-attribute key's takes none.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Ident, Type};

use super::keys::type_span;
use super::render::{hole_ident, hole_type, part_type};
use crate::model::{EntityModel, IndexKey, IndexModel, LookupModel};
use crate::names::{lookup_method, snake_case, upper_camel_case};
use crate::template::{Segment, Template};

/// What the parts of a named sort key are.
enum Kind<'m> {
    /// The item's own attributes (`sk = fields(..)`), each checked as a key value.
    Attributes,
    /// The holes of a template, rendered into it.
    Template(&'m Template),
}

/// One part: the method's (and field's or computed part's) name, and its type.
struct Part<'m> {
    name: &'m Ident,
    ty: &'m Type,
    /// The stored attribute, for a multi-attribute key's docs.
    attribute: Option<String>,
}

/// A sort key of two or more parts: of the table (`method` is `None`), of an index or of a
/// lookup.
pub(super) struct NamedSortKey<'m> {
    /// The partition builder's name (`gsi1`, `by_site`), or `None` for the table's.
    method: Option<String>,
    /// `index `GSI1``, `lookup `site``, `the table`: whose sort key it is, for docs.
    owner: String,
    kind: Kind<'m>,
    parts: Vec<Part<'m>>,
    /// Where diagnostics point: the index's name, or the table's sort key template.
    at: Span,
}

impl<'m> NamedSortKey<'m> {
    /// The named sort key of `index`, if its sort key has two or more parts that all exist
    /// (a missing field is reported by the checks, not here).
    pub(super) fn of_index(model: &'m EntityModel<'_>, index: &'m IndexModel) -> Option<Self> {
        let key = Self::of_key(model, index.sk.as_ref()?)?;
        Some(NamedSortKey {
            method: Some(snake_case(&index.name.value())),
            owner: format!("index `{}`", index.name.value()),
            at: index.name.span(),
            ..key
        })
    }

    /// The named sort key of a lookup's items, if their sort key is a template of two or
    /// more holes.
    pub(super) fn of_lookup(model: &'m EntityModel<'_>, lookup: &'m LookupModel) -> Option<Self> {
        let key = Self::of_template(model, lookup.sk.as_ref()?)?;
        Some(NamedSortKey {
            method: Some(lookup_method(&lookup.name.value())),
            owner: format!("lookup `{}`", lookup.name.value()),
            at: lookup.name.span(),
            ..key
        })
    }

    /// The named sort key of the table, if its sort key is a template of two or more holes.
    pub(super) fn of_table(model: &'m EntityModel<'_>) -> Option<Self> {
        Self::of_key(model, model.sk.as_ref()?)
    }

    fn of_key(model: &'m EntityModel<'_>, key: &'m IndexKey) -> Option<Self> {
        let key = match key {
            IndexKey::Template(template) => return Self::of_template(model, template),
            IndexKey::Field(key) => key,
        };
        let parts: Vec<_> = key
            .fields
            .iter()
            .filter_map(|f| model.field(&f.to_string()))
            .map(|f| Part {
                name: f.ident,
                ty: part_type(f),
                attribute: Some(f.attribute.clone()),
            })
            .collect();
        Self::of_parts(
            Kind::Attributes,
            parts,
            key.fields.len(),
            model.ident.span(),
        )
    }

    fn of_template(model: &'m EntityModel<'_>, template: &'m Template) -> Option<Self> {
        let parts: Vec<_> = template
            .holes()
            .filter_map(|hole| model.hole(hole))
            .map(|hole| Part {
                name: hole_ident(hole),
                ty: hole_type(hole),
                attribute: None,
            })
            .collect();
        let wanted = template.holes().count();
        Self::of_parts(
            Kind::Template(template),
            parts,
            wanted,
            template.source.span(),
        )
    }

    /// A key of `parts`, if there are two or more and none is missing of the `wanted`.
    fn of_parts(kind: Kind<'m>, parts: Vec<Part<'m>>, wanted: usize, at: Span) -> Option<Self> {
        (parts.len() > 1 && parts.len() == wanted).then_some(NamedSortKey {
            method: None,
            owner: "the table".to_owned(),
            kind,
            parts,
            at,
        })
    }

    /// `SensorGsi1Sk` (an index), `SensorSk` (the table): the builder's type, also the
    /// queries' sort-key shape.
    pub(super) fn type_ident(&self, model: &EntityModel<'_>) -> Ident {
        let entity = model.ident.to_string();
        let index = self
            .method
            .as_deref()
            .map(upper_camel_case)
            .unwrap_or_default();
        format_ident!(
            "{}{}Sk",
            entity.trim_start_matches("r#"),
            index,
            span = self.at
        )
    }

    /// Resolves like the macro's own tokens but points at the index's name (the table's
    /// sort key), so the builders' impls are shown there in diagnostics, not at
    /// `#[derive(Entity)]`.
    fn span(&self) -> Span {
        Span::call_site().located_at(self.at)
    }

    /// `gsi1_sk` (an index), `sk` (the table): the entity's function that starts the builder.
    fn start_ident(&self) -> Ident {
        match &self.method {
            Some(method) => format_ident!("{method}_sk", span = self.at),
            None => format_ident!("sk", span = self.at),
        }
    }

    /// `building`, then `floor`: the parts in key order, for docs.
    fn part_list(&self) -> String {
        self.parts
            .iter()
            .map(|p| format!("`{}`", p.name))
            .collect::<Vec<_>>()
            .join(", then ")
    }

    /// `gsi1(...)` or `partition(...)`: the queries this key is the sort key of.
    fn queries(&self, model: &EntityModel<'_>) -> String {
        let method = self.method.as_deref().unwrap_or("partition");
        format!("{}::{method}(...)", model.ident)
    }

    fn owner(&self) -> &str {
        &self.owner
    }
}

/// Every named sort key of the entity: the table's, then its indexes', then its lookups'.
fn named_sort_keys<'m>(model: &'m EntityModel<'_>) -> impl Iterator<Item = NamedSortKey<'m>> {
    let indexes = model
        .indexes
        .iter()
        .filter_map(|index| NamedSortKey::of_index(model, index));
    let lookups = model
        .lookups
        .iter()
        .filter_map(|lookup| NamedSortKey::of_lookup(model, lookup));
    NamedSortKey::of_table(model)
        .into_iter()
        .chain(indexes)
        .chain(lookups)
}

/// The builders' types, one per named sort key, emitted beside the entity (not in the
/// derive's `const _` block) so that code can name them.
pub(crate) fn sort_builder_types(model: &EntityModel<'_>) -> TokenStream {
    let vis = model.vis;
    let types = named_sort_keys(model).map(|key| {
        let ty = key.type_ident(model);
        let (state, what) = match key.kind {
            Kind::Attributes => (
                quote!(::dynamap::__private::SortValues),
                "equal on each given attribute but the last, compared on the last",
            ),
            Kind::Template(_) => (
                quote!(::dynamap::__private::SortParts),
                "the given parts are compared as a whole, on segment boundaries (building `A`, \
                 floor `2` never matches floor `20`)",
            ),
        };
        let doc = format!(
            "The leading sort key parts of {owner} for `{entity}` queries, given by name in key \
             order ({parts}) from `{ident}::{start}()`: the sort-key shape of `{queries}` \
             queries.\n\n`GIVEN` counts the parts given. Sort conditions (`sk_eq`, `sk_prefix`, \
             `sk_gt`, `sk_between`, ...) take a builder with at least one: {what}.",
            owner = key.owner(),
            entity = model.entity_name,
            parts = key.part_list(),
            ident = model.ident,
            start = key.start_ident(),
            queries = key.queries(model),
        );
        quote_spanned! {key.span()=>
            #[doc = #doc]
            #[derive(::core::clone::Clone, ::core::fmt::Debug)]
            #[must_use = "a sort key builder does nothing until a query's sort condition takes it"]
            #vis struct #ty<const GIVEN: usize = 0>(#state);
        }
    });
    quote!(#(#types)*)
}

/// Each stage's method giving the next part, and the stages that are sort conditions.
pub(crate) fn sort_builder_impls(model: &EntityModel<'_>) -> TokenStream {
    let vis = model.vis;
    let impls = named_sort_keys(model).map(|key| {
        let ty = key.type_ident(model);
        let steps = key.parts.iter().enumerate().map(|(given, part)| {
            let (name, part_ty) = (part.name, part.ty);
            let (now, next) = (
                Literal::usize_unsuffixed(given),
                Literal::usize_unsuffixed(given + 1),
            );
            let (doc, param) = match key.kind {
                Kind::Attributes => (
                    format!(
                        "Attribute `{}` (field `{name}`): equal to `{name}` if another attribute \
                         follows it, compared by the sort condition if it is the last given.",
                        part.attribute.as_deref().unwrap_or_default()
                    ),
                    quote_spanned!(type_span(part_ty)=>
                        #name: impl ::dynamap::__private::KeyAttributeArg<#part_ty>
                    ),
                ),
                Kind::Template(_) => (
                    format!(
                        "Part `{name}` of the sort key: the key's parts up to this one, when it \
                         is the last given, compared by the sort condition."
                    ),
                    quote_spanned!(type_span(part_ty)=>
                        #name: impl ::dynamap::__private::KeyArg<#part_ty>
                    ),
                ),
            };
            quote_spanned! {key.span()=>
                impl #ty<#now> {
                    #[doc = #doc]
                    #vis fn #name(self, #param) -> #ty<#next> {
                        #ty(self.0.then::<#part_ty, _>(&#name))
                    }
                }
            }
        });
        let conditions = (1..=key.parts.len()).map(|given| {
            let given = Literal::usize_unsuffixed(given);
            quote_spanned! {key.span()=>
                impl ::dynamap::__private::Sealed<(::dynamap::__private::SortArgsSeal, #ty)> for #ty<#given> {}

                impl ::dynamap::__private::SortArgs<#ty> for #ty<#given> {
                    fn bound(
                        &self,
                        _: &[::dynamap::__private::Segment],
                    ) -> ::core::result::Result<::dynamap::__private::SortBound, (::core::primitive::usize, ::dynamap::__private::KeyPartError)> {
                        self.0.bound()
                    }
                }
            }
        });
        // A template key's shape also takes a tuple of leading parts, by position; a
        // multi-attribute key's takes none (`ByName`), so a wrong argument is one error.
        let parts = match key.kind {
            Kind::Attributes => quote!(::dynamap::__private::ByName),
            Kind::Template(_) => {
                let types = key.parts.iter().map(|p| p.ty);
                quote!((#(#types,)*))
            }
        };
        let shape = quote_spanned! {key.span()=>
            impl ::dynamap::__private::TemplateShape for #ty {
                type Parts = #parts;
            }
        };
        quote!(#(#steps)* #(#conditions)* #shape)
    });
    quote!(#(#impls)*)
}

/// `Sensor::gsi1_sk()` or `Sensor::sk()`, in the entity's `impl` block: the builder with
/// nothing given.
pub(super) fn sort_builder_start(model: &EntityModel<'_>, key: &NamedSortKey<'_>) -> TokenStream {
    let vis = model.vis;
    let ty = key.type_ident(model);
    let start = key.start_ident();
    let doc = format!(
        "The sort key parts of {} to give by name ({}), for a sort condition of `{}` queries: \
         `.sk_eq({}::{start}().{}(..))`.",
        key.owner(),
        key.part_list(),
        key.queries(model),
        model.ident,
        key.parts[0].name,
    );
    let state = match key.kind {
        Kind::Attributes => quote!(::dynamap::__private::SortValues::new()),
        Kind::Template(template) => {
            let segments = sort_segments(model, template);
            quote!(::dynamap::__private::SortParts::new({
                const __DYNAMAP_SORT: &[::dynamap::__private::Segment] = &[#(#segments),*];
                __DYNAMAP_SORT
            }))
        }
    };
    quote! {
        #[doc = #doc]
        #vis fn #start() -> #ty {
            #ty(#state)
        }
    }
}

pub(super) fn sort_segments(model: &EntityModel<'_>, template: &Template) -> Vec<TokenStream> {
    template
        .segments
        .iter()
        .map(|segment| match segment {
            Segment::Literal(text) => quote!(::dynamap::__private::Segment::Literal(#text)),
            Segment::Hole(name) => {
                let format = model.key_format(name);
                quote!(::dynamap::__private::Segment::Hole(#name, #format))
            }
        })
        .collect()
}
