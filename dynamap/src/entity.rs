//! The trait `#[derive(Entity)]` implements.

use crate::Result;
use crate::codec::Item;
use crate::columns::Column;
use crate::derived::{DerivedChange, Timestamps, UpdatedValues};
use crate::description::EntityDescription;
use crate::key::{Key, KeyError, Segment};

use crate::sealed::{AsEntitySeal, Sealed, VersionedSeal};
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
pub trait Entity: EntityGlue + Sized + 'static {
    /// The table layout the entity is stored in.
    type Table: Table;

    /// The fields of the key templates, in order of first appearance, as a tuple: the
    /// arguments of the generated `key(...)` and what [`parse_key`](Entity::parse_key) returns.
    type KeyParts;

    /// The value stored in the table's entity-type attribute.
    const ENTITY_TYPE: &'static str;

    /// Earlier entity names (`#[dynamap(alias = "OldName")]`): items stored under them still
    /// read as this entity, and are written back under [`ENTITY_TYPE`](Entity::ENTITY_TYPE).
    const ALIASES: &'static [&'static str] = &[];

    /// The primary key of this value.
    fn primary_key(&self) -> Key<Self>;

    /// The full item: fields, key attributes and the entity-type attribute.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Key`](crate::Error::Key) when a key does not render, and with
    /// [`Error::Encode`](crate::Error::Encode) or
    /// [`Error::Compressed`](crate::Error::Compressed) when a field does not encode.
    fn to_item(&self) -> Result<Item>;

    /// Decodes an item. Fails when the item belongs to another entity type, or when an
    /// attribute is missing or holds the wrong type; the error names the attribute.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::WrongEntityType`](crate::Error::WrongEntityType),
    /// [`Error::MissingAttribute`](crate::Error::MissingAttribute) or
    /// [`Error::InvalidAttribute`](crate::Error::InvalidAttribute), each naming the
    /// attribute.
    fn from_item(item: Item) -> Result<Self>;

    /// Reads stored key values back into their parts.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyError`] naming the template and field when the stored text does
    /// not match the key templates.
    fn parse_key(pk: &str, sk: Option<&str>) -> Result<Self::KeyParts, KeyError>;

    /// The keys, lookups, fields and computed parts as declared, for the model charts
    /// (`dynamap::model::Model`). The derive fills it in.
    #[doc(hidden)]
    const DESCRIPTION: EntityDescription = EntityDescription::NONE;

    /// The columns of the entity's rows in a columnar file (the `dynamap-parquet` crate): one per
    /// stored field, in declaration order. The derive fills it in.
    #[doc(hidden)]
    fn columns() -> Vec<Column> {
        Vec::new()
    }
}

/// The half of an entity only generated code implements and only dynamap calls: what a
/// write must know beyond the item. Not public API; `#[derive(Entity)]` implements it.
#[doc(hidden)]
pub trait EntityGlue {
    /// What writes must know beyond the item: the version attribute, the attributes keys
    /// and indexes are made of, the lookup items kept in sync. The derive fills it in.
    const WRITE: WriteMeta = WriteMeta::NONE;

    /// The sort-key shape of the table's partitions (the `S` of the generated
    /// `partition(...)`), for [`PartitionKey::from_raw`](crate::key::PartitionKey::from_raw).
    type TableSort;

    /// The table's sort key template, as `partition(...)` keeps it (empty for a sort key
    /// that is a field's own attribute, or none).
    const TABLE_SORT: &'static [Segment];

    /// The optimistic-locking version this value was read with (0 for a new value). Only
    /// meaningful when `WriteMeta::version` is set.
    fn version(&self) -> u64 {
        0
    }

    /// Sets the version field, after a successful versioned write.
    fn set_version(&mut self, _version: u64) {}

    /// The keys of the lookup items this value owns, in `WriteMeta::lookups` order.
    fn lookup_keys(&self) -> Result<Vec<LookupKey>, KeyError> {
        Ok(Vec::new())
    }

    /// The index key attributes an update of the item with primary key `key` must also
    /// change because it sets (or removes) fields they are rendered from; primary-key
    /// fields are read from `key`. Fails, naming the missing fields, when the update sets
    /// only some of a key's fields.
    fn derived_key_changes(
        _values: &UpdatedValues<'_>,
        _key: (&str, Option<&str>),
    ) -> Result<Vec<DerivedChange>> {
        Ok(Vec::new())
    }

    /// The new keys of the lookup items whose fields an update sets, rendered from the
    /// update's values. Fails, naming the missing fields, when it sets only some of them.
    fn updated_lookup_keys(
        _values: &UpdatedValues<'_>,
        _key: (&str, Option<&str>),
    ) -> Result<Vec<LookupKey>> {
        Ok(Vec::new())
    }

    /// The stored values of the `created_at` / `updated_at` fields at `now`.
    fn timestamps(_now: std::time::SystemTime) -> Result<Timestamps> {
        Ok(Timestamps::default())
    }

    /// The entity types of the entity's lookup items (`Sensor.location`), in declaration
    /// order: `<Entity>.<lookup>` for each `lookup(...)`.
    const LOOKUP_TYPES: &'static [&'static str] = &[];

    /// What an update that creates its item writes besides its changes, read back from the
    /// primary key: the key's fields, and the index keys rendered from them alone.
    fn created_attributes(_pk: &str, _sk: Option<&str>) -> Result<Item> {
        Ok(Item::new())
    }
}

/// An entity or a reference to one: what [`put_all`](crate::batch::BatchWrite::put_all)
/// takes, so both `orders` and `orders.iter()` can be written. The derive implements it for
/// the entity and for references to it.
pub trait AsEntity: Sealed<AsEntitySeal> {
    /// The entity type.
    type Entity: Entity;

    /// The entity.
    fn as_entity(&self) -> &Self::Entity;
}

/// Write metadata of an entity; see `EntityGlue::WRITE`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteMeta {
    /// The attribute of the `#[dynamap(version)]` field.
    pub version: Option<&'static str>,
    /// Attributes of the fields in the primary key templates: updates cannot change them.
    pub key_attributes: &'static [&'static str],
    /// Attributes of `Option` fields: the only ones an update may remove.
    pub optional_attributes: &'static [&'static str],
    /// Attributes of the fields an update that creates its item must set: not optional,
    /// defaulted, automatic (version, timestamps) or part of the primary key.
    pub required_attributes: &'static [&'static str],
    /// `(attribute, index)` for every field an index template uses.
    pub indexed_attributes: &'static [(&'static str, &'static str)],
    /// The names of the entity's `lookup(...)` items.
    pub lookups: &'static [&'static str],
    /// `(attribute, lookup)` for every field a lookup template uses.
    pub lookup_attributes: &'static [(&'static str, &'static str)],
    /// `(attribute, size limit)` of every field that is an index key attribute itself
    /// (`field(score)`): updates check the values they write there.
    pub attribute_keys: &'static [(&'static str, usize)],
    /// The attribute of the `#[dynamap(created_at)]` field.
    pub created_at: Option<&'static str>,
    /// The attribute of the `#[dynamap(updated_at)]` field.
    pub updated_at: Option<&'static str>,
    /// `#[dynamap(schema_version = N)]`: the version every write stores, and the only one
    /// a partial update may change.
    pub schema_version: Option<u32>,
    /// `const_attr(name = .., value = ..)`: `(attribute, value)` of each attribute every
    /// write stores and every whole read checks.
    pub constants: &'static [(&'static str, &'static str)],
    /// The attributes of every stored field.
    pub stored_attributes: &'static [&'static str],
    /// `#[dynamap(encrypt)]` fields' attributes: encrypted and signed by the AWS Database
    /// Encryption SDK (see the `dynamap-encryption` crate).
    pub encrypted_attributes: &'static [&'static str],
    /// `#[dynamap(sign_only)]` fields' attributes: signed, not encrypted.
    pub sign_only_attributes: &'static [&'static str],
}

impl WriteMeta {
    /// No version, no indexes, no lookups.
    pub const NONE: WriteMeta = WriteMeta {
        version: None,
        key_attributes: &[],
        optional_attributes: &[],
        required_attributes: &[],
        indexed_attributes: &[],
        lookups: &[],
        lookup_attributes: &[],
        attribute_keys: &[],
        created_at: None,
        updated_at: None,
        schema_version: None,
        constants: &[],
        stored_attributes: &[],
        encrypted_attributes: &[],
        sign_only_attributes: &[],
    };
}

/// An entity with a `#[dynamap(version)]` field: optimistic locking detects a concurrent
/// write to it, which is what [`Db::modify`](crate::Db::modify) relies on. The derive
/// implements it for every entity that declares a version field; do not implement it by hand.
///
/// ```
/// use dynamap::{Entity, Table, Versioned};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO")]
/// struct Repo { name: String, issues: u64, #[dynamap(version)] version: u64 }
///
/// fn modifiable<E: Versioned>() {}
/// modifiable::<Repo>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `#[dynamap(version)]` field, so a read-modify-write cannot detect concurrent writes",
    label = "not versioned",
    note = "add a `#[dynamap(version)] version: u64` field to `{Self}`, or change it with `Db::update`, which DynamoDB applies atomically"
)]
pub trait Versioned: Entity + Sealed<VersionedSeal> {}

/// Attribute of a lookup item holding its owner's partition key.
#[doc(hidden)]
pub const OWNER_PK: &str = "_owner_pk";
/// Attribute of a lookup item holding its owner's sort key.
#[doc(hidden)]
pub const OWNER_SK: &str = "_owner_sk";

/// The key of one lookup item, rendered from its owner's fields.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupKey {
    /// The lookup's name.
    pub name: &'static str,
    /// The partition key value.
    pub pk: String,
    /// The sort key value, when the table has a sort key.
    pub sk: Option<String>,
}
