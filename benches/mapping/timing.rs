//! Timing three ways of converting the same values: generated, hand-written, serde_dynamo.

use std::hint::black_box;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::Entity;
use serde::{Deserialize, Serialize};

use crate::Item;
use crate::allocations::allocations;
use crate::hand::{HandError, s};

/// serde_dynamo of the whole struct, with the keys and the type attribute added beside it.
pub(crate) fn serde_to_item<E: Entity + Serialize>(value: &E) -> Item {
    let mut item: Item = serde_dynamo::to_item(value).expect("serde encodes");
    let (pk, sk) = value.primary_key().into_values().expect("renders");
    item.insert("PK".to_owned(), AttributeValue::S(pk));
    if let Some(sk) = sk {
        item.insert("SK".to_owned(), AttributeValue::S(sk));
    }
    item.insert("_type".to_owned(), s(E::ENTITY_TYPE));
    item
}

pub(crate) fn serde_from_item<E: for<'de> Deserialize<'de>>(item: Item) -> E {
    serde_dynamo::from_item(item).expect("serde decodes")
}

/// Which conversion: generated, hand-written, serde_dynamo.
const WAYS: [&str; 3] = ["generated", "hand_written", "serde_dynamo"];

/// Each way's samples, round by round: `[way][round]`.
type Samples = [Vec<Sample>; 3];

pub(crate) struct Case<E> {
    pub(crate) name: &'static str,
    pub(crate) values: Vec<E>,
    pub(crate) to_hand: fn(&E) -> Item,
    pub(crate) from_hand: fn(Item) -> Result<E, HandError>,
}

/// One way's time and allocations per value, in one round.
#[derive(Clone, Copy)]
pub(crate) struct Sample {
    ns: f64,
    allocations: f64,
}

/// Converting `count` values took `elapsed` and made `allocations`.
fn per_value(elapsed: std::time::Duration, allocations: u64, count: usize) -> Sample {
    Sample {
        ns: elapsed.as_nanos() as f64 / count as f64,
        allocations: allocations as f64 / count as f64,
    }
}

/// Times `way`'s `to_item` of every value, a page at a time. With `warm_heap`, each page is
/// converted once untimed first, so the timed pass finds the allocator's free lists holding
/// the very sizes this way asks for, whatever way ran before it.
fn time_encode<E: Entity + Serialize>(case: &Case<E>, way: usize, warm_heap: bool) -> Sample {
    let encode = |page: &[E]| -> Vec<Item> {
        page.iter()
            .map(|value| match way {
                0 => value.to_item().expect("encodes"),
                1 => (case.to_hand)(value),
                _ => serde_to_item(value),
            })
            .collect()
    };
    let mut elapsed = std::time::Duration::ZERO;
    let mut allocated = 0;
    for page in case.values.chunks(PAGE) {
        if warm_heap {
            black_box(encode(page));
        }
        let (start, before) = (Instant::now(), allocations());
        let items = encode(page);
        elapsed += start.elapsed();
        allocated += allocations() - before;
        // Dropped after the clock stops: the same items, whichever way made them.
        black_box(items);
    }
    per_value(elapsed, allocated, case.values.len())
}

/// Values converted per timed batch: about a page of query results (1 MB) for the wider
/// entities. A page is decoded as it arrives, while its items are still in the cache.
pub(crate) const PAGE: usize = 256;

fn time_decode<E: Entity + for<'de> Deserialize<'de>>(
    case: &Case<E>,
    items: &[Item],
    way: usize,
) -> Sample {
    let mut elapsed = std::time::Duration::ZERO;
    let mut allocated = 0;
    for page in items.chunks(PAGE) {
        // Each page is cloned before the clock starts: decoding consumes it.
        let page = page.to_vec();
        let mut values: Vec<E> = Vec::with_capacity(page.len());
        let (start, before) = (Instant::now(), allocations());
        for item in page {
            values.push(match way {
                0 => E::from_item(item).expect("decodes"),
                1 => (case.from_hand)(item).expect("decodes by hand"),
                _ => serde_from_item(item),
            });
        }
        elapsed += start.elapsed();
        allocated += allocations() - before;
        black_box(values);
    }
    per_value(elapsed, allocated, case.values.len())
}

pub(crate) fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Median over rounds of the time of way `a` over that of way `b`.
fn ratio(samples: &Samples, a: usize, b: usize) -> f64 {
    let mut ratios: Vec<f64> = samples[a]
        .iter()
        .zip(&samples[b])
        .map(|(x, y)| x.ns / y.ns)
        .collect();
    median(&mut ratios)
}

/// Each way's median time and allocations per value, and the two ratios.
fn summary(samples: &Samples) -> serde_json::Value {
    let ratios = serde_json::json!({
        "generated_vs_hand_written": ratio(samples, 0, 1),
        "serde_dynamo_vs_generated": ratio(samples, 2, 0),
    });
    let (mut times, mut allocated) = (serde_json::Map::new(), serde_json::Map::new());
    for (way, samples) in WAYS.iter().zip(samples) {
        let mut ns: Vec<f64> = samples.iter().map(|s| s.ns).collect();
        times.insert(
            format!("{way}_ns"),
            serde_json::json!(median(&mut ns).round()),
        );
        // The same in every round (the work does not change); the median says so anyway.
        let mut counts: Vec<f64> = samples.iter().map(|s| s.allocations).collect();
        let count = (median(&mut counts) * 100.0).round() / 100.0;
        allocated.insert(way.to_string(), serde_json::json!(count));
    }
    serde_json::json!({
        "median_ns_per_value": times,
        "allocations_per_value": allocated,
        "ratios": ratios,
    })
}

pub(crate) fn run_case<E>(case: &Case<E>, rounds: usize) -> serde_json::Value
where
    E: Entity + Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    // The three ways agree before anything is timed.
    for value in case.values.iter().take(50) {
        let generated = value.to_item().expect("encodes");
        assert_eq!(
            generated,
            (case.to_hand)(value),
            "{}: hand-written item differs",
            case.name
        );
        assert_eq!(
            &(case.from_hand)(generated.clone()).expect("decodes"),
            value
        );
        assert_eq!(&serde_from_item::<E>(generated.clone()), value);
        assert_eq!(&E::from_item(generated).expect("decodes"), value);
    }
    let items: Vec<Item> = case
        .values
        .iter()
        .map(|v| v.to_item().expect("encodes"))
        .collect();
    let mut encode: Samples = Default::default();
    let mut encode_warm: Samples = Default::default();
    let mut decode: Samples = Default::default();
    for round in 0..rounds {
        for step in 0..3 {
            let way = (round + step) % 3;
            encode[way].push(time_encode(case, way, false));
            encode_warm[way].push(time_encode(case, way, true));
            decode[way].push(time_decode(case, &items, way));
        }
    }
    let (encode, encode_warm) = (summary(&encode), summary(&encode_warm));
    let decode = summary(&decode);
    for (direction, summary) in [
        ("to_item", &encode),
        ("to_item, warm heap", &encode_warm),
        ("from_item", &decode),
    ] {
        let number = |path: [&str; 2]| summary[path[0]][path[1]].as_f64().unwrap_or_default();
        println!(
            "{:<13} {direction:<18}  generated/hand {:.2}  serde/generated {:.2}  allocations per value {} / {} / {}",
            case.name,
            number(["ratios", "generated_vs_hand_written"]),
            number(["ratios", "serde_dynamo_vs_generated"]),
            number(["allocations_per_value", "generated"]),
            number(["allocations_per_value", "hand_written"]),
            number(["allocations_per_value", "serde_dynamo"]),
        );
    }
    serde_json::json!({
        "values": case.values.len(),
        "to_item": encode,
        "to_item_warm_heap": encode_warm,
        "from_item": decode,
    })
}
