//! The UTC timestamp text (`2020-03-01T12:30:00.000000000Z`) of a count of seconds since
//! the Unix epoch, with std only: `std::time::SystemTime` is stored in the same text as
//! `time::OffsetDateTime` and its key part, whether or not the `time` feature is on.
//! Dates follow the proleptic Gregorian calendar (the civil-from-days algorithm of Howard
//! Hinnant's `chrono`-compatible date algorithms), years 0000 to 9999.

/// Seconds in a day.
const DAY: i64 = 86_400;
/// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
pub(super) const LEN: usize = 30;

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The proleptic Gregorian date of a count of days since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // In range by construction: a day of 1 to 31, a month of 1 to 12.
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

/// The text of the instant `secs` (floor) and `nanos` after the epoch, or `None` when its
/// year is outside 0000 to 9999.
pub(super) fn format(secs: i64, nanos: u32) -> Option<String> {
    let (year, month, day) = civil_from_days(secs.div_euclid(DAY));
    if !(0..=9999).contains(&year) {
        return None;
    }
    let of_day = secs.rem_euclid(DAY);
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{nanos:09}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    ))
}

/// Reads the text [`format`] writes, and only that, as seconds (floor) and nanoseconds
/// after the epoch.
pub(super) fn parse(text: &str) -> Option<(i64, u32)> {
    let bytes = text.as_bytes();
    if bytes.len() != LEN {
        return None;
    }
    for (at, separator) in [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
        (29, b'Z'),
    ] {
        if bytes[at] != separator {
            return None;
        }
    }
    let number = |from: usize, width: usize| -> Option<u32> {
        bytes[from..from + width].iter().try_fold(0u32, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
        })
    };
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second, nanos) = (
        number(11, 2)?,
        number(14, 2)?,
        number(17, 2)?,
        number(20, 9)?,
    );
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > month_days || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(i64::from(year), month, day);
    let of_day = i64::from(hour * 3600 + minute * 60 + second);
    Some((days * DAY + of_day, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_the_time_crate_writes() {
        let form = time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:9]Z"
        );
        for secs in [
            0,
            -1,
            951_782_400,   // 2000-02-29
            1_583_065_800, // 2020-03-01T12:30
            -62_167_219_200,
            253_402_300_799,
            -86_400 * 365 * 300 + 12_345,
        ] {
            let nanos = 123_456_789;
            let expected = time::OffsetDateTime::from_unix_timestamp(secs)
                .expect("in range")
                .replace_nanosecond(nanos)
                .expect("in range")
                .format(&form)
                .expect("formats");
            assert_eq!(format(secs, nanos).as_deref(), Some(expected.as_str()));
            assert_eq!(parse(&expected), Some((secs, nanos)));
        }
    }

    #[test]
    fn every_day_of_four_centuries_round_trips() {
        let start = days_from_civil(1900, 1, 1);
        let mut previous = String::new();
        for day in start..start + 146_097 {
            let text = format(day * DAY, 0).expect("in range");
            assert_eq!(parse(&text), Some((day * DAY, 0)), "{text}");
            assert!(previous < text, "{previous} {text}");
            previous = text;
        }
    }

    #[test]
    fn refuses_years_out_of_range_and_other_text() {
        assert_eq!(format(-62_167_219_201, 0), None);
        assert_eq!(format(253_402_300_800, 0), None);
        for text in [
            "",
            "2020-03-01T12:30:00.000000000",
            "2020-02-30T12:30:00.000000000Z",
            "2021-02-29T12:30:00.000000000Z",
            "2020-13-01T12:30:00.000000000Z",
            "2020-03-01T24:00:00.000000000Z",
            "2020-03-01 12:30:00.000000000Z",
            "+020-03-01T12:30:00.000000000Z",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
