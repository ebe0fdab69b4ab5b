//! The dependency tree against `deny.toml`, the same file cargo-deny reads, so the licenses,
//! sources and banned crates are checked on every `cargo test` without cargo-deny installed:
//!
//! - every package's license expression is satisfiable with `[licenses] allow`;
//! - every package comes from crates.io or is a path of the workspace (`[sources]`);
//! - `dynamap`'s normal dependency tree, with every feature, holds none of `[bans] deny`
//!   (the core takes the application's `Client`, so it brings no HTTP or TLS stack).
//!
//! Nothing here uses the network: `cargo metadata` and `cargo tree` run `--offline` on the
//! packages a build has already downloaded, for `[graph] targets`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// crates.io's index, as cargo names the source of a package from it (git and sparse).
const CRATES_IO: [&str; 2] = [
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.crates.io/",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `deny.toml`, parsed.
fn deny() -> toml::Table {
    let text = std::fs::read_to_string(root().join("deny.toml")).expect("deny.toml");
    text.parse().expect("deny.toml is TOML")
}

/// The strings of an array at `section.key` of `deny.toml`; for tables (`{ crate = ".." }`,
/// cargo-deny's long form), the value of `field`.
fn strings(deny: &toml::Table, section: &str, key: &str, field: &str) -> Vec<String> {
    let array = deny[section][key]
        .as_array()
        .unwrap_or_else(|| panic!("deny.toml: [{section}] {key} is an array"));
    array
        .iter()
        .map(|entry| match entry {
            toml::Value::String(s) => s.clone(),
            toml::Value::Table(t) => t[field].as_str().expect("a string").to_owned(),
            other => panic!("deny.toml: [{section}] {key}: unexpected {other}"),
        })
        .collect()
}

/// `cargo <args>` in the checkout, offline and locked; its standard output.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(args)
        .args(["--locked", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo {args:?} failed (run `cargo fetch` once if a package is not downloaded):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

/// Every package of the workspace's resolve on `[graph] targets`, every feature on.
fn packages(deny: &toml::Table) -> Vec<serde_json::Value> {
    let mut args = vec!["metadata", "--format-version", "1", "--all-features"];
    let targets = strings(deny, "graph", "targets", "triple");
    for target in &targets {
        args.extend(["--filter-platform", target]);
    }
    let metadata: serde_json::Value = serde_json::from_str(&cargo(&args)).expect("json");
    metadata["packages"].as_array().expect("packages").clone()
}

#[test]
fn every_license_is_allowed() {
    let deny = deny();
    let allowed: BTreeSet<String> = strings(&deny, "licenses", "allow", "")
        .into_iter()
        .collect();
    let packages = packages(&deny);
    assert!(packages.len() > 100, "{} packages", packages.len());
    let mut refused = Vec::new();
    for package in &packages {
        let name = format!(
            "{} {}",
            package["name"].as_str().unwrap_or("?"),
            package["version"].as_str().unwrap_or("?")
        );
        match package["license"].as_str() {
            None => refused.push(format!("{name}: no SPDX license expression")),
            Some(expr) => match license::satisfied(expr, &allowed) {
                Ok(true) => {}
                Ok(false) => refused.push(format!("{name}: {expr}")),
                Err(e) => refused.push(format!("{name}: {expr}: {e}")),
            },
        }
    }
    assert!(
        refused.is_empty(),
        "licenses outside deny.toml's allow list: {refused:#?}"
    );
}

#[test]
fn every_source_is_crates_io_or_a_path() {
    let deny = deny();
    let registries = strings(&deny, "sources", "allow-registry", "");
    assert_eq!(registries, ["https://github.com/rust-lang/crates.io-index"]);
    let foreign: Vec<String> = packages(&deny)
        .iter()
        .filter_map(|package| {
            let source = package["source"].as_str()?; // none: a path of the workspace
            let name = package["name"].as_str().unwrap_or("?");
            (!CRATES_IO.contains(&source)).then(|| format!("{name}: {source}"))
        })
        .collect();
    assert!(
        foreign.is_empty(),
        "packages not from crates.io: {foreign:#?}"
    );
}

#[test]
fn the_core_has_no_http_tls_or_parquet_stack() {
    let deny = deny();
    let banned: BTreeSet<String> = strings(&deny, "bans", "deny", "crate")
        .into_iter()
        .map(|spec| spec.split('@').next().unwrap_or_default().to_owned())
        .collect();
    for crate_name in [
        "hyper",
        "h2",
        "rustls",
        "native-tls",
        "openssl",
        "reqwest",
        "parquet",
    ] {
        assert!(banned.contains(crate_name), "deny.toml bans {crate_name}");
    }

    // `cargo tree -p`, not `cargo metadata`'s resolve: the resolve unifies the features of
    // the whole workspace, so dynamap-local's HTTP client would appear under the SDK crates
    // the core shares with it. `cargo tree -p dynamap` resolves as a dependent of the core
    // alone would.
    for target in strings(&deny, "graph", "targets", "triple") {
        let tree = cargo(&[
            "tree",
            "-p",
            "dynamap",
            "--all-features",
            "-e",
            "normal",
            "--prefix",
            "depth",
            "--format",
            "{p}",
            "--target",
            &target,
        ]);
        assert!(
            tree.lines().any(|l| l.starts_with("1aws-sdk-dynamodb ")),
            "the tree is dynamap's: {tree}"
        );
        let found = tree::banned_paths(&tree, &banned);
        assert!(
            found.is_empty(),
            "dynamap's normal tree ({target}, every feature) holds crates deny.toml bans: {found:#?}"
        );
    }
}

/// The published crates depend on each other at exactly their own version (`=x.y.z`): the
/// derive's output and `dynamap::__private` change together, so no other pairing may
/// resolve. A dev-dependency by path alone is dropped on publishing.
#[test]
fn the_crates_pin_each_other_exactly() {
    let manifest = cargo(&["metadata", "--format-version", "1", "--no-deps"]);
    let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("json");
    let packages = manifest["packages"].as_array().expect("packages");
    let version_of = |name: &str| {
        packages
            .iter()
            .find(|p| p["name"] == name)
            .and_then(|p| p["version"].as_str())
    };
    let mut loose = Vec::new();
    for package in packages {
        let published = package["publish"].as_array().is_none_or(|r| !r.is_empty());
        if !published {
            continue;
        }
        for dep in package["dependencies"].as_array().expect("dependencies") {
            let name = dep["name"].as_str().expect("name");
            let Some(version) = version_of(name) else {
                continue; // not a crate of the workspace
            };
            if dep["kind"] == "dev" {
                continue;
            }
            let req = dep["req"].as_str().expect("req");
            if req != format!("={version}") {
                loose.push(format!(
                    "{} -> {name} {req}",
                    package["name"].as_str().unwrap_or("?")
                ));
            }
        }
    }
    assert!(
        loose.is_empty(),
        "not pinned to the exact version: {loose:#?}"
    );
}

/// SPDX license expressions, as Cargo's `license` field holds them.
mod license {
    use std::collections::BTreeSet;

    /// Whether `expr` can be met using only `allowed` licenses: `OR` needs one side, `AND`
    /// both, `A WITH exception` needs `A` (an exception only adds permissions) or the whole
    /// `A WITH exception` allowed; `/` is the legacy spelling of `OR`. `Err` for an
    /// expression that does not parse.
    pub(super) fn satisfied(expr: &str, allowed: &BTreeSet<String>) -> Result<bool, String> {
        let tokens = tokenize(expr);
        let mut parser = Parser {
            tokens: &tokens,
            at: 0,
            allowed,
        };
        let value = parser.or()?;
        match parser.tokens.get(parser.at) {
            None => Ok(value),
            Some(extra) => Err(format!("unexpected {extra:?}")),
        }
    }

    fn tokenize(expr: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        let mut word = String::new();
        for c in expr.chars() {
            if c.is_whitespace() || matches!(c, '(' | ')' | '/') {
                if !word.is_empty() {
                    tokens.push(std::mem::take(&mut word));
                }
                match c {
                    '/' => tokens.push("OR".to_owned()),
                    '(' | ')' => tokens.push(c.to_string()),
                    _ => {}
                }
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            tokens.push(word);
        }
        tokens
    }

    struct Parser<'a> {
        tokens: &'a [String],
        at: usize,
        allowed: &'a BTreeSet<String>,
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<&str> {
            self.tokens.get(self.at).map(String::as_str)
        }

        fn next(&mut self) -> Result<&str, String> {
            let token = self.tokens.get(self.at).ok_or("unexpected end")?;
            self.at += 1;
            Ok(token)
        }

        fn or(&mut self) -> Result<bool, String> {
            let mut value = self.and()?;
            while self.peek().is_some_and(|t| t.eq_ignore_ascii_case("OR")) {
                self.at += 1;
                value |= self.and()?;
            }
            Ok(value)
        }

        fn and(&mut self) -> Result<bool, String> {
            let mut value = self.with()?;
            while self.peek().is_some_and(|t| t.eq_ignore_ascii_case("AND")) {
                self.at += 1;
                value &= self.with()?;
            }
            Ok(value)
        }

        fn with(&mut self) -> Result<bool, String> {
            if self.peek() == Some("(") {
                self.at += 1;
                let value = self.or()?;
                return match self.next()? {
                    ")" => Ok(value),
                    other => Err(format!("expected `)`, found {other:?}")),
                };
            }
            let license = self.license()?;
            if !self.peek().is_some_and(|t| t.eq_ignore_ascii_case("WITH")) {
                return Ok(self.allowed.contains(&license));
            }
            self.at += 1;
            let exception = self.license()?;
            Ok(self.allowed.contains(&license)
                || self
                    .allowed
                    .contains(&format!("{license} WITH {exception}")))
        }

        /// A license or exception identifier.
        fn license(&mut self) -> Result<String, String> {
            let token = self.next()?;
            let operator = ["AND", "OR", "WITH"]
                .iter()
                .any(|op| token.eq_ignore_ascii_case(op));
            if operator || token == "(" || token == ")" {
                return Err(format!("expected a license, found {token:?}"));
            }
            Ok(token.to_owned())
        }
    }
}

/// `cargo tree --prefix depth --format {p}` output: each line is the package's depth, then
/// its name, version and source; a line's parent is the nearest line above it one level up.
mod tree {
    use std::collections::BTreeSet;

    /// Each banned package in the tree, with the chain that brings it in
    /// (`"h2 <- hyper <- dynamap"`).
    pub(super) fn banned_paths(tree: &str, banned: &BTreeSet<String>) -> Vec<String> {
        let mut chain: Vec<&str> = Vec::new();
        let mut found = Vec::new();
        for line in tree.lines() {
            let name_at = line
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(line.len());
            let Ok(depth) = line[..name_at].parse::<usize>() else {
                continue; // a blank line between the trees of two roots
            };
            let name = line[name_at..]
                .split_whitespace()
                .next()
                .unwrap_or_default();
            chain.truncate(depth);
            chain.push(name);
            if banned.contains(name) {
                let path: Vec<&str> = chain.iter().rev().copied().collect();
                found.push(path.join(" <- "));
            }
        }
        found
    }
}

/// The checkers above, on made-up input: a seeded violation must fail.
mod checkers {
    use super::{license::satisfied, tree::banned_paths};
    use std::collections::BTreeSet;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn license_expressions() {
        let allowed = set(&["MIT", "Apache-2.0", "ISC"]);
        let ok = |expr: &str| satisfied(expr, &allowed).expect(expr);
        assert!(ok("MIT"));
        assert!(!ok("GPL-3.0-only"));
        assert!(ok("MIT OR GPL-3.0-only"));
        assert!(!ok("MIT AND GPL-3.0-only"));
        assert!(ok("ISC AND (Apache-2.0 OR GPL-2.0)"));
        assert!(!ok("ISC AND (BSD-3-Clause OR GPL-2.0)"));
        assert!(ok("(MIT OR Apache-2.0) AND ISC"));
        // The legacy `/` separator is `OR`, with or without spaces.
        assert!(ok("MIT/Apache-2.0"));
        assert!(ok("GPL-2.0 / Apache-2.0"));
        assert!(!ok("GPL-2.0/LGPL-2.1"));
        // An exception on an allowed license, or allowed as a whole.
        assert!(ok("Apache-2.0 WITH LLVM-exception"));
        assert!(!ok("GPL-2.0 WITH Classpath-exception-2.0"));
        let with = set(&["GPL-2.0 WITH Classpath-exception-2.0"]);
        assert_eq!(
            satisfied("GPL-2.0 WITH Classpath-exception-2.0", &with),
            Ok(true)
        );
        // `AND` binds tighter than `OR`.
        assert!(ok("GPL-2.0 AND LGPL-2.1 OR MIT"));
        assert!(!ok("GPL-2.0 AND (LGPL-2.1 OR MIT)"));
        for broken in [
            "",
            "MIT OR",
            "(MIT",
            "MIT)",
            "AND MIT",
            "MIT WITH",
            "MIT Apache-2.0",
        ] {
            assert!(satisfied(broken, &allowed).is_err(), "{broken:?} parses");
        }
    }

    #[test]
    fn banned_crates_are_found_with_their_chain() {
        let tree = "\
0dynamap v0.1.0 (/checkout/dynamap)
1aws-sdk-dynamodb v1.136.0
2aws-smithy-runtime v1.16.2
3aws-smithy-http-client v1.5.2
4hyper v1.12.0
5h2 v0.4.12
4rustls v0.23.0
1serde v1.0.0
2hyper-util v0.1.0
1h2 v0.4.12 (*)
";
        let banned = set(&["hyper", "h2", "rustls"]);
        assert_eq!(
            banned_paths(tree, &banned),
            [
                "hyper <- aws-smithy-http-client <- aws-smithy-runtime <- aws-sdk-dynamodb <- dynamap",
                "h2 <- hyper <- aws-smithy-http-client <- aws-smithy-runtime <- aws-sdk-dynamodb <- dynamap",
                "rustls <- aws-smithy-http-client <- aws-smithy-runtime <- aws-sdk-dynamodb <- dynamap",
                "h2 <- dynamap",
            ]
        );
        // A name that only starts like a banned one is not banned.
        assert!(banned_paths("0dynamap v0.1.0\n1hyper-util v0.1.0\n", &banned).is_empty());
    }
}
