//! The runtime's layering, checked: no import circle between the files of `dynamap/src`, no
//! circle between its top-level modules, and the pure modules never reach a request module.
//! `cargo test --test layers -- --nocapture` prints the module graph (see ARCHITECTURE.md).
//!
//! An edge A → B exists when a file of A names a path into B through `use crate::…`,
//! `use super::…` or an inline `crate::…`/`super::…` path. Re-exports (`pub use`) and `mod`
//! lines are a module's face, not a dependency, and are not edges; nor are names taken from
//! the crate root (`crate::{Db, Error, Result}`), which re-exports them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path from the crate root: `["ops", "update"]`; the root is `[]`.
type Module = Vec<String>;

/// Imports across top-level modules that the layering allows against its order, each with
/// its reason. Every other edge between top-level modules must keep the graph acyclic.
const ALLOWED_UPWARD: &[(&str, &str, &str)] = &[
    (
        "codec/timestamp",
        "key",
        "the `with` module stores a timestamp in the key's own text format, so the two can never disagree",
    ),
    (
        "codec/forms/time_types",
        "key",
        "`time`'s date-times are stored in their key parts' own text, so a field and its key can never disagree",
    ),
];

/// Top-level modules that never do I/O and never import one that does.
const PURE: &[&str] = &["key", "codec", "expr"];
/// Top-level modules that send requests.
const REQUESTS: &[&str] = &[
    "ops",
    "query",
    "batch",
    "transact",
    "timeseries",
    "admin",
    "streams",
    "write",
    "db",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dynamap/src")
}

/// Every `.rs` file of `root`, by module path.
fn files(root: &Path) -> BTreeMap<Module, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<Module, String>) {
        for entry in std::fs::read_dir(dir).expect("readable source folder") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).expect("under the root");
                let mut module: Module = relative
                    .with_extension("")
                    .iter()
                    .map(|part| part.to_string_lossy().into_owned())
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).expect("readable source file");
                out.insert(module, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// `a::{b, c::{d, e}}` as `["a::b", "a::c::d", "a::c::e"]`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or_default().to_owned()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (prefix, body) = (&tree[..open], &tree[open + 1..close]);
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in body.chars() {
        match c {
            ',' if depth == 0 => parts.push(std::mem::take(&mut current)),
            '{' => {
                depth += 1;
                current.push(c);
            }
            '}' => {
                depth -= 1;
                current.push(c);
            }
            _ => current.push(c),
        }
    }
    parts.push(current);
    parts
        .iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand(&format!("{prefix}{part}")))
        .collect()
}

/// The file module a `crate::`/`super::`/`self::` path points into, seen from `from`.
fn resolve(files: &BTreeMap<Module, String>, from: &Module, path: &str) -> Option<Module> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Module = match segments.first().copied() {
        Some("crate") => {
            segments.remove(0);
            Vec::new()
        }
        Some("super") => {
            let ups = segments.iter().take_while(|s| **s == "super").count();
            segments.drain(..ups);
            from[..from.len().saturating_sub(ups)].to_vec()
        }
        Some("self") => {
            segments.remove(0);
            from.clone()
        }
        _ => return None,
    };
    base.extend(segments.iter().map(|s| (*s).to_owned()));
    (1..=base.len())
        .rev()
        .map(|n| base[..n].to_vec())
        .find(|candidate| files.contains_key(candidate))
}

/// The `crate::…`, `super::…` and `self::…` paths in a statement.
fn inline_paths(statement: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = statement[from..].find(start) {
            let at = from + at;
            let preceded = statement[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            let end = statement[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(statement.len(), |n| at + n);
            if !preceded {
                out.push(&statement[at..end]);
            }
            from = end.max(at + start.len());
        }
    }
    out
}

/// `text` without comments and without the contents of string literals, so that neither
/// counts as an import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |n| &after[n..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |n| &after[n + 2..]);
        } else if let Some(after) = rest.strip_prefix("r#\"") {
            rest = after.find("\"#").map_or("", |n| &after[n + 2..]);
            out.push_str("\"\"");
        } else if let Some(after) = rest.strip_prefix('"') {
            let mut escaped = false;
            let end = after.find(|c: char| {
                let close = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                close
            });
            rest = end.map_or("", |n| &after[n + 1..]);
            out.push_str("\"\"");
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `code` without its `#[cfg(test)] mod … { … }` blocks: a test may reach anywhere.
fn without_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let Some(open) = after.starts_with("mod ").then(|| after.find('{')).flatten() else {
            rest = &rest[at + 1..];
            out.push('#');
            continue;
        };
        let mut depth = 0;
        let close = after[open..].char_indices().find_map(|(i, c)| {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            (depth == 0).then_some(open + i + 1)
        });
        rest = close.map_or("", |end| &after[end..]);
    }
    out.push_str(rest);
    out
}

/// `pub use …` or `pub(…) use …`.
fn is_reexport(statement: &str) -> bool {
    let Some(rest) = statement.strip_prefix("pub") else {
        return false;
    };
    let rest = match rest.strip_prefix('(') {
        Some(scoped) => scoped.split_once(')').map_or("", |(_, after)| after),
        None => rest,
    };
    rest.trim_start().starts_with("use ")
}

/// Every file's imports of other files.
fn edges(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut edges = BTreeMap::new();
    for (module, text) in files {
        let code = without_test_modules(&code_only(text));
        let mut targets = BTreeSet::new();
        for statement in code.split(';') {
            let mut s = statement.trim();
            while s.starts_with("#[") {
                s = s[s.find(']').map_or(s.len(), |n| n + 1)..].trim_start();
            }
            if is_reexport(s) {
                continue;
            }
            let paths = match s.strip_prefix("use ") {
                Some(tree) => expand(tree),
                None => inline_paths(s).into_iter().map(str::to_owned).collect(),
            };
            for path in paths {
                if let Some(target) = resolve(files, module, &path) {
                    // Within one's own subtree, and the crate root's re-exports, are not edges.
                    if !target.is_empty() && !target.starts_with(module) {
                        targets.insert(target);
                    }
                }
            }
        }
        edges.insert(module.clone(), targets);
    }
    edges
}

/// The circles (strongly connected components of more than one node) of a graph.
fn circles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Tarjan<'g, N> {
        graph: &'g BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        out: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Tarjan<'_, N> {
        fn visit(&mut self, v: &N) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|x| x == v).unwrap_or(0);
                let component = self.stack.split_off(at);
                if component.len() > 1 {
                    self.out.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan.out
}

fn name(module: &Module) -> String {
    module.join("/")
}

/// The graph between top-level modules, leaving out the allowed upward imports.
fn top_level(edges: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in edges {
        let Some(a) = from.first() else { continue };
        graph.entry(a.clone()).or_default();
        for to in targets {
            let b = &to[0];
            let allowed = ALLOWED_UPWARD
                .iter()
                .any(|(f, t, _)| *f == name(from) && *t == name(to));
            if a != b && !allowed {
                graph.entry(a.clone()).or_default().insert(b.clone());
            }
        }
    }
    graph
}

#[test]
fn no_import_circle_between_files() {
    let files = files(&src());
    assert!(files.len() > 50, "found only {} files", files.len());
    let found = circles(&edges(&files));
    let shown: Vec<String> = found
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" ↔ "))
        .collect();
    assert!(shown.is_empty(), "import circles: {shown:#?}");
}

#[test]
fn no_import_circle_between_top_level_modules() {
    let graph = top_level(&edges(&files(&src())));
    for (module, targets) in &graph {
        println!(
            "{module} -> {}",
            targets.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "circles between top-level modules: {found:?}"
    );
}

#[test]
fn pure_modules_import_no_request_module() {
    let graph = top_level(&edges(&files(&src())));
    for pure in PURE {
        let reached: Vec<_> = graph[*pure]
            .iter()
            .filter(|m| REQUESTS.contains(&m.as_str()))
            .collect();
        assert!(reached.is_empty(), "{pure} imports {reached:?}");
    }
}

#[test]
fn every_allowed_upward_import_still_exists() {
    let edges = edges(&files(&src()));
    for (from, to, why) in ALLOWED_UPWARD {
        let present = edges
            .iter()
            .any(|(f, ts)| name(f) == *from && ts.iter().any(|t| name(t) == *to));
        assert!(
            present,
            "{from} -> {to} ({why}) is gone: remove it from the list"
        );
    }
}

/// The checker itself finds a circle, a circle through `super::`, and ignores re-exports.
#[test]
fn the_checker_sees_circles_and_skips_reexports() {
    let module = |path: &str| -> Module { path.split('/').map(str::to_owned).collect() };
    let files: BTreeMap<Module, String> = [
        ("a", "pub use crate::b::X;\nmod inner;"),
        ("a/inner", "use super::super::b::Y;"),
        ("b", "fn f() { crate::c::g(); }"),
        ("c", "use crate::{a::inner::Z, d};"),
        (
            "d",
            "// use crate::a;\n#[cfg(test)]\npub(crate) use crate::a::W;",
        ),
        (
            "e",
            "const S: &str = \"crate::a \\\" crate::b\";\n#[cfg(test)]\nmod tests { fn f() { let _ = \"}\"; } use crate::a::inner::Z; }",
        ),
    ]
    .into_iter()
    .map(|(m, text)| (module(m), text.to_owned()))
    .collect();
    let graph = edges(&files);
    assert_eq!(graph[&module("a")], BTreeSet::new());
    assert_eq!(graph[&module("d")], BTreeSet::new());
    assert_eq!(graph[&module("e")], BTreeSet::new());
    let found = circles(&graph);
    assert_eq!(found.len(), 1, "{found:?}");
    let mut members: Vec<_> = found[0].iter().map(name).collect();
    members.sort();
    assert_eq!(members, ["a/inner", "b", "c"]);
}
