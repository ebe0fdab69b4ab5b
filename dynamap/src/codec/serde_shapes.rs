//! Values of every serde shape, for the tests of the serializer and the deserializer, which
//! must store and read them as `serde_dynamo` does.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub(crate) struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub(crate) struct Wrapper(pub(crate) String);

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Colour {
    Red,
    Green,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub(crate) enum Shape {
    Dot,
    Circle(f64),
    Line(i32, i32),
    Rect { w: u8, h: u8 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub(crate) struct Point {
    pub(crate) x: i16,
    pub(crate) y: i16,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub(crate) struct Everything {
    pub(crate) text: String,
    pub(crate) flag: bool,
    pub(crate) small: i8,
    pub(crate) big: u64,
    pub(crate) ratio: f32,
    pub(crate) precise: f64,
    pub(crate) letter: char,
    pub(crate) missing: Option<u8>,
    pub(crate) present: Option<String>,
    pub(crate) unit: (),
    pub(crate) unit_struct: Unit,
    pub(crate) wrapper: Wrapper,
    pub(crate) shapes: Vec<Shape>,
    pub(crate) pair: (u16, String),
    pub(crate) point: Point,
    pub(crate) by_number: BTreeMap<u32, bool>,
    pub(crate) by_flag: HashMap<bool, i64>,
    pub(crate) by_colour: BTreeMap<Colour, Vec<i64>>,
    #[serde(with = "bytes")]
    pub(crate) raw: Vec<u8>,
    #[serde(with = "serde_dynamo::string_set")]
    pub(crate) tags: Vec<String>,
    #[serde(with = "serde_dynamo::number_set")]
    pub(crate) scores: HashSet<u32>,
    #[serde(with = "serde_dynamo::binary_set")]
    pub(crate) blobs: Vec<Bin>,
    #[serde(default)]
    pub(crate) defaulted: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) skipped: Option<u8>,
    pub(crate) json: serde_json::Value,
}

/// A binary value, as a member of a binary set.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(transparent)]
pub(crate) struct Bin(#[serde(with = "bytes")] pub(crate) Vec<u8>);

/// Bytes through `serialize_bytes` and `deserialize_byte_buf`, as `serde_bytes` does.
pub(crate) mod bytes {
    use serde::de::{Deserializer, Visitor};

    pub(crate) fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct Bytes;
        impl Visitor<'_> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
        }
        d.deserialize_byte_buf(Bytes)
    }
}

pub(crate) fn everything() -> Everything {
    Everything {
        text: "héllo".into(),
        flag: true,
        small: -8,
        big: u64::MAX,
        ratio: 0.1,
        precise: -1.5e-300,
        letter: 'x',
        missing: None,
        present: Some("p".into()),
        unit: (),
        unit_struct: Unit,
        wrapper: Wrapper("w".into()),
        shapes: vec![
            Shape::Dot,
            Shape::Circle(2.5),
            Shape::Line(-1, 1),
            Shape::Rect { w: 3, h: 4 },
        ],
        pair: (7, "seven".into()),
        point: Point { x: -3, y: 9 },
        by_number: BTreeMap::from([(1, true), (20, false)]),
        by_flag: HashMap::from([(true, -1)]),
        by_colour: BTreeMap::from([(Colour::Green, vec![1, -2])]),
        raw: vec![0, 255, 7],
        tags: vec!["x".into(), "y".into()],
        scores: HashSet::from([3, 4]),
        blobs: vec![Bin(vec![1, 2])],
        defaulted: 0,
        skipped: None,
        json: serde_json::json!({"n": 1, "f": 1.5, "neg": -3, "big": u64::MAX, "list": [true, null, "s"], "deep": {"k": []}}),
    }
}
