//! The public surface of every published crate, listed from rustdoc's JSON output
//! (`walk.rs` finds the items, `listing.rs` writes their lines), and two checks on it:
//!
//! - the listing is the committed `docs/api/<crate>.txt`, so a change to what users can name
//!   is a visible diff in review (`docs/design/api.md`); after an intended change,
//!   `DYNAMAP_BLESS_PUBLIC_API=1 cargo test --all-features --test public_api`;
//! - the semver gate: nothing of the last release's surface, `docs/api/released/<crate>.txt`,
//!   is broken unless `CHANGELOG.md` announces it (`semver.rs`). Those baselines are
//!   regenerated only at a release (`RELEASING.md`):
//!   `DYNAMAP_BLESS_RELEASED_API=1 cargo test --all-features --test public_api`.
//!
//! rustdoc's JSON output is unstable, so it is built with `RUSTC_BOOTSTRAP=1` on the stable
//! toolchain, in a target directory of its own (`$CARGO_TARGET_DIR/public-api`, else
//! `target/public-api`): the suite's is locked by the running `cargo test`.

mod listing;
mod render;
mod semver;
mod semver_tests;
mod walk;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The published crates, by package name: each has its listing and its baseline. A crate
/// comes after the crates it uses, whose items its listing names by their public paths.
/// `dynamap-derive` is a proc-macro crate: its listing is its derive macros.
const CRATES: &[&str] = &[
    "dynamap",
    "dynamap-encryption",
    "dynamap-parquet",
    "dynamap-derive",
    "dynamap-local",
];

const BLESS: &str = "DYNAMAP_BLESS_PUBLIC_API=1 cargo test --all-features --test public_api";
const BLESS_RELEASED: &str =
    "DYNAMAP_BLESS_RELEASED_API=1 cargo test --all-features --test public_api";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn each_crates_public_surface_is_its_committed_listing() {
    let mut differences = Vec::new();
    for (krate, listing) in listings() {
        let path = root().join(format!("docs/api/{krate}.txt"));
        if std::env::var_os("DYNAMAP_BLESS_PUBLIC_API").is_some() {
            std::fs::create_dir_all(root().join("docs/api")).expect("create docs/api");
            std::fs::write(&path, listing).expect("write the listing");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if &committed != listing {
            let old: BTreeSet<&str> = committed.lines().collect();
            let new: BTreeSet<&str> = listing.lines().collect();
            differences.push(format!("docs/api/{krate}.txt:"));
            differences.extend(old.difference(&new).map(|l| format!("- {l}")));
            differences.extend(new.difference(&old).map(|l| format!("+ {l}")));
        }
    }
    assert!(
        differences.is_empty(),
        "the public surface differs from its listing:\n{}\n\nIf the change is intended, \
         regenerate the listings: {BLESS}",
        differences.join("\n")
    );
}

#[test]
fn nothing_of_the_released_surface_breaks_unannounced() {
    let bless = std::env::var_os("DYNAMAP_BLESS_RELEASED_API").is_some();
    let changelog =
        std::fs::read_to_string(root().join("CHANGELOG.md")).expect("read CHANGELOG.md");
    let names = semver::announced(&changelog);
    let mut report = Vec::new();
    for (krate, listing) in listings() {
        let path = root().join(format!("docs/api/released/{krate}.txt"));
        if bless {
            let header = format!(
                "# {krate} {}: the public surface at this release, the semver check's \
                 baseline (RELEASING.md)\n",
                env!("CARGO_PKG_VERSION")
            );
            std::fs::create_dir_all(root().join("docs/api/released")).expect("create dir");
            std::fs::write(&path, header + listing).expect("write the baseline");
            continue;
        }
        let Ok(baseline) = std::fs::read_to_string(&path) else {
            report.push(format!(
                "{krate}: no baseline docs/api/released/{krate}.txt; a crate's first \
                 release takes one: {BLESS_RELEASED}"
            ));
            continue;
        };
        let version = baseline
            .lines()
            .next()
            .and_then(|h| h.strip_prefix("# "))
            .and_then(|h| h.split(':').next())
            .unwrap_or(krate);
        let lib = krate.replace('-', "_");
        let unannounced: Vec<_> = semver::breaks(&lib, &baseline, listing)
            .into_iter()
            .filter(|b| !semver::is_announced(&names, &b.path))
            .collect();
        if !unannounced.is_empty() {
            report.push(format!(
                "{krate}: {} break(s) of the {version} surface (docs/api/released/{krate}.txt) \
                 not announced in CHANGELOG.md:",
                unannounced.len()
            ));
            for b in unannounced {
                let name = b.path.split_once("::").map_or(&*b.path, |(_, rest)| rest);
                report.push(format!("  `{name}`\n    {}", b.what));
            }
        }
    }
    assert!(
        report.is_empty(),
        "{}\n\nUndo each break, or announce it: name the item (`Db::put`) or a parent of it \
         (`Db`) in backquotes under a heading containing \"Breaking\" in the `## Unreleased` \
         section of CHANGELOG.md, with its migration line. The baselines change only at a \
         release (RELEASING.md): {BLESS_RELEASED}",
        report.join("\n")
    );
}

/// Each crate's listing, built once for both tests.
fn listings() -> &'static BTreeMap<&'static str, String> {
    static LISTINGS: OnceLock<BTreeMap<&'static str, String>> = OnceLock::new();
    LISTINGS.get_or_init(|| {
        let doc = rustdoc_json();
        // A crate's items in a later crate's listing go by their public paths.
        let mut listed = HashMap::new();
        let mut listings = BTreeMap::new();
        for krate in CRATES {
            let file = doc.join(format!("{}.json", krate.replace('-', "_")));
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
            let json = serde_json::from_str(&text).expect("rustdoc json parses");
            let (listing, exports) = listing::listing(&json, &listed);
            listed.extend(exports);
            listings.insert(*krate, listing);
        }
        listings
    })
}

/// Runs rustdoc on every listed crate with every feature; returns where the JSON files are.
fn rustdoc_json() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(shared) => PathBuf::from(shared).join("public-api"),
        None => root().join("target/public-api"),
    };
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(root())
        .args(["doc", "--quiet", "--no-deps", "--all-features"]);
    for krate in CRATES {
        command.args(["-p", krate]);
    }
    let status = command
        .arg("--target-dir")
        .arg(&target)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .status()
        .expect("run cargo doc");
    assert!(status.success(), "cargo doc failed");
    target.join("doc")
}
