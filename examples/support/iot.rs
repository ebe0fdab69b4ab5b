//! Seed 002's car events: the entity of the `iot` example, kept as multi-event rows, and
//! the trips it generates; here so that the `model` example draws the very type and rows
//! the app stores.

use dynamap::Entity;
use dynamap::model::Model;

use crate::tables::Iot;

/// The tenant of the example's fleet.
pub const TENANT: &str = "acme-rentals";
/// An hour in milliseconds.
pub const HOUR_MS: i64 = 3_600_000;

/// One event of one car at a millisecond. Several events of a car can share a millisecond
/// (a trip starts with the ignition and the door lock at once); they share one row.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Iot,
    entity = "CarEvent",
    pk = "CAR#{tenant}#{car}",
    sk = "{at}",
    event_rows(time = "at")
)]
pub struct CarEvent {
    /// The fleet's owner.
    pub tenant: String,
    /// The car.
    pub car: String,
    /// Epoch milliseconds.
    pub at: i64,
    /// What happened.
    pub kind: String,
    /// The speed then.
    pub speed_kmh: f64,
    /// The fuel level then, in percent.
    pub fuel_pct: f64,
    /// Only door events say what the door did.
    pub door: Option<String>,
}

/// SplitMix64: a deterministic spread of trip times and speeds, no randomness crate needed.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b ^ 0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number below `n` from `r`.
fn below(r: u64, n: u32) -> i64 {
    i64::from(u32::try_from(r % u64::from(n)).unwrap_or_default())
}

/// An event of `car` at `at` (epoch milliseconds), not a door's.
pub fn event(car: &str, at: i64, kind: &str, speed_kmh: f64, fuel_pct: f64) -> CarEvent {
    CarEvent {
        tenant: TENANT.to_owned(),
        car: car.to_owned(),
        at,
        kind: kind.to_owned(),
        speed_kmh,
        fuel_pct,
        door: None,
    }
}

/// A door event of `car`: `what` the door did.
pub fn door(car: &str, at: i64, what: &str, fuel_pct: f64) -> CarEvent {
    CarEvent {
        door: Some(what.to_owned()),
        ..event(car, at, &format!("door-{what}"), 0.0, fuel_pct)
    }
}

/// One trip of `car` on the day starting at `day_ms`: 8 events in 5 rows. It starts with two
/// events in one millisecond and ends with three in another.
pub fn trip(car: &str, day_ms: i64) -> Vec<CarEvent> {
    let r = mix(car.bytes().map(u64::from).sum(), day_ms.unsigned_abs());
    let start = day_ms + 7 * HOUR_MS + below(r, 10 * 3_600_000);
    let fuel = 40.0 + f64::from(u32::try_from(r % 100).unwrap_or_default()) / 2.0;
    let used = 3.5;
    let mut events = vec![
        event(car, start, "ignition-on", 0.0, fuel),
        door(car, start, "locked", fuel),
    ];
    for leg in 1..=3 {
        let speed = 30.0 + f64::from(u32::try_from((r >> (8 * leg)) % 90).unwrap_or_default());
        events.push(event(
            car,
            start + leg * 10 * 60_000 + below(r >> leg, 1_000),
            "speed",
            speed,
            fuel - f64::from(u32::try_from(leg).unwrap_or_default()),
        ));
    }
    let end = start + 40 * 60_000;
    events.extend([
        event(car, end, "ignition-off", 0.0, fuel - used),
        door(car, end, "unlocked", fuel - used),
        event(car, end, "fuel", 0.0, fuel - used),
    ]);
    events
}

/// The data model of the car-event tables: one trip of one car, as the rows it is stored
/// in (two events in its first millisecond, three in its last).
///
/// # Errors
///
/// Fails when an event does not encode.
pub fn model() -> dynamap::Result<Model<Iot>> {
    // 2020-03-02T00:00:00Z.
    let day_ms = 1_583_107_200_000;
    Model::<Iot>::new("iot")
        .pattern::<CarEvent>(None, "A car's events in a time range")
        .sample_rows(&trip("car-1", day_ms))
}
