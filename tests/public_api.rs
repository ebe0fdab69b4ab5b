//! dynamap's public surface, listed from rustdoc's JSON output and compared with the
//! committed `docs/public-api.txt`, so a change to what users can name is a visible diff in
//! review rather than an accident (`docs/design/api.md`).
//!
//! After an intended change, regenerate the listing:
//! `DYNAMAP_BLESS_PUBLIC_API=1 cargo test --test public_api`.
//!
//! rustdoc's JSON output is unstable, so the listing is built with `RUSTC_BOOTSTRAP=1` on the
//! stable toolchain; what is read of it here is the small, long-lived part (items, their
//! names, fields, signatures and impls). Hidden items (`__private`, `#[doc(hidden)]`) are
//! left out by rustdoc itself, which is the point: they are not public API.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const LISTING: &str = "docs/public-api.txt";

#[test]
fn the_public_surface_is_the_committed_listing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let json = rustdoc_json(root);
    let listing = render(&json);
    let committed_path = root.join(LISTING);
    if std::env::var_os("DYNAMAP_BLESS_PUBLIC_API").is_some() {
        std::fs::write(&committed_path, &listing).expect("write the listing");
        return;
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    if committed != listing {
        let old: BTreeSet<&str> = committed.lines().collect();
        let new: BTreeSet<&str> = listing.lines().collect();
        let removed: Vec<_> = old.difference(&new).map(|l| format!("- {l}")).collect();
        let added: Vec<_> = new.difference(&old).map(|l| format!("+ {l}")).collect();
        panic!(
            "dynamap's public surface differs from {LISTING}:\n{}\n{}\n\nIf the change is \
             intended, regenerate it: DYNAMAP_BLESS_PUBLIC_API=1 cargo test --test public_api",
            removed.join("\n"),
            added.join("\n")
        );
    }
}

/// Runs rustdoc on dynamap with every feature, in a target directory of its own (the
/// suite's is locked by the running `cargo test`).
fn rustdoc_json(root: &Path) -> Value {
    let target: PathBuf = root.join("target/public-api");
    let status = Command::new(env!("CARGO"))
        .current_dir(root)
        .args([
            "doc",
            "--quiet",
            "--no-deps",
            "-p",
            "dynamap",
            "--all-features",
        ])
        .arg("--target-dir")
        .arg(&target)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .status()
        .expect("run cargo doc");
    assert!(status.success(), "cargo doc failed");
    let text = std::fs::read_to_string(target.join("doc/dynamap.json")).expect("rustdoc json");
    serde_json::from_str(&text).expect("rustdoc json parses")
}

/// One line per public item, sorted: its path and kind, with signatures for functions,
/// types for fields and constants, and the traits each type implements.
fn render(json: &Value) -> String {
    let mut lister = Lister {
        index: &json["index"],
        lines: BTreeSet::new(),
        seen: HashSet::new(),
    };
    let root = json["root"].to_string();
    lister.module(&root, "dynamap");
    let mut out = String::new();
    for line in lister.lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

struct Lister<'a> {
    index: &'a Value,
    lines: BTreeSet<String>,
    /// `(item, path)` pairs walked, so a module re-exported under itself ends.
    seen: HashSet<(String, String)>,
}

impl Lister<'_> {
    fn item(&self, id: &str) -> Option<&Value> {
        self.index.get(id)
    }

    fn module(&mut self, id: &str, path: &str) {
        let Some(module) = self.item(id).cloned() else {
            return;
        };
        for child in module["inner"]["module"]["items"]
            .as_array()
            .into_iter()
            .flatten()
        {
            self.child(&child.to_string(), path);
        }
    }

    fn child(&mut self, id: &str, path: &str) {
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        if let Some(reexport) = item["inner"].get("use") {
            let target = reexport["id"].to_string();
            let name = reexport["name"].as_str().unwrap_or("_");
            match self.item(&target).cloned() {
                Some(target_item) if reexport["is_glob"] == true => {
                    if target_item["inner"].get("module").is_some() {
                        self.module(&target, path);
                    }
                }
                Some(_) => self.named(&target, &format!("{path}::{name}")),
                None => {
                    let source = reexport["source"].as_str().unwrap_or("_");
                    self.lines
                        .insert(format!("pub use {path}::{name} = {source}"));
                }
            }
            return;
        }
        let name = item["name"].as_str().unwrap_or("_").to_owned();
        self.named(id, &format!("{path}::{name}"));
    }

    fn named(&mut self, id: &str, path: &str) {
        if !self.seen.insert((id.to_owned(), path.to_owned())) {
            return;
        }
        let Some(item) = self.item(id).cloned() else {
            return;
        };
        let inner = &item["inner"];
        let (kind, body) = match inner.as_object().and_then(|o| o.iter().next()) {
            Some((kind, body)) => (kind.as_str(), body),
            None => return,
        };
        match kind {
            "module" => {
                self.lines.insert(format!("pub mod {path}"));
                self.module(id, path);
            }
            "struct" => {
                let generics = generics(&body["generics"]);
                self.lines.insert(format!("pub struct {path}{generics}"));
                if let Some(fields) = body["kind"]["plain"]["fields"].as_array() {
                    for field in fields {
                        if let Some(field) = self.item(&field.to_string()) {
                            let name = field["name"].as_str().unwrap_or("_");
                            let ty = ty(&field["inner"]["struct_field"]);
                            self.lines.insert(format!("pub field {path}::{name}: {ty}"));
                        }
                    }
                }
                self.impls(path, &body["impls"]);
            }
            "enum" => {
                let generics = generics(&body["generics"]);
                self.lines.insert(format!("pub enum {path}{generics}"));
                for variant in body["variants"].as_array().into_iter().flatten() {
                    if let Some(variant) = self.item(&variant.to_string()).cloned() {
                        let name = variant["name"].as_str().unwrap_or("_");
                        self.lines.insert(format!("pub variant {path}::{name}"));
                        let fields = &variant["inner"]["variant"]["kind"]["struct"]["fields"];
                        for field in fields.as_array().into_iter().flatten() {
                            if let Some(field) = self.item(&field.to_string()) {
                                let field_name = field["name"].as_str().unwrap_or("_");
                                let ty = ty(&field["inner"]["struct_field"]);
                                self.lines.insert(format!(
                                    "pub variant field {path}::{name}::{field_name}: {ty}"
                                ));
                            }
                        }
                    }
                }
                self.impls(path, &body["impls"]);
            }
            "trait" => {
                let generics = generics(&body["generics"]);
                let bounds = bounds(&body["bounds"]);
                let bounds = if bounds.is_empty() {
                    String::new()
                } else {
                    format!(": {bounds}")
                };
                self.lines
                    .insert(format!("pub trait {path}{generics}{bounds}"));
                for member in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.item(&member.to_string()).cloned() {
                        self.member(path, &member, "trait");
                    }
                }
            }
            "function" => {
                self.lines
                    .insert(format!("pub fn {path}{}", signature(body)));
            }
            "constant" => {
                self.lines
                    .insert(format!("pub const {path}: {}", ty(&body["type"])));
            }
            "static" => {
                self.lines
                    .insert(format!("pub static {path}: {}", ty(&body["type"])));
            }
            "type_alias" => {
                self.lines
                    .insert(format!("pub type {path} = {}", ty(&body["type"])));
            }
            "macro" | "proc_macro" => {
                self.lines.insert(format!("pub macro {path}"));
            }
            other => {
                self.lines.insert(format!("pub {other} {path}"));
            }
        }
    }

    /// Inherent members, and the traits a type implements (not blanket or auto impls).
    fn impls(&mut self, path: &str, impls: &Value) {
        for id in impls.as_array().into_iter().flatten() {
            let Some(imp) = self.item(&id.to_string()).cloned() else {
                continue;
            };
            let body = &imp["inner"]["impl"];
            if body["is_synthetic"] == true || !body["blanket_impl"].is_null() {
                continue;
            }
            if body["trait"].is_null() {
                for member in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.item(&member.to_string()).cloned() {
                        self.member(path, &member, "impl");
                    }
                }
            } else if body["trait"]["path"] == "StructuralPartialEq" {
                // The compiler's marker for `#[derive(PartialEq)]`, not a promise.
            } else {
                let negative = if body["is_negative"] == true { "!" } else { "" };
                let generics = generics(&body["generics"]);
                self.lines.insert(format!(
                    "impl{generics} {negative}{} for {}",
                    resolved_path(&body["trait"]),
                    ty(&body["for"])
                ));
            }
        }
    }

    fn member(&mut self, path: &str, member: &Value, within: &str) {
        let name = member["name"].as_str().unwrap_or("_");
        let inner = &member["inner"];
        let line = if let Some(function) = inner.get("function") {
            format!("{within} fn {path}::{name}{}", signature(function))
        } else if let Some(constant) = inner.get("assoc_const") {
            format!("{within} const {path}::{name}: {}", ty(&constant["type"]))
        } else if let Some(assoc) = inner.get("assoc_type") {
            let bounds = bounds(&assoc["bounds"]);
            format!("{within} type {path}::{name}: {bounds}")
        } else {
            format!("{within} item {path}::{name}")
        };
        self.lines.insert(line);
    }
}

fn signature(function: &Value) -> String {
    let header = &function["header"];
    let mut prefix = String::new();
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if header[flag] == true {
            prefix.push_str(word);
        }
    }
    let inputs: Vec<String> = function["sig"]["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|input| {
            let name = input[0].as_str().unwrap_or("_");
            let ty = ty(&input[1]);
            if name == "self" {
                match ty.as_str() {
                    "Self" => "self".to_owned(),
                    "&Self" => "&self".to_owned(),
                    "&mut Self" => "&mut self".to_owned(),
                    _ => format!("self: {ty}"),
                }
            } else {
                format!("{name}: {ty}")
            }
        })
        .collect();
    let output = match &function["sig"]["output"] {
        Value::Null => String::new(),
        output => format!(" -> {}", ty(output)),
    };
    let generics = generics(&function["generics"]);
    let wheres = where_clause(&function["generics"]);
    format!(
        "{}{generics}({}){output}{wheres}",
        if prefix.is_empty() {
            String::new()
        } else {
            format!(" [{}]", prefix.trim_end())
        },
        inputs.join(", ")
    )
}

/// `<T: Bound, 'a>`, leaving out the parameters rustdoc makes for `impl Trait` arguments.
fn generics(generics: &Value) -> String {
    let params: Vec<String> = generics["params"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|param| {
            let name = param["name"].as_str().unwrap_or("_");
            let kind = &param["kind"];
            if let Some(ty_param) = kind.get("type") {
                if ty_param["is_synthetic"] == true {
                    return None;
                }
                let bounds = bounds(&ty_param["bounds"]);
                Some(if bounds.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {bounds}")
                })
            } else if let Some(konst) = kind.get("const") {
                Some(format!("const {name}: {}", ty(&konst["type"])))
            } else {
                Some(name.to_owned())
            }
        })
        .collect();
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

fn where_clause(generics: &Value) -> String {
    let predicates: Vec<String> = generics["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|predicate| {
            let bound = predicate.get("bound_predicate")?;
            Some(format!(
                "{}: {}",
                ty(&bound["type"]),
                bounds(&bound["bounds"])
            ))
        })
        .collect();
    if predicates.is_empty() {
        String::new()
    } else {
        format!(" where {}", predicates.join(", "))
    }
}

fn bounds(bounds: &Value) -> String {
    bounds
        .as_array()
        .into_iter()
        .flatten()
        .map(|bound| {
            if let Some(trait_bound) = bound.get("trait_bound") {
                let modifier = if trait_bound["modifier"] == "maybe" {
                    "?"
                } else {
                    ""
                };
                format!("{modifier}{}", resolved_path(&trait_bound["trait"]))
            } else if let Some(lifetime) = bound.get("outlives") {
                lifetime.as_str().unwrap_or("'_").to_owned()
            } else if let Some(captures) = bound.get("use") {
                let names: Vec<String> = captures
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| match c {
                        Value::String(s) => s.clone(),
                        Value::Object(o) => o
                            .values()
                            .next()
                            .and_then(Value::as_str)
                            .unwrap_or("_")
                            .to_owned(),
                        _ => "_".to_owned(),
                    })
                    .collect();
                format!("use<{}>", names.join(", "))
            } else {
                "_".to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn resolved_path(path: &Value) -> String {
    let name = path["path"].as_str().unwrap_or("");
    let args = &path["args"];
    if let Some(angle) = args.get("angle_bracketed") {
        let mut parts: Vec<String> = angle["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|arg| {
                if let Some(t) = arg.get("type") {
                    ty(t)
                } else if let Some(l) = arg.get("lifetime") {
                    l.as_str().unwrap_or("'_").to_owned()
                } else {
                    "_".to_owned()
                }
            })
            .collect();
        for constraint in angle["constraints"].as_array().into_iter().flatten() {
            let name = constraint["name"].as_str().unwrap_or("_");
            if let Some(t) = constraint["binding"]
                .get("equality")
                .and_then(|e| e.get("type"))
            {
                parts.push(format!("{name} = {}", ty(t)));
            } else if let Some(b) = constraint["binding"].get("constraint") {
                parts.push(format!("{name}: {}", bounds(b)));
            }
        }
        if parts.is_empty() {
            name.to_owned()
        } else {
            format!("{name}<{}>", parts.join(", "))
        }
    } else if let Some(paren) = args.get("parenthesized") {
        let inputs: Vec<String> = paren["inputs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(ty)
            .collect();
        let output = match &paren["output"] {
            Value::Null => String::new(),
            output => format!(" -> {}", ty(output)),
        };
        format!("{name}({}){output}", inputs.join(", "))
    } else {
        name.to_owned()
    }
}

fn ty(ty: &Value) -> String {
    let Some((kind, body)) = ty.as_object().and_then(|o| o.iter().next()) else {
        return "_".to_owned();
    };
    match kind.as_str() {
        "resolved_path" => resolved_path(body),
        "generic" | "primitive" => body.as_str().unwrap_or("_").to_owned(),
        "borrowed_ref" => {
            let lifetime = body["lifetime"]
                .as_str()
                .map(|l| format!("{l} "))
                .unwrap_or_default();
            let mutable = if body["is_mutable"] == true {
                "mut "
            } else {
                ""
            };
            format!("&{lifetime}{mutable}{}", self::ty(&body["type"]))
        }
        "raw_pointer" => {
            let mutable = if body["is_mutable"] == true {
                "mut"
            } else {
                "const"
            };
            format!("*{mutable} {}", self::ty(&body["type"]))
        }
        "tuple" => {
            let parts: Vec<String> = body
                .as_array()
                .into_iter()
                .flatten()
                .map(self::ty)
                .collect();
            format!("({})", parts.join(", "))
        }
        "slice" => format!("[{}]", self::ty(body)),
        "array" => format!(
            "[{}; {}]",
            self::ty(&body["type"]),
            body["len"].as_str().unwrap_or("_")
        ),
        "impl_trait" => format!("impl {}", bounds(body)),
        "dyn_trait" => {
            let traits: Vec<String> = body["traits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| resolved_path(&t["trait"]))
                .collect();
            format!("dyn {}", traits.join(" + "))
        }
        "qualified_path" => {
            let name = body["name"].as_str().unwrap_or("_");
            let self_type = self::ty(&body["self_type"]);
            // `T::Table` is written without its trait, which rustdoc gives without a path.
            let trait_path = resolved_path(&body["trait"]);
            if body["trait"].is_null() || trait_path.is_empty() {
                format!("{self_type}::{name}")
            } else {
                format!("<{self_type} as {trait_path}>::{name}")
            }
        }
        "function_pointer" => {
            let sig = &body["sig"];
            let inputs: Vec<String> = sig["inputs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| self::ty(&i[1]))
                .collect();
            let output = match &sig["output"] {
                Value::Null => String::new(),
                output => format!(" -> {}", self::ty(output)),
            };
            format!("fn({}){output}", inputs.join(", "))
        }
        "infer" => "_".to_owned(),
        other => format!("<{other}>"),
    }
}
