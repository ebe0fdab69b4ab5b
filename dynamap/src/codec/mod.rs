//! Turning field values into DynamoDB attributes and back.
//!
//! Fields are stored one attribute each: strings as `S`, numbers as `N`, structs and maps as
//! `M`, sequences as `L`. Types with an [`Attribute`] implementation (strings, numbers,
//! `bool`, collections of those, nested structs with `#[derive(Attribute)]`, and the
//! well-known types whose form dynamap chooses: date-times as sortable text, durations as
//! seconds, UUIDs and IP addresses as text) are converted by direct code; every other type
//! goes through its `serde` implementation
//! (serialized straight to the SDK's type and read straight from it, in `serde_dynamo`'s
//! form), which stores the same form. `Option` fields are left out of the item
//! when `None`. A field can choose another
//! form with `#[dynamap(with = "module")]`, where `module` has serde-style `serialize` and
//! `deserialize` functions, such as [`timestamp`].
//!
//! `#[dynamap(compress)]` fields are serialized and compressed into one binary attribute
//! ([`compress`], [`decompress`]); lists of a type that derives [`Columnar`] are written
//! column by column by generated code ([`compress_list`], [`decompress_list`]). See the
//! guide chapter on compressed attributes.
//!
//! ```
//! use dynamap::codec::{Codec, Compression, Format, Header, compress, decompress};
//!
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Event { minute: u32, kind: String, level: f64 }
//!
//! let night: Vec<Event> = (0..1440)
//!     .map(|minute| Event { minute, kind: "MOTION".into(), level: f64::from(minute % 7) / 10.0 })
//!     .collect();
//! let stored = compress(&night, &Compression::DEFAULT).unwrap();
//! assert!(stored.len() < 1_000);
//!
//! let (header, _) = Header::read(&stored).unwrap();
//! assert_eq!((header.format, header.codec), (Format::Columnar, Codec::DEFAULT));
//! assert_eq!(decompress::<Vec<Event>>(&stored).unwrap(), night);
//! ```

pub mod as_list;
pub mod as_serde;
mod attribute;
mod attribute_error;
mod columnar;
mod columns;
mod compressed;
mod compressed_field;
mod deserializer;
#[cfg(feature = "time")]
pub mod epoch_seconds;
mod error;
mod field;
mod form_check;
mod forms;
mod number_text;
#[cfg(test)]
mod serde_shapes;
mod serializer;
mod set;
#[cfg(feature = "time")]
mod time_option;
#[cfg(feature = "time")]
pub mod timestamp;
mod via;

pub use attribute::{Attribute, AttributeError};
#[doc(hidden)]
pub use attribute::{attribute_map, attribute_string, missing_field, unknown_variant};
pub use aws_sdk_dynamodb::types::AttributeValue;
#[doc(hidden)]
pub use columnar::Reader as ColumnInput;
pub use columns::Columnar;
#[doc(hidden)]
pub use columns::{
    FieldReader, FieldWriter, RecordReader, RecordWriter, decode_variants, encode_variants,
};
pub use compressed::{
    Codec, Compression, Format, Header, MAX_UNCOMPRESSED_BYTES, compress, compress_list,
    decompress, decompress_list,
};
#[doc(hidden)]
pub use compressed_field::{ViaColumns, decode_compressed, encode_compressed};
pub use dynamap_derive::Columnar;
pub use error::CodecError;
#[doc(hidden)]
pub use field::{
    DeserializeField, SerializeField, ViaDirect, ViaSerde, decoded, deserialized, encoded,
    inserted, missing_attribute, present, serialized,
};
#[doc(hidden)]
pub use form_check::{ChosenForm, FormChosen, FormProbe, FormRefused, TimeFeature, UuidFeature};
#[doc(hidden)]
pub use set::SetKind;
pub(crate) use set::{is_empty_set, set_value};
#[doc(hidden)]
pub use via::Via;

/// A DynamoDB item: attribute names to values.
pub type Item = std::collections::HashMap<String, AttributeValue>;
