//! `#[dynamap(with = "dynamap::codec::as_serde")]`: a field stored in the form its type's
//! serde implementation writes, chosen on purpose. dynamap stores every type without an
//! [`Attribute`](super::Attribute) implementation this way already; the module is for the
//! types whose serde form the derive refuses to store by accident (date-time, decimal and URL
//! types of chrono, rust_decimal and url), and for a `time` type whose old serde form a
//! model must keep writing. The form then depends on the type's serde features (such as
//! `time`'s `serde-human-readable`), which every crate in the build can turn on.
//!
//! ```
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
//! struct Order {
//!     id: String,
//!     // A list of nine numbers, as before dynamap chose a form for timestamps.
//!     #[dynamap(with = "dynamap::codec::as_serde")]
//!     placed_at: time::OffsetDateTime,
//! }
//!
//! let order = Order { id: "o-1".into(), placed_at: time::OffsetDateTime::UNIX_EPOCH };
//! let item = order.to_item().unwrap();
//! assert_eq!(item["placed_at"].as_l().unwrap().len(), 9);
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes the value through its serde implementation.
///
/// # Errors
///
/// Fails when the value's `Serialize` implementation does.
pub fn serialize<T: Serialize + ?Sized, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value.serialize(serializer)
}

/// Deserializes the value through its serde implementation.
///
/// # Errors
///
/// Fails when the stored value does not fit the type's `Deserialize` implementation.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(deserializer)
}
