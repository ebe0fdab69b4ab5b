//! The shared-tables guide names the version of each peer mapper its recipes are tested
//! with: the version the cross-mapper test installs from npm.

use crate::read;

/// (the mapper's name in the guide, its test, its npm package).
const PEERS: &[(&str, &str, &str)] = &[
    ("ElectroDB", "tests/it/peer_electrodb.rs", "electrodb"),
    (
        "DynamoDB Toolbox",
        "tests/it/peer_toolbox.rs",
        "dynamodb-toolbox",
    ),
];

#[test]
fn the_guide_names_the_versions_the_tests_install() {
    let guide = read("docs/guide/shared-tables.md");
    let guide = guide.split_whitespace().collect::<Vec<_>>().join(" ");
    for (name, test, package) in PEERS {
        let source = read(test);
        let pinned = format!("\"{package}@");
        let version = source
            .split_once(&pinned)
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(version, _)| version)
            .unwrap_or_else(|| panic!("{test} installs no pinned {package}"));
        let major_minor: Vec<&str> = version.split('.').take(2).collect();
        let sentence = format!(
            "`{test}` runs exactly this against DynamoDB Local, with {name} {} installed from npm",
            major_minor.join(".")
        );
        assert!(
            guide.contains(&sentence),
            "the shared-tables guide should say: {sentence}"
        );
    }
}
