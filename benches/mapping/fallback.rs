//! The serde fallback on its own: a field type without a direct conversion, through
//! dynamap's serializer and deserializer against serde_dynamo's.

use std::hint::black_box;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::timing::{PAGE, median};

/// A shape of drawing: an enum with data, which `Attribute` does not cover, so a field of it
/// goes through serde.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Dot,
    Circle(f64),
    Line(i32, i32),
    Rect { w: u8, h: u8, label: String },
}

fn shapes(i: usize) -> Vec<Shape> {
    (0..40)
        .map(|j| match (i + j) % 4 {
            0 => Shape::Dot,
            1 => Shape::Circle(j as f64 * 0.5),
            2 => Shape::Line(j as i32, -(j as i32)),
            _ => Shape::Rect {
                w: j as u8,
                h: 3,
                label: format!("r{j}"),
            },
        })
        .collect()
}

/// Nanoseconds per input for `convert` over `inputs`, a page at a time: each page is cloned
/// before the clock starts (converting may consume it) and its outputs are dropped after
/// the clock stops, as above.
fn time_pages<I: Clone, O>(inputs: &[I], convert: impl Fn(I) -> O) -> f64 {
    let mut elapsed = std::time::Duration::ZERO;
    for page in inputs.chunks(PAGE) {
        let page = page.to_vec();
        let mut out = Vec::with_capacity(page.len());
        let start = Instant::now();
        for input in page {
            out.push(convert(input));
        }
        elapsed += start.elapsed();
        black_box(out);
    }
    elapsed.as_nanos() as f64 / inputs.len() as f64
}

/// dynamap's conversion (`time(0)`) against serde_dynamo's (`time(1)`), in alternating
/// order round by round; `label` names the line printed.
fn dynamap_against_serde_dynamo(
    label: &str,
    rounds: usize,
    time: impl Fn(usize) -> f64,
) -> serde_json::Value {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        if round % 2 == 0 {
            ours.push(time(0));
            theirs.push(time(1));
        } else {
            theirs.push(time(1));
            ours.push(time(0));
        }
    }
    let mut ratios: Vec<f64> = theirs.iter().zip(&ours).map(|(t, o)| t / o).collect();
    let ratio = median(&mut ratios);
    println!("fallback   {label:<12}serde_dynamo/dynamap {ratio:.2}");
    serde_json::json!({
        "median_ns_per_value": { "dynamap_ns": median(&mut ours).round(), "serde_dynamo_ns": median(&mut theirs).round() },
        "serde_dynamo_vs_dynamap": ratio,
    })
}

/// The fallback's serializer and deserializer (straight to and from the SDK's type)
/// against `serde_dynamo`'s (its own tree, converted), on the same values.
pub(crate) fn run_fallback(values: usize, rounds: usize) -> serde_json::Value {
    let values: Vec<Vec<Shape>> = (0..values).map(shapes).collect();
    let stored: Vec<AttributeValue> = values
        .iter()
        .map(|value| dynamap::codec::serialized(value).expect("serializes"))
        .collect();
    for (value, stored) in values.iter().zip(&stored).take(50) {
        let theirs: AttributeValue = serde_dynamo::to_attribute_value(value).expect("encodes");
        assert_eq!(stored, &theirs);
        let read: Vec<Shape> = dynamap::codec::deserialized(stored.clone()).expect("decodes");
        assert_eq!(&read, value);
    }
    let borrowed: Vec<&Vec<Shape>> = values.iter().collect();
    let serialize = dynamap_against_serde_dynamo("serialize", rounds, |way| {
        time_pages(&borrowed, |value| match way {
            0 => dynamap::codec::serialized(value).expect("serializes"),
            _ => serde_dynamo::to_attribute_value(value).expect("serde_dynamo"),
        })
    });
    let deserialize = dynamap_against_serde_dynamo("deserialize", rounds, |way| {
        time_pages(&stored, |value| -> Vec<Shape> {
            match way {
                0 => dynamap::codec::deserialized(value).expect("decodes"),
                _ => serde_dynamo::from_attribute_value(value).expect("serde_dynamo"),
            }
        })
    });
    serde_json::json!({ "values": values.len(), "serialize": serialize, "deserialize": deserialize })
}
