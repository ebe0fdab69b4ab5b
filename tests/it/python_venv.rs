//! Python tools the tests check dynamap's output with (`cfn-lint`, `pyarrow`), each from the
//! Python package index in a virtual environment of its own under `target/`, installed on
//! first use the way dynamap-local installs DynamoDB Local: into a staging directory renamed
//! into place, so parallel runs see all of it or none.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The interpreter of the virtual environment holding `requirement` (`name==version`);
/// `None` (the caller skips, saying why) only where there is no `python3`.
pub(crate) fn venv_python(requirement: &str) -> Option<PathBuf> {
    if Command::new("python3").arg("--version").output().is_err() {
        return None;
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(requirement.replace("==", "-"));
    let venv = root.join("venv");
    // A venv's scripts name the staging path, so tools are run through the venv's
    // interpreter, which finds its packages wherever the directory now is.
    let python = venv.join("bin").join("python");
    if !python.exists() {
        std::fs::create_dir_all(&root).expect("target dir");
        let staging = root.join(format!(".install-{}", uuid::Uuid::new_v4().simple()));
        let run = |command: &mut Command| {
            let output = command.output().expect("runs");
            assert!(
                output.status.success(),
                "{command:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        run(Command::new("python3").arg("-m").arg("venv").arg(&staging));
        run(Command::new(staging.join("bin").join("python"))
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(requirement));
        // Losing a race to another run leaves its complete install in place.
        let _ = std::fs::rename(&staging, &venv);
        let _ = std::fs::remove_dir_all(&staging);
    }
    Some(python)
}
