//! The derives must expand correctly wherever they are used, even in a module that defines
//! its own items named like the prelude's (`Result`, `Option`, `Some`, `String`, ...).
//! Generated code may name only `::dynamap::__private::…` and `::core::…` paths; any bare
//! `Option`, `Ok` or `String` in the expansion would resolve to the items below and fail to
//! compile. The module `no_prelude` goes further: it has no prelude at all.

#![allow(dead_code, non_camel_case_types, non_upper_case_globals)]

use dynamap::{Entity, KeyPart, Table};

// Items shadowing prelude names. None of them is usable where the real one is expected.
type Result = ();
type Option = ();
struct Ok;
struct Err;
struct Some;
struct None;
struct String;
struct Vec;
struct Box;
trait Default {}
trait From {}
trait Into {}
trait Clone {}
trait Iterator {}
trait Send {}
trait Sized {}
trait Drop {}
trait Fn {}
trait ToString {}
trait ToOwned {}
trait PartialEq {}
trait Eq {}
trait Debug {}
mod std {}
mod core {}
const __private: () = ();
// Named like the helper the derive writes for `with = "..."` fields, once plainly `With`.
type With = ::time::OffsetDateTime;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    ttl = "expires_at",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(name = "GSI2", pk = "GSI2PK", projection = "keys_only")
)]
struct App;

/// A string newtype key part.
#[derive(
    KeyPart,
    ::serde::Serialize,
    ::serde::Deserialize,
    ::core::fmt::Debug,
    ::core::cmp::PartialEq,
    ::core::clone::Clone,
)]
struct SensorId(::std::string::String);

/// A fieldless enum key part, one variant renamed (for the key and the attribute alike).
#[derive(
    KeyPart,
    ::serde::Serialize,
    ::serde::Deserialize,
    ::core::fmt::Debug,
    ::core::cmp::PartialEq,
    ::core::clone::Clone,
    ::core::marker::Copy,
)]
enum Kind {
    Gas,
    #[serde(rename = "HUM")]
    Humidity,
}

#[derive(Entity, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[dynamap(
    table = App,
    entity = "Sensor",
    pk = "SENSOR#{id}",
    sk = "KIND#{kind}#SEQ#{seq}",
    index(name = "GSI1", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{offset}"),
    index(name = "GSI2", pk = "INSTALLED#{installed_at}")
)]
struct Sensor {
    id: SensorId,
    kind: Kind,
    seq: u32,
    city: ::std::string::String,
    building: ::std::string::String,
    floor: ::core::option::Option<::std::string::String>,
    offset: i64,
    #[dynamap(rename = "k")]
    label: ::std::string::String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    installed_at: With,
    #[dynamap(with = "dynamap::codec::timestamp::option")]
    retired_at: ::core::option::Option<::time::OffsetDateTime>,
    tags: ::std::vec::Vec<::std::string::String>,
    #[dynamap(skip)]
    cache: u32,
}

/// Compressed fields, a TTL field and event rows.
#[derive(Entity, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[dynamap(table = App, entity = "Ping", pk = "PING#{device}", sk = "AT#{at}",
          event_rows(cap = 10, time = "at"))]
struct Ping {
    device: ::std::string::String,
    at: i64,
    #[dynamap(compress(codec = "gzip", level = 1, budget = 1024))]
    samples: ::std::vec::Vec<u16>,
    #[dynamap(compress(format = "row", uncompressed_below = 64))]
    note: ::core::option::Option<::std::string::String>,
    #[dynamap(ttl)]
    expires_at: ::core::option::Option<::time::OffsetDateTime>,
}

/// A second entity of the same table, for the entity enum.
#[derive(Entity, ::core::fmt::Debug, ::core::cmp::PartialEq)]
#[dynamap(table = App, entity = "Note", pk = "SENSOR#{sensor}", sk = "NOTE#{at}")]
struct Note {
    sensor: SensorId,
    at: u64,
    text: ::std::string::String,
}

#[derive(dynamap::EntityEnum, ::core::fmt::Debug, ::core::cmp::PartialEq)]
enum SensorItem {
    Sensor(Sensor),
    Note(Note),
}

fn sensor(floor: ::core::option::Option<::std::string::String>) -> Sensor {
    Sensor {
        id: SensorId("s-1".into()),
        kind: Kind::Humidity,
        seq: 7,
        city: "Oslo".into(),
        building: "B2".into(),
        floor,
        offset: -3,
        label: "north wall".into(),
        installed_at: ::time::macros::datetime!(2020-03-01 14:30 +02:00),
        retired_at: ::core::option::Option::None,
        tags: ::std::vec!["a".into(), "b".into()],
        cache: 0,
    }
}

fn s(item: &::dynamap::__private::Item, attribute: &str) -> ::std::string::String {
    match item.get(attribute) {
        ::core::option::Option::Some(value) => value
            .as_s()
            .unwrap_or_else(|_| ::core::panic!("{attribute} is not a string"))
            .clone(),
        ::core::option::Option::None => ::core::panic!("{attribute} is missing"),
    }
}

#[test]
fn derives_expand_next_to_shadowed_prelude_names() {
    assert_eq!(<App as Table>::SCHEMA.pk, "PK");
    assert_eq!(
        <App as Table>::SCHEMA.ttl,
        ::core::option::Option::Some("expires_at")
    );
    assert_eq!(Sensor::ENTITY_TYPE, "Sensor");

    // Keys render each part in its order-preserving form.
    let key = Sensor::key(SensorId("s-1".into()), Kind::Humidity, 7u32);
    assert_eq!(
        key.values().expect("key renders"),
        (
            "SENSOR#s-1",
            ::core::option::Option::Some("KIND#HUM#SEQ#0000000007")
        )
    );
    let partition = Sensor::partition(SensorId("s-1".into()));
    assert_eq!(partition.value().expect("partition renders"), "SENSOR#s-1");

    // Index partitions, one builder per index, named after it.
    let city = Sensor::gsi1("Oslo");
    assert_eq!(city.value().expect("renders"), "CITY#Oslo");
    assert_eq!(city.index(), ::core::option::Option::Some("GSI1"));
    let installed = Sensor::gsi2(::time::macros::datetime!(2020-03-01 12:30 UTC));
    assert_eq!(
        installed.value().expect("renders"),
        "INSTALLED#2020-03-01T12:30:00.000000000Z"
    );

    // ...and read back into their parts.
    let (id, kind, seq) = Sensor::parse_key(
        "SENSOR#s-1",
        ::core::option::Option::Some("KIND#Gas#SEQ#0000000042"),
    )
    .expect("key parses");
    assert_eq!((id, kind, seq), (SensorId("s-1".into()), Kind::Gas, 42));
    assert!(
        Sensor::parse_key(
            "SENSOR#s-1",
            ::core::option::Option::Some("KIND#Steam#SEQ#0000000042")
        )
        .is_err()
    );
    assert!(
        Sensor::parse_key(
            "DEVICE#s-1",
            ::core::option::Option::Some("KIND#Gas#SEQ#0000000042")
        )
        .is_err()
    );
}

#[test]
fn entity_round_trips_through_an_item() {
    let with_floor = sensor(::core::option::Option::Some("3".into()));
    let item = with_floor.to_item().expect("to_item");
    assert_eq!(s(&item, "PK"), "SENSOR#s-1");
    assert_eq!(s(&item, "SK"), "KIND#HUM#SEQ#0000000007");
    assert_eq!(s(&item, "_type"), "Sensor");
    assert_eq!(s(&item, "GSI1PK"), "CITY#Oslo");
    assert_eq!(s(&item, "GSI1SK"), "LOC#B2#3#-9223372036854775805");
    assert_eq!(
        s(&item, "GSI2PK"),
        "INSTALLED#2020-03-01T12:30:00.000000000Z"
    );
    assert_eq!(s(&item, "k"), "north wall");
    assert_eq!(s(&item, "installed_at"), "2020-03-01T12:30:00.000000000Z");
    assert!(
        !item.contains_key("label"),
        "renamed field is stored as `k`"
    );
    assert!(!item.contains_key("cache"), "skipped field is not stored");
    assert!(
        !item.contains_key("retired_at"),
        "absent optional field is not stored"
    );

    let mut cached = sensor(::core::option::Option::Some("3".into()));
    cached.cache = 99;
    let back = Sensor::from_item(cached.to_item().expect("to_item")).expect("from_item");
    assert_eq!(back.cache, 0, "skipped field comes back as its default");
    assert_eq!(back, with_floor);

    // Without the optional index field, the item stays out of GSI1 (a sparse index).
    let without_floor = sensor(::core::option::Option::None);
    let item = without_floor.to_item().expect("to_item");
    assert!(!item.contains_key("GSI1PK"));
    assert!(!item.contains_key("GSI1SK"));
    assert!(item.contains_key("GSI2PK"));
    assert_eq!(Sensor::from_item(item).expect("from_item"), without_floor);

    // An optional timestamp stored with `with`.
    let mut retired = sensor(::core::option::Option::None);
    retired.retired_at =
        ::core::option::Option::Some(::time::macros::datetime!(2021-01-01 00:00 UTC));
    let item = retired.to_item().expect("to_item");
    assert_eq!(s(&item, "retired_at"), "2021-01-01T00:00:00.000000000Z");
    assert_eq!(Sensor::from_item(item).expect("from_item"), retired);
}

#[test]
fn entity_enum_decodes_by_entity_type() {
    use dynamap::query::{Decode, UnknownEntity};

    let note = Note {
        sensor: SensorId("s-1".into()),
        at: 5,
        text: "dusty".into(),
    };
    let item = note.to_item().expect("to_item");
    assert_eq!(s(&item, "SK"), "NOTE#00000000000000000005");
    let decoded = SensorItem::decode(item, UnknownEntity::Error).expect("decodes");
    assert_eq!(
        decoded,
        ::core::option::Option::Some(SensorItem::from(Note {
            sensor: SensorId("s-1".into()),
            at: 5,
            text: "dusty".into(),
        }))
    );

    let sensor_item = sensor(::core::option::Option::None)
        .to_item()
        .expect("to_item");
    assert!(::core::matches!(
        SensorItem::decode(sensor_item, UnknownEntity::Error),
        ::core::result::Result::Ok(::core::option::Option::Some(SensorItem::Sensor(_)))
    ));

    let mut other = note.to_item().expect("to_item");
    other.insert(
        "_type".into(),
        ::dynamap::__private::AttributeValue::S("Gateway".into()),
    );
    assert!(::core::matches!(
        SensorItem::decode(other.clone(), UnknownEntity::Skip),
        ::core::result::Result::Ok(::core::option::Option::None)
    ));
    assert!(SensorItem::decode(other, UnknownEntity::Error).is_err());
}

/// Under `#[no_implicit_prelude]` nothing but absolute paths resolves: not `Option`, not
/// `vec!`, not even the crate name `dynamap` without its leading `::`.
#[no_implicit_prelude]
mod no_prelude {
    #[derive(::dynamap::Table)]
    #[dynamap(
        pk = "PK",
        sk = "SK",
        index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
    )]
    struct App;

    #[derive(::dynamap::KeyPart, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    struct Code(::std::string::String);

    #[derive(::dynamap::KeyPart, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    enum Level {
        Low,
        High,
    }

    #[derive(::dynamap::Entity, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[dynamap(
        table = App,
        // Braces in names reach generated messages; they must not be read as format strings.
        entity = "Alarm{v2}",
        pk = "ALARM#{id}",
        sk = "AT#{raised_at}",
        index(name = "GSI1", pk = "ZONE#{zone}", sk = "N#{count}")
    )]
    struct Alarm {
        id: u32,
        #[dynamap(with = "::dynamap::codec::timestamp")]
        raised_at: ::time::OffsetDateTime,
        zone: ::core::option::Option<::std::string::String>,
        count: i64,
        #[dynamap(rename = "msg")]
        message: ::std::string::String,
        #[dynamap(skip)]
        seen: bool,
    }

    #[derive(::dynamap::EntityEnum, ::core::fmt::Debug)]
    enum AlarmItem {
        Alarm(Alarm),
    }

    #[derive(::dynamap::Table)]
    #[dynamap(
        pk = "PK",
        sk = "SK",
        index(name = "ByDay", pk("zone"), sk("day", "seq"), sk_type("N", "N"))
    )]
    struct Log;

    /// Index keys that are the fields' own attributes, the sort key two of them: its
    /// builder's type is generated beside the entity, outside the derive's `const _`.
    #[derive(::dynamap::Entity, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[dynamap(table = Log, entity = "Entry", pk = "ENTRY#{id}", sk = "ENTRY",
              index(name = "ByDay", pk = field(zone), sk = fields(day, seq)))]
    struct Entry {
        id: u32,
        zone: ::std::string::String,
        day: u32,
        seq: u32,
    }

    #[test]
    fn attribute_partitions_expand_without_any_prelude() {
        let partition = Entry::by_day("north");
        ::std::assert_eq!(
            partition.attribute_values().expect("renders"),
            ::std::vec![::dynamap::codec::AttributeValue::S(
                ::std::borrow::ToOwned::to_owned("north")
            )]
        );
    }

    #[test]
    fn sort_key_builders_expand_without_any_prelude() {
        let given: EntryByDaySk<2> = Entry::by_day_sk().day(3u32).seq(4u32);
        let bound = ::dynamap::key::SortArgs::<EntryByDaySk>::bound(&given, &[]);
        let number =
            |n: &str| ::dynamap::codec::AttributeValue::N(::std::borrow::ToOwned::to_owned(n));
        ::std::assert_eq!(
            bound,
            ::core::result::Result::Ok(::dynamap::key::SortBound::Values(::std::vec![
                number("3"),
                number("4")
            ]))
        );
    }

    #[test]
    fn derives_expand_without_any_prelude() {
        use ::dynamap::Entity as _;

        ::std::assert_eq!(Alarm::ENTITY_TYPE, "Alarm{v2}");
        let raised_at = ::time::macros::datetime!(2024-05-06 07:08:09 UTC);
        let alarm = Alarm {
            id: 12,
            raised_at,
            zone: ::core::option::Option::Some(::std::borrow::ToOwned::to_owned("north")),
            count: -1,
            message: ::std::borrow::ToOwned::to_owned("too hot"),
            seen: true,
        };
        let key = Alarm::key(12u32, raised_at);
        ::std::assert_eq!(
            key.values().expect("key renders"),
            (
                "ALARM#0000000012",
                ::core::option::Option::Some("AT#2024-05-06T07:08:09.000000000Z")
            )
        );
        ::std::assert_eq!(
            Alarm::parse_key(
                "ALARM#0000000012",
                ::core::option::Option::Some("AT#2024-05-06T07:08:09.000000000Z")
            )
            .expect("key parses"),
            (12, raised_at)
        );
        let item = alarm.to_item().expect("to_item");
        ::std::assert_eq!(
            item["GSI1SK"].as_s().expect("string"),
            "N#-9223372036854775807"
        );
        ::std::assert_eq!(item["msg"].as_s().expect("string"), "too hot");
        let decoded = <AlarmItem as ::dynamap::query::Decode>::decode(
            ::core::clone::Clone::clone(&item),
            ::dynamap::query::UnknownEntity::Error,
        )
        .expect("decodes");
        ::std::assert!(::core::matches!(
            decoded,
            ::core::option::Option::Some(AlarmItem::Alarm(_))
        ));
        ::std::assert_eq!(Alarm::gsi1("north").value().expect("renders"), "ZONE#north");
        let back = Alarm::from_item(item).expect("from_item");
        ::std::assert_eq!(
            back,
            Alarm {
                seen: false,
                ..alarm
            }
        );

        let mut text = ::std::string::String::new();
        ::dynamap::KeyPart::write_key_part(&Code(::std::borrow::ToOwned::to_owned("c")), &mut text)
            .expect("renders");
        ::dynamap::KeyPart::write_key_part(&Level::High, &mut text).expect("renders");
        ::std::assert_eq!(text, "cHigh");
        ::std::assert_eq!(
            <Level as ::dynamap::KeyPart>::parse_key_part("Low"),
            ::core::result::Result::Ok(Level::Low)
        );
    }
}

#[test]
fn compressed_ttl_and_event_row_fields_expand_hygienically() {
    use dynamap::timeseries::rows::EventRow;

    let ping = Ping {
        device: "d".into(),
        at: 1_500,
        samples: ::std::vec![1, 2, 3],
        note: ::core::option::Option::Some("hello".into()),
        expires_at: ::core::option::Option::Some(::time::macros::datetime!(2030-01-01 00:00 UTC)),
    };
    let item = ping.to_item().expect("to_item");
    assert!(
        item["samples"].as_b().is_ok(),
        "compressed fields are binary"
    );
    assert_eq!(item["expires_at"].as_n().expect("a number"), "1893456000");
    assert_eq!(Ping::from_item(item).expect("from_item"), ping);
    assert_eq!(<Ping as EventRow>::ROW_CAP, 10);
    assert_eq!(
        ping.event_time(),
        ::std::time::UNIX_EPOCH.checked_add(::std::time::Duration::from_millis(1_500))
    );
}
