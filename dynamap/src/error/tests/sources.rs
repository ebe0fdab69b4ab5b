//! Errors of files (exports, Parquet) keep the I/O error behind them as their `source()`,
//! and typed through `io_error()`, so a caller can tell a missing file from a damaged one
//! without reading text.

use std::error::Error as _;

/// The `std::io::Error` an error was caused by, after checking `source()` is that error.
fn io_source(err: &super::Error) -> Option<&std::io::Error> {
    let io = err.io_error()?;
    assert_eq!(err.source().map(ToString::to_string), Some(io.to_string()));
    Some(io)
}

/// A path no test creates, under the system's temporary folder.
fn missing(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("dynamap-missing-{name}-{}", std::process::id()))
}

#[cfg(feature = "exports")]
#[test]
fn an_export_without_its_manifest_keeps_the_io_error() {
    let err = crate::export::Export::open(missing("export")).expect_err("no manifest");
    let io = io_source(&err).unwrap_or_else(|| panic!("no io source: {err:?}"));
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    assert!(
        !err.to_string().contains(&io.to_string()),
        "printed once: {err}"
    );
}

#[cfg(feature = "parquet")]
#[test]
fn a_parquet_folder_that_cannot_be_made_keeps_the_io_error() {
    // A file where a folder of the path should be.
    let blocker = missing("parquet");
    std::fs::write(&blocker, b"not a folder").expect("a file");
    let err = crate::parquet::ParquetTables::create(blocker.join("out")).expect_err("blocked");
    std::fs::remove_file(&blocker).expect("cleaned up");
    assert!(io_source(&err).is_some(), "no io source: {err:?}");
    assert_eq!(err.kind(), crate::ErrorKind::Encode);
}
