//! The process whose memory the export tests and benchmark measure, so that nothing else
//! (a test harness, DynamoDB Local's client) shares its peak:
//!
//! - `export-memory write <dir> <items>` writes an export of `items` records in DynamoDB's
//!   layout (gzip'd DynamoDB JSON in files of 25,000 records; a sensor for every 20
//!   readings);
//! - `export-memory read <dir> <parquet-dir>` reads it as typed entities into one Parquet
//!   file per entity type and prints `<records> <errors> <peak resident KiB>`.

use std::io::Write;
use std::path::Path;

use dynamap::export::{Export, Exported};
use dynamap::{Entity, EntityEnum, Table};
use dynamap_parquet::ParquetTables;
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::json;

#[path = "../support/peak_rss.rs"]
mod peak_rss;
use peak_rss::peak_rss_kib;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Plant;

#[derive(Entity)]
#[dynamap(table = Plant, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
struct Sensor {
    id: String,
    city: String,
    tags: Vec<String>,
}

#[derive(Entity)]
#[dynamap(table = Plant, entity = "Reading", pk = "SENSOR#{sensor}", sk = "READ#{at}")]
struct Reading {
    sensor: String,
    at: u64,
    celsius: f64,
    note: Option<String>,
}

#[derive(EntityEnum)]
enum PlantItem {
    Sensor(Sensor),
    Reading(Reading),
}

const FILE_RECORDS: u64 = 25_000;

fn line(n: u64) -> String {
    let sensor = format!("s{:06}", n / 20);
    let item = if n.is_multiple_of(20) {
        json!({
            "PK": {"S": format!("SENSOR#{sensor}")}, "SK": {"S": "INFO"}, "_type": {"S": "Sensor"},
            "id": {"S": sensor}, "city": {"S": "Lyon"}, "tags": {"L": [{"S": "air"}, {"S": "co2"}]}
        })
    } else {
        json!({
            "PK": {"S": format!("SENSOR#{sensor}")}, "SK": {"S": format!("READ#{n:020}")},
            "_type": {"S": "Reading"}, "sensor": {"S": sensor}, "at": {"N": n.to_string()},
            "celsius": {"N": format!("{}.{}", 15 + n % 10, n % 7)},
            "note": if n.is_multiple_of(3) { json!({"S": "checked by the night shift"}) } else { json!({"NULL": true}) }
        })
    };
    json!({ "Item": item }).to_string()
}

fn write(dir: &Path, items: u64) {
    std::fs::create_dir_all(dir.join("data")).expect("data folder");
    let mut manifest = String::new();
    for (file, start) in (0..items)
        .step_by(usize::try_from(FILE_RECORDS).expect("fits"))
        .enumerate()
    {
        let end = (start + FILE_RECORDS).min(items);
        let name = format!("file-{file:04}.json.gz");
        let out = std::fs::File::create(dir.join("data").join(&name)).expect("data file");
        let mut gz = GzEncoder::new(std::io::BufWriter::new(out), Compression::fast());
        for n in start..end {
            writeln!(gz, "{}", line(n)).expect("gzip");
        }
        gz.finish().expect("gzip").flush().expect("flushed");
        manifest.push_str(
            &json!({"itemCount": end - start, "md5Checksum": "x", "etag": "y",
                    "dataFileS3Key": format!("AWSDynamoDB/01234567890123-abcdefgh/data/{name}")})
            .to_string(),
        );
        manifest.push('\n');
    }
    std::fs::write(dir.join("manifest-files.json"), manifest).expect("manifest");
    std::fs::write(
        dir.join("manifest-summary.json"),
        json!({"version": "2023-08-01", "exportType": "FULL_EXPORT",
               "outputFormat": "DYNAMODB_JSON", "itemCount": items})
        .to_string(),
    )
    .expect("summary");
}

/// Reads the export into Parquet files in `out`, or only decodes it (`out` is `None`).
fn read(dir: &Path, out: Option<&Path>) {
    let export = Export::open(dir).expect("export");
    let mut tables = out.map(|out| {
        let rows = std::env::var("ROWS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(10_000);
        ParquetTables::create(out)
            .expect("parquet folder")
            .row_group_rows(rows)
    });
    let (mut records, mut errors) = (0u64, 0u64);
    for record in export.records::<PlantItem>() {
        match record {
            Ok(Exported::Item(item)) => {
                if let Some(tables) = &mut tables {
                    tables.write(&item).expect("row");
                }
                records += 1;
            }
            Ok(_) => unreachable!("a full export holds items"),
            Err(_) => errors += 1,
        }
    }
    if let Some(tables) = tables {
        let rows: u64 = tables.finish().expect("files").iter().map(|t| t.rows).sum();
        assert_eq!(rows, records, "every record is a row");
    }
    println!("{records} {errors} {}", peak_rss_kib());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("write") => write(Path::new(&args[2]), args[3].parse().expect("a count")),
        Some("read") => read(Path::new(&args[2]), Some(Path::new(&args[3]))),
        Some("decode") => read(Path::new(&args[2]), None),
        _ => {
            eprintln!("usage: export-memory write <dir> <items> | read <dir> <parquet-dir>");
            std::process::exit(2);
        }
    }
}
