//! `#[dynamap(list)]`: a `HashSet`/`BTreeSet` field stored as a list (`L`), the form
//! dynamap wrote before it stored native sets (`SS`/`NS`/`BS`), for readers that still
//! expect a list. The derive uses this module as the field's `with` module: the value goes
//! through its serde implementation, which writes any set as a list and reads lists and
//! native sets alike. An empty set is stored as an empty list. Updates that set the field
//! write a list too; `add_to_set` and `remove_from_set` need a native set.
//!
//! ```
//! use std::collections::BTreeSet;
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity, serde::Serialize, serde::Deserialize)]
//! #[dynamap(table = App, entity = "Doc", pk = "DOC#{id}", sk = "DOC")]
//! struct Doc {
//!     id: String,
//!     tags: BTreeSet<String>,       // SS
//!     #[dynamap(list)]
//!     legacy: BTreeSet<String>,     // L, as before
//! }
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes the value through serde (sets become lists).
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

/// Deserializes the value through serde (from a list or a set).
///
/// # Errors
///
/// Fails when the stored value does not fit the type.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(deserializer)
}
