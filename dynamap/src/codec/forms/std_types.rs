//! Stored forms of std types: `SystemTime` as UTC timestamp text, `Duration` as a number
//! of seconds, IP addresses as their text.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::super::attribute::{Attribute, AttributeError};
use super::super::attribute_error::mismatch;
use super::seconds::{self, Seconds};
use super::{AttributeValue, civil, number_entry};

/// The instant as seconds (floor) and nanoseconds after the epoch, before 1970 included.
fn since_epoch(value: SystemTime) -> Option<(i64, u32)> {
    match value.duration_since(UNIX_EPOCH) {
        Ok(after) => Some((i64::try_from(after.as_secs()).ok()?, after.subsec_nanos())),
        Err(before) => {
            let before = before.duration();
            let secs = i64::try_from(before.as_secs()).ok()?;
            Some(match before.subsec_nanos() {
                0 => (-secs, 0),
                nanos => (-secs - 1, 1_000_000_000 - nanos),
            })
        }
    }
}

fn from_epoch(secs: i64, nanos: u32) -> Option<SystemTime> {
    let whole = Duration::from_secs(secs.unsigned_abs());
    let at = if secs >= 0 {
        UNIX_EPOCH.checked_add(whole)?
    } else {
        UNIX_EPOCH.checked_sub(whole)?
    };
    at.checked_add(Duration::from_nanos(u64::from(nanos)))
}

/// `2020-03-01T12:30:00.000000000Z`, the text of `time::OffsetDateTime` fields and key
/// parts; instants before 1970 are stored too. Reads the `{secs_since_epoch,
/// nanos_since_epoch}` map serde stored before.
impl Attribute for SystemTime {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        since_epoch(*self)
            .and_then(|(secs, nanos)| civil::format(secs, nanos))
            .map(AttributeValue::S)
            .ok_or_else(|| {
                AttributeError::new(format!(
                    "{self:?} cannot be stored: timestamps are years 0000 to 9999 (UTC)"
                ))
            })
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::S(text) => civil::parse(text),
            // serde's form: `{secs_since_epoch, nanos_since_epoch}`, after 1970 only.
            AttributeValue::M(map) => number_entry(map, "secs_since_epoch")
                .zip(number_entry(map, "nanos_since_epoch"))
                .and_then(|(secs, nanos)| Some((secs.parse().ok()?, nanos.parse().ok()?))),
            _ => return Err(mismatch("a timestamp string (S)", &value)),
        };
        read.and_then(|(secs, nanos)| from_epoch(secs, nanos))
            .ok_or_else(|| {
                not_a(
                    &value,
                    "a UTC timestamp like 2020-03-01T12:30:00.000000000Z",
                )
            })
    }
}

/// The error for a value of the right type but not the right text.
#[cold]
pub(super) fn not_a(value: &AttributeValue, expected: &str) -> AttributeError {
    AttributeError::new(format!("{value:?} is not {expected}"))
}

/// A number of seconds: `90.5` (see `seconds.rs`). Reads the `{secs, nanos}` map serde
/// stored before.
impl Attribute for Duration {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::N(seconds::format(Seconds {
            negative: false,
            secs: self.as_secs(),
            nanos: self.subsec_nanos(),
        })))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        let read = match &value {
            AttributeValue::N(text) => seconds::parse(text)
                .filter(|s| !s.negative)
                .map(|s| (s.secs, s.nanos)),
            // serde's form: `{secs, nanos}`.
            AttributeValue::M(map) => number_entry(map, "secs")
                .zip(number_entry(map, "nanos"))
                .and_then(|(secs, nanos)| Some((secs.parse().ok()?, nanos.parse().ok()?)))
                .filter(|(_, nanos)| *nanos < 1_000_000_000),
            _ => return Err(mismatch("a number of seconds (N)", &value)),
        };
        read.map(|(secs, nanos)| Duration::new(secs, nanos))
            .ok_or_else(|| not_a(&value, "a non-negative number of seconds"))
    }
}

/// IP addresses as their `Display` text (`192.0.2.1`, `2001:db8::1`), which serde stored
/// too.
macro_rules! ip_text {
    ($($ty:ty: $what:literal),*) => {$(
        impl Attribute for $ty {
            fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
                Ok(AttributeValue::S(self.to_string()))
            }

            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                match &value {
                    AttributeValue::S(text) => text.parse().map_err(|_| not_a(&value, $what)),
                    _ => Err(mismatch("an address string (S)", &value)),
                }
            }
        }
    )*};
}

ip_text!(IpAddr: "an IP address", Ipv4Addr: "an IPv4 address", Ipv6Addr: "an IPv6 address");

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.into())
    }

    #[test]
    fn system_times_are_timestamp_text_before_1970_too() {
        for (at, text) in [
            (UNIX_EPOCH, "1970-01-01T00:00:00.000000000Z"),
            (
                UNIX_EPOCH + Duration::new(1_583_065_800, 5),
                "2020-03-01T12:30:00.000000005Z",
            ),
            (
                UNIX_EPOCH - Duration::new(0, 1),
                "1969-12-31T23:59:59.999999999Z",
            ),
            (
                UNIX_EPOCH - Duration::from_secs(86_400 * 365),
                "1969-01-01T00:00:00.000000000Z",
            ),
        ] {
            assert_eq!(at.to_attribute(), Ok(s(text)));
            assert_eq!(SystemTime::from_attribute(s(text)), Ok(at));
        }
        let far = UNIX_EPOCH + Duration::from_secs(253_402_300_800);
        assert!(far.to_attribute().is_err());
    }

    #[test]
    fn system_times_read_serdes_map() {
        let at = UNIX_EPOCH + Duration::new(1_583_065_800, 7);
        let stored = crate::codec::serialized(&at).expect("serde stores it");
        assert_eq!(
            stored,
            AttributeValue::M(HashMap::from([
                ("secs_since_epoch".to_owned(), n("1583065800")),
                ("nanos_since_epoch".to_owned(), n("7")),
            ]))
        );
        assert_eq!(SystemTime::from_attribute(stored), Ok(at));
        assert!(SystemTime::from_attribute(s("2020-03-01")).is_err());
        assert!(SystemTime::from_attribute(n("1")).is_err());
    }

    #[test]
    fn durations_are_exact_seconds_and_read_serdes_map() {
        for (duration, text) in [
            (Duration::ZERO, "0"),
            (Duration::new(90, 500_000_000), "90.5"),
            (Duration::from_nanos(1), "0.000000001"),
            (Duration::MAX, "18446744073709551615.999999999"),
        ] {
            assert_eq!(duration.to_attribute(), Ok(n(text)));
            assert_eq!(Duration::from_attribute(n(text)), Ok(duration));
            let serde = crate::codec::serialized(&duration).expect("serde stores it");
            assert!(matches!(serde, AttributeValue::M(_)), "{serde:?}");
            assert_eq!(Duration::from_attribute(serde), Ok(duration));
        }
        assert!(Duration::from_attribute(n("-1")).is_err());
        assert!(Duration::from_attribute(n("1E-10")).is_err());
        assert!(Duration::from_attribute(s("1")).is_err());
    }

    #[test]
    fn addresses_are_their_text_as_serde_stored_them() {
        let v4: Ipv4Addr = "192.0.2.1".parse().expect("an address");
        let v6: Ipv6Addr = "2001:db8::1".parse().expect("an address");
        for (value, text) in [
            (IpAddr::V4(v4), "192.0.2.1"),
            (IpAddr::V6(v6), "2001:db8::1"),
        ] {
            assert_eq!(value.to_attribute(), Ok(s(text)));
            assert_eq!(crate::codec::serialized(&value), Ok(s(text)));
            assert_eq!(IpAddr::from_attribute(s(text)), Ok(value));
        }
        assert_eq!(v4.to_attribute(), Ok(s("192.0.2.1")));
        assert_eq!(Ipv6Addr::from_attribute(s("2001:DB8:0::1")), Ok(v6));
        assert!(Ipv4Addr::from_attribute(s("2001:db8::1")).is_err());
        assert!(IpAddr::from_attribute(n("1")).is_err());
    }
}
