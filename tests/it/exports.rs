//! DynamoDB exports read as entities: a fixture in the documented layout (manifests, several
//! gzip'd data files of DynamoDB JSON, full and incremental), written here, with a corrupt
//! line, an undecodable item and an unknown entity type among good records.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Value, json};

use dynamap::export::{Export, ExportKind, Exported};
use dynamap::{Entity, EntityEnum, Error, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
pub(crate) struct Plant;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Plant, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
pub(crate) struct Sensor {
    id: String,
    city: String,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Plant, entity = "Reading", pk = "SENSOR#{sensor}", sk = "READ#{at}")]
pub(crate) struct Reading {
    sensor: String,
    at: u32,
    value: f64,
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
pub(crate) enum PlantItem {
    Sensor(Sensor),
    Reading(Reading),
}

pub(crate) fn sensor_json(id: &str, city: Option<&str>) -> Value {
    let mut item = json!({
        "PK": {"S": format!("SENSOR#{id}")}, "SK": {"S": "INFO"},
        "_type": {"S": "Sensor"}, "id": {"S": id}
    });
    if let Some(city) = city {
        item["city"] = json!({"S": city});
    }
    item
}

pub(crate) fn reading_json(sensor: &str, at: u32) -> Value {
    json!({
        "PK": {"S": format!("SENSOR#{sensor}")}, "SK": {"S": format!("READ#{at:010}")},
        "_type": {"S": "Reading"}, "sensor": {"S": sensor}, "at": {"N": at.to_string()},
        "value": {"N": "21.5"}
    })
}

/// Writes an export folder: the manifests and one gzip'd data file per entry of `files`.
pub(crate) fn write_export(dir: &Path, export_type: &str, files: &[Vec<String>]) {
    std::fs::create_dir_all(dir.join("data")).expect("data folder");
    let mut manifest = String::new();
    let mut total = 0;
    for (n, lines) in files.iter().enumerate() {
        let name = format!("file-{n}.json.gz");
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        for line in lines {
            writeln!(gz, "{line}").expect("gzip");
        }
        std::fs::write(dir.join("data").join(&name), gz.finish().expect("gzip")).expect("file");
        total += lines.len();
        manifest.push_str(
            &json!({
                "itemCount": lines.len(), "md5Checksum": "x", "etag": "y",
                "dataFileS3Key": format!("AWSDynamoDB/01234567890123-abcdefgh/data/{name}")
            })
            .to_string(),
        );
        manifest.push('\n');
    }
    std::fs::write(dir.join("manifest-files.json"), manifest).expect("manifest");
    std::fs::write(
        dir.join("manifest-summary.json"),
        json!({"version": "2023-08-01", "exportType": export_type, "outputFormat": "DYNAMODB_JSON",
               "itemCount": total})
        .to_string(),
    )
    .expect("summary");
}

pub(crate) fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dynamap-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn item_line(item: Value) -> String {
    json!({ "Item": item }).to_string()
}

#[test]
fn a_full_export_reads_as_entities_with_an_error_per_bad_record() {
    let dir = folder("full");
    write_export(
        &dir,
        "FULL_EXPORT",
        &[
            vec![
                item_line(sensor_json("s1", Some("Poznań"))),
                item_line(reading_json("s1", 1)),
                "{not json".to_owned(),
                item_line(reading_json("s1", 2)),
            ],
            vec![
                item_line(sensor_json("s2", None)), // no city: does not decode
                item_line(json!({"PK": {"S": "X#1"}, "SK": {"S": "X"}, "_type": {"S": "Gadget"}})),
                item_line(sensor_json("s3", Some("Kraków"))),
            ],
        ],
    );
    let export = Export::open(&dir).expect("manifests");
    assert_eq!(export.kind(), ExportKind::Full);
    assert_eq!(export.item_count(), Some(7));
    assert_eq!(export.files().len(), 2);

    let (mut sensors, mut errors) = (Vec::new(), Vec::new());
    for record in export.records::<Sensor>() {
        match record {
            Ok(Exported::Item(sensor)) => sensors.push(sensor.id),
            Ok(other) => panic!("a full export has items only: {other:?}"),
            Err(err) => errors.push(err),
        }
    }
    assert_eq!(sensors, ["s1", "s3"], "readings and gadgets passed over");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        matches!(&errors[0], Error::InvalidExport { file, line: Some(3), .. } if file.ends_with("file-0.json.gz")),
        "{:?}",
        errors[0]
    );
    assert!(matches!(
        errors[1],
        Error::MissingAttribute {
            attribute: "city",
            ..
        }
    ));
    let key = errors[1].item_key().expect("names the item");
    assert_eq!(
        (key.pk.as_str(), key.sk.as_deref()),
        ("SENSOR#s2", Some("INFO"))
    );

    // An enum of the table's types: every known record, by type.
    let (mut counts, mut failed) = ((0, 0), 0);
    for record in export.records::<PlantItem>() {
        match record {
            Ok(Exported::Item(PlantItem::Sensor(_))) => counts.0 += 1,
            Ok(Exported::Item(PlantItem::Reading(_))) => counts.1 += 1,
            Ok(other) => panic!("{other:?}"),
            Err(_) => failed += 1,
        }
    }
    assert_eq!((counts, failed), ((2, 2), 2), "the gadget is skipped");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn an_incremental_export_reads_as_changes() {
    let dir = folder("incremental");
    let keys = |id: &str| json!({"PK": {"S": format!("SENSOR#{id}")}, "SK": {"S": "INFO"}});
    let change = |id: &str, old: Option<Value>, new: Option<Value>| {
        let mut record = json!({
            "Metadata": {"WriteTimestampMicros": {"N": "1700000000000000"}},
            "Keys": keys(id)
        });
        if let Some(old) = old {
            record["OldImage"] = old;
        }
        if let Some(new) = new {
            record["NewImage"] = new;
        }
        record.to_string()
    };
    write_export(
        &dir,
        "INCREMENTAL_EXPORT",
        &[vec![
            change("s1", None, Some(sensor_json("s1", Some("Poznań")))),
            change(
                "s2",
                Some(sensor_json("s2", Some("Łódź"))),
                Some(sensor_json("s2", Some("Gdańsk"))),
            ),
            change("s3", Some(sensor_json("s3", Some("Kraków"))), None),
            change("r1", None, Some(reading_json("r1", 5))),
        ]],
    );
    let export = Export::open(&dir).expect("manifests");
    assert_eq!(export.kind(), ExportKind::Incremental);
    let changes: Vec<_> = export
        .records::<Sensor>()
        .collect::<dynamap::Result<_>>()
        .expect("every record reads");
    let summary: Vec<_> = changes
        .iter()
        .map(|c| match c {
            Exported::Change {
                key,
                old,
                new,
                written_at_micros,
            } => (
                key.pk.clone(),
                old.as_ref().map(|s| s.city.clone()),
                new.as_ref().map(|s| s.city.clone()),
                *written_at_micros,
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    let at = Some(1_700_000_000_000_000);
    assert_eq!(
        summary,
        [
            ("SENSOR#s1".to_owned(), None, Some("Poznań".to_owned()), at),
            (
                "SENSOR#s2".to_owned(),
                Some("Łódź".to_owned()),
                Some("Gdańsk".to_owned()),
                at
            ),
            ("SENSOR#s3".to_owned(), Some("Kraków".to_owned()), None, at),
        ],
        "the reading's change is another type's"
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_missing_manifest_or_another_format_is_refused() {
    let dir = folder("refused");
    std::fs::create_dir_all(&dir).expect("folder");
    let err = Export::open(&dir).expect_err("no manifest");
    assert!(matches!(err, Error::InvalidExport { .. }), "{err}");
    std::fs::write(
        dir.join("manifest-summary.json"),
        json!({"exportType": "FULL_EXPORT", "outputFormat": "ION"}).to_string(),
    )
    .expect("summary");
    let err = Export::open(&dir).expect_err("ION");
    assert!(err.to_string().contains("DYNAMODB_JSON"), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}
