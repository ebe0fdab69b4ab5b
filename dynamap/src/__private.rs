//! Paths used by generated code. Not public API: anything here may change in any release.

#[cfg(feature = "time")]
pub use crate::codec::epoch_seconds;
pub use crate::codec::{Attribute, AttributeError, AttributeValue, Item, Via, ViaDirect, ViaSerde};
pub use crate::codec::{Codec, Compression, Format};
pub use crate::codec::{
    CodecError, ColumnInput, Columnar, RecordReader, RecordWriter, ViaColumns, decode_variants,
    encode_variants,
};
pub use crate::codec::{FormChosen, FormProbe, FormRefused};
pub use crate::codec::{attribute_map, attribute_string, missing_field, unknown_variant};
pub use crate::codec::{
    decoded, deserialized, encoded, inserted, missing_attribute, present, serialized,
};
pub use crate::columns::{Column, ColumnKind, probe};
pub use crate::derived::{AutoTimestamp, DerivedChange, Timestamps, UpdatedValues};
pub use crate::description::{EntityDescription, KeyDescription};
pub use crate::entity::{
    AsEntity, Entity, EntityGlue, LookupKey, OWNER_PK, OWNER_SK, Versioned, WriteMeta,
};
pub use crate::entity_row::EntityRow;
pub use crate::expr::Attr;
pub use crate::expr::EncryptedAttr;
pub use crate::expr::encoder::expression_encoded;
use crate::key::ItemKey;
pub use crate::key::{
    AttributeKey, ByName, KeyAttribute, KeyAttributeArg, Segment, SortArgs, SortBound, SortParts,
    SortValues, TemplateShape,
};
pub use crate::key::{
    Key, KeyArg, KeyError, KeyFormat, KeyPart, KeyPartError, KeyReader, KeyWriter, Numbers,
    PartitionKey, ShardHash, key_arg_value,
};
pub use crate::limits::{MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
pub use crate::maintain::checkpoint::CHECKPOINT_ATTRIBUTES;
pub use crate::query::{
    Decode, EntityFields, EntityProjection, Field, OwnerKey, PartialRead, UnknownEntity,
};
pub use crate::sealed::{
    AsEntitySeal, EntityProjectionSeal, PartialReadSeal, Sealed, SortArgsSeal, VersionedSeal,
};
pub use crate::table::{
    IndexSchema, KeyAttributeSchema, Projection, ScalarType, Table, TableSchema,
};
pub use crate::timeseries::rows::{EventRow, EventTime};
/// The owner's attribute recording part `part` (`pk`, `sk`) of its lookup `name`'s key.
pub use crate::write::lookup_items::recorded as lookup_record;
pub use crate::{Error, Result};
pub use serde;
pub use std::boxed::Box;
pub use std::collections::HashMap;
pub use std::string::{String, ToString};
pub use std::time::SystemTime;
pub use std::vec::Vec;

/// Compile-time proof that a field type can fill a key template hole. The derive calls it
/// with the field type's span, so the error points at the field.
pub const fn assert_key_part<T: KeyPart>() {}

/// The entity-type check `from_item` starts with: the entity's name or one of its aliases.
/// A mismatch names the item by its key.
pub fn check_entity_type(
    item: &Item,
    schema: &TableSchema,
    expected: &'static str,
    aliases: &'static [&'static str],
) -> Result<()> {
    let attribute = schema.entity_type;
    match item.get(attribute) {
        Some(AttributeValue::S(found))
            if found == expected || aliases.iter().any(|alias| alias == found) =>
        {
            Ok(())
        }
        other => Err(Error::WrongEntityType {
            expected,
            attribute,
            found: other.and_then(|v| v.as_s().ok()).cloned(),
            item: Some(Box::new(ItemKey::of(item, schema.pk, schema.sk))),
        }),
    }
}

/// The `const_attr(...)` check of `from_item`: each constant attribute present with its
/// value. An item of another entity type passes, for the entity-type check to report.
pub fn check_constants(
    item: &Item,
    schema: &TableSchema,
    entity: &'static str,
    aliases: &'static [&'static str],
    constants: &'static [(&'static str, &'static str)],
) -> Result<()> {
    let of_entity = match item.get(schema.entity_type) {
        Some(AttributeValue::S(found)) => found == entity || aliases.iter().any(|a| a == found),
        _ => false,
    };
    if !of_entity {
        return Ok(());
    }
    for (attribute, value) in constants {
        let key = || Some(Box::new(ItemKey::of(item, schema.pk, schema.sk)));
        match item.get(*attribute) {
            Some(AttributeValue::S(found)) if found == value => {}
            None => {
                return Err(Error::MissingAttribute {
                    entity,
                    attribute,
                    item: key(),
                });
            }
            Some(found) => {
                return Err(Error::InvalidAttribute {
                    entity,
                    attribute,
                    source: AttributeError::new(format!(
                        "the constant attribute must be {value:?}, found {found:?}"
                    )),
                    item: key(),
                });
            }
        }
    }
    Ok(())
}

/// `err`, naming the item whose key attributes `from_item` kept aside, when it is about an
/// item that did not decode.
#[cold]
pub fn named_item(err: Error, pk: Option<&AttributeValue>, sk: Option<&AttributeValue>) -> Error {
    err.at_item(|| ItemKey::from_values(pk, sk))
}

/// The parts of an item's primary key, for fields whose attributes the item lacks (a
/// projection left them out): `None` when the item holds no key to read them from, so the
/// field reports its missing attribute.
pub fn recover_key<E: Entity>(
    pk: Option<&AttributeValue>,
    sk: Option<&AttributeValue>,
) -> Result<Option<E::KeyParts>> {
    // Key values reach `parse_key` as text: a string's, a number's decimal text, a binary's
    // base64.
    fn text(value: Option<&AttributeValue>) -> Option<std::borrow::Cow<'_, str>> {
        match value {
            Some(value @ (AttributeValue::S(_) | AttributeValue::N(_) | AttributeValue::B(_))) => {
                Some(crate::key::key_text(value))
            }
            _ => None,
        }
    }
    let Some(pk) = text(pk) else {
        return Ok(None);
    };
    let sk = match text(sk) {
        Some(sk) => Some(sk),
        None if <E::Table as Table>::SCHEMA.sk.is_some() => return Ok(None),
        None => None,
    };
    Ok(Some(E::parse_key(&pk, sk.as_deref())?))
}

/// True when an item of entity type `found` is the entity called `name` or one of `aliases`.
pub fn is_entity(found: Option<&str>, name: &str, aliases: &[&str]) -> bool {
    found.is_some_and(|found| found == name || aliases.contains(&found))
}

/// The entity type an item holds, if it holds one as a string.
pub fn entity_type_of<'a>(item: &'a Item, attribute: &str) -> Option<&'a str> {
    match item.get(attribute) {
        Some(AttributeValue::S(found)) => Some(found),
        _ => None,
    }
}

/// What a mixed query does with an item of an entity type its enum does not know.
pub fn unknown_entity<T>(
    policy: UnknownEntity,
    target: &'static str,
    attribute: &'static str,
    found: Option<&str>,
) -> Result<Option<T>> {
    match policy {
        UnknownEntity::Error => Err(Error::UnknownEntityType {
            target,
            attribute,
            found: found.map(str::to_owned),
        }),
        _ => {
            tracing::debug!(target: "dynamap", entity_type = ?found, decoder = target, "skipping an item of an unknown entity type");
            Ok(None)
        }
    }
}

/// Integer types a `#[dynamap(version)]` field can have.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a version field",
    label = "a version field is an unsigned or signed integer"
)]
pub trait VersionField {
    /// The version as a `u64` (negative values count as 0).
    fn to_version(&self) -> u64;
    /// The field value for `version`, saturating at the type's maximum.
    fn from_version(version: u64) -> Self;
}

macro_rules! version_field {
    ($($ty:ty),*) => {$(
        impl VersionField for $ty {
            fn to_version(&self) -> u64 {
                u64::try_from(*self).unwrap_or(0)
            }
            fn from_version(version: u64) -> Self {
                <$ty>::try_from(version).unwrap_or(<$ty>::MAX)
            }
        }
    )*};
}

version_field!(u16, u32, u64, usize, i32, i64);

/// Compile-time proofs that a field's codec is compiled in: one trait per codec, so the
/// error names the cargo feature to enable. Each is implemented for `()` when its feature
/// is on.
pub mod codec_features {
    /// `codec = "zstd"` (the default codec).
    #[diagnostic::on_unimplemented(
        message = "codec \"zstd\" needs dynamap's cargo feature `zstd`, which is not enabled",
        label = "this field is compressed with zstd",
        note = "enable it: `dynamap = {{ version = \"...\", features = [\"zstd\"] }}` (it is a default feature), or choose another codec"
    )]
    pub trait Zstd {}
    /// `codec = "bzip2"`.
    #[diagnostic::on_unimplemented(
        message = "codec \"bzip2\" needs dynamap's cargo feature `bzip2`, which is not enabled",
        label = "this field is compressed with bzip2",
        note = "enable it: `dynamap = {{ version = \"...\", features = [\"bzip2\"] }}`"
    )]
    pub trait Bzip2 {}
    /// `codec = "gzip"`.
    #[diagnostic::on_unimplemented(
        message = "codec \"gzip\" needs dynamap's cargo feature `gzip`, which is not enabled",
        label = "this field is compressed with gzip",
        note = "enable it: `dynamap = {{ version = \"...\", features = [\"gzip\"] }}`"
    )]
    pub trait Gzip {}
    /// `codec = "snappy"`.
    #[diagnostic::on_unimplemented(
        message = "codec \"snappy\" needs dynamap's cargo feature `snappy`, which is not enabled",
        label = "this field is compressed with snappy",
        note = "enable it: `dynamap = {{ version = \"...\", features = [\"snappy\"] }}`"
    )]
    pub trait Snappy {}
    /// `codec = "none"`: always available.
    pub trait None {}
    /// `format = "json"`.
    #[diagnostic::on_unimplemented(
        message = "format \"json\" needs dynamap's cargo feature `json`, which is not enabled",
        label = "this field is stored as JSON",
        note = "enable it: `dynamap = {{ version = \"...\", features = [\"json\"] }}`, or use the default columnar format"
    )]
    pub trait Json {}

    #[cfg(feature = "zstd")]
    impl Zstd for () {}
    #[cfg(feature = "bzip2")]
    impl Bzip2 for () {}
    #[cfg(feature = "gzip")]
    impl Gzip for () {}
    #[cfg(feature = "snappy")]
    impl Snappy for () {}
    impl None for () {}
    #[cfg(feature = "json")]
    impl Json for () {}

    /// Compiles when zstd is enabled (called with `()`).
    pub const fn zstd<T: Zstd>() {}
    /// Compiles when bzip2 is enabled (called with `()`).
    pub const fn bzip2<T: Bzip2>() {}
    /// Compiles when gzip is enabled (called with `()`).
    pub const fn gzip<T: Gzip>() {}
    /// Compiles when snappy is enabled (called with `()`).
    pub const fn snappy<T: Snappy>() {}
    /// Always compiles: no codec.
    pub const fn none<T: None>() {}
    /// Compiles when the json format is enabled (called with `()`).
    pub const fn json<T: Json>() {}
}

pub use crate::table::str_eq;

pub mod layout;

mod hole;
pub use hole::{Hole, HoleStandIn};
mod index_updates;
pub use index_updates::{
    HoleValue, IndexUpdate, KeyParts, ReadHole, UpdateHole, WriteHole, created_index_keys,
    index_updates, read_hole, read_nothing, write_hole,
};
#[cfg(feature = "time")]
mod rendered;
#[cfg(feature = "time")]
pub use rendered::RenderedTimestamp;
mod list_codec;
pub use list_codec::{ColumnarList, SerdeList};
mod primary_field;
pub use primary_field::{parse_primary_attribute, primary_attribute};
mod columnar_files;
pub use columnar_files::{item_key, parquet_error};

/// The types a `#[dynamap(ttl)]` field can have (besides `Option` of them).
#[diagnostic::on_unimplemented(
    message = "a #[dynamap(ttl)] field must be a `time::OffsetDateTime` or an `Option` of one",
    label = "not a timestamp"
)]
pub trait TtlTimestamp {}

#[cfg(feature = "time")]
impl TtlTimestamp for time::OffsetDateTime {}

/// Compile-time proof that a TTL field's type is a timestamp.
pub const fn assert_ttl_timestamp<T: TtlTimestamp>() {}

/// Checks the stored value of a field that is an index key attribute (`field(x)`): DynamoDB
/// rejects empty strings and binaries, over-long values and non-numbers there.
pub fn check_key_attribute(
    item: &Item,
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
    limit: usize,
) -> Result<()> {
    match item.get(attribute) {
        None | Some(AttributeValue::Null(_)) => Ok(()),
        Some(value) => crate::key::check_key_value(value.clone(), limit)
            .map(drop)
            .map_err(|err| key_error(entity, attribute, field, err)),
    }
}

/// The key error for field `field` of key attribute `attribute`.
pub fn key_error(
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
    err: KeyPartError,
) -> Error {
    Error::Key(KeyError::of_part(entity, attribute, field, err))
}

/// One attribute's value of an index partition key, checked as a partition key value.
pub fn partition_attribute<T: KeyAttribute>(
    value: &impl KeyAttributeArg<T>,
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
) -> core::result::Result<AttributeValue, KeyError> {
    value
        .key_value(crate::limits::MAX_PARTITION_KEY_BYTES)
        .map_err(|err| KeyError {
            entity,
            attribute,
            field: Some(field),
            kind: crate::key::KeyErrorKind::Part(err),
        })
}

/// The derive's constructor of a table layout: the schema types are `#[non_exhaustive]`, so
/// generated code cannot name their fields, and a new field changes only this function.
#[allow(clippy::too_many_arguments)] // one per field, as the derive knows them
pub const fn table_schema(
    type_name: &'static str,
    pk: &'static str,
    sk: Option<&'static str>,
    pk_type: ScalarType,
    sk_type: ScalarType,
    entity_type: &'static str,
    ttl: Option<&'static str>,
    indexes: &'static [IndexSchema],
) -> TableSchema {
    TableSchema {
        type_name,
        pk,
        sk,
        pk_type,
        sk_type,
        entity_type,
        ttl,
        indexes,
    }
}

/// The derive's constructor of a secondary index's layout; see [`table_schema`].
#[allow(clippy::too_many_arguments)] // one per field, as the derive knows them
pub const fn index_schema(
    name: &'static str,
    pk: &'static str,
    sk: Option<&'static str>,
    pk_type: ScalarType,
    sk_type: ScalarType,
    pk_more: &'static [KeyAttributeSchema],
    sk_more: &'static [KeyAttributeSchema],
    projection: Projection,
    local: bool,
) -> IndexSchema {
    IndexSchema {
        name,
        pk,
        sk,
        pk_type,
        sk_type,
        pk_more,
        sk_more,
        projection,
        local,
    }
}

/// The derive's constructor of one attribute of a multi-attribute key; see [`table_schema`].
pub const fn key_attribute_schema(name: &'static str, kind: ScalarType) -> KeyAttributeSchema {
    KeyAttributeSchema { name, kind }
}

/// The schema version an item was written at (1 without the attribute); a newer one than
/// `known` is an error naming the item.
pub fn stored_schema_version(
    item: &Item,
    entity: &'static str,
    known: u32,
    schema: &TableSchema,
) -> Result<u32> {
    crate::schema_version::stored_version(item, entity, known, schema)
}

/// Reads an item at an older schema version as its declared older shape.
pub fn read_older<V: serde::de::DeserializeOwned>(
    item: Item,
    entity: &'static str,
    from: u32,
) -> Result<V> {
    crate::schema_version::read_older(item, entity, from)
}

pub use crate::schema_version::SCHEMA_VERSION_ATTRIBUTE;

/// The result of an upgrade's `with` function, its error naming the entity and version.
pub fn upgraded<T>(
    result: core::result::Result<T, AttributeError>,
    entity: &'static str,
    from: u32,
) -> Result<T> {
    result.map_err(|source| Error::Upgrade {
        entity,
        from,
        source,
        item: None,
    })
}

/// Marks a failure of the AWS Database Encryption SDK's interceptor as the encryption's,
/// so that [`Error::is_encryption_failure`] finds it by type among the causes of an SDK
/// error: `dynamap_encryption::Interceptor` wraps each of its failures with it.
pub fn encryption_failure(
    err: Box<dyn std::error::Error + Send + Sync>,
) -> Box<dyn std::error::Error + Send + Sync> {
    Box::new(crate::error::EncryptionFailure(err))
}

/// [`Error::InvalidSetting`], for the integration crates (the variant is
/// `#[non_exhaustive]`, so they cannot build it themselves).
pub fn invalid_setting(setting: &'static str, reason: String) -> Error {
    Error::InvalidSetting { setting, reason }
}
