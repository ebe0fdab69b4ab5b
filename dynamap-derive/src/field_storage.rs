//! The rules for fields stored in a special form: `compress` (one binary attribute) and
//! `ttl` (epoch seconds in the table's TTL attribute).

use syn::{Path, Type};

use crate::attr::FieldAttrs;
use crate::ctx::Ctxt;
use crate::model::{Compressed, FieldModel};
use crate::template::Template;

/// Checks a field's `compress` and `ttl` against its other attributes. For a TTL field,
/// returns the epoch-seconds module its value goes through.
pub(crate) fn field_storage(
    cx: &mut Ctxt,
    attrs: &FieldAttrs,
    option_inner: Option<&Type>,
) -> (Option<Compressed>, Option<Path>) {
    let mut compressed = None;
    if let Some(compress) = &attrs.compress {
        let conflict = [
            (
                attrs.with.is_some(),
                "`compress` serializes the field itself, so `with` does not apply",
            ),
            (
                attrs.skip.is_some(),
                "a skipped field is not stored, so `compress` does not apply",
            ),
            (
                attrs.version.is_some(),
                "a version field is a number DynamoDB compares; it cannot be compressed",
            ),
            (
                attrs.ttl.is_some(),
                "a TTL field is a number DynamoDB reads; it cannot be compressed",
            ),
        ];
        for (_, message) in conflict.iter().filter(|(clash, _)| *clash) {
            cx.error_at(&compress.path, *message);
        }
        compressed = compress.settings(cx).map(|(settings, check)| Compressed {
            settings,
            check,
            format_chosen: compress.format_chosen(),
        });
    }
    let mut ttl = None;
    if let Some(path) = &attrs.ttl {
        let conflict = [
            (
                attrs.with.is_some(),
                "a TTL field is stored as epoch seconds, so `with` does not apply",
            ),
            (
                attrs.skip.is_some(),
                "a skipped field is not stored, so `ttl` does not apply",
            ),
            (
                attrs.version.is_some(),
                "a field cannot be both the version and the TTL",
            ),
        ];
        for (_, message) in conflict.iter().filter(|(clash, _)| *clash) {
            cx.error_at(path, *message);
        }
        ttl = Some(if option_inner.is_some() {
            syn::parse_quote!(::dynamap::__private::epoch_seconds::option)
        } else {
            syn::parse_quote!(::dynamap::__private::epoch_seconds)
        });
    }
    (compressed, ttl)
}

/// At most one TTL field, of a plausible type: a plain number or string is reported once
/// here (a time to live is a timestamp, stored as epoch seconds by dynamap); other types
/// are checked by the `TtlTimestamp` bound.
pub(crate) fn check_ttl(cx: &mut Ctxt, fields: &[FieldModel<'_>]) {
    for field in fields.iter().filter(|f| f.ttl) {
        let ty = field.option_inner.unwrap_or(field.ty);
        let Some(name) = crate::index_keys::last_segment(ty) else {
            continue;
        };
        let plain = [
            "i8",
            "i16",
            "i32",
            "i64",
            "i128",
            "isize",
            "u8",
            "u16",
            "u32",
            "u64",
            "u128",
            "usize",
            "f32",
            "f64",
            "String",
            "bool",
            "SystemTime",
        ];
        if plain.contains(&name.as_str()) {
            cx.error_at(
                ty,
                format!("a #[dynamap(ttl)] field is a `time::OffsetDateTime` (or an `Option` of one), not `{name}`: dynamap stores it as the epoch seconds DynamoDB reads"),
            );
        }
    }
    for extra in fields.iter().filter(|f| f.ttl).skip(1) {
        cx.error_at(extra.ident, "an entity has at most one `ttl` field");
    }
}

/// Compressed and TTL fields cannot fill key template holes: their stored form is not the
/// value the key renders.
pub(crate) fn check_key_use(cx: &mut Ctxt, template: &Template, field: &FieldModel<'_>) {
    let what = if field.compressed.is_some() {
        "compressed"
    } else if field.ttl {
        "TTL"
    } else {
        return;
    };
    cx.error_at(
        &template.source,
        format!(
            "field `{}` is a {what} field, so it cannot be part of key template {:?}",
            field.ident,
            template.text()
        ),
    );
}
