//! Condition and filter expressions, typed by an entity's fields. Pure: nothing here talks
//! to DynamoDB.
//!
//! The derive gives every stored field of an entity an associated constant named after the
//! field in upper case, holding its attribute name (renames respected) and its type:
//!
//! ```
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
//! struct Sensor {
//!     id: String,
//!     #[dynamap(rename = "type")]
//!     kind: String,
//!     battery: Option<u8>,
//! }
//!
//! let low = Sensor::KIND.eq("gas").and(Sensor::BATTERY.lt(20u8));
//! let rendered = low.render().unwrap();
//! assert_eq!(rendered.expression, "(#n0 = :v0 AND #n1 < :v1)");
//! assert_eq!(rendered.names["#n0"], "type");
//! ```
//!
//! Every attribute name and value goes through a placeholder, so no input can change the
//! expression's meaning and reserved words (`type`, `name`, `status`) need no care.

mod condition;
pub(crate) mod encoder;
mod encrypted;
#[cfg(test)]
mod part_tests;
mod path;
mod placeholders;
mod set;
pub(crate) mod update;

pub use condition::{Attr, AttributeKind, Condition, Size};
pub use encrypted::{EncryptedAttr, ReadableByDynamoDb};
pub(crate) use path::DocPath;
pub use path::{Path, SetValue, Target};
pub use placeholders::{NameMap, Placeholders, Rendered, ValueMap};
pub(crate) use set::elements_value;
pub use set::{NativeSet, SetElement};
