//! `ARCHITECTURE.md` is a map: every file and folder it names exists, and the number of
//! benchmarks it states is the manifest's.
//!
//! A name is looked up where a reader would look: from the checkout's root, from the
//! section's crate (`dynamap/src/` unless the heading names `dynamap-derive/src`,
//! `dynamap-local/src` or `dynamap-parquet/src`, the root for "Around the crates" and
//! "Testing"), or inside a folder named earlier in the same paragraph or in the heading
//! (`` `key/` ``: ... `escape.rs`).

use crate::{read, root};

/// A backquoted name that is a path: ends with `.rs` or `/`, of path characters only.
fn is_path(name: &str) -> bool {
    (name.ends_with(".rs") || name.ends_with('/'))
        && name.len() > 1
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
}

/// The backquoted spans of a text.
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The crate folder a heading's section is written from.
fn section_base(heading: &str) -> &'static str {
    if heading.contains("dynamap-derive/src") {
        "dynamap-derive/src/"
    } else if heading.contains("dynamap-local/src") {
        "dynamap-local/src/"
    } else if heading.contains("dynamap-parquet/src") {
        "dynamap-parquet/src/"
    } else if heading.contains("Around the crates") || heading.contains("Testing") {
        ""
    } else {
        "dynamap/src/"
    }
}

/// Paragraphs (and list items) of a markdown text, with the heading they are under.
fn paragraphs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut current = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        // Code blocks are commands and diagrams, not names to look up.
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let starts_item =
            line.starts_with("- ") || line.chars().next().is_some_and(|c| c.is_ascii_digit());
        if line.trim().is_empty() || line.starts_with('#') || starts_item {
            if !current.is_empty() {
                out.push((heading.clone(), std::mem::take(&mut current)));
            }
            if line.starts_with('#') {
                heading = line.to_owned();
                continue;
            }
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.is_empty() {
        out.push((heading, current));
    }
    out
}

/// Where `name` is, if anywhere a reader of this paragraph would look.
fn resolve(name: &str, folders: &[String]) -> Option<String> {
    folders.iter().rev().find_map(|folder| {
        let path = format!("{folder}{name}");
        root().join(&path).exists().then_some(path)
    })
}

#[test]
fn every_file_and_folder_it_names_exists() {
    let text = read("ARCHITECTURE.md");
    let mut missing = Vec::new();
    let mut checked = 0;
    for (heading, paragraph) in paragraphs(&text) {
        let base = section_base(&heading);
        let mut folders = vec![String::new(), base.to_owned()];
        for name in quoted(&heading)
            .chain(quoted(&paragraph))
            .filter(|n| is_path(n))
        {
            match resolve(name, &folders) {
                Some(found) => {
                    checked += 1;
                    let folder = match found.rfind('/') {
                        Some(end) if !found.ends_with('/') => found[..=end].to_owned(),
                        _ => found,
                    };
                    if !folders.contains(&folder) {
                        folders.push(folder);
                    }
                }
                None => missing.push(format!("`{name}` ({heading})")),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what does not exist:\n{}",
        missing.join("\n")
    );
    assert!(
        checked > 200,
        "only {checked} paths found: is the parsing stale?"
    );
}

/// Every module the layer diagram names is a module of `dynamap/src`.
#[test]
fn every_module_of_the_layer_diagram_exists() {
    let text = read("ARCHITECTURE.md");
    let diagram = text
        .split("## Layers")
        .nth(1)
        .and_then(|layers| layers.split("```text").nth(1))
        .and_then(|block| block.split("```").next())
        .expect("a text block under \"## Layers\"");
    let mut modules = 0;
    for line in diagram.lines() {
        // Module names first, then (after a wide gap) what the layer is.
        let names = line.split("    ").next().unwrap_or_default();
        for name in names.split_whitespace() {
            let module = name.trim_end_matches('/').trim_end_matches(".rs");
            let src = root().join("dynamap/src");
            assert!(
                src.join(format!("{module}.rs")).exists() || src.join(module).is_dir(),
                "the layer diagram names `{name}`, which is not a module of dynamap/src"
            );
            modules += 1;
        }
    }
    assert!(
        modules > 20,
        "only {modules} modules found: is the parsing stale?"
    );
}

#[test]
fn the_benchmark_count_is_the_manifests() {
    let manifest = read("Cargo.toml");
    let benches = manifest.lines().filter(|l| l.trim() == "[[bench]]").count();
    let names: Vec<&str> = manifest
        .split("[[bench]]")
        .skip(1)
        .filter_map(|bench| bench.lines().find_map(|l| l.trim().strip_prefix("name = ")))
        .map(|name| name.trim_matches('"'))
        .collect();
    assert_eq!(names.len(), benches);
    let text = read("ARCHITECTURE.md");
    let line = text
        .split("- `benches/`: ")
        .nth(1)
        .expect("ARCHITECTURE.md has a `benches/` entry");
    let stated: usize = line
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the `benches/` entry starts with a number");
    assert_eq!(stated, benches, "ARCHITECTURE.md's benchmark count");
    let entry = line.split("\n- ").next().unwrap_or_default();
    for name in names {
        assert!(
            entry.contains(&format!("`{name}`")),
            "ARCHITECTURE.md's `benches/` entry does not name `{name}`"
        );
    }
}
