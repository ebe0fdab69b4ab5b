//! Field types that say when an event happened, for `#[dynamap(event_rows(time = "..."))]`.

use crate::sealed::{EventTimeSeal, Sealed};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A field type that can be an event's time: integers are epoch milliseconds, as in the
/// seed's millisecond timestamps; `time::OffsetDateTime` (feature `time`) is itself.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an event time",
    label = "not an event time",
    note = "event times are epoch milliseconds (`i64`, `u64`) or `time::OffsetDateTime`"
)]
pub trait EventTime: Sealed<EventTimeSeal> {
    /// The time as a `SystemTime`; `None` when it is out of range.
    fn system_time(&self) -> Option<SystemTime>;
}

impl Sealed<EventTimeSeal> for i64 {}
impl Sealed<EventTimeSeal> for u64 {}
#[cfg(feature = "time")]
impl Sealed<EventTimeSeal> for time::OffsetDateTime {}

impl EventTime for i64 {
    fn system_time(&self) -> Option<SystemTime> {
        let millis = Duration::from_millis(self.unsigned_abs());
        if *self >= 0 {
            UNIX_EPOCH.checked_add(millis)
        } else {
            UNIX_EPOCH.checked_sub(millis)
        }
    }
}

impl EventTime for u64 {
    fn system_time(&self) -> Option<SystemTime> {
        UNIX_EPOCH.checked_add(Duration::from_millis(*self))
    }
}

#[cfg(feature = "time")]
impl EventTime for time::OffsetDateTime {
    fn system_time(&self) -> Option<SystemTime> {
        let nanos = self.unix_timestamp_nanos();
        let magnitude = Duration::from_nanos(u64::try_from(nanos.unsigned_abs()).ok()?);
        if nanos >= 0 {
            UNIX_EPOCH.checked_add(magnitude)
        } else {
            UNIX_EPOCH.checked_sub(magnitude)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_epoch_milliseconds() {
        let at = 1_491_696_000_123i64;
        let expected = UNIX_EPOCH + Duration::from_millis(1_491_696_000_123);
        assert_eq!(at.system_time(), Some(expected));
        assert_eq!(1_491_696_000_123u64.system_time(), Some(expected));
        assert_eq!(
            (-1000i64).system_time(),
            UNIX_EPOCH.checked_sub(Duration::from_secs(1))
        );
    }

    #[cfg(feature = "time")]
    #[test]
    fn timestamps_are_themselves() {
        let at = time::macros::datetime!(2017-04-09 00:00:00.5 UTC);
        assert_eq!(
            at.system_time(),
            Some(UNIX_EPOCH + Duration::from_millis(1_491_696_000_500))
        );
    }
}
