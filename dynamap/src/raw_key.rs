//! Keys named by hand: [`Key::from_raw`] and [`PartitionKey::from_raw`], for items and
//! partitions whose keys the entity's templates cannot render (written by another service,
//! or by an older layout).

use crate::codec::AttributeValue;
use crate::entity::{Entity, EntityGlue};
use crate::key::primary_type_code as type_code;
use crate::key::{Key, KeyError, KeyErrorKind, PartitionKey, check_key_value};
use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
use crate::table::{ScalarType, Table};

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
    /// [`values`](Key::values)), naming what is wrong. The table's key attributes must be
    /// strings; [`from_raw_values`](Key::from_raw_values) takes numbers and binaries.
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
        Self::from_raw_values(
            AttributeValue::S(pk.to_owned()),
            sk.map(|sk| AttributeValue::S(sk.to_owned())),
        )
    }

    /// The key of an item of `E` from its stored key values of any type: strings, numbers
    /// (`AttributeValue::N`, decimal text) or binaries, as the table declares its key
    /// attributes (`pk_type`, `sk_type`). [`from_raw`](Key::from_raw) is this for string
    /// keys.
    ///
    /// Checked as `from_raw`'s values are, and each value's type against the table's
    /// declared type for the attribute ([`KeyErrorKind::WrongType`]); a number must be one
    /// DynamoDB can store (finite, at most 38 significant digits).
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Key, Table};
    /// use dynamap::codec::AttributeValue;
    /// use dynamap::key::KeyErrorKind;
    ///
    /// #[derive(Table)]
    /// #[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
    /// struct Events;
    ///
    /// #[derive(Entity)]
    /// #[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = field(timestamp))]
    /// struct Event {
    ///     #[dynamap(rename = "userId")]
    ///     user_id: String,
    ///     timestamp: i64,
    /// }
    ///
    /// let key = Key::<Event>::from_raw_values(
    ///     AttributeValue::S("u1".into()),
    ///     Some(AttributeValue::N("1700000000000".into())),
    /// );
    /// assert_eq!(key, Event::key("u1", 1_700_000_000_000i64));
    ///
    /// // The sort key is a number: a string is refused.
    /// let err = Key::<Event>::from_raw("u1", Some("1700000000000")).attribute_values().unwrap_err();
    /// assert!(matches!(err.kind, KeyErrorKind::WrongType { expected: "N", found: "S" }));
    /// ```
    pub fn from_raw_values(pk: AttributeValue, sk: Option<AttributeValue>) -> Key<E> {
        let schema = <E::Table as Table>::SCHEMA;
        let pk = checked::<E>(schema.pk, schema.pk_type, pk, MAX_PARTITION_KEY_BYTES);
        let sk = match (schema.sk, sk) {
            (Some(attribute), Some(value)) => Some(checked::<E>(
                attribute,
                schema.sk_type,
                value,
                MAX_SORT_KEY_BYTES,
            )),
            (None, None) => None,
            (attribute, _) => Some(Err(error::<E>(
                attribute.unwrap_or(schema.pk),
                KeyErrorKind::SortKeyPresence {
                    table_has_one: attribute.is_some(),
                },
            ))),
        };
        Key::from_attributes(pk, sk)
    }
}

impl<E: Entity> PartitionKey<E, <E as EntityGlue>::TableSort> {
    /// The table partition of `E` under its stored partition key value, as it is, for a
    /// partition the entity's template cannot render: one written by another service or
    /// mapper (`TENANT#acme#eu`, a value holding the template's delimiter unescaped), or
    /// under an older layout. A query takes it like the generated `E::partition(...)`,
    /// with the same sort-key conditions (`E::sk()` for a sort key of several parts).
    ///
    /// The value is checked as [`Key::from_raw`]'s are, against the table's key schema and
    /// not against `E`'s template: a string partition key, not empty, at most 2,048 bytes.
    /// A bad one is reported by the query it is used in (or by
    /// [`value`](PartitionKey::value)), naming what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// use dynamap::key::PartitionKey;
    ///
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "Order", pk = "TENANT#{tenant}", sk = "ORDER#{day}#{id}")]
    /// struct Order { tenant: String, day: String, id: String }
    ///
    /// // Another service stored the tenant `acme#eu` as it is; the template would escape `#`.
    /// let partition = PartitionKey::<Order, _>::from_raw("TENANT#acme#eu");
    /// assert_eq!(partition.value()?, "TENANT#acme#eu");
    /// assert_ne!(Order::partition("acme#eu").value()?, "TENANT#acme#eu");
    ///
    /// assert!(PartitionKey::<Order, _>::from_raw("").value().is_err());
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let may = db
    ///     .query(PartitionKey::<Order, _>::from_raw("TENANT#acme#eu"))
    ///     .sk_ge(Order::sk().day("2026-05-01"))
    ///     .all()
    ///     .await?;
    /// # Ok(()) }
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn from_raw(pk: &str) -> Self {
        let schema = <E::Table as Table>::SCHEMA;
        let value = checked::<E>(
            schema.pk,
            schema.pk_type,
            AttributeValue::S(pk.to_owned()),
            MAX_PARTITION_KEY_BYTES,
        );
        PartitionKey::from_attribute(value, None, E::TABLE_SORT)
    }
}

fn error<E: Entity>(attribute: &'static str, kind: KeyErrorKind) -> KeyError {
    KeyError {
        entity: E::ENTITY_TYPE,
        attribute,
        field: None,
        kind,
    }
}

/// `value` as a stored value of key attribute `attribute`, declared of type `kind`: of that
/// type, within `limit` bytes, and a value DynamoDB takes as a key.
fn checked<E: Entity>(
    attribute: &'static str,
    kind: ScalarType,
    value: AttributeValue,
    limit: usize,
) -> Result<AttributeValue, KeyError> {
    let found = type_code(&value);
    if found != kind.code() {
        return Err(error::<E>(
            attribute,
            KeyErrorKind::WrongType {
                expected: kind.code(),
                found,
            },
        ));
    }
    let len = match &value {
        AttributeValue::S(text) => text.len(),
        AttributeValue::B(bytes) => bytes.as_ref().len(),
        _ => 0,
    };
    if len > limit {
        return Err(error::<E>(attribute, KeyErrorKind::TooLong { len, limit }));
    }
    check_key_value(value, limit).map_err(|err| error::<E>(attribute, KeyErrorKind::Part(err)))
}
