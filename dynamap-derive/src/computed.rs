//! Computed key parts: `computed(day: Date = day_of(created_at))` and
//! `shard(of(id), count = 4)`, holes that are functions of fields rather than fields.

use crate::attr::EntityAttrs;
use crate::ctx::Ctxt;
use crate::model::{Computation, ComputedPart, FieldModel};
use crate::template::Template;

/// The name of the part `shard(...)` declares.
pub(crate) const SHARD: &str = "shard";

/// The most shards a partition may be spread over: a query reads every one of them.
const MAX_SHARDS: u16 = 1000;

/// The declared computed parts, each checked against the struct's fields.
pub(crate) fn computed_parts(
    cx: &mut Ctxt,
    attrs: &EntityAttrs,
    fields: &[FieldModel<'_>],
) -> Vec<ComputedPart> {
    let mut parts: Vec<ComputedPart> = attrs
        .computed
        .iter()
        .map(|attr| ComputedPart {
            name: attr.name.clone(),
            ty: attr.ty.clone(),
            how: Computation::Function(attr.function.clone()),
            fields: attr.fields.clone(),
        })
        .collect();
    if let Some(shard) = &attrs.shard {
        let count = match &shard.count {
            None => {
                cx.error_at(
                    &shard.path,
                    "`shard` needs a count: `shard(of(id), count = 4)`",
                );
                None
            }
            Some(lit) => match lit.base10_parse::<u16>() {
                Ok(n) if (1..=MAX_SHARDS).contains(&n) => Some(n),
                _ => {
                    cx.error_at(
                        lit,
                        format!("the shard count is between 1 and {MAX_SHARDS}: a query reads every shard"),
                    );
                    None
                }
            },
        };
        if shard.of.is_empty() {
            cx.error_at(
                &shard.path,
                "`shard` hashes fields: name them with `of(...)`, like `shard(of(id), count = 4)`",
            );
        }
        // Declared even with a bad count (reported above), so its holes raise nothing more.
        parts.push(ComputedPart {
            name: syn::Ident::new(SHARD, shard.path.segments[0].ident.span()),
            ty: syn::parse_quote!(u16),
            how: Computation::Shard(count.unwrap_or(1)),
            fields: shard.of.clone(),
        });
    }
    for (i, part) in parts.iter().enumerate() {
        if parts[..i].iter().any(|p| p.name == part.name) {
            cx.error_at(
                &part.name,
                format!("computed key part `{}` is declared twice", part.name),
            );
        }
        if fields.iter().any(|f| f.ident == &part.name) {
            cx.error_at(
                &part.name,
                format!(
                    "computed key part `{}` has the name of a field: a hole names one or the other",
                    part.name
                ),
            );
        }
        for name in &part.fields {
            match fields.iter().find(|f| f.ident == name) {
                None => cx.error_at(
                    name,
                    format!(
                        "computed key part `{}` is computed from `{name}`, which names no field of this struct",
                        part.name
                    ),
                ),
                Some(field) if field.skip => cx.error_at(
                    name,
                    format!(
                        "computed key part `{}` is computed from `{name}`, a skipped field: an update could not keep its keys right",
                        part.name
                    ),
                ),
                Some(_) => {}
            }
        }
    }
    parts
}

/// A computed part of the primary key is computed from fields the key holds too: an item's
/// key never changes, and the key's fields render it again and parse back from it. And
/// each declared part is used by some template.
pub(crate) fn check_computed_uses(
    cx: &mut Ctxt,
    parts: &[ComputedPart],
    primary: &[&Template],
    others: &[&Template],
) {
    let in_primary: Vec<&str> = primary.iter().flat_map(|t| t.holes()).collect();
    for template in primary {
        for part in parts
            .iter()
            .filter(|p| template.holes().any(|h| p.name == h))
        {
            let outside = part
                .fields
                .iter()
                .filter(|f| !in_primary.iter().any(|h| *f == h))
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>();
            if !outside.is_empty() {
                cx.error_at(
                    &template.source,
                    format!(
                        "the primary key's computed part `{{{}}}` is computed from {}, which the primary key does not hold: an item's key must parse back to the fields it is rendered from, so put {} in the key too, or use the part in an index",
                        part.name,
                        outside.join(", "),
                        if outside.len() == 1 { "it" } else { "them" }
                    ),
                );
            }
        }
    }
    for part in parts {
        let used = primary
            .iter()
            .chain(others)
            .flat_map(|t| t.holes())
            .any(|h| part.name == h);
        if !used {
            cx.error_at(
                &part.name,
                format!(
                    "computed key part `{}` is used by no key template",
                    part.name
                ),
            );
        }
    }
}
