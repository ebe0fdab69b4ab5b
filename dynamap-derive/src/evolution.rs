//! Rules for models that evolve: entity aliases, field defaults, automatic timestamps.

use crate::attr::EntityAttrs;
use crate::ctx::Ctxt;
use crate::model::FieldModel;
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
