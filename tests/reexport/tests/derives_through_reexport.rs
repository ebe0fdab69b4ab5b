//! Every derive, used from a crate that has no `dynamap` dependency of its own: generated
//! code must name `dynamap_reexport_check::dynamap`, as `#[dynamap(crate = "...")]` says.

use dynamap_reexport_check::dynamap::codec::Columnar;
use dynamap_reexport_check::dynamap::query::{Decode, UnknownEntity};
use dynamap_reexport_check::dynamap::{
    Attribute, Entity, EntityEnum, EntityProjection, KeyPart, Table,
};
use dynamap_reexport_check::serde::{Deserialize, Serialize};

#[derive(Table)]
#[dynamap(
    crate = "dynamap_reexport_check::dynamap",
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct App;

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[dynamap(crate = "dynamap_reexport_check::dynamap")]
#[serde(crate = "dynamap_reexport_check::serde")]
enum Region {
    North,
    South,
}

#[derive(Attribute, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[dynamap(crate = "dynamap_reexport_check::dynamap")]
#[serde(crate = "dynamap_reexport_check::serde")]
struct Address {
    city: String,
    floor: u8,
}

#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[dynamap(crate = "dynamap_reexport_check::dynamap")]
#[serde(crate = "dynamap_reexport_check::serde")]
struct Reading {
    at_ms: i64,
    value: f64,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", table = App, entity = "Sensor",
          pk = "SENSOR#{id}", sk = "INFO",
          index(name = "GSI1", pk = "REGION#{region}", sk = "SENSOR#{id}"),
          lookup(name = "place", pk = "CITY#{region}", sk = "S#{id}"))]
struct Sensor {
    id: String,
    region: Region,
    address: Address,
    #[dynamap(compress(codec = "none"))]
    readings: Vec<Reading>,
    #[dynamap(version)]
    version: u64,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", table = App, entity = "Note",
          pk = "SENSOR#{id}", sk = "NOTE#{n}")]
struct Note {
    id: String,
    n: u32,
    text: String,
}

/// A note's text without its key: `id` and `n` are in the key.
#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", entity = Note)]
struct NoteText {
    n: u32,
    text: String,
}

#[derive(EntityEnum, Debug)]
#[dynamap(crate = "dynamap_reexport_check::dynamap")]
enum SensorItem {
    Sensor(Sensor),
    Note(Note),
}

fn sensor() -> Sensor {
    Sensor {
        id: "S1".into(),
        region: Region::North,
        address: Address {
            city: "Poznań".into(),
            floor: 2,
        },
        readings: vec![
            Reading {
                at_ms: 1,
                value: 0.5,
            },
            Reading {
                at_ms: 2,
                value: 0.75,
            },
        ],
        version: 3,
    }
}

#[test]
fn an_entity_round_trips_with_its_keys_index_and_nested_types() {
    let sensor = sensor();
    let item = sensor.to_item().expect("encodes");
    assert_eq!(item["PK"].as_s().expect("string"), "SENSOR#S1");
    assert_eq!(item["GSI1PK"].as_s().expect("string"), "REGION#North");
    assert!(
        item["readings"].as_b().is_ok(),
        "the list is stored compressed"
    );
    assert_eq!(Sensor::from_item(item).expect("decodes"), sensor);
    let key = Sensor::key("S1");
    assert_eq!(key.values().expect("renders"), ("SENSOR#S1", Some("INFO")));
    assert_eq!(App::SCHEMA.index("GSI1").expect("declared").pk, "GSI1PK");
}

#[test]
fn an_entity_enum_decodes_each_entity() {
    let note = Note {
        id: "S1".into(),
        n: 1,
        text: "moved".into(),
    };
    let decoded = SensorItem::decode(note.to_item().expect("encodes"), UnknownEntity::Error)
        .expect("decodes")
        .expect("a known entity");
    assert!(matches!(decoded, SensorItem::Note(n) if n == note));
    let decoded = SensorItem::decode(sensor().to_item().expect("encodes"), UnknownEntity::Error)
        .expect("decodes")
        .expect("a known entity");
    assert!(matches!(decoded, SensorItem::Sensor(s) if s == sensor()));
}

#[test]
fn a_projection_decodes_its_fields_and_reads_key_fields_from_the_key() {
    let note = Note {
        id: "S1".into(),
        n: 7,
        text: "moved".into(),
    };
    let mut item = note.to_item().expect("encodes");
    // As a projection of `text` returns it: no `n` attribute, only the key.
    item.remove("n");
    let decoded = NoteText::decode(item, UnknownEntity::Error)
        .expect("decodes")
        .expect("a note");
    assert_eq!(
        decoded,
        NoteText {
            n: 7,
            text: "moved".into()
        }
    );
}
