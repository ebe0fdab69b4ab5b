//! Stores a `time::OffsetDateTime` as a number of whole seconds since the Unix epoch: the
//! form DynamoDB's time to live reads. Fractions of a second are dropped when writing.
//!
//! `#[dynamap(ttl)]` fields use it on their own; use it directly with
//! `#[dynamap(with = "dynamap::codec::epoch_seconds")]` for other epoch-second attributes.
//! A field of type `Option<OffsetDateTime>` uses [`option`].
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
//! #[dynamap(table = App, entity = "Session", pk = "SESSION#{id}", sk = "SESSION")]
//! struct Session {
//!     id: String,
//!     #[dynamap(with = "dynamap::codec::epoch_seconds")]
//!     started: OffsetDateTime,
//! }
//!
//! let session = Session { id: "s-1".into(), started: time::macros::datetime!(2020-03-01 12:30:00.75 UTC) };
//! let item = session.to_item().unwrap();
//! assert_eq!(item["started"].as_n().unwrap(), "1583065800");
//! ```

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};
use time::OffsetDateTime;

use super::AttributeValue;
use super::attribute::{Attribute, AttributeError};

/// Serializes `value` as whole epoch seconds.
///
/// # Errors
///
/// Fails only when `serializer` does.
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use time::OffsetDateTime;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Session", pk = "SESSION#{id}", sk = "SESSION")]
/// struct Session {
///     id: String,
///     #[dynamap(with = "dynamap::codec::epoch_seconds")]
///     started: OffsetDateTime,
/// }
/// ```
pub fn serialize<S: Serializer>(value: &OffsetDateTime, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_i64(value.unix_timestamp())
}

/// Deserializes whole epoch seconds.
///
/// # Errors
///
/// Fails when the value is not an integer, or is out of `OffsetDateTime`'s range.
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use time::OffsetDateTime;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Session", pk = "SESSION#{id}", sk = "SESSION")]
/// struct Session {
///     id: String,
///     #[dynamap(with = "dynamap::codec::epoch_seconds")]
///     started: OffsetDateTime,
/// }
/// ```
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<OffsetDateTime, D::Error> {
    let seconds = i64::deserialize(deserializer)?;
    OffsetDateTime::from_unix_timestamp(seconds).map_err(serde::de::Error::custom)
}

/// The timestamp as the attribute this module stores (whole epoch seconds, `N`): what
/// generated code calls for TTL fields and fields with `with = "dynamap::codec::epoch_seconds"`,
/// without going through serde.
///
/// # Errors
///
/// Never fails: every timestamp has whole epoch seconds. The `Result` is the signature generated
/// code calls.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{epoch_seconds, AttributeValue};
///
/// let stored = epoch_seconds::to_attribute(&time::macros::datetime!(2021-01-01 0:00:00.9 UTC))?;
/// assert_eq!(stored, AttributeValue::N("1609459200".into()));
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
pub fn to_attribute(value: &OffsetDateTime) -> Result<AttributeValue, AttributeError> {
    Ok(AttributeValue::N(super::number_text::integer(
        value.unix_timestamp(),
    )))
}

/// Reads a timestamp from the attribute [`to_attribute`] stores.
///
/// # Errors
///
/// Fails with an [`AttributeError`] when `value` is not an integer `N`, or is out of
/// `OffsetDateTime`'s range.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{epoch_seconds, AttributeValue};
///
/// let at = epoch_seconds::from_attribute(AttributeValue::N("1609459200".into()))?;
/// assert_eq!(at, time::macros::datetime!(2021-01-01 0:00 UTC));
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
pub fn from_attribute(value: AttributeValue) -> Result<OffsetDateTime, AttributeError> {
    let seconds = i64::from_attribute(value)?;
    OffsetDateTime::from_unix_timestamp(seconds).map_err(AttributeError::custom)
}

super::time_option::time_option_module!("as whole epoch seconds");

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    #[test]
    fn seconds_round_trip_and_fractions_are_dropped() {
        let value = serde_dynamo::to_attribute_value::<_, aws_sdk_dynamodb::types::AttributeValue>(
            Wrapper(datetime!(2021-01-01 0:00:00.9 UTC)),
        )
        .expect("encodes");
        assert_eq!(value.as_n().expect("a number"), "1609459200");
        let back: Wrapper = serde_dynamo::from_attribute_value(value).expect("decodes");
        assert_eq!(back.0, datetime!(2021-01-01 0:00 UTC));
    }

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Wrapper(#[serde(with = "super")] time::OffsetDateTime);
}
