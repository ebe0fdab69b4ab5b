//! A timestamp that keys hold is rendered once by `to_item`, for the sort key, an index key
//! and its own attribute: the item is the one the key builders and the `timestamp` module
//! make, and a timestamp that cannot be rendered is the key error it always was.

use dynamap::{Entity, Table};
use time::OffsetDateTime;
use time::macros::datetime;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct App;

#[derive(Entity, Debug, PartialEq)]
#[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor}", sk = "READ#{at}",
          index(name = "GSI1", pk = "AT#{at}", sk = "{sensor}#{at}"))]
struct Reading {
    sensor: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
}

#[test]
fn every_key_and_the_attribute_hold_the_same_text() {
    let at = datetime!(2026-11-27 09:30:00.123456789 +01:00);
    let reading = Reading {
        sensor: "s-1".into(),
        at,
    };
    let item = reading.to_item().expect("renders");
    let text = "2026-11-27T08:30:00.123456789Z";
    let s = |name: &str| item[name].as_s().expect("a string").as_str();
    assert_eq!(s("at"), text);
    assert_eq!(s("SK"), format!("READ#{text}"));
    assert_eq!(s("GSI1PK"), format!("AT#{text}"));
    assert_eq!(s("GSI1SK"), format!("s-1#{text}"));
    let key = Reading::key("s-1", at).into_values().expect("renders");
    assert_eq!((s("PK"), Some(s("SK"))), (key.0.as_str(), key.1.as_deref()));
    assert_eq!(Reading::from_item(item).expect("reads back"), reading);
}

#[test]
fn a_timestamp_out_of_range_is_the_key_error_it_was() {
    let reading = Reading {
        sensor: "s-1".into(),
        at: datetime!(-0001-06-01 0:00 UTC),
    };
    let from_key = reading
        .primary_key()
        .into_values()
        .expect_err("year -1 has no key");
    let err = reading.to_item().expect_err("year -1 has no key");
    assert!(
        err.to_string().contains(&from_key.to_string()),
        "{err} / {from_key}"
    );
}
