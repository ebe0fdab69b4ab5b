//! Keys rendered from templates.
//!
//! An entity declares its keys as templates: literal text with `{field}` holes, such as
//! `pk = "SENSOR#{id}"` and `sk = "READ#{at}"`. The derive checks the templates at compile
//! time and generates typed builders (`Reading::key(id, at)`, `Reading::partition(id)`) and a
//! parser back to the parts (`Reading::parse_key(pk, sk)`).
//!
//! # Keys cannot be forged
//!
//! Segments are separated by `#`. Values are **escaped**, never rejected and never
//! rewritten: every character at or below `%` (control characters, space, `!`, `"`, `#`,
//! `$`, `%`) is stored as `%` and two uppercase hex digits (`#` is `%23`, `%` is `%25`,
//! space is `%20`), and parsing reverses it. So a building named `A#2` can never produce the
//! key of building `A`, floor `2`, and a prefix query for building `A` never matches
//! building `A#2` or `AB`. Case and every other character (letters, digits, `-`, `_`, `.`,
//! `:`, `@`, all non-ASCII text) are stored exactly as given. Empty parts are rejected,
//! because DynamoDB rejects empty key values and an empty segment would make keys ambiguous.
//!
//! The derive requires every hole to be followed by `#` or by the end of the template, so
//! that a stored key splits back into its parts in exactly one way.
//!
//! # Order
//!
//! DynamoDB orders sort keys byte by byte. For any two tuples of parts, the rendered keys
//! compare as the tuples do, part by part:
//!
//! - strings compare as Rust's `str` does (by code point): after escaping, every byte of a
//!   part is above the delimiter, so `("A", "2")` sorts before `("A", "2 ")`, `("A", "2#0")`
//!   and `("A", "20")`, and escapes sort below kept characters in the order of the
//!   characters they stand for;
//! - numbers and timestamps use order-preserving encodings (see [`KeyPart`]), so sort-key
//!   ranges and descending queries follow the values' own order, negative numbers and time
//!   zones included.
//!
//! Conditions on leading parts ([`SortBound::Prefix`]) compare those parts only, with the
//! same order.
//!
//! # Keys stored by earlier versions
//!
//! Earlier builds escaped only `#` and `%`. A key whose parts hold no control character,
//! space, `!`, `"` or `$` renders exactly as it did then. A key whose parts hold one was
//! stored with that character raw: it still parses to the same values (parsing accepts
//! both forms), and queries that reach it decode its item, but it sorts where the raw
//! character puts it, and `get`, `update`, `delete` and partition queries render the new
//! form, so they do not find it. `docs/design/keys.md` says how to rewrite such items.
//!
//! # Key formats
//!
//! Tables shared with services on other mappers can declare the form those write instead:
//! values verbatim (a value holding `#` is refused, not escaped), lower-cased, numbers
//! plain or padded to a width of their own. See [`KeyFormat`], and `docs/design/keys.md`
//! for what each format keeps of the guarantees above.
//!
//! # Limits
//!
//! A rendered partition key may be at most 2,048 bytes and a sort key 1,024 bytes, as in
//! DynamoDB; longer keys are a [`KeyError`] before anything is sent.

mod attribute;
mod escape;
mod item_key;
mod numbers;
mod part;
mod partitions;
mod primary;
mod shard;
mod sort;
mod sort_attributes;
mod template;

use std::fmt;
use std::marker::PhantomData;

use crate::codec::AttributeValue;

pub use crate::key_format::{KeyFormat, Numbers};
pub use attribute::{AttributeKey, Binary, KeyAttribute, KeyAttributeArg, check_key_value};
pub use escape::DELIMITER;
pub use item_key::ItemKey;
pub use part::{KeyArg, KeyPart, KeyPartError};
#[cfg(feature = "time")]
pub(crate) use part::{format_timestamp, parse_timestamp};
pub(crate) use partitions::Groups;
pub use primary::Key;
pub(crate) use primary::{key_text, type_code as primary_type_code};
#[doc(hidden)]
pub use shard::ShardHash;
pub use sort::SortArgs;
#[doc(hidden)]
pub use sort::{Segment, SortBound, sort_bound};
#[doc(hidden)]
pub use sort_attributes::SortValues;
#[doc(hidden)]
pub use template::{KeyReader, KeyWriter, key_arg_value};

/// A key that could not be rendered or parsed, naming the entity, the key attribute and,
/// where one is to blame, the field.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// struct Sensor { id: String }
///
/// let err = Sensor::key("").values().unwrap_err(); // an empty part cannot be a key
/// assert_eq!((err.entity, err.attribute, err.field), ("Sensor", "PK", Some("id")));
/// println!("{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KeyError {
    /// The entity whose key it is.
    pub entity: &'static str,
    /// The key attribute (`PK`, `SK`, or an index's key attribute).
    pub attribute: &'static str,
    /// The template field at fault, if one is.
    pub field: Option<&'static str>,
    /// What went wrong.
    pub kind: KeyErrorKind,
}

/// What went wrong with a key.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String }
/// use dynamap::key::KeyErrorKind;
///
/// let err = Sensor::key("x".repeat(3000)).values().unwrap_err();
/// assert!(matches!(err.kind, KeyErrorKind::TooLong { limit: 2048, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyErrorKind {
    /// A part could not be rendered or parsed.
    Part(KeyPartError),
    /// The rendered key is longer than DynamoDB allows for this attribute.
    TooLong {
        /// The rendered length in bytes.
        len: usize,
        /// The limit: 2,048 bytes for partition keys, 1,024 for sort keys.
        limit: usize,
    },
    /// A stored key does not have the template's shape.
    NoMatch {
        /// The stored key.
        key: String,
        /// The template it was read with.
        template: &'static str,
    },
    /// A key named by hand ([`Key::from_raw`]) gives a sort key value for a table without a
    /// sort key, or none for a table with one.
    SortKeyPresence {
        /// Whether the table has a sort key.
        table_has_one: bool,
    },
    /// A key value whose DynamoDB type is not the one the table declares for the attribute
    /// (a string given for a number key, say, to [`Key::from_raw_values`]), or a number or
    /// binary key asked for as text ([`Key::values`]).
    WrongType {
        /// The type expected: `S`, `N` or `B`.
        expected: &'static str,
        /// The type found (DynamoDB's code: `S`, `N`, `B`, `BOOL`, ...).
        found: &'static str,
    },
    /// Partitions read as one ([`PartitionKey::across`], sharded partitions) that cannot be:
    /// none given, or partitions of different indexes or sort key templates.
    Partitions {
        /// What is wrong.
        reason: &'static str,
    },
}

impl KeyError {
    /// The error of template field `field` of key attribute `attribute`, whose part failed.
    pub(crate) fn of_part(
        entity: &'static str,
        attribute: &'static str,
        field: &'static str,
        err: KeyPartError,
    ) -> Self {
        KeyError {
            entity,
            attribute,
            field: Some(field),
            kind: KeyErrorKind::Part(err),
        }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key attribute `{}` of entity `{}`",
            self.attribute, self.entity
        )?;
        if let Some(field) = self.field {
            write!(f, ", field `{field}`")?;
        }
        match &self.kind {
            KeyErrorKind::Part(err) => write!(f, ": {err}"),
            KeyErrorKind::TooLong { len, limit } => {
                write!(
                    f,
                    ": rendered key is {len} bytes, over DynamoDB's limit of {limit} bytes"
                )
            }
            KeyErrorKind::SortKeyPresence {
                table_has_one: true,
            } => {
                write!(
                    f,
                    ": the table has a sort key, and no value was given for it"
                )
            }
            KeyErrorKind::SortKeyPresence {
                table_has_one: false,
            } => write!(
                f,
                ": the table has no sort key, and a value was given for one"
            ),
            KeyErrorKind::Partitions { reason } => write!(f, ": {reason}"),
            KeyErrorKind::WrongType { expected, found } => write!(
                f,
                ": expected a value of type {expected}, found one of type {found}"
            ),
            KeyErrorKind::NoMatch { key, template } => {
                write!(
                    f,
                    ": stored key {key:?} does not match template {template:?}"
                )
            }
        }
    }
}

impl std::error::Error for KeyError {}

/// One partition of entity `E`, in the table or in one of its indexes: what a query reads.
/// Built by the generated `E::partition(...)` (the table) and `E::<index>(...)` (an index,
/// named after it in snake case, such as `E::gsi1(...)`).
///
/// `S` is the tuple of the sort key's part types, so sort-key conditions are typed by the
/// template's fields; for an index whose sort key is a field's own attribute
/// (`sk = field(score)`), it is [`AttributeKey<T>`] and conditions take values of `T`; for
/// a multi-attribute sort key (`sk = fields(status, number)`), it is the type the derive
/// generates for that entity and index (`IssueByStatusSk` for `Issue`'s `ByStatus`), and
/// conditions take its builder, `Issue::by_status_sk().status(..)` (see [`SortArgs`]).
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
/// struct Reading { sensor_id: String, seq: u32 }
///
/// // `PartitionKey<Reading, (u32,)>`: sort conditions take a `(u32,)`.
/// let partition = Reading::partition("S1");
/// assert_eq!(partition.value()?, "SENSOR#S1");
/// assert_eq!(partition.index(), None);
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let recent = db.query(Reading::partition("S1")).sk_gt((100u32,)).all().await?;
/// # Ok(()) }
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct PartitionKey<E, S = ()> {
    /// One value per partition key attribute (several in a multi-attribute key).
    values: Result<Vec<AttributeValue>, KeyError>,
    index: Option<&'static str>,
    sort: &'static [Segment],
    /// Several physical partitions read as one ([`PartitionKey::across`],
    /// [`PartitionKey::sharded`]); `None` for one partition, whose value is `values`.
    groups: Option<Result<Groups, KeyError>>,
    entity: PhantomData<fn() -> (E, S)>,
}

impl<E, S> PartitionKey<E, S> {
    /// Wraps a rendered partition key value. Used by generated code.
    #[doc(hidden)]
    pub fn from_rendered(
        value: Result<String, KeyError>,
        index: Option<&'static str>,
        sort: &'static [Segment],
    ) -> Self {
        Self::from_attribute(value.map(AttributeValue::S), index, sort)
    }

    /// Wraps a partition key that is a field's own attribute. Used by generated code.
    #[doc(hidden)]
    pub fn from_attribute(
        value: Result<AttributeValue, KeyError>,
        index: Option<&'static str>,
        sort: &'static [Segment],
    ) -> Self {
        Self::from_attributes(value.map(|v| vec![v]), index, sort)
    }

    /// Wraps the values of a multi-attribute partition key, in key order. Used by generated
    /// code.
    #[doc(hidden)]
    pub fn from_attributes(
        values: Result<Vec<AttributeValue>, KeyError>,
        index: Option<&'static str>,
        sort: &'static [Segment],
    ) -> Self {
        Self {
            values,
            index,
            sort,
            groups: None,
            entity: PhantomData,
        }
    }

    /// The partition key value, when it is a string (every rendered template is); the first
    /// attribute's, in a multi-attribute key. For several partitions read as one
    /// ([`across`](PartitionKey::across), sharded partitions), the first physical
    /// partition's: [`partitions`](PartitionKey::partitions) lists them all.
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while rendering the key, or when the partition key
    /// attribute is not a string.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// assert_eq!(Reading::partition("S1").value()?, "SENSOR#S1");
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn value(&self) -> Result<&str, KeyError> {
        match self.attribute_value()? {
            AttributeValue::S(text) => Ok(text),
            _ => Ok(""),
        }
    }

    /// The partition key value as DynamoDB stores it (the first attribute's, in a
    /// multi-attribute key; the first physical partition's, for several read as one).
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while rendering the key.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// let value = Reading::partition("S1");
    /// assert_eq!(value.attribute_value()?.as_s().unwrap(), "SENSOR#S1");
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn attribute_value(&self) -> Result<&AttributeValue, KeyError> {
        static NONE: AttributeValue = AttributeValue::Null(true);
        Ok(self.attribute_values()?.first().unwrap_or(&NONE))
    }

    /// Every partition key attribute's value, in key order: one, or several in a
    /// multi-attribute key (of the first physical partition, for several read as one).
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while rendering the key.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// assert_eq!(Reading::partition("S1").attribute_values()?.len(), 1);
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn attribute_values(&self) -> Result<&[AttributeValue], KeyError> {
        self.values.as_deref().map_err(Clone::clone)
    }

    /// The index this partition belongs to, or `None` for the table itself.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// assert_eq!(Reading::partition("S1").index(), None); // the table, not an index
    /// ```
    pub fn index(&self) -> Option<&'static str> {
        self.index
    }

    /// The sort key template of the table or index, at run time (empty when the sort key is
    /// made of attributes).
    #[doc(hidden)]
    pub fn sort_template(&self) -> &'static [Segment] {
        self.sort
    }

    /// The single partition key value (the first, in a multi-attribute key).
    pub(crate) fn into_attribute_value(self) -> Result<AttributeValue, KeyError> {
        self.into_attribute_values().map(|values| {
            values
                .into_iter()
                .next()
                .unwrap_or(AttributeValue::Null(true))
        })
    }

    pub(crate) fn into_attribute_values(self) -> Result<Vec<AttributeValue>, KeyError> {
        self.values
    }

    /// The values and, for several partitions read as one, their groups.
    #[allow(clippy::type_complexity)] // taken apart at once by `Handle::query`
    pub(crate) fn into_parts(
        self,
    ) -> (
        Result<Vec<AttributeValue>, KeyError>,
        Option<Result<Groups, KeyError>>,
    ) {
        (self.values, self.groups)
    }
}

impl<E, S> Clone for PartitionKey<E, S> {
    fn clone(&self) -> Self {
        Self {
            values: self.values.clone(),
            index: self.index,
            sort: self.sort,
            groups: self.groups.clone(),
            entity: PhantomData,
        }
    }
}

impl<E, S> fmt::Debug for PartitionKey<E, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PartitionKey")
            .field("entity", &std::any::type_name::<E>())
            .field("index", &self.index)
            .field("values", &self.values)
            .field("partitions", &self.groups)
            .finish()
    }
}

impl<E, S> PartialEq for PartitionKey<E, S> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values && self.index == other.index && self.groups == other.groups
    }
}
