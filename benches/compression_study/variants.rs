//! The rows of the study: the seed's own table, and every codec and format dynamap stores,
//! with the default and the seed's choice named.

use dynamap::codec::{Codec, Format};

/// The seed's table (Java, its own machine): bytes, compress ms and decompress ms for 100
/// rounds on its 489,601-byte night.
pub(crate) const SEED: [(&str, usize, Option<f64>, Option<f64>); 4] = [
    ("Raw Data", 489_601, None, None),
    ("BZip2", 11_362, Some(9_613.0), Some(912.0)),
    ("GZip", 25_051, Some(557.0), Some(89.0)),
    ("Snappy", 54_792, Some(62.0), Some(31.0)),
];

/// One way of storing the night.
#[derive(Clone, Copy)]
pub(crate) struct Variant {
    /// Short label for tables and the chart.
    pub(crate) label: &'static str,
    pub(crate) format: Format,
    pub(crate) codec: Codec,
    /// A row of the seed's own table.
    pub(crate) seed: bool,
    /// The events regrouped by type before storing (an experiment, see the docs).
    pub(crate) grouped: bool,
    /// Written by the code `#[derive(Columnar)]` generates (columnar version 3), as a
    /// compressed `Vec<Event>` field is; otherwise through serde.
    pub(crate) generated: bool,
}

pub(crate) const fn variant(label: &'static str, format: Format, codec: Codec) -> Variant {
    Variant {
        label,
        format,
        codec,
        seed: false,
        grouped: false,
        generated: false,
    }
}

pub(crate) const fn generated(label: &'static str, codec: Codec) -> Variant {
    Variant {
        generated: true,
        ..variant(label, Format::Columnar, codec)
    }
}

pub(crate) const fn seed(label: &'static str, codec: Codec) -> Variant {
    Variant {
        seed: true,
        ..variant(label, Format::Json, codec)
    }
}

/// The JSON + BZip2 level 9 row: the seed's choice and the goal's yardstick.
pub(crate) const BZIP2_SEED: usize = 0;
/// The default row: `Compression::DEFAULT` (columnar + zstd level 3) for a list of a
/// `Columnar` type, what a `#[dynamap(compress)] events: Vec<Event>` field stores.
pub(crate) const DEFAULT: usize = 6;

pub(crate) const VARIANTS: [Variant; 20] = [
    seed("json bzip2-9", Codec::Bzip2 { level: 9 }),
    seed("json gzip-6", Codec::Gzip { level: 6 }),
    seed("json snappy", Codec::Snappy),
    variant("json bzip2-1", Format::Json, Codec::Bzip2 { level: 1 }),
    variant("json gzip-1", Format::Json, Codec::Gzip { level: 1 }),
    variant("json gzip-9", Format::Json, Codec::Gzip { level: 9 }),
    generated("columnar v3 zstd-3", Codec::Zstd { level: 3 }),
    generated("columnar v3 none", Codec::None),
    variant(
        "columnar zstd-3",
        Format::Columnar,
        Codec::Zstd { level: 3 },
    ),
    variant(
        "columnar zstd-1",
        Format::Columnar,
        Codec::Zstd { level: 1 },
    ),
    variant(
        "columnar zstd-9",
        Format::Columnar,
        Codec::Zstd { level: 9 },
    ),
    variant(
        "columnar zstd-19",
        Format::Columnar,
        Codec::Zstd { level: 19 },
    ),
    variant("columnar snappy", Format::Columnar, Codec::Snappy),
    variant(
        "columnar gzip-6",
        Format::Columnar,
        Codec::Gzip { level: 6 },
    ),
    variant(
        "columnar bzip2-9",
        Format::Columnar,
        Codec::Bzip2 { level: 9 },
    ),
    variant("row zstd-3", Format::Row, Codec::Zstd { level: 3 }),
    variant("json zstd-3", Format::Json, Codec::Zstd { level: 3 }),
    variant("columnar none", Format::Columnar, Codec::None),
    variant("json none", Format::Json, Codec::None),
    Variant {
        grouped: true,
        ..variant(
            "columnar zstd-3, grouped by type",
            Format::Columnar,
            Codec::Zstd { level: 3 },
        )
    },
];
