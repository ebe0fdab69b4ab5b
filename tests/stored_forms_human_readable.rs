//! dynamap's stored forms do not depend on serde features other crates turn on: a second
//! build, `tests/stored-forms-human-readable/`, with `time`'s `serde-human-readable` on,
//! renders the stored-forms entity and checks it against the forms this suite pins
//! (`tests/support/stored_forms.rs`), and reads the older forms back.
//!
//! The package is outside the workspace (the feature would otherwise reach this build too)
//! and builds in a target directory of its own under this one's, once; later runs reuse it.

use std::path::Path;
use std::process::Command;

#[test]
fn a_build_with_times_human_readable_serde_stores_the_same_forms() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(env!("CARGO"))
        .args(["run", "--locked", "--quiet", "--manifest-path"])
        .arg(root.join("tests/stored-forms-human-readable/Cargo.toml"))
        .arg("--target-dir")
        .arg(root.join("target/stored-forms-human-readable"))
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("stored forms: the same with time's serde-human-readable feature on"),
        "{stdout}"
    );
}
