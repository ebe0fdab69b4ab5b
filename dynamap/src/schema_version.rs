//! Schema versions: the attribute that says which shape of an entity an item was written
//! in, read by every decode so that items of older shapes are upgraded on read and items of
//! newer ones are refused (see the evolving-models guide).

use serde::de::DeserializeOwned;

use crate::codec::{AttributeValue, Item};
pub use crate::table::SCHEMA_VERSION_ATTRIBUTE;
use crate::table::TableSchema;
use crate::{Error, Result};

/// The schema version `item` was written at: its [`SCHEMA_VERSION_ATTRIBUTE`], or 1 without
/// one. A version newer than `known` is [`Error::NewerSchemaVersion`], naming the item's key.
pub(crate) fn stored_version(
    item: &Item,
    entity: &'static str,
    known: u32,
    schema: &TableSchema,
) -> Result<u32> {
    let found = match item.get(SCHEMA_VERSION_ATTRIBUTE) {
        None => 1,
        Some(AttributeValue::N(text)) => text
            .parse::<u32>()
            .ok()
            .filter(|v| *v >= 1)
            .ok_or_else(|| malformed(entity, format!("schema version {text:?}")))?,
        Some(other) => return Err(malformed(entity, format!("{other:?}"))),
    };
    if found > known {
        let text = |attribute: Option<&str>| {
            attribute
                .and_then(|a| item.get(a))
                .map(|value| match value {
                    AttributeValue::S(s) => s.clone(),
                    AttributeValue::N(n) => n.clone(),
                    other => format!("{other:?}"),
                })
        };
        return Err(Error::NewerSchemaVersion {
            entity,
            pk: text(Some(schema.pk)).unwrap_or_default(),
            sk: text(schema.sk),
            found,
            known,
        });
    }
    Ok(found)
}

fn malformed(entity: &'static str, found: String) -> Error {
    Error::InvalidAttribute {
        entity,
        attribute: SCHEMA_VERSION_ATTRIBUTE,
        source: <crate::codec::AttributeError as serde::de::Error>::custom(format!(
            "expected a schema version (a whole number from 1), found {found}"
        )),
        item: None,
    }
}

/// Reads an item stored at schema version `from` as its declared older shape `V`, from all
/// of its attributes (`V` ignores the ones it does not name, keys included).
pub(crate) fn read_older<V: DeserializeOwned>(
    item: Item,
    entity: &'static str,
    from: u32,
) -> Result<V> {
    crate::codec::deserialized(AttributeValue::M(item)).map_err(|source| Error::Upgrade {
        entity,
        from,
        source,
        item: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::TableSchema;

    const SCHEMA: TableSchema = TableSchema::for_tests("App", &[]);

    fn item(version: Option<AttributeValue>) -> Item {
        let mut item = Item::new();
        item.insert("PK".into(), AttributeValue::S("C#1".into()));
        item.insert("SK".into(), AttributeValue::S("PROFILE".into()));
        if let Some(version) = version {
            item.insert(SCHEMA_VERSION_ATTRIBUTE.into(), version);
        }
        item
    }

    #[test]
    fn an_item_without_a_version_is_version_one() {
        assert_eq!(
            stored_version(&item(None), "Customer", 3, &SCHEMA).ok(),
            Some(1)
        );
        let two = item(Some(AttributeValue::N("2".into())));
        assert_eq!(stored_version(&two, "Customer", 3, &SCHEMA).ok(), Some(2));
    }

    #[test]
    fn a_newer_version_names_the_item_and_both_versions() {
        let four = item(Some(AttributeValue::N("4".into())));
        match stored_version(&four, "Customer", 3, &SCHEMA) {
            Err(Error::NewerSchemaVersion {
                entity,
                pk,
                sk,
                found,
                known,
                ..
            }) => {
                assert_eq!(
                    (entity, pk.as_str(), sk.as_deref()),
                    ("Customer", "C#1", Some("PROFILE"))
                );
                assert_eq!((found, known), (4, 3));
            }
            other => panic!("expected a newer-version error, got {other:?}"),
        }
    }

    #[test]
    fn a_malformed_version_is_an_error_not_a_guess() {
        for bad in [
            AttributeValue::N("0".into()),
            AttributeValue::N("1.5".into()),
            AttributeValue::S("2".into()),
        ] {
            let err =
                stored_version(&item(Some(bad)), "Customer", 3, &SCHEMA).expect_err("malformed");
            assert!(
                matches!(
                    err,
                    Error::InvalidAttribute {
                        attribute: SCHEMA_VERSION_ATTRIBUTE,
                        ..
                    }
                ),
                "{err:?}"
            );
        }
    }
}
