//! An entity with a field of every well-known type dynamap chooses a stored form for, and
//! the attribute each field is pinned to. Shared by `tests/it/stored_forms.rs` (against
//! DynamoDB Local, and the guide's table) and by `tests/stored-forms-human-readable/`, a
//! build with `time`'s `serde-human-readable` feature on, which must store the same values.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use dynamap::codec::AttributeValue::{self, L, M, N, S};
use dynamap::{Entity, Table};
use time::macros::{date, datetime, time};
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub(crate) struct FormsApp;

/// A timestamp under another name: the form follows the type, however it is spelled.
pub(crate) type Stamp = OffsetDateTime;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = FormsApp, entity = "Kinds", pk = "KINDS#{id}", sk = "KINDS")]
pub(crate) struct Kinds {
    pub(crate) id: String,
    pub(crate) offset: OffsetDateTime,
    pub(crate) system: SystemTime,
    pub(crate) system_before_1970: SystemTime,
    pub(crate) primitive: PrimitiveDateTime,
    pub(crate) date: Date,
    pub(crate) time: Time,
    pub(crate) duration: time::Duration,
    pub(crate) std_duration: Duration,
    pub(crate) uuid: uuid::Uuid,
    pub(crate) ip: IpAddr,
    pub(crate) ipv4: Ipv4Addr,
    pub(crate) ipv6: Ipv6Addr,
    pub(crate) stamps: Vec<Stamp>,
    pub(crate) maybe_date: Option<Date>,
    pub(crate) waits: HashMap<String, Duration>,
}

/// The value every test stores.
pub(crate) fn sample(id: &str) -> Kinds {
    Kinds {
        id: id.to_owned(),
        offset: datetime!(2020-03-01 14:30:00.5 +02:00),
        system: UNIX_EPOCH + Duration::new(1_583_065_800, 500_000_000),
        system_before_1970: UNIX_EPOCH - Duration::new(86_400, 250_000_000),
        primitive: datetime!(2020-03-01 12:30:00.5),
        date: date!(2020 - 03 - 01),
        time: time!(12:30:00.5),
        duration: time::Duration::new(-90, -500_000_000),
        std_duration: Duration::new(90, 500_000_000),
        uuid: uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        ip: IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
        ipv4: Ipv4Addr::new(192, 0, 2, 1),
        ipv6: Ipv6Addr::LOCALHOST,
        stamps: vec![datetime!(1999-12-31 23:59:59 UTC)],
        maybe_date: Some(date!(2026 - 11 - 28)),
        waits: HashMap::from([("boot".to_owned(), Duration::from_millis(1500))]),
    }
}

fn s(text: &str) -> AttributeValue {
    S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    N(text.to_owned())
}

/// Each field's attribute as [`sample`] stores it, exactly.
pub(crate) fn pinned() -> Vec<(&'static str, AttributeValue)> {
    vec![
        ("offset", s("2020-03-01T12:30:00.500000000Z")),
        ("system", s("2020-03-01T12:30:00.500000000Z")),
        ("system_before_1970", s("1969-12-30T23:59:59.750000000Z")),
        ("primitive", s("2020-03-01T12:30:00.500000000")),
        ("date", s("2020-03-01")),
        ("time", s("12:30:00.500000000")),
        ("duration", n("-90.5")),
        ("std_duration", n("90.5")),
        ("uuid", s("67e55044-10b1-426f-9247-bb680e5fe0c8")),
        ("ip", s("2001:db8::1")),
        ("ipv4", s("192.0.2.1")),
        ("ipv6", s("::1")),
        ("stamps", L(vec![s("1999-12-31T23:59:59.000000000Z")])),
        ("maybe_date", s("2026-11-28")),
        ("waits", M(HashMap::from([("boot".to_owned(), n("1.5"))]))),
    ]
}

/// The type of each field in the guide's table of stored forms, as the table names it.
pub(crate) const GUIDE_TYPES: &[(&str, &str)] = &[
    ("time::OffsetDateTime", "offset"),
    ("std::time::SystemTime", "system_before_1970"),
    ("time::PrimitiveDateTime", "primitive"),
    ("time::Date", "date"),
    ("time::Time", "time"),
    ("time::Duration", "duration"),
    ("std::time::Duration", "std_duration"),
    ("uuid::Uuid", "uuid"),
    ("std::net::IpAddr", "ip"),
    ("std::net::Ipv4Addr", "ipv4"),
    ("std::net::Ipv6Addr", "ipv6"),
];

fn list(numbers: &[i64]) -> AttributeValue {
    L(numbers.iter().map(|v| n(&v.to_string())).collect())
}

/// [`sample`]'s fields as serde stored them before dynamap chose their forms, in a build
/// without `time`'s `serde-human-readable` (lists of numbers, std's maps).
pub(crate) fn serde_forms() -> Vec<(&'static str, AttributeValue)> {
    vec![
        ("offset", list(&[2020, 61, 14, 30, 0, 500_000_000, 2, 0, 0])),
        (
            "system",
            M(HashMap::from([
                ("secs_since_epoch".to_owned(), n("1583065800")),
                ("nanos_since_epoch".to_owned(), n("500000000")),
            ])),
        ),
        // serde refuses an instant before 1970: such an item was never stored.
        ("system_before_1970", s("1969-12-30T23:59:59.750000000Z")),
        ("primitive", list(&[2020, 61, 12, 30, 0, 500_000_000])),
        ("date", list(&[2020, 61])),
        ("time", list(&[12, 30, 0, 500_000_000])),
        ("duration", list(&[-90, -500_000_000])),
        (
            "std_duration",
            M(HashMap::from([
                ("secs".to_owned(), n("90")),
                ("nanos".to_owned(), n("500000000")),
            ])),
        ),
        ("uuid", s("67e55044-10b1-426f-9247-bb680e5fe0c8")),
        ("ip", s("2001:db8::1")),
        ("ipv4", s("192.0.2.1")),
        ("ipv6", s("::1")),
        (
            "stamps",
            L(vec![list(&[1999, 365, 23, 59, 59, 0, 0, 0, 0])]),
        ),
        ("maybe_date", list(&[2026, 332])),
        (
            "waits",
            M(HashMap::from([(
                "boot".to_owned(),
                M(HashMap::from([
                    ("secs".to_owned(), n("1")),
                    ("nanos".to_owned(), n("500000000")),
                ])),
            )])),
        ),
    ]
}

/// [`sample`]'s `time` fields as serde stored them in a build with `time`'s
/// `serde-human-readable` feature on; the others as [`serde_forms`].
pub(crate) fn human_readable_forms() -> Vec<(&'static str, AttributeValue)> {
    let mut forms = serde_forms();
    for (field, value) in &mut forms {
        let text = match *field {
            "offset" => "2020-03-01 14:30:00.5 +02:00:00",
            "primitive" => "2020-03-01 12:30:00.5",
            "date" => "2020-03-01",
            "time" => "12:30:00.5",
            "duration" => "-90.500000000",
            "maybe_date" => "2026-11-28",
            "stamps" => {
                *value = L(vec![s("1999-12-31 23:59:59.0 +00:00:00")]);
                continue;
            }
            _ => continue,
        };
        *value = s(text);
    }
    forms
}

/// An item of [`sample`]`(id)` with its fields in `forms`, as an earlier build stored it.
pub(crate) fn item_with(
    id: &str,
    forms: Vec<(&'static str, AttributeValue)>,
) -> dynamap::codec::Item {
    let mut item = HashMap::from([
        ("PK".to_owned(), s(&format!("KINDS#{id}"))),
        ("SK".to_owned(), s("KINDS")),
        ("_type".to_owned(), s("Kinds")),
        ("id".to_owned(), s(id)),
    ]);
    item.extend(
        forms
            .into_iter()
            .map(|(field, value)| (field.to_owned(), value)),
    );
    item
}

/// Checks that [`sample`]'s item holds exactly the pinned attributes.
pub(crate) fn assert_pinned(item: &dynamap::codec::Item) {
    for (field, expected) in pinned() {
        assert_eq!(item.get(field), Some(&expected), "attribute {field}");
    }
}
