//! The documents checked against the code: statements a reader acts on (a file to open, a
//! limit to plan for, a compiler error to recognise) that the code can contradict. Each
//! check reads the documents as text, so a statement that drifts from the code fails here
//! instead of misleading a reader.

mod architecture;
mod diagnostics;
mod file_sizes;
mod limits;
mod peers;

use std::path::{Path, PathBuf};

/// The checkout's root (the suite's manifest directory).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the checkout, as text.
fn read(path: impl AsRef<Path>) -> String {
    let path = root().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.md` files of a folder of the checkout, sorted.
fn markdown_in(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|entry| entry.expect("folder entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| {
            path.strip_prefix(root())
                .expect("in the checkout")
                .to_owned()
        })
        .collect();
    files.sort();
    files
}
