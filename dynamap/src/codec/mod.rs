//! Turning field values into DynamoDB attributes and back.
//!
//! Fields are stored one attribute each, through their `serde` implementations
//! (`serde_dynamo`): strings as `S`, numbers as `N`, structs and maps as `M`, sequences as
//! `L`. `Option` fields are left out of the item when `None`. A field can choose another
//! form with `#[dynamap(with = "module")]`, where `module` has serde-style `serialize` and
//! `deserialize` functions, such as [`timestamp`].

mod field;
#[cfg(feature = "time")]
pub mod timestamp;

pub use aws_sdk_dynamodb::types::AttributeValue;
#[doc(hidden)]
pub use field::{decode_field, decode_optional_field, encode_field};

/// A DynamoDB item: attribute names to values.
pub type Item = std::collections::HashMap<String, AttributeValue>;
