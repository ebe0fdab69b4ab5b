//! An export's manifests: `manifest-summary.json` (the export's type, format and item
//! count) and `manifest-files.json` (one JSON line per data file).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ExportKind;
use crate::{Error, Result};

/// What `manifest-summary.json` says.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    #[serde(default)]
    export_type: Option<String>,
    #[serde(default)]
    output_format: Option<String>,
    #[serde(default)]
    item_count: Option<u64>,
}

/// One line of `manifest-files.json`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileEntry {
    data_file_s3_key: String,
    #[serde(default)]
    item_count: Option<u64>,
}

/// The manifests, read.
#[derive(Debug, Clone)]
pub(super) struct Manifest {
    pub(super) kind: ExportKind,
    pub(super) item_count: Option<u64>,
    /// The data files, as local paths, in the manifest's order.
    pub(super) files: Vec<PathBuf>,
}

fn invalid(file: &Path, reason: impl Into<String>) -> Error {
    Error::InvalidExport {
        file: file.display().to_string(),
        line: None,
        reason: reason.into(),
        source: None,
    }
}

/// `what` failed on `file` because of `cause`, kept as the error's source.
fn failed(file: &Path, what: &str, cause: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::InvalidExport {
        file: file.display().to_string(),
        line: None,
        reason: what.to_owned(),
        source: Some(std::sync::Arc::new(cause)),
    }
}

/// Reads the manifests of the export in `dir` (the folder holding `manifest-summary.json`,
/// `manifest-files.json` and `data/`).
pub(super) fn read(dir: &Path) -> Result<Manifest> {
    let summary_path = dir.join("manifest-summary.json");
    let text = std::fs::read_to_string(&summary_path)
        .map_err(|err| failed(&summary_path, "cannot be read", err))?;
    let summary: Summary = serde_json::from_str(&text)
        .map_err(|err| failed(&summary_path, "is not a manifest summary", err))?;
    if let Some(format) = summary.output_format.as_deref()
        && format != "DYNAMODB_JSON"
    {
        return Err(invalid(
            &summary_path,
            format!("output format {format}: only DYNAMODB_JSON exports are read"),
        ));
    }
    let kind = match summary.export_type.as_deref() {
        None | Some("FULL_EXPORT") => ExportKind::Full,
        Some("INCREMENTAL_EXPORT") => ExportKind::Incremental,
        Some(other) => return Err(invalid(&summary_path, format!("export type {other}"))),
    };
    let files_path = dir.join("manifest-files.json");
    let text = std::fs::read_to_string(&files_path)
        .map_err(|err| failed(&files_path, "cannot be read", err))?;
    let mut files = Vec::new();
    let mut counted = Some(0u64);
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entry: FileEntry = serde_json::from_str(line).map_err(|err| Error::InvalidExport {
            file: files_path.display().to_string(),
            line: Some(number as u64 + 1),
            reason: "is not a manifest entry".to_owned(),
            source: Some(std::sync::Arc::new(err)),
        })?;
        counted = counted.zip(entry.item_count).map(|(a, b)| a + b);
        // The S3 key ends in `data/<name>.json.gz`; locally the file is in `dir/data/`.
        let name = entry
            .data_file_s3_key
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        files.push(dir.join("data").join(name));
    }
    Ok(Manifest {
        kind,
        item_count: summary.item_count.or(counted),
        files,
    })
}
