//! The deserializer against `serde_dynamo`'s, which it must match value for value.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use aws_sdk_dynamodb::primitives::Blob;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::from_attribute_value;
use crate::codec::AttributeValue;
use crate::codec::serde_shapes::{Colour, Everything, Point, Shape, Unit, Wrapper, everything};
use crate::codec::serializer::to_attribute_value;

/// What `serde_dynamo` reads from `value`, with an error as its message.
fn serde_dynamo_reads<T: DeserializeOwned>(value: &AttributeValue) -> Result<T, String> {
    serde_dynamo::from_attribute_value(value.clone()).map_err(|e| e.to_string())
}

/// What the direct deserializer reads from `value`, with an error as its message.
fn reads<T: DeserializeOwned>(value: &AttributeValue) -> Result<T, String> {
    from_attribute_value(value.clone()).map_err(|e| e.to_string())
}

/// Both deserializers read `value` as the same `T`, or fail with the same message.
fn same_as_serde_dynamo<T: DeserializeOwned + PartialEq + Debug>(value: &AttributeValue) {
    assert_eq!(
        reads::<T>(value),
        serde_dynamo_reads::<T>(value),
        "reading {value:?}"
    );
}

#[test]
fn every_shape_reads_as_serde_dynamo_reads_it() {
    let stored = to_attribute_value(&everything()).expect("serializes");
    assert_eq!(reads::<Everything>(&stored), Ok(everything()));
    same_as_serde_dynamo::<Everything>(&stored);
    // The same fields read as a schemaless document and as a struct that ignores most.
    same_as_serde_dynamo::<serde_json::Value>(&stored);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Few {
        text: String,
    }
    same_as_serde_dynamo::<Few>(&stored);
}

#[test]
fn the_alternative_forms_serde_dynamo_accepts_read_too() {
    let s = |v: &str| AttributeValue::S(v.into());
    let n = |v: &str| AttributeValue::N(v.into());
    // A struct stored as a list, a unit variant stored as a map, a variant's value ignored.
    same_as_serde_dynamo::<Point>(&AttributeValue::L(vec![n("1"), n("2")]));
    same_as_serde_dynamo::<Shape>(&AttributeValue::M(HashMap::from([("Dot".into(), n("5"))])));
    // Sets read as sequences; a string set as a vector of unit variants.
    same_as_serde_dynamo::<Vec<Colour>>(&AttributeValue::Ss(vec!["Red".into()]));
    same_as_serde_dynamo::<Vec<f32>>(&AttributeValue::Ns(vec!["1.5".into(), "-2".into()]));
    same_as_serde_dynamo::<Vec<serde_json::Value>>(&AttributeValue::Ns(vec![
        "1".into(),
        "18446744073709551615".into(),
        "1e3".into(),
    ]));
    // `NULL` is `None` and the unit; an absent option inside a struct is `None`.
    same_as_serde_dynamo::<Option<String>>(&AttributeValue::Null(true));
    same_as_serde_dynamo::<()>(&AttributeValue::Null(true));
    same_as_serde_dynamo::<Option<Point>>(&AttributeValue::M(HashMap::from([
        ("x".into(), n("1")),
        ("y".into(), n("2")),
    ])));
    // Newtypes are transparent, and a numeric string key reads as an integer key.
    same_as_serde_dynamo::<Wrapper>(&s("w"));
    same_as_serde_dynamo::<HashMap<i128, String>>(&AttributeValue::M(HashMap::from([(
        "-170141183460469231731687303715884105728".into(),
        s("min"),
    )])));
}

/// Serde's buffered shapes: flattened fields, untagged and internally tagged enums, which
/// read through `deserialize_any` into serde's own buffer first.
#[test]
fn buffered_shapes_read_as_serde_dynamo_reads_them() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Outer {
        id: String,
        #[serde(flatten)]
        point: Point,
        #[serde(flatten)]
        rest: HashMap<String, serde_json::Value>,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Loose {
        Number(f64),
        Text(String),
        Pair { a: u8, b: Option<bool> },
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(tag = "type")]
    enum Tagged {
        Dot,
        Circle { r: f32 },
    }
    let outer = Outer {
        id: "o".into(),
        point: Point { x: 1, y: -1 },
        rest: HashMap::from([("extra".to_owned(), serde_json::json!([1, "two"]))]),
    };
    for value in [
        to_attribute_value(&outer),
        to_attribute_value(&vec![
            Loose::Number(1.5),
            Loose::Text("t".into()),
            Loose::Pair { a: 2, b: None },
        ]),
        to_attribute_value(&vec![Tagged::Dot, Tagged::Circle { r: 0.5 }]),
    ] {
        let value = value.expect("serializes");
        same_as_serde_dynamo::<Outer>(&value);
        same_as_serde_dynamo::<Vec<Loose>>(&value);
        same_as_serde_dynamo::<Vec<Tagged>>(&value);
    }
    assert_eq!(
        reads::<Outer>(&to_attribute_value(&outer).expect("serializes")),
        Ok(outer)
    );
}

#[test]
fn what_does_not_fit_fails_with_serde_dynamo_s_message() {
    let s = |v: &str| AttributeValue::S(v.into());
    let n = |v: &str| AttributeValue::N(v.into());
    let m = |k: &str, v: AttributeValue| AttributeValue::M(HashMap::from([(k.into(), v)]));
    same_as_serde_dynamo::<u8>(&n("256"));
    same_as_serde_dynamo::<i32>(&n("1.5"));
    same_as_serde_dynamo::<f64>(&n("one"));
    same_as_serde_dynamo::<serde_json::Value>(&n("one"));
    same_as_serde_dynamo::<u8>(&s("1"));
    same_as_serde_dynamo::<String>(&n("1"));
    same_as_serde_dynamo::<bool>(&s("true"));
    same_as_serde_dynamo::<char>(&s("ab"));
    same_as_serde_dynamo::<char>(&s(""));
    same_as_serde_dynamo::<()>(&AttributeValue::Null(false));
    same_as_serde_dynamo::<Option<u8>>(&AttributeValue::Null(false));
    same_as_serde_dynamo::<Unit>(&n("1"));
    same_as_serde_dynamo::<Vec<u8>>(&m("a", n("1")));
    same_as_serde_dynamo::<HashMap<String, u8>>(&AttributeValue::L(vec![]));
    same_as_serde_dynamo::<HashMap<u8, u8>>(&m("x", n("1")));
    same_as_serde_dynamo::<HashMap<bool, u8>>(&m("yes", n("1")));
    same_as_serde_dynamo::<Shape>(&n("1"));
    same_as_serde_dynamo::<Shape>(&s("Circle"));
    same_as_serde_dynamo::<Shape>(&s("Square"));
    same_as_serde_dynamo::<Shape>(&AttributeValue::M(HashMap::new()));
    same_as_serde_dynamo::<Shape>(&AttributeValue::M(HashMap::from([
        ("Dot".into(), n("1")),
        ("Circle".into(), n("1")),
    ])));
    same_as_serde_dynamo::<Shape>(&m("Rect", AttributeValue::L(vec![n("1"), n("2")])));
    same_as_serde_dynamo::<Point>(&m("x", n("1")));
    same_as_serde_dynamo::<Point>(&AttributeValue::B(Blob::new(vec![1])));
    same_as_serde_dynamo::<Vec<u8>>(&AttributeValue::B(Blob::new(vec![1])));
    same_as_serde_dynamo::<i128>(&n("1"));
}

/// Number texts: integers of every range, decimals, exponents, and text that is no number.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        "-?[0-9]{1,40}(\\.[0-9]{1,5})?(e-?[0-9]{1,3})?",
        ".{0,4}",
    ]
}

/// Any attribute value, including forms no serializer writes (`NULL` false, sets of
/// anything, multi-entry maps where an enum is expected).
fn attribute_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(AttributeValue::Null),
        any::<bool>().prop_map(AttributeValue::Bool),
        number_text().prop_map(AttributeValue::N),
        prop_oneof![".{0,3}", "Dot|Circle|Red|Green|true|false|x|y|-?[0-9]{1,3}"]
            .prop_map(AttributeValue::S),
        proptest::collection::vec(any::<u8>(), 0..4).prop_map(|b| AttributeValue::B(Blob::new(b))),
        proptest::collection::vec(".{0,3}", 0..4).prop_map(AttributeValue::Ss),
        proptest::collection::vec(number_text(), 0..4).prop_map(AttributeValue::Ns),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..3), 0..3)
            .prop_map(|b| AttributeValue::Bs(b.into_iter().map(Blob::new).collect())),
    ];
    leaf.prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
            proptest::collection::hash_map(
                "Dot|Circle|Line|Rect|Red|x|y|w|h|-?[0-9]{1,2}|true|.{0,2}",
                inner,
                0..4
            )
            .prop_map(AttributeValue::M),
        ]
    })
}

/// Reads `value` as `T` both ways: the same value, or both an error. (An error's message
/// is compared in the tests above; here a map with several bad entries can fail at a
/// different one, because each side walks its own hash map.)
fn agrees<T: DeserializeOwned + PartialEq + Debug>(value: &AttributeValue) {
    match (reads::<T>(value), serde_dynamo_reads::<T>(value)) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs, "reading {value:?}"),
        (Err(_), Err(_)) => {}
        (ours, theirs) => panic!("reading {value:?}: {ours:?} where serde_dynamo gives {theirs:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn any_attribute_value_reads_as_serde_dynamo_reads_it(value in attribute_value()) {
        agrees::<serde_json::Value>(&value);
        agrees::<Option<Vec<i32>>>(&value);
        agrees::<HashMap<String, f64>>(&value);
        agrees::<HashMap<i8, Option<bool>>>(&value);
        agrees::<BTreeMap<Colour, serde_json::Value>>(&value);
        agrees::<Shape>(&value);
        agrees::<Vec<Shape>>(&value);
        agrees::<Point>(&value);
        agrees::<(u8, String)>(&value);
        agrees::<Option<char>>(&value);
        agrees::<Vec<Colour>>(&value);
        agrees::<Unit>(&value);
        agrees::<Wrapper>(&value);
    }
}
