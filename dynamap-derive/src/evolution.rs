//! Rules for models that evolve: entity aliases, field defaults, automatic timestamps.

use crate::attr::EntityAttrs;
use crate::ctx::Ctxt;
use crate::model::{FieldModel, SchemaModel, Upgrade};
use crate::template::Template;

/// `alias = "..."`: not empty, not the entity's own name, each once.
pub(crate) fn aliases(cx: &mut Ctxt, attrs: &EntityAttrs, entity_name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for lit in &attrs.aliases {
        let alias = lit.value();
        if alias.is_empty() {
            cx.error_at(lit, "an alias cannot be empty");
        } else if alias == entity_name {
            cx.error_at(
                lit,
                format!("{alias:?} is the entity's own name, not an alias"),
            );
        } else if out.contains(&alias) {
            cx.error_at(lit, format!("duplicate alias {alias:?}"));
        } else {
            out.push(alias);
        }
    }
    out
}

/// The `const_attr(...)`s: each name once, and no field's attribute.
pub(crate) fn constants(
    cx: &mut Ctxt,
    attrs: &EntityAttrs,
    fields: &[FieldModel<'_>],
) -> Vec<(syn::LitStr, String)> {
    let mut out: Vec<(syn::LitStr, String)> = Vec::new();
    for (name, value) in &attrs.constants {
        let attribute = name.value();
        if attribute.is_empty() {
            cx.error_at(name, "a constant attribute needs a name");
        } else if out.iter().any(|(seen, _)| seen.value() == attribute) {
            cx.error_at(
                name,
                format!("constant attribute {attribute:?} is declared twice"),
            );
        } else if fields.iter().any(|f| !f.skip && f.attribute == attribute) {
            cx.error_at(
                name,
                format!("a field is stored under {attribute:?}: give the constant attribute another name"),
            );
        } else {
            out.push((name.clone(), value.value()));
        }
    }
    out
}

/// A key field is read from every item of the entity: a default would hide a corrupt item.
pub(crate) fn check_defaults<'t>(
    cx: &mut Ctxt,
    key_templates: impl Iterator<Item = &'t Template>,
    fields: &[FieldModel<'_>],
) {
    let key_fields: Vec<&str> = key_templates.flat_map(Template::holes).collect();
    for field in fields.iter().filter(|f| f.default.is_some()) {
        let name = field.ident.to_string();
        if key_fields.contains(&name.as_str()) {
            cx.error_at(
                field.ident,
                format!("field `{name}` is part of the primary key, which every item has, so it cannot have a `default`"),
            );
        }
    }
}

/// At most one `created_at` and one `updated_at`, neither also the version, TTL or skipped.
pub(crate) fn check_timestamps(cx: &mut Ctxt, fields: &[FieldModel<'_>]) {
    for (kind, pick) in [
        (
            "created_at",
            (|f: &FieldModel<'_>| f.created_at) as fn(&FieldModel<'_>) -> bool,
        ),
        ("updated_at", |f: &FieldModel<'_>| f.updated_at),
    ] {
        for extra in fields.iter().filter(|f| pick(f)).skip(1) {
            cx.error_at(
                extra.ident,
                format!("an entity has at most one `{kind}` field"),
            );
        }
        for field in fields.iter().filter(|f| pick(f)) {
            let clash = if field.skip {
                Some("a skipped field is not stored")
            } else if field.version || field.ttl || field.compressed.is_some() {
                Some("the version, TTL and compressed fields are written by their own rules")
            } else if field.created_at && field.updated_at {
                Some("one field cannot be both `created_at` and `updated_at`")
            } else {
                None
            };
            if let Some(reason) = clash {
                cx.error_at(field.ident, format!("`{kind}` does not apply: {reason}"));
            }
        }
    }
}

/// `schema_version = N` and its `upgrade(...)`s: a version from 1; exactly one upgrade for
/// each older version, each with `via` or `with`; upgrades only with a schema version.
pub(crate) fn schema_model(cx: &mut Ctxt, attrs: &EntityAttrs) -> Option<SchemaModel> {
    let Some(lit) = &attrs.schema_version else {
        if let Some(upgrade) = attrs.upgrades.first() {
            cx.error_at(
                &upgrade.path,
                "`upgrade(...)` needs `schema_version = N`: the version items are written in now",
            );
        }
        return None;
    };
    let current = match lit.base10_parse::<u32>() {
        Ok(v) if v >= 1 => v,
        _ => {
            cx.error_at(lit, "`schema_version` is a whole number from 1");
            return None;
        }
    };
    let mut upgrades: Vec<(u32, Upgrade)> = Vec::new();
    for attr in &attrs.upgrades {
        let Some(from) = &attr.from else {
            cx.error_at(
                &attr.path,
                "`upgrade` needs `from = N`, the version it reads",
            );
            continue;
        };
        let version = match from.base10_parse::<u32>() {
            Ok(v) if (1..current).contains(&v) => v,
            _ => {
                cx.error_at(
                    from,
                    format!("`from` names an older schema version: one below {current}"),
                );
                continue;
            }
        };
        if upgrades.iter().any(|(v, _)| *v == version) {
            cx.error_at(from, format!("version {version} already has an upgrade"));
            continue;
        }
        let upgrade = match (&attr.via, &attr.with) {
            (Some(via), None) => Upgrade::Via(via.clone()),
            (None, Some(with)) => match with.parse::<syn::Path>() {
                Ok(path) => Upgrade::With(path),
                Err(_) => {
                    cx.error_at(with, "`with` takes the path of a function");
                    continue;
                }
            },
            _ => {
                cx.error_at(
                    &attr.path,
                    "`upgrade` takes one of `via = OldShape` (a type that deserializes from the stored item and converts `Into` the entity) or `with = \"path::to_fn\"` (a function from the stored item)",
                );
                continue;
            }
        };
        upgrades.push((version, upgrade));
    }
    let missing: Vec<String> = (1..current)
        .filter(|v| !upgrades.iter().any(|(u, _)| u == v))
        .map(|v| v.to_string())
        .collect();
    if !missing.is_empty() && !cx.has_errors() {
        cx.error_at(
            lit,
            format!(
                "items stored at schema version {} have no `upgrade(from = ..., ...)`: every older version must say how it reads",
                missing.join(", ")
            ),
        );
    }
    upgrades.sort_by_key(|(v, _)| *v);
    Some(SchemaModel { current, upgrades })
}
