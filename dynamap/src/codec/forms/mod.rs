//! The stored form of each well-known type a field may have: chosen by dynamap, the same
//! whatever serde features the build turns on, and sortable where the type has an order.
//!
//! | type | stored as | example |
//! |---|---|---|
//! | `time::OffsetDateTime` | `S`, UTC, fixed width | `2020-03-01T12:30:00.000000000Z` |
//! | `std::time::SystemTime` | `S`, the same text (before 1970 too) | `1969-12-31T23:59:59.999999999Z` |
//! | `time::PrimitiveDateTime` | `S`, the same text without `Z` | `2020-03-01T12:30:00.000000000` |
//! | `time::Date` | `S` | `2020-03-01` |
//! | `time::Time` | `S`, fixed width | `12:30:00.000000000` |
//! | `time::Duration`, `std::time::Duration` | `N`, seconds, exact | `90.5` |
//! | `uuid::Uuid` | `S`, lowercase hyphenated | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//! | `std::net::IpAddr`, `Ipv4Addr`, `Ipv6Addr` | `S`, as `Display` writes it | `2001:db8::1` |
//!
//! Writing is strict, reading lenient: each type also reads the forms serde stored for it
//! before (`time`'s lists of numbers and its `serde-human-readable` text, std's
//! `{secs, nanos}` maps), so no item is stranded. The guide's table (`docs/guide/
//! evolving-models.md`, "Stored forms") is checked against these by `tests/it/stored_forms.rs`.

mod civil;
mod seconds;
mod std_types;
#[cfg(feature = "time")]
mod time_types;
#[cfg(feature = "uuid")]
mod uuid;

use std::collections::HashMap;

use super::AttributeValue;

/// The numbers of a list attribute of exactly `N` numbers (serde's tuple form).
#[cfg_attr(
    not(feature = "time"),
    allow(dead_code, reason = "read by the time types")
)]
fn numbers<const N: usize>(list: &[AttributeValue]) -> Option<[i64; N]> {
    if list.len() != N {
        return None;
    }
    let mut out = [0; N];
    for (slot, value) in out.iter_mut().zip(list) {
        *slot = value.as_n().ok()?.parse().ok()?;
    }
    Some(out)
}

/// The text of number entry `key` of a map attribute (serde's struct form).
fn number_entry<'a>(map: &'a HashMap<String, AttributeValue>, key: &str) -> Option<&'a str> {
    map.get(key)?.as_n().ok().map(String::as_str)
}
