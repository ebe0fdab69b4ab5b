//! Reading an export keeps memory flat, and so does writing it to Parquet once each entity
//! type's first row group has filled: each measured in a process of its own
//! (`tests/bin/export_memory.rs`), whose peak resident set is compared across sizes.
//!
//! CI runs 10,000 against 200,000 records (decoding) and 100,000 against 200,000 (Parquet,
//! row groups of 5,000). The full-size run of docs/performance/exports.md:
//! `DYNAMAP_EXPORT_SCALE=10 cargo test --release --test it export_memory -- --nocapture`.

use std::path::Path;
use std::process::Command;

const PROGRAM: &str = env!("CARGO_BIN_EXE_export-memory");

fn scale() -> u64 {
    std::env::var("DYNAMAP_EXPORT_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn run(args: &[&str], rows_per_group: Option<u64>) -> String {
    let mut command = Command::new(PROGRAM);
    command.args(args);
    if let Some(rows) = rows_per_group {
        command.env("ROWS", rows.to_string());
    }
    let output = command.output().expect("export-memory runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

/// Writes an export of `items` records under `root`.
fn export(root: &Path, items: u64) -> String {
    let dir = root.join(format!("export-{items}"));
    let dir = dir.to_str().expect("utf-8 path").to_owned();
    run(&["write", &dir, &items.to_string()], None);
    dir
}

/// Reads `dir` in a process of its own; returns its peak resident set in KiB, after
/// checking it read `items` records without an error.
fn peak_kib(mode: &str, dir: &str, items: u64, rows_per_group: Option<u64>) -> u64 {
    let out = format!("{dir}-parquet");
    let text = run(&[mode, dir, &out], rows_per_group);
    let fields: Vec<u64> = text
        .split_whitespace()
        .map(|f| f.parse().expect("a number"))
        .collect();
    assert_eq!(fields[..2], [items, 0], "records and errors: {text}");
    fields[2]
}

#[test]
fn export_memory_stays_flat_from_ten_thousand_to_two_hundred_thousand_records() {
    let root = crate::exports::folder("memory");
    let scale = scale();
    let (small, medium, large) = (10_000 * scale, 100_000 * scale, 200_000 * scale);
    let small_dir = export(&root, small);
    let medium_dir = export(&root, medium);
    let large_dir = export(&root, large);

    let decode_small = peak_kib("decode", &small_dir, small, None);
    let decode_large = peak_kib("decode", &large_dir, large, None);
    let decode_ratio = decode_large as f64 / decode_small as f64;
    println!(
        "decode: {small} records {decode_small} KiB, {large} records {decode_large} KiB: {decode_ratio:.3}x"
    );
    assert!(
        decode_ratio <= 1.1,
        "decoding {large} records took {decode_ratio:.2}x the memory of {small}"
    );

    // Parquet keeps a row group per entity type; past the first full group of every type
    // (the fixture has a sensor for every 20 readings), memory stays where it is.
    let rows = 5_000 * scale;
    let parquet_medium = peak_kib("read", &medium_dir, medium, Some(rows));
    let parquet_large = peak_kib("read", &large_dir, large, Some(rows));
    let parquet_ratio = parquet_large as f64 / parquet_medium as f64;
    println!(
        "parquet: {medium} records {parquet_medium} KiB, {large} records {parquet_large} KiB: {parquet_ratio:.3}x"
    );
    assert!(
        parquet_ratio <= 1.1,
        "writing {large} records to Parquet took {parquet_ratio:.2}x the memory of {medium}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
