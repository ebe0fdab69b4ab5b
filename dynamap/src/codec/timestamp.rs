//! Stores a `time::OffsetDateTime` as a sortable UTC string, the same text its key part
//! uses: `2020-03-01T12:30:00.000000000Z`.
//!
//! A plain `OffsetDateTime` field is stored in this form already (see
//! [`Attribute`](super::Attribute)); the module names it explicitly, with
//! `#[dynamap(with = "dynamap::codec::timestamp")]`, and reads only this form. A field of
//! type `Option<OffsetDateTime>` uses [`option`].
//!
//! ```
//! use dynamap::{Entity, Table};
//! use time::OffsetDateTime;
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
//! struct Order {
//!     id: String,
//!     #[dynamap(with = "dynamap::codec::timestamp")]
//!     placed_at: OffsetDateTime,
//! }
//!
//! let order = Order { id: "o-1".into(), placed_at: time::macros::datetime!(2020-03-01 14:30 +02:00) };
//! let item = order.to_item().unwrap();
//! assert_eq!(item["placed_at"].as_s().unwrap(), "2020-03-01T12:30:00.000000000Z");
//! ```

use serde::{Deserialize, Deserializer, Serializer};
use time::OffsetDateTime;

use serde::de::Error as _;

use super::AttributeValue;
use super::attribute_error::{AttributeError, mismatch};
use crate::key::{format_timestamp, parse_timestamp};

/// Serializes a timestamp as its sortable UTC text.
///
/// # Errors
///
/// Fails when the timestamp's UTC year is outside 0000 to 9999, or `serializer` fails.
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use time::OffsetDateTime;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{id}", sk = "READ#{at}")]
/// struct Reading {
///     id: String,
///     #[dynamap(with = "dynamap::codec::timestamp")]
///     at: OffsetDateTime,
/// }
/// ```
pub fn serialize<S: Serializer>(value: &OffsetDateTime, serializer: S) -> Result<S::Ok, S::Error> {
    let text = format_timestamp(value).map_err(serde::ser::Error::custom)?;
    serializer.serialize_str(&text)
}

/// Deserializes a timestamp from its sortable UTC text.
///
/// # Errors
///
/// Fails when the value is not a string in the sortable UTC form this module writes.
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use time::OffsetDateTime;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{id}", sk = "READ#{at}")]
/// struct Reading {
///     id: String,
///     #[dynamap(with = "dynamap::codec::timestamp")]
///     at: OffsetDateTime,
/// }
/// ```
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<OffsetDateTime, D::Error> {
    let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
    parse_timestamp(&text).map_err(serde::de::Error::custom)
}

/// The timestamp as the attribute this module stores: what generated code calls for a
/// field with `with = "dynamap::codec::timestamp"`, without going through serde.
///
/// # Errors
///
/// Fails with an [`AttributeError`] when the timestamp's UTC year is outside 0000 to 9999.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{timestamp, AttributeValue};
///
/// let at = time::macros::datetime!(2020-03-01 14:30 +02:00);
/// let stored = timestamp::to_attribute(&at)?;
/// assert_eq!(stored, AttributeValue::S("2020-03-01T12:30:00.000000000Z".into()));
/// assert_eq!(timestamp::from_attribute(stored)?, at);
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
pub fn to_attribute(value: &OffsetDateTime) -> Result<AttributeValue, AttributeError> {
    format_timestamp(value)
        .map(AttributeValue::S)
        .map_err(AttributeError::custom)
}

/// Reads a timestamp from the attribute [`to_attribute`] stores.
///
/// # Errors
///
/// Fails with an [`AttributeError`] when `value` is not an `S` in the sortable UTC form this module
/// writes.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{timestamp, AttributeValue};
///
/// let stored = AttributeValue::S("2020-03-01T12:30:00.000000000Z".into());
/// assert_eq!(timestamp::from_attribute(stored)?, time::macros::datetime!(2020-03-01 12:30 UTC));
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
pub fn from_attribute(value: AttributeValue) -> Result<OffsetDateTime, AttributeError> {
    match value {
        AttributeValue::S(text) => parse_timestamp(&text).map_err(AttributeError::custom),
        other => Err(mismatch("a timestamp string (S)", &other)),
    }
}

super::time_option::time_option_module!("as its sortable UTC text");
