//! npm packages a peer service in the tests runs on (ElectroDB and the AWS SDK for
//! JavaScript), installed on first use the way dynamap-local installs DynamoDB Local: with
//! npm, into a staging directory under `target/` renamed into place, so parallel runs see
//! all of it or none.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory whose `node_modules` holds `packages` (`name@version`, pinned), named after
/// them; `None` (the caller skips, saying why) only where there is no `node` or `npm`.
pub(crate) fn node_modules(packages: &[&str]) -> Option<PathBuf> {
    let found = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    if !found("node") || !found("npm") {
        return None;
    }
    let name = packages.join("+").replace(['/', '@'], "_");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("node")
        .join(name);
    let installed = root.join("node_modules");
    if !installed.exists() {
        std::fs::create_dir_all(&root).expect("target dir");
        let staging = root.join(format!(".install-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&staging).expect("staging dir");
        let output = Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
            ])
            .arg(&staging)
            .args(packages)
            .output()
            .expect("npm runs");
        assert!(
            output.status.success(),
            "npm install {packages:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        // Losing a race to another run leaves its complete install in place.
        let _ = std::fs::rename(staging.join("node_modules"), &installed);
        let _ = std::fs::remove_dir_all(&staging);
    }
    Some(root)
}

/// A peer service: a Node script of `tests/peer/` run beside its packages, one command (JSON)
/// per run, answering JSON on stdout; the table and the endpoint come from the environment.
pub(crate) struct PeerService {
    script: PathBuf,
    endpoint: String,
    table: String,
}

impl PeerService {
    /// The service `script` (a file of `tests/peer/`) on `packages`, for `table` on the
    /// shared DynamoDB Local; `None` (the caller skips, saying why) without `node` or `npm`.
    pub(crate) fn new(script: &str, packages: &[&str], table: &str) -> Option<Self> {
        let dir = node_modules(packages)?;
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/peer")
            .join(script);
        // Beside its packages, so that Node resolves their imports.
        let target = dir.join(script);
        std::fs::copy(&source, &target).expect("the service beside its packages");
        let endpoint = dynamap_local::DynamoLocal::shared()
            .expect("local")
            .endpoint()
            .to_owned();
        Some(Self {
            script: target,
            endpoint,
            table: table.to_owned(),
        })
    }

    /// Runs `command`, returning the service's answer.
    pub(crate) fn run(&self, command: serde_json::Value) -> serde_json::Value {
        let output = Command::new("node")
            .arg(&self.script)
            .arg(command.to_string())
            .env("PEER_ENDPOINT", &self.endpoint)
            .env("PEER_TABLE", &self.table)
            .output()
            .expect("node runs");
        assert!(
            output.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("the service answers JSON")
    }
}
