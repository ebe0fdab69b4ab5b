//! An export's errors keep the I/O error behind them as their `source()`, and typed through
//! `io_error()`, so a caller can tell a missing file from a damaged one without reading
//! text. (The Parquet writer's case is `dynamap-parquet`'s.)

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
