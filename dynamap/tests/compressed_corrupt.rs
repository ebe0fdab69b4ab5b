//! A damaged payload behind a valid header is reported as corrupt data, for every codec,
//! never as a codec's own jargon ("Dictionary mismatch") and never as a panic. It needs
//! every codec.
#![cfg(feature = "all-codecs")]

use dynamap::codec::{Codec, CodecError, Compression, Format, compress, decompress};

#[test]
fn damaged_payloads_are_corrupt_data() {
    let value: Vec<u64> = (0..5_000).map(|i| i * 7919 % 1_000_003).collect();
    let codecs = [
        Codec::Zstd { level: 3 },
        Codec::Bzip2 { level: 9 },
        Codec::Gzip { level: 6 },
        Codec::Snappy,
    ];
    for codec in codecs {
        let settings = Compression::DEFAULT
            .codec(codec)
            .format(Format::Row)
            .uncompressed_below(0);
        let stored = compress(&value, &settings).expect("compresses");
        let back: Vec<u64> = decompress(&stored).expect("round trip");
        assert_eq!(back, value);
        // Overwrite the middle of the payload, past the header.
        for start in [stored.len() / 3, stored.len() / 2] {
            let mut damaged = stored.clone();
            for byte in &mut damaged[start..start + 16] {
                *byte ^= 0xA5;
            }
            let err = decompress::<Vec<u64>>(&damaged).expect_err("damaged");
            assert!(
                matches!(
                    err,
                    CodecError::CorruptStream { .. } | CodecError::Corrupt(_)
                ),
                "{}: {err:?}",
                codec.name()
            );
            assert!(err.to_string().starts_with("data is corrupt"), "{err}");
        }
    }
}
