//! Benchmark: generated `to_item`/`from_item` against careful hand-written conversions and
//! against `serde_dynamo` of the whole struct, for three entities: 10 fields, a
//! timestamp-keyed reading, and 60 fields with nested values.
//!
//! ```text
//! cargo bench --bench mapping              # full run, writes docs/performance/mapping.json
//! cargo bench --bench mapping -- --quick   # smoke run (or DYNAMAP_BENCH_QUICK=1)
//! ```
//!
//! Pure CPU, no I/O. Each round times every implementation on the same values, in a
//! rotating order, a page (256 values) at a time, as query results arrive; what a way
//! produces is dropped after the clock stops (it is the same whichever way made it). The
//! ratios are medians over rounds of the per-round ratio, so drift of the machine cancels. Results are printed, written to `$CARGO_TARGET_DIR/bench/mapping.json`
//! (default `target/bench/`) and, for a full run, to `docs/performance/mapping.json`.
//! See `docs/performance/mapping.md`.

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use dynamap::{Attribute, Entity, Table};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::FormatItem;
use time::macros::{datetime, format_description};

type Item = HashMap<String, AttributeValue>;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Bench;

// ---------------------------------------------------------------------------------------
// Hand-written helpers: what a careful user writes without a mapper
// ---------------------------------------------------------------------------------------

/// Why a hand-written decoder rejected an item (attribute name, problem).
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` when a decode fails
struct HandError(&'static str, &'static str);

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

fn check_type(item: &Item, expected: &str) -> Result<(), HandError> {
    match item.get("_type") {
        Some(AttributeValue::S(t)) if t == expected => Ok(()),
        _ => Err(HandError("_type", "another entity")),
    }
}

fn take_s(item: &mut Item, name: &'static str) -> Result<String, HandError> {
    match item.remove(name) {
        Some(AttributeValue::S(s)) => Ok(s),
        Some(_) => Err(HandError(name, "not a string")),
        None => Err(HandError(name, "missing")),
    }
}

fn take_opt_s(item: &mut Item, name: &'static str) -> Result<Option<String>, HandError> {
    match item.remove(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(AttributeValue::S(s)) => Ok(Some(s)),
        Some(_) => Err(HandError(name, "not a string")),
    }
}

fn parse_n<T: std::str::FromStr>(
    value: &AttributeValue,
    name: &'static str,
) -> Result<T, HandError> {
    value
        .as_n()
        .map_err(|_| HandError(name, "not a number"))?
        .parse()
        .map_err(|_| HandError(name, "number out of range"))
}

fn take_n<T: std::str::FromStr>(item: &mut Item, name: &'static str) -> Result<T, HandError> {
    parse_n(&item.remove(name).ok_or(HandError(name, "missing"))?, name)
}

fn take_bool(item: &mut Item, name: &'static str) -> Result<bool, HandError> {
    match item.remove(name) {
        Some(AttributeValue::Bool(b)) => Ok(b),
        _ => Err(HandError(name, "not a boolean")),
    }
}

fn take_list(item: &mut Item, name: &'static str) -> Result<Vec<AttributeValue>, HandError> {
    match item.remove(name) {
        Some(AttributeValue::L(list)) => Ok(list),
        _ => Err(HandError(name, "not a list")),
    }
}

fn take_map(item: &mut Item, name: &'static str) -> Result<Item, HandError> {
    match item.remove(name) {
        Some(AttributeValue::M(map)) => Ok(map),
        _ => Err(HandError(name, "not a map")),
    }
}

fn strings(values: &[String]) -> AttributeValue {
    AttributeValue::L(values.iter().map(|v| s(v)).collect())
}

fn read_strings(list: Vec<AttributeValue>, name: &'static str) -> Result<Vec<String>, HandError> {
    list.into_iter()
        .map(|v| match v {
            AttributeValue::S(s) => Ok(s),
            _ => Err(HandError(name, "not a string")),
        })
        .collect()
}

/// The timestamp form dynamap stores; a user writing it by hand uses `time`'s formatter.
const TIMESTAMP: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:9]Z");

// ---------------------------------------------------------------------------------------
// 1. Ten fields
// ---------------------------------------------------------------------------------------

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamap(table = Bench, entity = "Order", pk = "CUSTOMER#{customer}", sk = "ORDER#{id}")]
struct Order {
    customer: String,
    id: String,
    status: String,
    total: f64,
    items: u32,
    paid: bool,
    note: Option<String>,
    created: i64,
    currency: String,
    tags: Vec<String>,
}

fn order(i: usize) -> Order {
    Order {
        customer: format!("customer-{}", i % 97),
        id: format!("order-{i:08}"),
        status: ["open", "paid", "shipped"][i % 3].to_owned(),
        total: 10.0 + (i % 1000) as f64 * 0.25,
        items: (i % 12) as u32 + 1,
        paid: !i.is_multiple_of(3),
        note: i
            .is_multiple_of(4)
            .then(|| format!("leave at door {}", i % 7)),
        created: 1_700_000_000 + i as i64,
        currency: "EUR".to_owned(),
        tags: vec!["gift".to_owned(), format!("batch-{}", i % 5)],
    }
}

fn order_to_item(o: &Order) -> Item {
    let mut item = Item::with_capacity(13);
    item.insert(
        "PK".to_owned(),
        AttributeValue::S(format!("CUSTOMER#{}", o.customer)),
    );
    item.insert(
        "SK".to_owned(),
        AttributeValue::S(format!("ORDER#{}", o.id)),
    );
    item.insert("_type".to_owned(), s("Order"));
    item.insert("customer".to_owned(), s(&o.customer));
    item.insert("id".to_owned(), s(&o.id));
    item.insert("status".to_owned(), s(&o.status));
    item.insert("total".to_owned(), n(o.total));
    item.insert("items".to_owned(), n(o.items));
    item.insert("paid".to_owned(), AttributeValue::Bool(o.paid));
    if let Some(note) = &o.note {
        item.insert("note".to_owned(), s(note));
    }
    item.insert("created".to_owned(), n(o.created));
    item.insert("currency".to_owned(), s(&o.currency));
    item.insert("tags".to_owned(), strings(&o.tags));
    item
}

fn order_from_item(mut item: Item) -> Result<Order, HandError> {
    check_type(&item, "Order")?;
    Ok(Order {
        customer: take_s(&mut item, "customer")?,
        id: take_s(&mut item, "id")?,
        status: take_s(&mut item, "status")?,
        total: take_n(&mut item, "total")?,
        items: take_n(&mut item, "items")?,
        paid: take_bool(&mut item, "paid")?,
        note: take_opt_s(&mut item, "note")?,
        created: take_n(&mut item, "created")?,
        currency: take_s(&mut item, "currency")?,
        tags: read_strings(take_list(&mut item, "tags")?, "tags")?,
    })
}

// ---------------------------------------------------------------------------------------
// 2. Timestamp-keyed
// ---------------------------------------------------------------------------------------

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamap(table = Bench, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{at}")]
struct Reading {
    sensor_id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    #[serde(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    value: f64,
    unit: String,
    counter: i64,
    note: Option<String>,
    valid: bool,
}

fn reading(i: usize) -> Reading {
    let i64_i = i as i64;
    Reading {
        sensor_id: format!("sensor-{}", i % 31),
        at: datetime!(2024-01-01 00:00 UTC)
            + time::Duration::seconds(i64_i)
            + time::Duration::microseconds(i64_i % 1000),
        value: 20.0 + (i % 1000) as f64 * 0.013,
        unit: "celsius".to_owned(),
        counter: i64_i,
        note: i
            .is_multiple_of(4)
            .then(|| format!("calibrated by technician {}", i % 17)),
        valid: !i.is_multiple_of(10),
    }
}

fn reading_to_item(r: &Reading) -> Item {
    let at = r.at.format(TIMESTAMP).expect("in range");
    let mut item = Item::with_capacity(10);
    item.insert(
        "PK".to_owned(),
        AttributeValue::S(format!("SENSOR#{}", r.sensor_id)),
    );
    item.insert("SK".to_owned(), AttributeValue::S(format!("READ#{at}")));
    item.insert("_type".to_owned(), s("Reading"));
    item.insert("sensor_id".to_owned(), s(&r.sensor_id));
    item.insert("at".to_owned(), AttributeValue::S(at));
    item.insert("value".to_owned(), n(r.value));
    item.insert("unit".to_owned(), s(&r.unit));
    item.insert("counter".to_owned(), n(r.counter));
    if let Some(note) = &r.note {
        item.insert("note".to_owned(), s(note));
    }
    item.insert("valid".to_owned(), AttributeValue::Bool(r.valid));
    item
}

fn reading_from_item(mut item: Item) -> Result<Reading, HandError> {
    check_type(&item, "Reading")?;
    let at = take_s(&mut item, "at")?;
    let at = time::PrimitiveDateTime::parse(&at, TIMESTAMP)
        .map_err(|_| HandError("at", "not a timestamp"))?
        .assume_utc();
    Ok(Reading {
        at,
        sensor_id: take_s(&mut item, "sensor_id")?,
        value: take_n(&mut item, "value")?,
        unit: take_s(&mut item, "unit")?,
        counter: take_n(&mut item, "counter")?,
        note: take_opt_s(&mut item, "note")?,
        valid: take_bool(&mut item, "valid")?,
    })
}

// ---------------------------------------------------------------------------------------
// 3. Sixty fields with nested values
// ---------------------------------------------------------------------------------------

#[derive(Attribute, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Address {
    street: String,
    city: String,
    zip: String,
    floor: i32,
}

fn address_to_attribute(a: &Address) -> AttributeValue {
    let mut map = Item::with_capacity(4);
    map.insert("street".to_owned(), s(&a.street));
    map.insert("city".to_owned(), s(&a.city));
    map.insert("zip".to_owned(), s(&a.zip));
    map.insert("floor".to_owned(), n(a.floor));
    AttributeValue::M(map)
}

fn address_from_attribute(value: AttributeValue) -> Result<Address, HandError> {
    let AttributeValue::M(mut map) = value else {
        return Err(HandError("address", "not a map"));
    };
    Ok(Address {
        street: take_s(&mut map, "street")?,
        city: take_s(&mut map, "city")?,
        zip: take_s(&mut map, "zip")?,
        floor: take_n(&mut map, "floor")?,
    })
}

/// Declares `Profile` with the scalar fields listed (strings, integers, floats, flags) and
/// ten nested ones, and writes its hand-written conversions: one line per field, as a user
/// would write them (the macro only saves typing them out).
macro_rules! profile {
    (
        strings: [$($s:ident),*],
        integers: [$($i:ident),*],
        floats: [$($f:ident),*],
        flags: [$($b:ident),*] $(,)?
    ) => {
        #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
        #[dynamap(table = Bench, entity = "Profile", pk = "PROFILE#{id}", sk = "PROFILE")]
        struct Profile {
            id: String,
            $($s: String,)*
            $($i: i64,)*
            $($f: f64,)*
            $($b: bool,)*
            nickname: Option<String>,
            last_login: Option<i64>,
            home: Address,
            addresses: Vec<Address>,
            scores: HashMap<String, i64>,
            tags: Vec<String>,
            ratings: Vec<f64>,
            settings: BTreeMap<String, bool>,
            friends: Vec<String>,
        }

        fn profile(i: usize) -> Profile {
            let mut k = i;
            let mut next = || { k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); k };
            Profile {
                id: format!("user-{i:08}"),
                $($s: format!("{}-{}", stringify!($s), next() % 1000),)*
                $($i: (next() % 1_000_000) as i64,)*
                $($f: (next() % 10_000) as f64 / 7.0,)*
                $($b: next() % 2 == 0,)*
                nickname: i.is_multiple_of(3).then(|| format!("nick-{i}")),
                last_login: i.is_multiple_of(2).then_some(1_700_000_000 + i as i64),
                home: Address { street: format!("Main St {}", i % 100), city: "Berlin".into(), zip: "10115".into(), floor: (i % 9) as i32 },
                addresses: (0..3).map(|j| Address { street: format!("Side St {j}"), city: "Hamburg".into(), zip: format!("2{j:04}"), floor: j }).collect(),
                scores: (0..4).map(|j| (format!("game-{j}"), (next() % 5000) as i64)).collect(),
                tags: (0..5).map(|j| format!("tag-{j}")).collect(),
                ratings: (0..6).map(|j| j as f64 * 0.5 + (i % 3) as f64).collect(),
                settings: [("dark_mode", true), ("emails", false), ("beta", i.is_multiple_of(2))].into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
                friends: (0..8).map(|j| format!("user-{:08}", (i + j) % 1000)).collect(),
            }
        }

        fn profile_to_item(p: &Profile) -> Item {
            let mut item = Item::with_capacity(64);
            item.insert("PK".to_owned(), AttributeValue::S(format!("PROFILE#{}", p.id)));
            item.insert("SK".to_owned(), s("PROFILE"));
            item.insert("_type".to_owned(), s("Profile"));
            item.insert("id".to_owned(), s(&p.id));
            $(item.insert(stringify!($s).to_owned(), s(&p.$s));)*
            $(item.insert(stringify!($i).to_owned(), n(p.$i));)*
            $(item.insert(stringify!($f).to_owned(), n(p.$f));)*
            $(item.insert(stringify!($b).to_owned(), AttributeValue::Bool(p.$b));)*
            if let Some(nickname) = &p.nickname {
                item.insert("nickname".to_owned(), s(nickname));
            }
            if let Some(last_login) = p.last_login {
                item.insert("last_login".to_owned(), n(last_login));
            }
            item.insert("home".to_owned(), address_to_attribute(&p.home));
            item.insert("addresses".to_owned(), AttributeValue::L(p.addresses.iter().map(address_to_attribute).collect()));
            item.insert("scores".to_owned(), AttributeValue::M(p.scores.iter().map(|(k, v)| (k.clone(), n(v))).collect()));
            item.insert("tags".to_owned(), strings(&p.tags));
            item.insert("ratings".to_owned(), AttributeValue::L(p.ratings.iter().map(n).collect()));
            item.insert("settings".to_owned(), AttributeValue::M(p.settings.iter().map(|(k, v)| (k.clone(), AttributeValue::Bool(*v))).collect()));
            item.insert("friends".to_owned(), strings(&p.friends));
            item
        }

        fn profile_from_item(mut item: Item) -> Result<Profile, HandError> {
            check_type(&item, "Profile")?;
            Ok(Profile {
                id: take_s(&mut item, "id")?,
                $($s: take_s(&mut item, stringify!($s))?,)*
                $($i: take_n(&mut item, stringify!($i))?,)*
                $($f: take_n(&mut item, stringify!($f))?,)*
                $($b: take_bool(&mut item, stringify!($b))?,)*
                nickname: take_opt_s(&mut item, "nickname")?,
                last_login: match item.remove("last_login") {
                    None | Some(AttributeValue::Null(_)) => None,
                    Some(value) => Some(parse_n(&value, "last_login")?),
                },
                home: address_from_attribute(item.remove("home").ok_or(HandError("home", "missing"))?)?,
                addresses: take_list(&mut item, "addresses")?.into_iter().map(address_from_attribute).collect::<Result<_, _>>()?,
                scores: take_map(&mut item, "scores")?.into_iter().map(|(k, v)| Ok((k, parse_n(&v, "scores")?))).collect::<Result<_, HandError>>()?,
                tags: read_strings(take_list(&mut item, "tags")?, "tags")?,
                ratings: take_list(&mut item, "ratings")?.iter().map(|v| parse_n(v, "ratings")).collect::<Result<_, _>>()?,
                settings: take_map(&mut item, "settings")?.into_iter().map(|(k, v)| match v {
                    AttributeValue::Bool(b) => Ok((k, b)),
                    _ => Err(HandError("settings", "not a boolean")),
                }).collect::<Result<_, _>>()?,
                friends: read_strings(take_list(&mut item, "friends")?, "friends")?,
            })
        }
    };
}

profile! {
    strings: [first_name, last_name, email, phone, company, title, department, country, region,
              language, timezone, currency, avatar_url, bio, website, referrer, plan, status,
              theme, locale, motto],
    integers: [age, logins, posts, comments, likes, followers, following, credits, level,
               experience, streak, warnings, invites, uploads, downloads],
    floats: [balance, rating, karma, latitude, longitude],
    flags: [verified, premium, admin, banned, newsletter, two_factor, public_profile,
            searchable, archived],
}

// ---------------------------------------------------------------------------------------
// serde_dynamo of the whole struct (the keys and type added beside it)
// ---------------------------------------------------------------------------------------

fn serde_to_item<E: Entity + Serialize>(value: &E) -> Item {
    let mut item: Item = serde_dynamo::to_item(value).expect("serde encodes");
    let (pk, sk) = value.primary_key().into_values().expect("renders");
    item.insert("PK".to_owned(), AttributeValue::S(pk));
    if let Some(sk) = sk {
        item.insert("SK".to_owned(), AttributeValue::S(sk));
    }
    item.insert("_type".to_owned(), s(E::ENTITY_TYPE));
    item
}

fn serde_from_item<E: for<'de> Deserialize<'de>>(item: Item) -> E {
    serde_dynamo::from_item(item).expect("serde decodes")
}

// ---------------------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------------------

/// Which conversion: generated, hand-written, serde_dynamo.
const WAYS: [&str; 3] = ["generated", "hand_written", "serde_dynamo"];

/// Nanoseconds per value of each way in each round: `[way][round]`.
type Samples = [Vec<f64>; 3];

struct Case<E> {
    name: &'static str,
    values: Vec<E>,
    to_hand: fn(&E) -> Item,
    from_hand: fn(Item) -> Result<E, HandError>,
}

fn time_encode<E: Entity + Serialize>(case: &Case<E>, way: usize) -> f64 {
    let mut elapsed = std::time::Duration::ZERO;
    for page in case.values.chunks(PAGE) {
        let mut items = Vec::with_capacity(page.len());
        let start = Instant::now();
        for value in page {
            items.push(match way {
                0 => value.to_item().expect("encodes"),
                1 => (case.to_hand)(value),
                _ => serde_to_item(value),
            });
        }
        elapsed += start.elapsed();
        // Dropped after the clock stops: the same items, whichever way made them.
        black_box(items);
    }
    elapsed.as_nanos() as f64 / case.values.len() as f64
}

/// Values converted per timed batch: about a page of query results (1 MB) for the wider
/// entities. A page is decoded as it arrives, while its items are still in the cache.
const PAGE: usize = 256;

fn time_decode<E: Entity + for<'de> Deserialize<'de>>(
    case: &Case<E>,
    items: &[Item],
    way: usize,
) -> f64 {
    let mut elapsed = std::time::Duration::ZERO;
    for page in items.chunks(PAGE) {
        // Each page is cloned before the clock starts: decoding consumes it.
        let page = page.to_vec();
        let mut values: Vec<E> = Vec::with_capacity(page.len());
        let start = Instant::now();
        for item in page {
            values.push(match way {
                0 => E::from_item(item).expect("decodes"),
                1 => (case.from_hand)(item).expect("decodes by hand"),
                _ => serde_from_item(item),
            });
        }
        elapsed += start.elapsed();
        black_box(values);
    }
    elapsed.as_nanos() as f64 / case.values.len() as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Median over rounds of `samples[a] / samples[b]`.
fn ratio(samples: &Samples, a: usize, b: usize) -> f64 {
    let mut ratios: Vec<f64> = samples[a]
        .iter()
        .zip(&samples[b])
        .map(|(x, y)| x / y)
        .collect();
    median(&mut ratios)
}

fn summary(samples: &mut Samples) -> serde_json::Value {
    let ratios = serde_json::json!({
        "generated_vs_hand_written": ratio(samples, 0, 1),
        "serde_dynamo_vs_generated": ratio(samples, 2, 0),
    });
    let mut medians = serde_json::Map::new();
    for (way, times) in WAYS.iter().zip(samples.iter_mut()) {
        medians.insert(
            format!("{way}_ns"),
            serde_json::json!(median(times).round()),
        );
    }
    serde_json::json!({ "median_ns_per_value": medians, "ratios": ratios })
}

fn run_case<E>(case: &Case<E>, rounds: usize) -> serde_json::Value
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
    let mut decode: Samples = Default::default();
    for round in 0..rounds {
        for step in 0..3 {
            let way = (round + step) % 3;
            encode[way].push(time_encode(case, way));
            decode[way].push(time_decode(case, &items, way));
        }
    }
    let (encode, decode) = (summary(&mut encode), summary(&mut decode));
    println!(
        "{:<10} to_item  generated/hand {:.2}  serde/generated {:.2}   from_item  generated/hand {:.2}  serde/generated {:.2}",
        case.name,
        encode["ratios"]["generated_vs_hand_written"]
            .as_f64()
            .unwrap_or_default(),
        encode["ratios"]["serde_dynamo_vs_generated"]
            .as_f64()
            .unwrap_or_default(),
        decode["ratios"]["generated_vs_hand_written"]
            .as_f64()
            .unwrap_or_default(),
        decode["ratios"]["serde_dynamo_vs_generated"]
            .as_f64()
            .unwrap_or_default(),
    );
    serde_json::json!({ "values": case.values.len(), "to_item": encode, "from_item": decode })
}

// ---------------------------------------------------------------------------------------
// The serde fallback: a field type without a direct conversion
// ---------------------------------------------------------------------------------------

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
fn run_fallback(values: usize, rounds: usize) -> serde_json::Value {
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

fn main() {
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("DYNAMAP_BENCH_QUICK").is_some();
    let (values, rounds) = if quick { (2_000, 5) } else { (20_000, 31) };
    let wide_values = values / 4;
    let results = serde_json::json!({
        "benchmark": "mapping",
        "quick": quick,
        "rounds": rounds,
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "ten_fields": run_case(&Case {
            name: "ten_fields",
            values: (0..values).map(order).collect(),
            to_hand: order_to_item,
            from_hand: order_from_item,
        }, rounds),
        "timestamp_keyed": run_case(&Case {
            name: "timestamp",
            values: (0..values).map(reading).collect(),
            to_hand: reading_to_item,
            from_hand: reading_from_item,
        }, rounds),
        "sixty_fields_nested": run_case(&Case {
            name: "sixty",
            values: (0..wide_values).map(profile).collect(),
            to_hand: profile_to_item,
            from_hand: profile_from_item,
        }, rounds),
        "serde_fallback": run_fallback(wide_values, rounds),
    });
    let text = serde_json::to_string_pretty(&results).expect("renders") + "\n";
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    let mut paths = vec![target.join("bench").join("mapping.json")];
    if !quick {
        paths.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance/mapping.json"));
    }
    for path in paths {
        std::fs::create_dir_all(path.parent().expect("has a parent"))
            .expect("creates the directory");
        std::fs::write(&path, &text).expect("writes results");
        println!("wrote {}", path.display());
    }
}
