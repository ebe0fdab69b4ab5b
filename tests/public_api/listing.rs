//! A crate's public surface as lines, from rustdoc's JSON: one fact a line, each line readable
//! alone, grouped by the item it is about (`docs/api/README.md` describes the lines).
//!
//! Every item is listed once, at its shortest public path; each other path that reaches it is
//! a `use ALIAS = PATH` line. Hidden items (`#[doc(hidden)]`, `__private`) are not in rustdoc's
//! output at all. Blanket impls (`impl<T> From<T> for T`, `impl<T: Any> Any for T`, ...) that
//! rustdoc copies onto every type are left out: they follow from the type's other lines. The
//! crate's own blanket impls of its traits are listed, with the trait.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use crate::render::{Paths, each, qualifiers};
use crate::walk::{Walk, shortest};

/// The auto traits whose impls rustdoc works out (`synthetic`) that users rely on.
const AUTO_TRAITS: [&str; 5] = ["Send", "Sync", "Unpin", "UnwindSafe", "RefUnwindSafe"];

/// The listing of one crate's rustdoc JSON (sorted lines, each ending in a newline), and its
/// public paths by definition path, for the crates listed after it (see [`Paths::exports`]).
pub(crate) fn listing(
    json: &Value,
    listed: &HashMap<String, String>,
) -> (String, HashMap<String, String>) {
    let index = &json["index"];
    let root = json["root"].to_string();
    let krate = index[&root]["name"].as_str().unwrap_or("_").to_owned();
    let mut walk = Walk {
        index,
        known: &json["paths"],
        reached: Vec::new(),
        reexports: Vec::new(),
        seen: HashSet::new(),
    };
    walk.module(&root, &krate);
    let mut public: HashMap<String, String> = HashMap::new();
    for (id, path) in &walk.reached {
        let shorter = public.get(id).is_none_or(|old| shortest(path, old));
        if shorter {
            public.insert(id.clone(), path.clone());
        }
    }
    let mut modules: HashSet<String> = public
        .iter()
        .filter(|(id, _)| index[id.as_str()]["inner"].get("module").is_some())
        .map(|(_, path)| path.clone())
        .collect();
    modules.insert(krate);
    let lister = Lister {
        index,
        paths: Paths {
            public,
            known: &json["paths"],
            listed,
        },
        lines: RefCell::new(BTreeMap::new()),
    };
    for (id, path) in &walk.reached {
        if !modules.contains(parent(path)) {
            continue; // under a second path of a module, which its own `use` line covers
        }
        if lister.paths.public.get(id) == Some(path) {
            lister.item(id, path);
        } else if let Some(canonical) = lister.paths.public.get(id).cloned() {
            lister.add(path, 0, format!("use {path} = {canonical}"));
        }
    }
    for (path, target) in &walk.reexports {
        if modules.contains(parent(path.trim_end_matches("::*"))) {
            lister.add(path, 0, format!("use {path} = {target}"));
        }
    }
    let exports = lister.paths.exports();
    let mut sorted: Vec<_> = lister.lines.into_inner().into_iter().collect();
    sorted.sort_by(|(a, (a_owner, a_rank)), (b, (b_owner, b_rank))| {
        (a_owner, a_rank, a).cmp(&(b_owner, b_rank, b))
    });
    let text = sorted.into_iter().map(|(line, _)| line + "\n").collect();
    (text, exports)
}

/// The path a line is about with its last segment dropped.
fn parent(path: &str) -> &str {
    path.rsplit_once("::").map_or("", |(parent, _)| parent)
}

/// The lines, each with the path of the item it is about and its rank among that item's
/// lines (the item, its marks, fields and variants, members, impls).
struct Lister<'a> {
    index: &'a Value,
    paths: Paths<'a>,
    lines: RefCell<BTreeMap<String, (Vec<String>, u8)>>,
}

impl Lister<'_> {
    fn add(&self, owner: &str, rank: u8, line: String) {
        let owner = owner.split("::").map(str::to_owned).collect();
        self.lines.borrow_mut().entry(line).or_insert((owner, rank));
    }

    /// `#[non_exhaustive]` and `#[deprecated]` as they are written on the item.
    fn marks(&self, item: &Value, kind: &str, path: &str, owner: &str) {
        let non_exhaustive = each(&item["attrs"])
            .any(|a| a == "non_exhaustive" || a["other"].as_str() == Some("#[non_exhaustive]"));
        if non_exhaustive {
            self.add(owner, 1, format!("#[non_exhaustive] {kind} {path}"));
        }
        if !item["deprecation"].is_null() {
            self.add(owner, 1, format!("#[deprecated] {kind} {path}"));
        }
    }

    fn item(&self, id: &str, path: &str) {
        let item = &self.index[id];
        let Some((kind, body)) = item["inner"].as_object().and_then(|o| o.iter().next()) else {
            return;
        };
        let p = &self.paths;
        match kind.as_str() {
            "module" => {
                self.add(path, 0, format!("mod {path}"));
                self.marks(item, "mod", path, path);
            }
            "struct" | "union" => {
                let generics = p.generics(&body["generics"]);
                let wheres = p.where_clause(&body["generics"]);
                let shape = match &body["kind"] {
                    Value::String(unit) if unit == "unit" => ";",
                    shape if shape.get("tuple").is_some() => "(…)",
                    _ => "",
                };
                self.add(path, 0, format!("{kind} {path}{generics}{shape}{wheres}"));
                self.marks(item, kind, path, path);
                let fields = &body["kind"];
                self.fields(kind, path, fields);
                self.impls(path, &body["impls"]);
            }
            "enum" => {
                let generics = p.generics(&body["generics"]);
                let wheres = p.where_clause(&body["generics"]);
                self.add(path, 0, format!("enum {path}{generics}{wheres}"));
                self.marks(item, "enum", path, path);
                for variant in each(&body["variants"]) {
                    self.variant(&variant.to_string(), path);
                }
                self.impls(path, &body["impls"]);
            }
            "trait" => self.r#trait(id, path, body),
            "function" => {
                let line = format!("{}fn {}", qualifiers(body), p.signature(path, body));
                self.add(path, 0, line);
                self.marks(item, "fn", path, path);
            }
            "constant" | "static" => {
                let word = match (kind.as_str(), body["is_mutable"] == true) {
                    ("constant", _) => "const",
                    (_, false) => "static",
                    (_, true) => "static mut",
                };
                self.add(path, 0, format!("{word} {path}: {}", p.ty(&body["type"])));
                self.marks(item, word, path, path);
            }
            "type_alias" => {
                let line = format!(
                    "type {path}{} = {}{}",
                    p.generics(&body["generics"]),
                    p.ty(&body["type"]),
                    p.where_clause(&body["generics"])
                );
                self.add(path, 0, line);
                self.marks(item, "type", path, path);
            }
            "macro" => self.add(path, 0, format!("macro {path}!")),
            "proc_macro" => {
                let helpers: Vec<&str> = each(&body["helpers"]).filter_map(Value::as_str).collect();
                let line = match body["kind"].as_str() {
                    Some("derive") if helpers.is_empty() => format!("derive macro {path}"),
                    Some("derive") => {
                        format!("derive macro {path} attributes({})", helpers.join(", "))
                    }
                    Some("attr") => format!("attribute macro {path}"),
                    _ => format!("macro {path}!"),
                };
                self.add(path, 0, line);
            }
            other => self.add(path, 0, format!("{other} {path}")),
        }
    }

    /// The public fields of a struct, union or struct variant, and a mark if any is not.
    fn fields(&self, kind: &str, path: &str, shape: &Value) {
        let (ids, stripped): (Vec<&Value>, bool) = if let Some(tuple) = shape.get("tuple") {
            let ids: Vec<&Value> = each(tuple).collect();
            let stripped = ids.iter().any(|id| id.is_null());
            (ids, stripped)
        } else if let Some(plain) = shape.get("plain").or_else(|| shape.get("struct")) {
            (
                each(&plain["fields"]).collect(),
                plain["has_stripped_fields"] == true,
            )
        } else {
            (Vec::new(), false)
        };
        if stripped {
            self.add(path, 1, format!("#[private_fields] {kind} {path}"));
        }
        for id in ids.into_iter().filter(|id| !id.is_null()) {
            let field = &self.index[&id.to_string()];
            let name = field["name"].as_str().unwrap_or("_");
            let ty = self.paths.ty(&field["inner"]["struct_field"]);
            self.add(path, 2, format!("field {path}::{name}: {ty}"));
            self.marks(field, "field", &format!("{path}::{name}"), path);
        }
    }

    fn variant(&self, id: &str, enum_path: &str) {
        let variant = &self.index[id];
        let name = variant["name"].as_str().unwrap_or("_");
        let path = format!("{enum_path}::{name}");
        let body = &variant["inner"]["variant"];
        let kind = &body["kind"];
        let shape = if let Some(tuple) = kind.get("tuple") {
            let types: Vec<String> = each(tuple)
                .map(|id| {
                    let field = &self.index[&id.to_string()];
                    if field.is_null() {
                        "_".to_owned()
                    } else {
                        self.paths.ty(&field["inner"]["struct_field"])
                    }
                })
                .collect();
            format!("({})", types.join(", "))
        } else if kind.get("struct").is_some() {
            " {…}".to_owned()
        } else {
            String::new()
        };
        let discriminant = body["discriminant"]["expr"]
            .as_str()
            .map(|d| format!(" = {d}"))
            .unwrap_or_default();
        self.add(enum_path, 2, format!("variant {path}{shape}{discriminant}"));
        self.marks(variant, "variant", &path, enum_path);
        if kind.get("struct").is_some() {
            self.fields("variant", &path, kind);
        }
    }

    fn r#trait(&self, id: &str, path: &str, body: &Value) {
        let p = &self.paths;
        let bounds = p.bounds(&body["bounds"]);
        let bounds = if bounds.is_empty() {
            String::new()
        } else {
            format!(": {bounds}")
        };
        let unsafety = if body["is_unsafe"] == true {
            "unsafe "
        } else {
            ""
        };
        let auto = if body["is_auto"] == true { "auto " } else { "" };
        let line = format!(
            "{unsafety}{auto}trait {path}{}{bounds}{}",
            p.generics(&body["generics"]),
            p.where_clause(&body["generics"])
        );
        // Sealed: a supertrait of the crate's own that users cannot name.
        let sealed = each(&body["bounds"])
            .filter_map(|bound| bound.get("trait_bound"))
            .any(|bound| p.is_hidden(&bound["trait"]["id"]));
        let dyn_compatible = body["is_dyn_compatible"] == true;
        self.add(path, 0, line);
        self.marks(&self.index[id], "trait", path, path);
        if sealed {
            self.add(path, 1, format!("#[sealed] trait {path}"));
        }
        if dyn_compatible {
            self.add(path, 1, format!("#[dyn_compatible] trait {path}"));
        }
        for member in each(&body["items"]) {
            let member = &self.index[&member.to_string()];
            self.member(path, member, None);
        }
        self.impls(path, &body["implementations"]);
    }

    /// A trait's item (`within` is `None`: required or provided) or an inherent impl's
    /// (`within` is the impl block, when it has generics or bounds of its own).
    fn member(&self, owner: &str, member: &Value, within: Option<&str>) {
        let Some(name) = member["name"].as_str() else {
            return;
        };
        let path = format!("{owner}::{name}");
        let inner = &member["inner"];
        let p = &self.paths;
        let (word, line, has_default) = if let Some(function) = inner.get("function") {
            let line = format!(
                "{}fn {}",
                qualifiers(function),
                p.signature(&path, function)
            );
            ("fn", line, function["has_body"] == true)
        } else if let Some(constant) = inner.get("assoc_const") {
            let line = format!("const {path}: {}", p.ty(&constant["type"]));
            ("const", line, !constant["value"].is_null())
        } else if let Some(assoc) = inner.get("assoc_type") {
            let bounds = p.bounds(&assoc["bounds"]);
            let bounds = if bounds.is_empty() {
                String::new()
            } else {
                format!(": {bounds}")
            };
            let line = format!(
                "type {path}{}{bounds}{}",
                p.generics(&assoc["generics"]),
                p.where_clause(&assoc["generics"])
            );
            ("type", line, !assoc["type"].is_null())
        } else {
            return;
        };
        let line = match within {
            None if has_default => format!("provided {line}"),
            None => format!("required {line}"),
            Some("") => line,
            Some(block) => format!("{line} [{block}]"),
        };
        self.add(owner, 3, line);
        self.marks(member, word, &path, owner);
    }

    /// Inherent members, trait impls and auto-trait impls of a type, or the impls of a trait.
    fn impls(&self, owner: &str, impls: &Value) {
        for id in each(impls) {
            let imp = &self.index[&id.to_string()];
            let body = &imp["inner"]["impl"];
            if body.is_null() || !body["blanket_impl"].is_null() {
                continue;
            }
            let p = &self.paths;
            let generics = p.generics(&body["generics"]);
            let wheres = p.where_clause(&body["generics"]);
            let for_type = p.ty(&body["for"]);
            if body["trait"].is_null() {
                let block = if generics.is_empty() && wheres.is_empty() && for_type == owner {
                    String::new()
                } else {
                    format!("impl{generics} {for_type}{wheres}")
                };
                for member in each(&body["items"]) {
                    let member = &self.index[&member.to_string()];
                    self.member(owner, member, Some(&block));
                }
                continue;
            }
            let trait_path = p.resolved_path(&body["trait"]);
            if p.is_hidden(&body["trait"]["id"]) {
                continue; // a hidden trait's (a seal's): not public API
            }
            let name = trait_path.rsplit("::").next().unwrap_or("");
            if body["is_synthetic"] == true && !AUTO_TRAITS.contains(&name) {
                continue; // `Freeze`, `UnsafeUnpin`: unstable, nothing users can name
            }
            if name == "StructuralPartialEq" {
                continue; // the compiler's mark of `#[derive(PartialEq)]`, not a promise
            }
            let assoc: Vec<String> = each(&body["items"])
                .filter_map(|item| {
                    let item = &self.index[&item.to_string()];
                    let name = item["name"].as_str()?;
                    let ty = item["inner"]["assoc_type"]["type"].as_object()?;
                    Some(format!(
                        "type {name} = {}",
                        p.ty(&Value::Object(ty.clone()))
                    ))
                })
                .collect();
            let assoc = if assoc.is_empty() {
                String::new()
            } else {
                format!(" {{ {} }}", assoc.join("; "))
            };
            let unsafety = if body["is_unsafe"] == true {
                "unsafe "
            } else {
                ""
            };
            let negative = if body["is_negative"] == true { "!" } else { "" };
            let line = format!(
                "{unsafety}impl{generics} {negative}{trait_path} for {for_type}{wheres}{assoc}"
            );
            // Listed with the type when it is one of the crate's, else with the trait.
            let type_owner = body["for"]["resolved_path"]["id"].to_string();
            let owner = match p.public.get(&type_owner) {
                Some(type_path) => type_path.clone(),
                None => owner.to_owned(),
            };
            self.add(&owner, 4, line);
        }
    }
}
