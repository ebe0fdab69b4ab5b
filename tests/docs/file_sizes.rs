//! The code map's promise that a file holds one idea: no Rust file of the workspace passes
//! [`MOST_LINES`] lines, so a file that grows past it is split by purpose before it lands.

use std::path::{Path, PathBuf};

use crate::{read, root};

/// The most lines a `.rs` file may have (ARCHITECTURE.md, "Code map").
const MOST_LINES: usize = 600;

/// Every `.rs` file under `dir`, skipping build output (`target/`) and hidden folders.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("folder entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') && name != "node_modules" {
                rust_files(&path, files);
            }
        } else if name.ends_with(".rs") {
            files.push(
                path.strip_prefix(root())
                    .expect("in the checkout")
                    .to_owned(),
            );
        }
    }
}

/// `(file, lines)` of every Rust file of the checkout over [`MOST_LINES`], sorted.
fn over_the_limit() -> Vec<(String, usize)> {
    let mut files = Vec::new();
    rust_files(root(), &mut files);
    assert!(
        files.iter().any(|f| f == Path::new("dynamap/src/lib.rs")),
        "the walk found the crates' files"
    );
    let mut over: Vec<(String, usize)> = files
        .iter()
        .map(|f| {
            (
                f.to_string_lossy().replace('\\', "/"),
                read(f).lines().count(),
            )
        })
        .filter(|(_, lines)| *lines > MOST_LINES)
        .collect();
    over.sort();
    over
}

#[test]
fn no_rust_file_passes_600_lines() {
    let over: Vec<String> = over_the_limit()
        .iter()
        .map(|(file, lines)| format!("{file} ({lines} lines)"))
        .collect();
    assert!(
        over.is_empty(),
        "split these files by purpose, each under {MOST_LINES} lines: {}",
        over.join(", ")
    );
}
