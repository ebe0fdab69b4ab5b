//! Every key part and codec, over the whole domain of its type: a typed error or a value
//! that round-trips, never a panic. Timestamps include every offset near both ends of
//! `time`'s range, where moving to UTC leaves the range (9999-12-31 23:30 -01:00).

use dynamap::KeyPart;
use dynamap::codec::AttributeValue;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

fn cases() -> ProptestConfig {
    ProptestConfig::with_cases(
        std::env::var("DYNAMAP_DOMAIN_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(2_000),
    )
}

/// Any `OffsetDateTime` `time` can hold: any day of its range, any time, any offset.
fn any_timestamp() -> impl Strategy<Value = OffsetDateTime> {
    let first = Date::MIN.to_julian_day();
    let last = Date::MAX.to_julian_day();
    let edges = prop_oneof![first..first + 3, last - 3..=last, first..=last,];
    (
        edges,
        0u32..86_400,
        0u32..1_000_000_000,
        -93_599i32..=93_599,
    )
        .prop_map(|(day, second, nanos, offset)| {
            let date = Date::from_julian_day(day).expect("in range");
            let time = Time::from_hms_nano(
                (second / 3600) as u8,
                (second / 60 % 60) as u8,
                (second % 60) as u8,
                nanos,
            )
            .expect("valid time");
            let offset = UtcOffset::from_whole_seconds(offset).expect("valid offset");
            PrimitiveDateTime::new(date, time).assume_offset(offset)
        })
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Stamped {
    #[serde(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    #[serde(with = "dynamap::codec::epoch_seconds")]
    expires: OffsetDateTime,
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn timestamps_render_or_refuse(at in any_timestamp()) {
        let mut out = String::new();
        match at.write_key_part(&mut out) {
            Ok(()) => prop_assert_eq!(OffsetDateTime::parse_key_part(&out).expect("parses back"), at),
            Err(err) => prop_assert!(err.to_string().contains("0000 to 9999"), "{err}"),
        }
        let stamped = Stamped { at, expires: at };
        if let Ok(value) = serde_dynamo::to_attribute_value::<_, AttributeValue>(&stamped) {
            let back: Stamped = serde_dynamo::from_attribute_value(value).expect("reads back");
            prop_assert_eq!(back.at, at);
            // Epoch seconds keep the instant to the second.
            prop_assert_eq!(back.expires.unix_timestamp(), at.unix_timestamp());
        }
        let _ = dynamap::timeseries::rolling::WriteMonth::from(at);
    }

    #[test]
    fn integers_round_trip_in_order(a in any::<i64>(), b in any::<i64>(), u in any::<u128>(), i in any::<i128>()) {
        let render = |v: &dyn Fn(&mut String) -> Result<(), dynamap::key::KeyPartError>| {
            let mut out = String::new();
            v(&mut out).expect("every integer renders");
            out
        };
        let (ka, kb) = (render(&|o| a.write_key_part(o)), render(&|o| b.write_key_part(o)));
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(i64::parse_key_part(&ka).expect("parses"), a);
        let ku = render(&|o| u.write_key_part(o));
        prop_assert_eq!(u128::parse_key_part(&ku).expect("parses"), u);
        let ki = render(&|o| i.write_key_part(o));
        prop_assert_eq!(i128::parse_key_part(&ki).expect("parses"), i);
    }

    #[test]
    fn every_integer_type_round_trips_in_order(
        a in any::<(u8, u16, u32, u64, usize)>(),
        b in any::<(i8, i16, i32, isize)>(),
        c in any::<(u8, u16, u32, u64, usize)>(),
        d in any::<(i8, i16, i32, isize)>(),
    ) {
        fn check<T: KeyPart + Ord + Copy + std::fmt::Debug>(x: T, y: T) -> Result<(), TestCaseError> {
            let (mut kx, mut ky) = (String::new(), String::new());
            x.write_key_part(&mut kx).expect("renders");
            y.write_key_part(&mut ky).expect("renders");
            prop_assert_eq!(kx.cmp(&ky), x.cmp(&y));
            prop_assert_eq!(T::parse_key_part(&kx).expect("parses"), x);
            Ok(())
        }
        check(a.0, c.0)?;
        check(a.1, c.1)?;
        check(a.2, c.2)?;
        check(a.3, c.3)?;
        check(a.4, c.4)?;
        check(b.0, d.0)?;
        check(b.1, d.1)?;
        check(b.2, d.2)?;
        check(b.3, d.3)?;
    }

    #[test]
    fn strings_render_or_refuse(text in any::<String>()) {
        let mut out = String::new();
        match text.write_key_part(&mut out) {
            Ok(()) => prop_assert_eq!(String::parse_key_part(&out).expect("parses"), text),
            Err(_) => prop_assert!(text.is_empty()),
        }
    }

    /// `Uuid` is a key part with the `uuid` feature.
    #[cfg(feature = "uuid")]
    #[test]
    fn uuids_render(bits in any::<u128>()) {
        let id = uuid::Uuid::from_u128(bits);
        let mut out = String::new();
        id.write_key_part(&mut out).expect("every uuid renders");
        prop_assert_eq!(uuid::Uuid::parse_key_part(&out).expect("parses"), id);
    }

    #[test]
    fn parsing_any_text_never_panics(text in any::<String>()) {
        let _ = OffsetDateTime::parse_key_part(&text);
        let _ = i64::parse_key_part(&text);
        let _ = u8::parse_key_part(&text);
        let _ = i128::parse_key_part(&text);
        #[cfg(feature = "uuid")]
        let _ = uuid::Uuid::parse_key_part(&text);
    }
}

#[test]
fn the_reported_panic_is_an_error() {
    let late = time::macros::datetime!(9999-12-31 23:30 -01:00);
    let mut out = String::new();
    let err = late
        .write_key_part(&mut out)
        .expect_err("after 9999 in UTC");
    assert!(err.to_string().contains("9999"), "{err}");
    let early = time::macros::datetime!(-9999-01-01 00:10 +01:00);
    assert!(early.write_key_part(&mut String::new()).is_err());
    assert!(
        serde_dynamo::to_attribute_value::<_, AttributeValue>(&Stamped {
            at: late,
            expires: late
        })
        .is_err()
    );
}
