//! Entities written to Parquet, one file per entity type, from an export and from a parallel
//! scan of a live table, read back by an independent reader (pyarrow, from the Python package
//! index): row counts, column names and types, and values.

use std::path::{Path, PathBuf};
use std::process::Command;

use futures_util::TryStreamExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::macros::datetime;

use dynamap::export::{Export, Exported};
use dynamap::{Entity, EntityEnum, Error, ErrorKind, Table};
use dynamap_parquet::ParquetTables;

use crate::exports::{folder, item_line, reading_json, sensor_json, write_export};
use crate::python_venv::venv_python;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Lab;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Position {
    x: f64,
    y: f64,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Lab, entity = "Device", pk = "DEVICE#{site}#{serial}", sk = "INFO")]
struct Device {
    site: String,
    serial: u32,
    #[dynamap(rename = "display_name")]
    name: String,
    floor: Option<i16>,
    active: bool,
    weight_kg: f64,
    #[dynamap(with = "dynamap::codec::timestamp")]
    installed_at: OffsetDateTime,
    tags: Vec<String>,
    position: Position,
    #[dynamap(compress)]
    notes: Vec<String>,
    #[dynamap(version)]
    version: u64,
    #[dynamap(skip)]
    cached: Option<String>,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Lab, entity = "Measurement", pk = "DEVICE#{site}#{serial}", sk = "AT#{at}")]
struct Measurement {
    site: String,
    serial: u32,
    at: u64,
    celsius: f32,
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
enum LabItem {
    Device(Device),
    Measurement(Measurement),
}

fn device(serial: u32) -> Device {
    Device {
        site: "lyon".into(),
        serial,
        name: format!("Probe {serial}"),
        floor: serial.is_multiple_of(2).then_some(-1),
        active: !serial.is_multiple_of(3),
        weight_kg: 1.25,
        installed_at: datetime!(2026-03-01 12:30:00.000001 UTC),
        tags: vec!["air".into(), "co2".into()],
        position: Position { x: 1.5, y: -2.0 },
        notes: vec!["calibrated".into()],
        version: 0,
        cached: None,
    }
}

/// What pyarrow reads of each `.parquet` file in `dir`: its row count, its schema (name,
/// Arrow type, nullable) and its first row by primary key. `None` where there is no Python.
fn read_with_pyarrow(dir: &Path) -> Option<Value> {
    let Some(python) = venv_python("pyarrow==26.0.1") else {
        println!(
            "skipped the independent reader: pyarrow needs python3, which is not on this machine"
        );
        return None;
    };
    const SCRIPT: &str = r#"
import json, pathlib, sys
import pyarrow.parquet as pq
out = {}
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.parquet")):
    table = pq.read_table(path)
    keys = [(name, "ascending") for name in ("PK", "SK") if name in table.column_names]
    first = table.sort_by(keys).slice(0, 1).to_pylist()
    out[path.name] = {
        "rows": table.num_rows,
        "schema": [[f.name, str(f.type), f.nullable] for f in table.schema],
        "first": first[0] if first else None,
    }
print(json.dumps(out, default=str))
"#;
    let output = Command::new(python)
        .args(["-c", SCRIPT])
        .arg(dir)
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "pyarrow could not read the files: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).expect("the script prints JSON"))
}

fn out_dir(name: &str) -> PathBuf {
    folder(&format!("parquet-{name}"))
}

#[tokio::test]
async fn a_parallel_scan_writes_one_typed_file_per_entity_type() {
    let db = crate::fresh_db::<Lab>("parquet_scan").await;
    for serial in 1..=40 {
        // Versioned, so each is a conditional put of its own.
        db.put(&device(serial)).await.expect("device");
    }
    let measurements: Vec<Measurement> = (0..300u32)
        .map(|n| Measurement {
            site: "lyon".into(),
            serial: n % 40 + 1,
            at: 1_772_000_000_000 + u64::from(n),
            celsius: 20.5,
        })
        .collect();
    let report = db
        .put_all(&measurements)
        .send()
        .await
        .expect("measurements");
    assert!(report.failed.is_empty(), "{:?}", report.failed);

    let dir = out_dir("scan");
    // A small row group, so the files hold several.
    let mut tables = ParquetTables::create(&dir)
        .expect("folder")
        .row_group_rows(64);
    let mut items = std::pin::pin!(db.scan::<LabItem>().segments(4).stream());
    while let Some(item) = items.try_next().await.expect("scan") {
        tables.write(&item).expect("row");
    }
    let written = tables.finish().expect("files");
    let counts: Vec<_> = written.iter().map(|t| (t.entity_type, t.rows)).collect();
    assert_eq!(counts, [("Device", 40), ("Measurement", 300)]);
    assert!(
        written
            .iter()
            .all(|t| t.path.starts_with(&dir) && t.path.exists())
    );

    let Some(read) = read_with_pyarrow(&dir) else {
        return;
    };
    let device_file = &read["Device.parquet"];
    assert_eq!(device_file["rows"], 40);
    assert_eq!(
        device_file["schema"],
        json!([
            ["PK", "string", false],
            ["SK", "string", false],
            ["site", "string", true],
            ["serial", "int64", true],
            ["display_name", "string", true],
            ["floor", "int64", true],
            ["active", "bool", true],
            ["weight_kg", "double", true],
            ["installed_at", "timestamp[us, tz=UTC]", true],
            ["tags", "extension<arrow.json>", true],
            ["position", "extension<arrow.json>", true],
            ["notes", "binary", true],
            ["version", "uint64", true],
        ]),
        "{device_file}"
    );
    let first = &device_file["first"];
    assert_eq!(first["PK"], "DEVICE#lyon#0000000001");
    assert_eq!(first["serial"], 1);
    assert_eq!(first["display_name"], "Probe 1");
    assert_eq!(
        first["floor"],
        Value::Null,
        "an Option that is None is a null"
    );
    assert_eq!(first["installed_at"], "2026-03-01 12:30:00.000001+00:00");
    assert_eq!(first["tags"], r#"["air","co2"]"#);
    assert_eq!(first["position"], r#"{"x":1.5,"y":-2}"#);
    assert_eq!(first["version"], 1, "written once");

    let measurement_file = &read["Measurement.parquet"];
    assert_eq!(measurement_file["rows"], 300);
    assert_eq!(
        measurement_file["schema"],
        json!([
            ["PK", "string", false],
            ["SK", "string", false],
            ["site", "string", true],
            ["serial", "int64", true],
            ["at", "uint64", true],
            ["celsius", "double", true],
        ])
    );
}

#[test]
fn an_export_writes_its_entity_types_and_passes_over_bad_records() {
    let export_dir = folder("parquet-source");
    write_export(
        &export_dir,
        "FULL_EXPORT",
        &[
            (0..50)
                .map(|n| item_line(sensor_json(&format!("s{n:02}"), Some("Lyon"))))
                .chain(["not json".to_owned()])
                .collect(),
            (0..120)
                .map(|n| item_line(reading_json(&format!("s{:02}", n % 50), n)))
                .chain([item_line(sensor_json("broken", None))])
                .collect(),
        ],
    );
    let dir = out_dir("export");
    let mut tables = ParquetTables::create(&dir).expect("folder");
    let mut skipped = Vec::new();
    for record in Export::open(&export_dir)
        .expect("export")
        .records::<crate::exports::PlantItem>()
    {
        match record {
            Ok(Exported::Item(item)) => tables.write(&item).expect("row"),
            Ok(other) => panic!("a full export has items only: {other:?}"),
            Err(err) => skipped.push(err),
        }
    }
    assert_eq!(
        skipped.len(),
        2,
        "the corrupt line and the undecodable item: {skipped:?}"
    );
    let counts: Vec<_> = tables
        .finish()
        .expect("files")
        .into_iter()
        .map(|t| (t.entity_type, t.rows))
        .collect();
    assert_eq!(counts, [("Reading", 120), ("Sensor", 50)]);

    let Some(read) = read_with_pyarrow(&dir) else {
        return;
    };
    assert_eq!(read["Sensor.parquet"]["rows"], 50);
    assert_eq!(read["Reading.parquet"]["rows"], 120);
    assert_eq!(
        read["Reading.parquet"]["schema"],
        json!([
            ["PK", "string", false],
            ["SK", "string", false],
            ["sensor", "string", true],
            ["at", "int64", true],
            ["value", "double", true],
        ])
    );
    assert_eq!(read["Reading.parquet"]["first"]["value"], 21.5);
}

/// A timestamp codec of the application's own, storing text that is not RFC 3339.
mod day_first {
    use serde::{Deserialize, Deserializer, Serializer};
    use time::OffsetDateTime;
    use time::macros::format_description;

    const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] =
        format_description!("[day]/[month]/[year] [hour]:[minute]");

    pub(super) fn serialize<S: Serializer>(
        value: &OffsetDateTime,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let text = value.format(FORMAT).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OffsetDateTime, D::Error> {
        let text = String::deserialize(d)?;
        time::PrimitiveDateTime::parse(&text, FORMAT)
            .map(time::PrimitiveDateTime::assume_utc)
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Entity, Debug)]
#[dynamap(table = Lab, entity = "Visit", pk = "VISIT#{id}", sk = "VISIT")]
struct Visit {
    id: String,
    #[dynamap(with = "day_first")]
    at: OffsetDateTime,
}

#[test]
fn a_value_that_does_not_fit_its_column_names_the_item_and_leaves_the_file_whole() {
    let dir = out_dir("unfit");
    let mut tables = ParquetTables::create(&dir).expect("folder");
    let visit = Visit {
        id: "a".into(),
        at: datetime!(2026-03-01 12:30 UTC),
    };
    let err = tables
        .write(&visit)
        .expect_err("day-first text is no timestamp column value");
    assert_eq!(err.kind(), ErrorKind::Encode);
    let Error::Parquet { file, reason, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(file.ends_with("Visit.parquet"), "{file}");
    assert!(
        reason.contains("VISIT#a") && reason.contains("`at`") && reason.contains("01/03/2026"),
        "names the item, the attribute and the value: {reason}"
    );
    tables.write(&device(7)).expect("writing goes on");
    let counts: Vec<_> = tables
        .finish()
        .expect("files")
        .into_iter()
        .map(|t| (t.entity_type, t.rows))
        .collect();
    assert_eq!(counts, [("Device", 1), ("Visit", 0)]);
    if let Some(read) = read_with_pyarrow(&dir) {
        assert_eq!(read["Visit.parquet"]["rows"], 0);
        assert_eq!(read["Device.parquet"]["rows"], 1);
    }
}
