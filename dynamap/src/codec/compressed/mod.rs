//! Compressed attributes: a value serialized, compressed, and stored as one binary (`B`)
//! attribute behind a small header that records the format and codec.
//!
//! Fields opt in with `#[dynamap(compress)]` (see the [crate docs](crate)); the functions
//! here are what the derive calls, and are public for tools that read stored items (the
//! [`codec`](crate::codec) module shows them at work).

mod codecs;
mod header;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::CodecError;
use super::columnar::{self, Layout};
use super::columns::{self, Columnar};
pub use codecs::Codec;
pub use header::{Header, MAX_UNCOMPRESSED_BYTES};

/// How a value is serialized before compression.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Compression, Format, compress, decompress};
///
/// let events: Vec<(i64, f64)> = (0..100).map(|i| (i * 60_000, 0.5)).collect();
/// let columnar = compress(&events, &Compression::DEFAULT.format(Format::Columnar))?;
/// let row = compress(&events, &Compression::DEFAULT.format(Format::Row))?;
/// assert_eq!(decompress::<Vec<(i64, f64)>>(&row)?, decompress::<Vec<(i64, f64)>>(&columnar)?);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Columnar for lists and maps, row for anything else (the default).
    Auto,
    /// dynamap's binary format with one column per field: for lists of records.
    Columnar,
    /// dynamap's binary format in visiting order.
    Row,
    /// JSON, as the seed design stored it: readable by any tool, larger and slower.
    Json,
}

impl Format {
    /// The format's name, as the derive attribute spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Columnar => "columnar",
            Format::Row => "row",
            Format::Json => "json",
        }
    }

    const fn id(self) -> u8 {
        match self {
            Format::Auto | Format::Columnar => 1,
            Format::Row => 2,
            Format::Json => 3,
        }
    }

    fn from_id(id: u8) -> Result<Format, CodecError> {
        match id {
            1 => Ok(Format::Columnar),
            2 => Ok(Format::Row),
            3 => Ok(Format::Json),
            other => Err(CodecError::UnknownFormat(other)),
        }
    }
}

/// How a compressed field is written. Reading needs none of it: the header says.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Codec, Compression, compress};
///
/// // What `#[dynamap(compress(level = 19, budget = 4096))]` writes with; writes of an
/// // entity check the budget before sending (`Error::CompressedTooLarge`).
/// let settings = Compression::DEFAULT.codec(Codec::Zstd { level: 19 }).budget(4096);
/// let stored = compress(&vec![7u64; 1_000], &settings)?;
/// assert!(stored.len() <= settings.budget);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Compression {
    /// The codec for new writes.
    pub codec: Codec,
    /// The serialization format for new writes.
    pub format: Format,
    /// The most bytes the stored attribute may take; larger values are refused before
    /// writing (default 32 KB, as in the seed design).
    pub budget: usize,
    /// Values that serialize to fewer bytes than this are stored without compression
    /// (default 0: always compress).
    pub uncompressed_below: usize,
}

impl Compression {
    /// [`Codec::DEFAULT`], [`Format::Auto`], a 32 KB budget, always compressed.
    pub const DEFAULT: Compression = Compression {
        codec: Codec::DEFAULT,
        format: Format::Auto,
        budget: 32 * 1024,
        uncompressed_below: 0,
    };

    /// Uses `codec`.
    pub const fn codec(mut self, codec: Codec) -> Self {
        self.codec = codec;
        self
    }

    /// Uses `format`.
    pub const fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// Refuses stored values over `bytes`.
    pub const fn budget(mut self, bytes: usize) -> Self {
        self.budget = bytes;
        self
    }

    /// Stores values that serialize under `bytes` uncompressed.
    pub const fn uncompressed_below(mut self, bytes: usize) -> Self {
        self.uncompressed_below = bytes;
        self
    }
}

impl Default for Compression {
    fn default() -> Self {
        Compression::DEFAULT
    }
}

/// Serializes and compresses `value` as `settings` say, header included. The budget is
/// not checked here: the entity's write does that, naming the field.
///
/// # Errors
///
/// Fails with a [`CodecError`] when `value` does not serialize, the codec fails, or the codec or
/// the `json` format is not enabled.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Compression, compress};
///
/// let stored = compress(&["motion", "noise", "light"], &Compression::DEFAULT)?;
/// assert!(!stored.is_empty());
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
pub fn compress<T: Serialize + ?Sized>(
    value: &T,
    settings: &Compression,
) -> Result<Vec<u8>, CodecError> {
    let (format, raw) = serialize(value, settings.format)?;
    finish(format, 1, &raw, settings)
}

/// Compresses `raw`, serialized in `format` at `format_version`, behind its header.
fn finish(
    format: Format,
    format_version: u8,
    raw: &[u8],
    settings: &Compression,
) -> Result<Vec<u8>, CodecError> {
    let codec = if raw.len() < settings.uncompressed_below {
        Codec::None
    } else {
        settings.codec
    };
    let payload = codec.compress(raw)?;
    let mut stored = Vec::with_capacity(payload.len() + 16);
    Header::write(&mut stored, format, format_version, codec, raw);
    stored.extend_from_slice(&payload);
    Ok(stored)
}

/// Compresses a list of a type that derives [`Columnar`]: with [`Format::Auto`] or
/// [`Format::Columnar`], column by column by the generated code (columnar version 2, see
/// [`Columnar`]); with [`Format::Row`] or [`Format::Json`], through serde as [`compress`]
/// does. Generated `#[dynamap(compress)]` fields of such lists call it.
///
/// # Errors
///
/// As [`compress`].
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Compression, compress_list, decompress_list};
///
/// let levels: Vec<f64> = (0..1440).map(|minute| f64::from(minute % 50) / 10.0).collect();
/// let stored = compress_list(&levels, &Compression::DEFAULT)?;
/// assert!(stored.len() < 200);
/// assert_eq!(decompress_list::<f64>(&stored)?, levels);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
pub fn compress_list<T: Columnar + Serialize>(
    values: &[T],
    settings: &Compression,
) -> Result<Vec<u8>, CodecError> {
    match settings.format {
        Format::Auto | Format::Columnar => {
            let raw = columns::encode_list(values);
            finish(Format::Columnar, columns::VERSION, &raw, settings)
        }
        Format::Row | Format::Json => compress(values, settings),
    }
}

/// Reads a list written by [`compress_list`], or by [`compress`] in any format (items
/// stored before the element type derived [`Columnar`] read too).
///
/// # Errors
///
/// Fails with a [`CodecError`] when the data is truncated, corrupt, not dynamap's, written by a
/// codec or format this build does not know or enable, or does not fit a list of `T`.
pub fn decompress_list<T: Columnar + DeserializeOwned>(
    stored: &[u8],
) -> Result<Vec<T>, CodecError> {
    let (header, raw) = decompressed(stored)?;
    match header.version {
        // Version 3's streams are version 2's and more: one reader reads both.
        2 | 3 => columns::decode_list(&raw),
        _ => deserialize(header.format, &raw),
    }
}

/// The header of a stored value and its serialized bytes, checked against the checksum.
fn decompressed(stored: &[u8]) -> Result<(Header, Vec<u8>), CodecError> {
    let (header, payload) = Header::read(stored)?;
    let raw = header
        .codec
        .decompress(payload, header.uncompressed_bytes)?;
    header.verify(&raw)?;
    Ok((header, raw))
}

/// The `json` format is behind dynamap's `json` feature.
#[cfg(not(feature = "json"))]
fn json_not_enabled() -> CodecError {
    CodecError::CodecNotEnabled {
        codec: "json",
        feature: "json",
    }
}

/// Reads a value written by [`compress`], with whatever format and codec it was written.
///
/// # Errors
///
/// Fails with a [`CodecError`] when the data is truncated, corrupt, not dynamap's, written by a
/// codec or format this build does not know or enable, or does not fit `T`; a list written by
/// [`compress_list`] column by column is read with [`decompress_list`] instead.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Compression, compress, decompress};
///
/// let stored = compress(&vec![3.5f64, 4.0], &Compression::DEFAULT)?;
/// let back: Vec<f64> = decompress(&stored)?;
/// assert_eq!(back, [3.5, 4.0]);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
pub fn decompress<T: DeserializeOwned>(stored: &[u8]) -> Result<T, CodecError> {
    let (header, raw) = decompressed(stored)?;
    if header.version > 1 {
        return Err(CodecError::Deserialize(
            "a list written by #[derive(Columnar)] code: read it with decompress_list".into(),
        ));
    }
    deserialize(header.format, &raw)
}

/// Deserializes `raw`, written in `format` through serde.
fn deserialize<T: DeserializeOwned>(format: Format, raw: &[u8]) -> Result<T, CodecError> {
    match format {
        #[cfg(feature = "json")]
        Format::Json => {
            serde_json::from_slice(raw).map_err(|err| CodecError::Deserialize(err.to_string()))
        }
        #[cfg(not(feature = "json"))]
        Format::Json => Err(json_not_enabled()),
        Format::Row => columnar::decode(raw, Layout::Row),
        Format::Auto | Format::Columnar => columnar::decode(raw, Layout::Columnar),
    }
}

/// Serializes `value`, resolving [`Format::Auto`].
fn serialize<T: Serialize + ?Sized>(
    value: &T,
    format: Format,
) -> Result<(Format, Vec<u8>), CodecError> {
    match format {
        #[cfg(feature = "json")]
        Format::Json => serde_json::to_vec(value)
            .map(|raw| (Format::Json, raw))
            .map_err(|err| CodecError::Serialize(err.to_string())),
        #[cfg(not(feature = "json"))]
        Format::Json => Err(json_not_enabled()),
        Format::Row => Ok((Format::Row, columnar::encode(value, Layout::Row)?.bytes)),
        Format::Columnar => Ok((
            Format::Columnar,
            columnar::encode(value, Layout::Columnar)?.bytes,
        )),
        Format::Auto => {
            let columnar = columnar::encode(value, Layout::Columnar)?;
            if columnar.is_collection {
                Ok((Format::Columnar, columnar.bytes))
            } else {
                // A lone record has nothing to line up: one column is smaller.
                Ok((Format::Row, columnar::encode(value, Layout::Row)?.bytes))
            }
        }
    }
}
