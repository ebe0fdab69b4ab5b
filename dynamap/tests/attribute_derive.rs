//! `#[derive(Attribute)]` and the direct field conversions store exactly what serde's
//! derives store through `serde_dynamo`, both ways, so items written before (through serde)
//! read, and items written now read through serde.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use dynamap::codec::AttributeValue;
use dynamap::{Attribute, Entity, Table};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Attribute, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
struct Address {
    street: String,
    #[serde(rename = "postCode")]
    post_code: String,
    floor: Option<i16>,
    #[serde(default)]
    verified: bool,
    #[serde(skip)]
    cached_label: String,
    r#type: Kind,
}

#[derive(Attribute, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Kind {
    #[default]
    HomeOffice,
    #[serde(rename = "hq")]
    Headquarters,
}

#[derive(Attribute, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Customer {
    name: String,
    home: Address,
    others: Vec<Address>,
    by_label: HashMap<String, Address>,
    scores: BTreeMap<String, Vec<f64>>,
}

fn address(street: &str, floor: Option<i16>) -> Address {
    Address {
        street: street.into(),
        post_code: "10115".into(),
        floor,
        verified: true,
        cached_label: String::new(),
        r#type: Kind::Headquarters,
    }
}

fn customer() -> Customer {
    Customer {
        name: "Ada".into(),
        home: address("Main St 1", Some(3)),
        others: vec![address("Side St 2", None)],
        by_label: HashMap::from([("work".to_owned(), address("Dock 7", Some(-1)))]),
        scores: BTreeMap::from([("chess".to_owned(), vec![1.5, 2.0])]),
    }
}

/// The direct form is serde's, both ways.
fn same_as_serde<T: Attribute + Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    let direct = value.to_attribute().expect("encodes directly");
    let serde: AttributeValue = serde_dynamo::to_attribute_value(value).expect("encodes");
    assert_eq!(direct, serde);
    assert_eq!(
        &T::from_attribute(serde).expect("reads serde's form"),
        value
    );
    let back: T = serde_dynamo::from_attribute_value(direct).expect("serde reads it");
    assert_eq!(&back, value);
}

#[test]
fn nested_structs_and_enums_store_what_serde_stores() {
    same_as_serde(&address("Main St 1", Some(3)));
    same_as_serde(&address("Main St 1", None));
    same_as_serde(&customer());
    same_as_serde(&Kind::HomeOffice);
    assert_eq!(
        Kind::HomeOffice.to_attribute().expect("encodes"),
        AttributeValue::S("HOME_OFFICE".into())
    );
    assert_eq!(
        Kind::Headquarters.to_attribute().expect("encodes"),
        AttributeValue::S("hq".into())
    );
}

#[test]
fn missing_fields_read_as_serde_reads_them() {
    let AttributeValue::M(mut map) = address("Main St 1", Some(3))
        .to_attribute()
        .expect("encodes")
    else {
        panic!("a map")
    };
    // A missing `Option` is `None` and a missing `#[serde(default)]` field its default...
    map.remove("floor");
    map.remove("verified");
    let read = Address::from_attribute(AttributeValue::M(map.clone())).expect("decodes");
    assert_eq!((read.floor, read.verified), (None, false));
    // ...and any other missing field is an error naming it.
    map.remove("postCode");
    let error = Address::from_attribute(AttributeValue::M(map)).expect_err("refused");
    assert!(
        error.to_string().contains("missing field `postCode`"),
        "{error}"
    );
}

#[test]
fn wrong_values_are_errors() {
    let error = Kind::from_attribute(AttributeValue::S("Garage".into())).expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("unknown variant \"Garage\", expected one of \"HOME_OFFICE\", \"hq\""),
        "{error}"
    );
    let error = Address::from_attribute(AttributeValue::S("x".into())).expect_err("refused");
    assert!(error.to_string().contains("expected a map (M)"), "{error}");
    let mut map = HashMap::new();
    map.insert("street".to_owned(), AttributeValue::N("1".into()));
    let error = Address::from_attribute(AttributeValue::M(map)).expect_err("refused");
    assert!(
        error.to_string().contains("expected a string (S)"),
        "{error}"
    );
}

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

/// An entity mixing direct fields, a derived nested struct, serde-only fields and
/// dynamap's own `with` modules.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
struct Account {
    id: String,
    customer: Customer,
    /// No `Attribute`: stored through serde.
    pair: (u8, String),
    nickname: Option<String>,
    #[dynamap(with = "dynamap::codec::timestamp")]
    #[serde(with = "dynamap::codec::timestamp")]
    opened: time::OffsetDateTime,
    #[dynamap(with = "dynamap::codec::timestamp::option")]
    #[serde(with = "dynamap::codec::timestamp::option")]
    closed: Option<time::OffsetDateTime>,
    #[dynamap(with = "dynamap::codec::epoch_seconds")]
    #[serde(with = "dynamap::codec::epoch_seconds")]
    audited: time::OffsetDateTime,
}

fn account(closed: bool) -> Account {
    Account {
        id: "a-1".into(),
        customer: customer(),
        pair: (7, "seven".into()),
        nickname: closed.then(|| "old".into()),
        opened: time::macros::datetime!(2024-02-29 23:59:59.123456789 UTC),
        closed: closed.then_some(time::macros::datetime!(2025-01-01 0:00 UTC)),
        audited: time::macros::datetime!(2024-03-01 12:00 UTC),
    }
}

#[test]
fn entity_items_hold_each_field_as_serde_writes_it() {
    for closed in [false, true] {
        let value = account(closed);
        let item = value.to_item().expect("encodes");
        let serde: HashMap<String, AttributeValue> =
            serde_dynamo::to_item(&value).expect("serde encodes");
        for (name, stored) in &serde {
            // serde writes `None` as NULL; dynamap leaves the attribute out.
            if matches!(stored, AttributeValue::Null(_)) {
                assert!(!item.contains_key(name), "{name}");
            } else {
                assert_eq!(item.get(name), Some(stored), "{name}");
            }
        }
        assert_eq!(
            item["opened"],
            AttributeValue::S("2024-02-29T23:59:59.123456789Z".into())
        );
        assert_eq!(item["audited"], AttributeValue::N("1709294400".into()));
        assert_eq!(Account::from_item(item).expect("decodes"), value);
        // Items written through serde (plus the keys) read the same.
        let mut written_before = serde;
        let keys = value.to_item().expect("encodes");
        for key in ["PK", "SK", "_type"] {
            written_before.insert(key.to_owned(), keys[key].clone());
        }
        assert_eq!(Account::from_item(written_before).expect("decodes"), value);
    }
}

#[test]
fn entity_field_errors_name_the_attribute() {
    let mut item = account(true).to_item().expect("encodes");
    item.insert("opened".into(), AttributeValue::S("yesterday".into()));
    let error = Account::from_item(item).expect_err("refused");
    assert!(
        matches!(
            error,
            dynamap::Error::InvalidAttribute {
                attribute: "opened",
                ..
            }
        ),
        "{error:?}"
    );
    let mut item = account(true).to_item().expect("encodes");
    item.remove("customer");
    let error = Account::from_item(item).expect_err("refused");
    assert!(
        matches!(
            error,
            dynamap::Error::MissingAttribute {
                attribute: "customer",
                ..
            }
        ),
        "{error:?}"
    );
    let mut item = account(true).to_item().expect("encodes");
    item.insert("closed".into(), AttributeValue::Null(true));
    item.insert("nickname".into(), AttributeValue::Null(true));
    let read = Account::from_item(item).expect("decodes");
    assert_eq!((read.closed, read.nickname), (None, None));
}

#[test]
fn non_finite_floats_are_refused_before_sending() {
    #[derive(Entity, Debug)]
    #[dynamap(table = App, entity = "Gauge", pk = "GAUGE#{id}", sk = "GAUGE")]
    struct Gauge {
        id: String,
        level: f64,
    }
    let error = Gauge {
        id: "g".into(),
        level: f64::NAN,
    }
    .to_item()
    .expect_err("refused");
    assert!(
        matches!(
            error,
            dynamap::Error::Encode {
                attribute: "level",
                ..
            }
        ),
        "{error:?}"
    );
    let cause = std::error::Error::source(&error).map(ToString::to_string);
    assert!(cause.is_some_and(|c| c.contains("finite")), "{error:?}");
}
