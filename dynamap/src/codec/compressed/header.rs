//! The header in front of every compressed value: what wrote it and how to read it back.
//!
//! ```text
//! "dm"  version  format  codec  uncompressed size (LEB128)  CRC-32 (4 bytes, LE)  payload...
//! ```
//!
//! The format byte is 1 for columnar, 2 for row, 3 for JSON, 4 for columnar version 2 (a
//! list written by code generated with `#[derive(Columnar)]`), and 5 for columnar version
//! 3: the same columns, whose number streams may also be grouped by an earlier column or
//! stored against an earlier integer column. Readers that know only version 2 refuse it
//! (an unknown format) rather than misread it.
//!
//! The CRC-32 covers the serialized bytes before compression, so damage anywhere, in a codec
//! without a checksum of its own (Snappy, none) or in one with (gzip, bzip2), is caught
//! before the value is decoded.
//!
//! Recording codec and format inside the value, rather than in a separate
//! `compression_type` attribute as the seed design did, keeps the record atomic with the
//! data it describes: a projection, an update or a copy that moves the bytes moves their
//! description too, and an item may hold several compressed fields with different codecs.

use super::{Codec, Format};
use crate::codec::CodecError;
use crate::codec::columnar::Reader;

const MAGIC: &[u8; 2] = b"dm";
const VERSION: u8 = 1;
/// The format byte of columnar version 2.
const GENERATED_COLUMNAR: u8 = 4;
/// The format byte of columnar version 3.
const GENERATED_COLUMNAR_V3: u8 = 5;

/// The most bytes a compressed value may inflate to (64 MiB). DynamoDB items are at most
/// 400 KB, so anything claiming more is corrupt or hostile.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 64 << 20;

/// What the header of a stored compressed value says.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Codec, Compression, Header, compress};
///
/// let stored = compress(&vec![1u8; 4096], &Compression::DEFAULT)?;
/// let (header, _payload) = Header::read(&stored)?;
/// assert_eq!(header.codec, Codec::DEFAULT);
/// assert!(header.stored_bytes < header.uncompressed_bytes);
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// How the value was serialized (never [`Format::Auto`]).
    pub format: Format,
    /// The format's version: 1, or 2 or 3 for a [`Format::Columnar`] list written by code
    /// that `#[derive(Columnar)]` generated ([`compress_list`](crate::codec::compress_list);
    /// 3 since number columns may be grouped or stored against an integer column).
    pub version: u8,
    /// How the serialized bytes were compressed (levels are not recorded).
    pub codec: Codec,
    /// The serialized size before compression.
    pub uncompressed_bytes: usize,
    /// The stored size, header included.
    pub stored_bytes: usize,
    /// CRC-32 of the serialized bytes.
    pub(crate) checksum: u32,
}

impl Header {
    /// Reads the header of a stored value, returning it and the payload after it.
    ///
    /// # Errors
    ///
    /// Fails with [`CodecError::NoHeader`] when `bytes` do not start with a header, with
    /// [`CodecError::Truncated`] when it is cut short, and with another [`CodecError`] for an
    /// unknown version, format or codec, or a size over
    /// [`MAX_UNCOMPRESSED_BYTES`](crate::codec::MAX_UNCOMPRESSED_BYTES).
    pub fn read(bytes: &[u8]) -> Result<(Header, &[u8]), CodecError> {
        let mut reader = Reader::new(bytes);
        if reader.take(2).ok() != Some(MAGIC.as_slice()) {
            return Err(CodecError::NoHeader);
        }
        let version = reader.byte()?;
        if version != VERSION {
            return Err(CodecError::UnknownVersion(version));
        }
        let (format, format_version) = match reader.byte()? {
            GENERATED_COLUMNAR => (Format::Columnar, 2),
            GENERATED_COLUMNAR_V3 => (Format::Columnar, 3),
            id => (Format::from_id(id)?, 1),
        };
        let codec = Codec::from_id(reader.byte()?)?;
        let size = reader.varint()?;
        if size > MAX_UNCOMPRESSED_BYTES {
            return Err(CodecError::TooLarge {
                size,
                limit: MAX_UNCOMPRESSED_BYTES,
            });
        }
        let checksum = u32::from_le_bytes(
            reader
                .take(4)?
                .try_into()
                .map_err(|_| CodecError::Truncated("checksum"))?,
        );
        let header = Header {
            format,
            version: format_version,
            codec,
            // Below the 64 MiB limit, so it fits in usize.
            uncompressed_bytes: size as usize,
            stored_bytes: bytes.len(),
            checksum,
        };
        let payload = reader.take(reader.remaining())?;
        Ok((header, payload))
    }

    /// Writes a header for `raw`, serialized in `format` (at `format_version`) and
    /// compressed with `codec`.
    pub(crate) fn write(
        out: &mut Vec<u8>,
        format: Format,
        format_version: u8,
        codec: Codec,
        raw: &[u8],
    ) {
        let format = match (format, format_version) {
            (Format::Columnar, 2) => GENERATED_COLUMNAR,
            (Format::Columnar, 3) => GENERATED_COLUMNAR_V3,
            (format, _) => format.id(),
        };
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[VERSION, format, codec.id()]);
        crate::codec::columnar::put_varint(out, raw.len() as u64);
        out.extend_from_slice(&crc32fast::hash(raw).to_le_bytes());
    }

    /// Checks decompressed bytes against the recorded checksum.
    pub(crate) fn verify(&self, raw: &[u8]) -> Result<(), CodecError> {
        if crc32fast::hash(raw) == self.checksum {
            Ok(())
        } else {
            Err(CodecError::Corrupt("checksum mismatch"))
        }
    }
}

impl std::fmt::Display for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.format.name())?;
        if self.version > 1 {
            write!(f, " v{}", self.version)?;
        }
        write!(
            f,
            " + {}, {} bytes stored, {} uncompressed",
            self.codec.name(),
            self.stored_bytes,
            self.uncompressed_bytes
        )
    }
}
