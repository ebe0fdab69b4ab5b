//! The compression codecs, each behind its cargo feature. A codec that is known but not
//! compiled in is an error, not a panic, so data written by a build with more features
//! reads as a clear `CodecNotEnabled`.

use std::io::Read;

use crate::codec::CodecError;

/// A compression codec for `#[dynamap(compress)]` fields. The level only matters when
/// writing; the codec is recorded with every value, so values written with one codec
/// still read after the default changes.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{Codec, Compression, compress, decompress};
///
/// let levels: Vec<u32> = (0..1_000).map(|i| i % 7).collect();
/// let stored = compress(&levels, &Compression::DEFAULT.codec(Codec::Zstd { level: 19 }))?;
/// assert_eq!(decompress::<Vec<u32>>(&stored)?, levels);
/// assert_eq!(Codec::DEFAULT.name(), "zstd");
/// # Ok::<(), dynamap::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Codec {
    /// Stored as is.
    None,
    /// Zstandard (feature `zstd`, on by default): the default, level 1 to 22.
    Zstd {
        /// Compression level, 1 (fastest) to 22 (smallest).
        level: i32,
    },
    /// BZip2 (feature `bzip2`), as in the seed design: small output, slow. Level 1 to 9.
    Bzip2 {
        /// Compression level (block size in 100 kB), 1 to 9.
        level: u32,
    },
    /// GZip (feature `gzip`), level 0 to 9.
    Gzip {
        /// Compression level, 0 (store) to 9 (smallest).
        level: u32,
    },
    /// Snappy (feature `snappy`), raw format: fastest, largest.
    Snappy,
}

impl Codec {
    /// The default codec: Zstandard at level 3.
    pub const DEFAULT: Codec = Codec::Zstd { level: 3 };

    /// The codec's name, as the derive attribute spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Codec::None => "none",
            Codec::Zstd { .. } => "zstd",
            Codec::Bzip2 { .. } => "bzip2",
            Codec::Gzip { .. } => "gzip",
            Codec::Snappy => "snappy",
        }
    }

    /// The id recorded in the header.
    pub(crate) const fn id(self) -> u8 {
        match self {
            Codec::None => 0,
            Codec::Zstd { .. } => 1,
            Codec::Bzip2 { .. } => 2,
            Codec::Gzip { .. } => 3,
            Codec::Snappy => 4,
        }
    }

    /// The codec recorded as `id`, at its default level (levels are not needed to read).
    pub(crate) fn from_id(id: u8) -> Result<Codec, CodecError> {
        Ok(match id {
            0 => Codec::None,
            1 => Codec::DEFAULT,
            2 => Codec::Bzip2 { level: 9 },
            3 => Codec::Gzip { level: 6 },
            4 => Codec::Snappy,
            other => return Err(CodecError::UnknownCodec(other)),
        })
    }

    /// Compresses `input`.
    ///
    /// # Errors
    ///
    /// Fails with [`CodecError::Codec`] when the codec fails, and [`CodecError::CodecNotEnabled`]
    /// when its cargo feature is off.
    pub fn compress(self, input: &[u8]) -> Result<Vec<u8>, CodecError> {
        match self {
            Codec::None => Ok(input.to_vec()),
            Codec::Zstd { level } => zstd_compress(input, level),
            Codec::Bzip2 { level } => bzip2_compress(input, level),
            Codec::Gzip { level } => gzip_compress(input, level),
            Codec::Snappy => snappy_compress(input),
        }
    }

    /// Decompresses `input`, which must inflate to exactly `size` bytes. Output is never
    /// allowed to grow past `size`, so a forged stream cannot exhaust memory.
    ///
    /// # Errors
    ///
    /// Fails with [`CodecError::CorruptStream`] or [`CodecError::Corrupt`] when `input` does not
    /// inflate to exactly `size` bytes, and [`CodecError::CodecNotEnabled`] when the codec's cargo
    /// feature is off.
    pub fn decompress(self, input: &[u8], size: usize) -> Result<Vec<u8>, CodecError> {
        let output = match self {
            Codec::None => input.to_vec(),
            Codec::Zstd { .. } => zstd_decompress(input, size)?,
            Codec::Bzip2 { .. } => bzip2_decompress(input, size)?,
            Codec::Gzip { .. } => gzip_decompress(input, size)?,
            Codec::Snappy => snappy_decompress(input, size)?,
        };
        if output.len() != size {
            return Err(CodecError::Corrupt(
                "decompressed size differs from the recorded size",
            ));
        }
        Ok(output)
    }

    #[allow(dead_code, reason = "unused when no codec feature is enabled")]
    fn failed(self, err: impl std::fmt::Display) -> CodecError {
        CodecError::Codec {
            codec: self.name(),
            message: err.to_string(),
        }
    }

    /// Decompression failed: the stored bytes are damaged.
    #[allow(dead_code, reason = "unused when no codec feature is enabled")]
    fn corrupt(self, err: impl std::fmt::Display) -> CodecError {
        CodecError::CorruptStream {
            codec: self.name(),
            detail: err.to_string(),
        }
    }

    #[allow(dead_code, reason = "unused when every codec feature is enabled")]
    fn not_enabled(self) -> CodecError {
        CodecError::CodecNotEnabled {
            codec: self.name(),
            feature: match self {
                Codec::Gzip { .. } => "gzip",
                Codec::Snappy => "snappy",
                other => other.name(),
            },
        }
    }
}

/// Reads at most `size + 1` bytes, so an over-long stream is caught without inflating it.
#[allow(dead_code, reason = "unused when no streaming codec is enabled")]
fn read_bounded(codec: Codec, reader: impl Read, size: usize) -> Result<Vec<u8>, CodecError> {
    let mut output = Vec::with_capacity(size.min(1 << 20));
    reader
        .take(size as u64 + 1)
        .read_to_end(&mut output)
        .map_err(|err| codec.corrupt(err))?;
    Ok(output)
}

#[cfg(feature = "zstd")]
fn zstd_compress(input: &[u8], level: i32) -> Result<Vec<u8>, CodecError> {
    zstd::bulk::compress(input, level).map_err(|err| Codec::Zstd { level }.failed(err))
}

#[cfg(feature = "zstd")]
fn zstd_decompress(input: &[u8], size: usize) -> Result<Vec<u8>, CodecError> {
    let codec = Codec::DEFAULT;
    let decoder = zstd::stream::read::Decoder::with_buffer(input).map_err(|e| codec.corrupt(e))?;
    read_bounded(codec, decoder, size)
}

#[cfg(not(feature = "zstd"))]
fn zstd_compress(_: &[u8], level: i32) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Zstd { level }.not_enabled())
}

#[cfg(not(feature = "zstd"))]
fn zstd_decompress(_: &[u8], _: usize) -> Result<Vec<u8>, CodecError> {
    Err(Codec::DEFAULT.not_enabled())
}

#[cfg(feature = "bzip2")]
fn bzip2_compress(input: &[u8], level: u32) -> Result<Vec<u8>, CodecError> {
    let mut output = Vec::new();
    bzip2::read::BzEncoder::new(input, bzip2::Compression::new(level))
        .read_to_end(&mut output)
        .map_err(|err| Codec::Bzip2 { level }.failed(err))?;
    Ok(output)
}

#[cfg(feature = "bzip2")]
fn bzip2_decompress(input: &[u8], size: usize) -> Result<Vec<u8>, CodecError> {
    read_bounded(
        Codec::Bzip2 { level: 9 },
        bzip2::read::BzDecoder::new(input),
        size,
    )
}

#[cfg(not(feature = "bzip2"))]
fn bzip2_compress(_: &[u8], level: u32) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Bzip2 { level }.not_enabled())
}

#[cfg(not(feature = "bzip2"))]
fn bzip2_decompress(_: &[u8], _: usize) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Bzip2 { level: 9 }.not_enabled())
}

#[cfg(feature = "gzip")]
fn gzip_compress(input: &[u8], level: u32) -> Result<Vec<u8>, CodecError> {
    let mut output = Vec::new();
    flate2::read::GzEncoder::new(input, flate2::Compression::new(level))
        .read_to_end(&mut output)
        .map_err(|err| Codec::Gzip { level }.failed(err))?;
    Ok(output)
}

#[cfg(feature = "gzip")]
fn gzip_decompress(input: &[u8], size: usize) -> Result<Vec<u8>, CodecError> {
    read_bounded(
        Codec::Gzip { level: 6 },
        flate2::read::GzDecoder::new(input),
        size,
    )
}

#[cfg(not(feature = "gzip"))]
fn gzip_compress(_: &[u8], level: u32) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Gzip { level }.not_enabled())
}

#[cfg(not(feature = "gzip"))]
fn gzip_decompress(_: &[u8], _: usize) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Gzip { level: 6 }.not_enabled())
}

#[cfg(feature = "snappy")]
fn snappy_compress(input: &[u8]) -> Result<Vec<u8>, CodecError> {
    snap::raw::Encoder::new()
        .compress_vec(input)
        .map_err(|err| Codec::Snappy.failed(err))
}

#[cfg(feature = "snappy")]
fn snappy_decompress(input: &[u8], size: usize) -> Result<Vec<u8>, CodecError> {
    // Raw snappy states its output length up front: check it before allocating.
    let claimed = snap::raw::decompress_len(input).map_err(|err| Codec::Snappy.corrupt(err))?;
    if claimed != size {
        return Err(CodecError::Corrupt(
            "decompressed size differs from the recorded size",
        ));
    }
    snap::raw::Decoder::new()
        .decompress_vec(input)
        .map_err(|err| Codec::Snappy.corrupt(err))
}

#[cfg(not(feature = "snappy"))]
fn snappy_compress(_: &[u8]) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Snappy.not_enabled())
}

#[cfg(not(feature = "snappy"))]
fn snappy_decompress(_: &[u8], _: usize) -> Result<Vec<u8>, CodecError> {
    Err(Codec::Snappy.not_enabled())
}
