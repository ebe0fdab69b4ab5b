//! What can go wrong turning a value into a compressed attribute, or back.

/// Why a compressed value could not be written or read. Reading never panics: truncated,
/// corrupted, foreign or mistyped data is one of these.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{CodecError, decompress};
///
/// let not_ours = decompress::<Vec<u32>>(b"plain bytes");
/// assert!(matches!(not_ours, Err(CodecError::NoHeader)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The value's `Serialize` implementation failed.
    #[error("cannot serialize the value: {0}")]
    Serialize(String),

    /// A `Serialize` implementation announced a length and wrote another number of elements.
    #[error("a sequence announced {expected} elements but wrote {written}")]
    LengthMismatch {
        /// The announced length.
        expected: usize,
        /// The elements written.
        written: usize,
    },

    /// The stored data is well formed but does not fit the type being read.
    #[error("stored value does not fit the type: {0}")]
    Deserialize(String),

    /// The data ends before the value does.
    #[error("data is truncated: a {0} is missing")]
    Truncated(&'static str),

    /// The data is not what dynamap wrote.
    #[error("data is corrupt: {0}")]
    Corrupt(&'static str),

    /// The value nests deeper than the decoder allows.
    #[error("value nests deeper than {0} levels")]
    TooDeep(usize),

    /// The data does not start with dynamap's compressed-value header.
    #[error("not a dynamap compressed value (no header)")]
    NoHeader,

    /// The header has a version this release does not know: written by a newer dynamap.
    #[error("compressed value has header version {0}, which this release cannot read")]
    UnknownVersion(u8),

    /// The header names a codec this release does not know.
    #[error("compressed value uses unknown codec {0}")]
    UnknownCodec(u8),

    /// The header names a value format this release does not know.
    #[error("compressed value uses unknown format {0}")]
    UnknownFormat(u8),

    /// The codec is known but its cargo feature is not enabled.
    #[error("codec `{codec}` needs dynamap's `{feature}` feature")]
    CodecNotEnabled {
        /// The codec.
        codec: &'static str,
        /// The cargo feature that enables it.
        feature: &'static str,
    },

    /// The compressed bytes behind a valid header do not decompress: the stored value was
    /// damaged (or written by something else).
    #[error("data is corrupt: the {codec} stream behind the header does not decompress ({detail})")]
    CorruptStream {
        /// The codec the header names.
        codec: &'static str,
        /// What the codec reported.
        detail: String,
    },

    /// The codec failed to compress.
    #[error("{codec} failed: {message}")]
    Codec {
        /// The codec.
        codec: &'static str,
        /// What it reported.
        message: String,
    },

    /// The header claims more uncompressed bytes than dynamap will inflate.
    #[error("compressed value claims {size} uncompressed bytes, over the limit of {limit}")]
    TooLarge {
        /// The claimed size.
        size: u64,
        /// [`MAX_UNCOMPRESSED_BYTES`](crate::codec::MAX_UNCOMPRESSED_BYTES).
        limit: u64,
    },
}

impl serde::ser::Error for CodecError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        CodecError::Serialize(msg.to_string())
    }
}

impl serde::de::Error for CodecError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        CodecError::Deserialize(msg.to_string())
    }
}
