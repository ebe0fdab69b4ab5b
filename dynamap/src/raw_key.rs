//! Keys named by hand: [`Key::from_raw`], for items whose keys the entity's templates
//! cannot render (written by another service, or by an older layout).

use crate::entity::Entity;
use crate::key::{Key, KeyError, KeyErrorKind, KeyPartError};
use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
use crate::table::Table;

impl<E: Entity> Key<E> {
    /// The key of an item of `E` from its stored key values, as they are, for an item whose
    /// key the entity's templates cannot render: one written by another service or mapper
    /// (`USER#Mary Ann`, unescaped), or under an older layout. Get, update, delete and
    /// transactions take it like a generated key.
    ///
    /// The values are checked against the table's key schema, not against `E`'s templates: a
    /// sort key value for a table with a sort key and none otherwise, neither empty, and
    /// within DynamoDB's size limits (2,048 bytes for partition keys, 1,024 for sort keys).
    /// Like every key, a bad one is reported by the operation it is used in (or by
    /// [`values`](Key::values)), naming what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Key, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "User", pk = "USER#{name}", sk = "PROFILE")]
    /// struct User { name: String }
    ///
    /// // Another service stored the name as it is; the template would escape the space.
    /// let key = Key::<User>::from_raw("USER#Mary Ann", Some("PROFILE"));
    /// assert_eq!(key.values()?, ("USER#Mary Ann", Some("PROFILE")));
    ///
    /// let no_sort_key = Key::<User>::from_raw("USER#Mary Ann", None);
    /// assert!(no_sort_key.values().is_err());
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn from_raw(pk: &str, sk: Option<&str>) -> Key<E> {
        let schema = <E::Table as Table>::SCHEMA;
        let error = |attribute: &'static str, kind: KeyErrorKind| KeyError {
            entity: E::ENTITY_TYPE,
            attribute,
            field: None,
            kind,
        };
        let check = |attribute: &'static str, value: &str, limit: usize| {
            if value.is_empty() {
                Err(error(attribute, KeyErrorKind::Part(KeyPartError::Empty)))
            } else if value.len() > limit {
                Err(error(
                    attribute,
                    KeyErrorKind::TooLong {
                        len: value.len(),
                        limit,
                    },
                ))
            } else {
                Ok(value.to_owned())
            }
        };
        let pk = check(schema.pk, pk, MAX_PARTITION_KEY_BYTES);
        let sk = match (schema.sk, sk) {
            (Some(attribute), Some(value)) => Some(check(attribute, value, MAX_SORT_KEY_BYTES)),
            (None, None) => None,
            (attribute, _) => Some(Err(error(
                attribute.unwrap_or(schema.pk),
                KeyErrorKind::SortKeyPresence {
                    table_has_one: attribute.is_some(),
                },
            ))),
        };
        Key::from_rendered(pk, sk)
    }
}
