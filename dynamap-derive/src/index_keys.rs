//! Index keys of an entity: templates or a field's own attribute (`field(x)`), lookup
//! keys (always templates), and the types a key part plainly cannot be.

use syn::Type;

use crate::attr::KeySpec;
use crate::ctx::Ctxt;
use crate::model::{FieldKey, FieldModel, IndexKey, IndexModel, LookupModel};
use crate::template::Template;

pub(crate) fn index_key(cx: &mut Ctxt, spec: &KeySpec) -> Option<IndexKey> {
    match spec {
        KeySpec::Template(lit) => Template::parse(cx, lit).map(IndexKey::Template),
        KeySpec::Fields { path, fields } => Some(IndexKey::Field(FieldKey {
            path: path.clone(),
            fields: fields.clone(),
        })),
    }
}

/// Lookup items are addressed by rendered keys: no `field(...)`.
pub(crate) fn lookup_model(cx: &mut Ctxt, index: IndexModel) -> Option<LookupModel> {
    let mut template = |key: IndexKey| match key {
        IndexKey::Template(template) => Some(template),
        IndexKey::Field(key) => {
            cx.error_at(
                &key.path,
                "a lookup item's keys are the table's string keys: give a template, not `field(...)`",
            );
            None
        }
    };
    let pk = template(index.pk);
    let sk = match index.sk {
        None => Some(None),
        Some(sk) => template(sk).map(Some),
    };
    Some(LookupModel {
        name: index.name,
        pk: pk?,
        sk: sk?,
    })
}

/// `field(x)` / `fields(x, y)` name stored fields whose own values can be key attributes.
pub(crate) fn check_field_key(cx: &mut Ctxt, key: &FieldKey, fields: &[FieldModel<'_>]) {
    if key.fields.len() > MAX_KEY_ATTRIBUTES {
        cx.error_at(
            &key.path,
            format!("a multi-attribute key has at most {MAX_KEY_ATTRIBUTES} attributes"),
        );
    }
    for (i, name) in key.fields.iter().enumerate() {
        if key.fields[..i].contains(name) {
            cx.error_at(name, format!("`{name}` is listed twice"));
        }
        check_one_field(cx, &key.path, name, fields);
    }
}

/// At most four attributes make one multi-attribute key, as in DynamoDB.
const MAX_KEY_ATTRIBUTES: usize = 4;

fn check_one_field(cx: &mut Ctxt, path: &syn::Path, name: &syn::Ident, fields: &[FieldModel<'_>]) {
    let Some(field) = fields.iter().find(|f| f.ident == name) else {
        let named = if path.is_ident("field") {
            format!("`field({name})`")
        } else {
            format!("`{name}` in `fields(...)`")
        };
        cx.error_at(name, format!("{named} names no field of this struct"));
        return;
    };
    let clash = if field.skip {
        Some("a skipped field")
    } else if field.compressed.is_some() {
        Some("a compressed field")
    } else if field.ttl {
        Some("a TTL field")
    } else if field.with.is_some() {
        Some("a field stored through `with`")
    } else {
        None
    };
    if let Some(what) = clash {
        cx.error_at(
            name,
            format!("`{name}` is {what}, so its stored value cannot be an index key attribute"),
        );
    }
}

/// Types that are plainly not key parts, reported once here rather than at every use the
/// generated code would make of them. Other types are checked by the `KeyPart` bound.
pub(crate) fn check_key_part_type(cx: &mut Ctxt, hole: &str, field: &FieldModel<'_>) {
    let ty = field.option_inner.unwrap_or(field.ty);
    let Some(name) = last_segment(ty) else { return };
    let why = match name.as_str() {
        "f32" | "f64" => {
            "floats have no text form whose order is their value's (use an integer, e.g. scaled, or map the index key to the field with `field(...)`)"
        }
        "bool" => "use a fieldless enum with `#[derive(KeyPart)]`",
        "Vec" | "HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" | "Option" => {
            "a key part is one value"
        }
        _ => return,
    };
    cx.error_at(
        ty,
        format!("`{name}` cannot be a key part (field `{hole}` is in a key template): {why}"),
    );
}

/// The last path segment's name of a type, such as `f64` or `Vec`.
pub(crate) fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.to_string())
        }
        _ => None,
    }
}

/// `pk = field(x)` / `sk = field(x)`: the field's own attribute is the table's key
/// attribute. Besides what [`check_field_key`] checks: the field is in every item (no
/// `Option`, no `default`), in no primary key template as well (`key(...)` takes it once,
/// as the attribute), and the entity has no lookup (a lookup item records its owner's key
/// as text).
pub(crate) fn check_primary_field_keys(
    cx: &mut Ctxt,
    keys: &[&IndexKey],
    templates: &[&Template],
    fields: &[FieldModel<'_>],
    lookups: &[LookupModel],
) {
    for key in keys {
        let IndexKey::Field(key) = key else { continue };
        check_field_key(cx, key, fields);
        for name in &key.fields {
            let Some(field) = fields.iter().find(|f| f.ident == name) else {
                continue;
            };
            if field.option_inner.is_some() {
                cx.error_at(
                    field.ty,
                    format!("field `{name}` is the table's key attribute (`field({name})`), so it cannot be optional"),
                );
            }
            if field.default.is_some() {
                cx.error_at(
                    field.ident,
                    format!("field `{name}` is the table's key attribute, which every item has, so it cannot have a `default`"),
                );
            }
            let in_template = templates
                .iter()
                .flat_map(|t| t.holes())
                .any(|hole| name == hole.trim_start_matches("r#"));
            if in_template {
                cx.error_at(
                    name,
                    format!("field `{name}` is a key attribute of its own (`field({name})`) and a part of the other primary key template: use it in one of them"),
                );
            }
        }
        if let Some(lookup) = lookups.first() {
            cx.error_at(
                &lookup.name,
                "a lookup item records its owner's key as text: an entity whose primary key is a field's own attribute (`field(...)`) cannot have lookups",
            );
        }
    }
}
