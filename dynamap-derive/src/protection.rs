//! `#[dynamap(encrypt)]` and `#[dynamap(sign_only)]`: what the AWS Database Encryption SDK
//! does with a field's attribute, and the rules that keep an encrypted attribute out of
//! every place where DynamoDB itself must read the value (keys, indexes, lookups).

use syn::Path;

use crate::ctx::Ctxt;
use crate::model::{ComputedPart, FieldKey, FieldModel, Protection};
use crate::template::Template;

/// The two flags as written on a field.
#[derive(Default)]
pub(crate) struct ProtectionAttrs {
    pub(crate) encrypt: Option<Path>,
    pub(crate) sign_only: Option<Path>,
}

/// Which other field flags an encrypted field cannot carry, and why: dynamap or DynamoDB
/// must read these values as they are.
pub(crate) fn protection(
    cx: &mut Ctxt,
    attrs: &ProtectionAttrs,
    others: &[(&Option<Path>, &str)],
) -> Protection {
    if let (Some(_), Some(sign_only)) = (&attrs.encrypt, &attrs.sign_only) {
        cx.error_at(
            sign_only,
            "a field is either `encrypt` (encrypted and signed) or `sign_only`, not both",
        );
    }
    let Some(encrypt) = &attrs.encrypt else {
        return if attrs.sign_only.is_some() {
            Protection::SignOnly
        } else {
            Protection::Plain
        };
    };
    for (flag, why) in others {
        if flag.is_some() {
            cx.error_at(encrypt, format!("an encrypted field cannot be {why}"));
        }
    }
    Protection::Encrypted
}

/// DynamoDB reads key attributes to place and find items, so a key template, an index key
/// or a lookup built from an encrypted field could never match: refused, naming the field.
pub(crate) fn check_key_template(
    cx: &mut Ctxt,
    template: &Template,
    fields: &[FieldModel<'_>],
    computed: &[ComputedPart],
) {
    for hole in template.holes() {
        let sources: Vec<&syn::Ident> = match fields.iter().find(|f| f.ident == hole) {
            Some(field) => vec![field.ident],
            None => computed
                .iter()
                .filter(|c| c.name == hole)
                .flat_map(|c| &c.fields)
                .collect(),
        };
        for name in sources {
            if fields
                .iter()
                .any(|f| f.ident == name && f.protection == Protection::Encrypted)
            {
                cx.error_at(
                    &template.source,
                    format!(
                        "field `{name}` is encrypted, so it cannot be part of key template {:?}: DynamoDB would see only ciphertext (use `sign_only` to keep it readable and signed)",
                        template.text()
                    ),
                );
            }
        }
    }
}

/// An index key that is a field's own attribute (`field(..)`, `fields(..)`) is read by
/// DynamoDB as it is stored.
pub(crate) fn check_field_key(cx: &mut Ctxt, key: &FieldKey, fields: &[FieldModel<'_>]) {
    for name in &key.fields {
        if fields
            .iter()
            .any(|f| *f.ident == *name && f.protection == Protection::Encrypted)
        {
            cx.error_at(
                name,
                format!("field `{name}` is encrypted, so it cannot be a key attribute: DynamoDB would index ciphertext"),
            );
        }
    }
}

/// The attributes of the stored fields, and of those encrypted and those only signed: what
/// the table's encryption configuration is built from at run time.
pub(crate) fn attribute_lists<'m>(
    fields: &'m [FieldModel<'_>],
) -> (Vec<&'m str>, Vec<&'m str>, Vec<&'m str>) {
    let stored = fields.iter().filter(|f| !f.skip);
    let with = |p: Protection| {
        stored
            .clone()
            .filter(|f| f.protection == p)
            .map(|f| f.attribute.as_str())
            .collect()
    };
    (
        stored.clone().map(|f| f.attribute.as_str()).collect(),
        with(Protection::Encrypted),
        with(Protection::SignOnly),
    )
}
