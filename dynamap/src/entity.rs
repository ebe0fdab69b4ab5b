//! The trait `#[derive(Entity)]` implements.

use crate::Result;
use crate::codec::Item;
use crate::key::{Key, KeyError};
use crate::table::Table;

/// A Rust type stored as items of a single-table design, usually derived:
///
/// ```
/// use dynamap::{Entity, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(Entity, Debug, PartialEq)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
/// struct Reading {
///     sensor_id: String,
///     seq: u32,
///     value: f64,
/// }
///
/// let key = Reading::key("S1", 7u32);
/// assert_eq!(key.values().unwrap(), ("SENSOR#S1", Some("READ#0000000007")));
///
/// let (sensor_id, seq) = Reading::parse_key("SENSOR#S1", Some("READ#0000000007")).unwrap();
/// assert_eq!((sensor_id.as_str(), seq), ("S1", 7));
///
/// let reading = Reading { sensor_id: "S1".into(), seq: 7, value: 0.67 };
/// let item = reading.to_item().unwrap();
/// assert_eq!(item["PK"].as_s().unwrap(), "SENSOR#S1");
/// assert_eq!(item["_type"].as_s().unwrap(), "Reading");
/// assert_eq!(Reading::from_item(item).unwrap(), reading);
/// ```
///
/// See the [crate documentation](crate) for every attribute the derive accepts.
pub trait Entity: Sized {
    /// The table layout the entity is stored in.
    type Table: Table;

    /// The fields of the key templates, in order of first appearance, as a tuple: the
    /// arguments of the generated `key(...)` and what [`parse_key`](Entity::parse_key) returns.
    type KeyParts;

    /// The value stored in the table's entity-type attribute.
    const ENTITY_TYPE: &'static str;

    /// The primary key of this value.
    fn primary_key(&self) -> Key<Self>;

    /// The full item: fields, key attributes and the entity-type attribute.
    fn to_item(&self) -> Result<Item>;

    /// Decodes an item. Fails when the item belongs to another entity type, or when an
    /// attribute is missing or holds the wrong type; the error names the attribute.
    fn from_item(item: Item) -> Result<Self>;

    /// Reads stored key values back into their parts.
    fn parse_key(pk: &str, sk: Option<&str>) -> Result<Self::KeyParts, KeyError>;
}
