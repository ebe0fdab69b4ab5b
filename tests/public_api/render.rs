//! Types, bounds, generics and signatures of rustdoc's JSON written as Rust.
//!
//! Every path is resolved through its id, not written as the source spells it, so that a
//! changed `use` in dynamap's code changes no line: items of the listed crate by their public
//! path, those of the other listed crates by theirs, everything else (`core::option::Option`,
//! `aws_sdk_dynamodb::…`) by the path rustdoc gives for its definition, without the modules
//! whose name starts with `_`. A dependency or toolchain update that moves a definition
//! therefore changes lines.

use std::collections::HashMap;

use serde_json::Value;

/// Where the paths of a crate's rustdoc JSON are looked up.
pub(crate) struct Paths<'a> {
    /// Every item of the crate reachable from its root, by its shortest public path.
    pub(crate) public: HashMap<String, String>,
    /// rustdoc's `paths`: definition paths of the items it knows, foreign ones included.
    pub(crate) known: &'a Value,
    /// The public paths of the items of the listed crates this one uses, by definition path.
    pub(crate) listed: &'a HashMap<String, String>,
}

impl Paths<'_> {
    /// The path of the item with this id, or `written` (the source's spelling) if rustdoc
    /// has none for it.
    pub(crate) fn of(&self, id: &Value, written: &str) -> String {
        let key = id.to_string();
        if let Some(public) = self.public.get(&key) {
            return public.clone();
        }
        match definition(self.known, &key) {
            Some(definition) => self.listed.get(&definition).cloned().unwrap_or(definition),
            None => written.to_owned(),
        }
    }

    /// Whether `id` is an item of this crate users cannot name: hidden, or private (rustdoc
    /// knows no path for a stripped one).
    pub(crate) fn is_hidden(&self, id: &Value) -> bool {
        let key = id.to_string();
        let known = &self.known[&key];
        !self.public.contains_key(&key) && (known.is_null() || known["crate_id"] == 0)
    }

    /// The definition paths of this crate's public items, with their public paths, for the
    /// listings of the crates that use it.
    pub(crate) fn exports(&self) -> HashMap<String, String> {
        self.public
            .iter()
            .filter_map(|(id, public)| Some((definition(self.known, id)?, public.clone())))
            .collect()
    }

    pub(crate) fn resolved_path(&self, path: &Value) -> String {
        let name = self.of(&path["id"], path["path"].as_str().unwrap_or("_"));
        let args = &path["args"];
        if let Some(angle) = args.get("angle_bracketed") {
            let mut parts: Vec<String> = each(&angle["args"])
                .map(|arg| {
                    if let Some(t) = arg.get("type") {
                        self.ty(t)
                    } else if let Some(l) = arg.get("lifetime") {
                        l.as_str().unwrap_or("'_").to_owned()
                    } else if let Some(c) = arg.get("const") {
                        c["expr"].as_str().unwrap_or("_").to_owned()
                    } else {
                        "_".to_owned()
                    }
                })
                .collect();
            for constraint in each(&angle["constraints"]) {
                let name = constraint["name"].as_str().unwrap_or("_");
                let binding = &constraint["binding"];
                if let Some(t) = binding.get("equality").and_then(|e| e.get("type")) {
                    parts.push(format!("{name} = {}", self.ty(t)));
                } else if let Some(b) = binding.get("constraint") {
                    parts.push(format!("{name}: {}", self.bounds(b)));
                }
            }
            if parts.is_empty() {
                name
            } else {
                format!("{name}<{}>", parts.join(", "))
            }
        } else if let Some(paren) = args.get("parenthesized") {
            let inputs: Vec<String> = each(&paren["inputs"]).map(|t| self.ty(t)).collect();
            format!(
                "{name}({}){}",
                inputs.join(", "),
                self.output(&paren["output"])
            )
        } else {
            name
        }
    }

    fn output(&self, output: &Value) -> String {
        match output {
            Value::Null => String::new(),
            output => format!(" -> {}", self.ty(output)),
        }
    }

    pub(crate) fn ty(&self, ty: &Value) -> String {
        let Some((kind, body)) = ty.as_object().and_then(|o| o.iter().next()) else {
            return "_".to_owned();
        };
        match kind.as_str() {
            "resolved_path" => self.resolved_path(body),
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
                format!("&{lifetime}{mutable}{}", self.ty(&body["type"]))
            }
            "raw_pointer" => {
                let mutable = if body["is_mutable"] == true {
                    "mut"
                } else {
                    "const"
                };
                format!("*{mutable} {}", self.ty(&body["type"]))
            }
            "tuple" => {
                let parts: Vec<String> = each(body).map(|t| self.ty(t)).collect();
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            }
            "slice" => format!("[{}]", self.ty(body)),
            "array" => format!(
                "[{}; {}]",
                self.ty(&body["type"]),
                body["len"].as_str().unwrap_or("_")
            ),
            "pat" => self.ty(&body["type"]),
            "impl_trait" => format!("impl {}", self.bounds(body)),
            "dyn_trait" => {
                let mut traits: Vec<String> = each(&body["traits"])
                    .map(|t| {
                        format!(
                            "{}{}",
                            higher_ranked(&t["generic_params"]),
                            self.resolved_path(&t["trait"])
                        )
                    })
                    .collect();
                if let Some(lifetime) = body["lifetime"].as_str() {
                    traits.push(lifetime.to_owned());
                }
                format!("dyn {}", traits.join(" + "))
            }
            "qualified_path" => {
                let name = body["name"].as_str().unwrap_or("_");
                let self_type = self.ty(&body["self_type"]);
                if body["trait"].is_null() {
                    format!("{self_type}::{name}")
                } else {
                    let trait_path = self.resolved_path(&body["trait"]);
                    format!("<{self_type} as {trait_path}>::{name}")
                }
            }
            "function_pointer" => {
                let inputs: Vec<String> = each(&body["sig"]["inputs"])
                    .map(|i| self.ty(&i[1]))
                    .collect();
                let unsafety = if body["header"]["is_unsafe"] == true {
                    "unsafe "
                } else {
                    ""
                };
                format!(
                    "{}{unsafety}fn({}){}",
                    higher_ranked(&body["generic_params"]),
                    inputs.join(", "),
                    self.output(&body["sig"]["output"])
                )
            }
            "infer" => "_".to_owned(),
            other => format!("<{other}>"),
        }
    }

    pub(crate) fn bounds(&self, bounds: &Value) -> String {
        each(bounds)
            .map(|bound| {
                if let Some(trait_bound) = bound.get("trait_bound") {
                    let modifier = match trait_bound["modifier"].as_str() {
                        Some("maybe") => "?",
                        Some("maybe_const") => "~const ",
                        _ => "",
                    };
                    format!(
                        "{}{modifier}{}",
                        higher_ranked(&trait_bound["generic_params"]),
                        self.resolved_path(&trait_bound["trait"])
                    )
                } else if let Some(lifetime) = bound.get("outlives") {
                    lifetime.as_str().unwrap_or("'_").to_owned()
                } else if let Some(captures) = bound.get("use") {
                    let names: Vec<String> = each(captures)
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

    /// `<T: Bound, 'a: 'b, const N: usize>`, leaving out the parameters rustdoc makes for
    /// `impl Trait` arguments (the arguments show them).
    pub(crate) fn generics(&self, generics: &Value) -> String {
        let params: Vec<String> = each(&generics["params"])
            .filter_map(|param| self.param(param))
            .collect();
        if params.is_empty() {
            String::new()
        } else {
            format!("<{}>", params.join(", "))
        }
    }

    fn param(&self, param: &Value) -> Option<String> {
        let name = param["name"].as_str().unwrap_or("_");
        let kind = &param["kind"];
        if let Some(ty_param) = kind.get("type") {
            if ty_param["is_synthetic"] == true {
                return None;
            }
            let mut out = name.to_owned();
            let bounds = self.bounds(&ty_param["bounds"]);
            if !bounds.is_empty() {
                out.push_str(&format!(": {bounds}"));
            }
            if !ty_param["default"].is_null() {
                out.push_str(&format!(" = {}", self.ty(&ty_param["default"])));
            }
            Some(out)
        } else if let Some(konst) = kind.get("const") {
            let mut out = format!("const {name}: {}", self.ty(&konst["type"]));
            if let Some(default) = konst["default"].as_str() {
                out.push_str(&format!(" = {default}"));
            }
            Some(out)
        } else if let Some(lifetime) = kind.get("lifetime") {
            let outlives: Vec<&str> = each(&lifetime["outlives"])
                .filter_map(Value::as_str)
                .collect();
            Some(if outlives.is_empty() {
                name.to_owned()
            } else {
                format!("{name}: {}", outlives.join(" + "))
            })
        } else {
            Some(name.to_owned())
        }
    }

    /// ` where T: Bound, 'a: 'b` or nothing.
    pub(crate) fn where_clause(&self, generics: &Value) -> String {
        let predicates: Vec<String> = each(&generics["where_predicates"])
            .map(|predicate| {
                if let Some(bound) = predicate.get("bound_predicate") {
                    format!(
                        "{}{}: {}",
                        higher_ranked(&bound["generic_params"]),
                        self.ty(&bound["type"]),
                        self.bounds(&bound["bounds"])
                    )
                } else if let Some(lifetime) = predicate.get("lifetime_predicate") {
                    let outlives: Vec<&str> = each(&lifetime["outlives"])
                        .filter_map(Value::as_str)
                        .collect();
                    format!(
                        "{}: {}",
                        lifetime["lifetime"].as_str().unwrap_or("'_"),
                        outlives.join(" + ")
                    )
                } else if let Some(eq) = predicate.get("eq_predicate") {
                    let rhs = eq["rhs"]
                        .get("type")
                        .map(|t| self.ty(t))
                        .unwrap_or_else(|| "_".to_owned());
                    format!("{} = {rhs}", self.ty(&eq["lhs"]))
                } else {
                    "_".to_owned()
                }
            })
            .collect();
        if predicates.is_empty() {
            String::new()
        } else {
            format!(" where {}", predicates.join(", "))
        }
    }

    /// `NAME<G>(inputs) -> Output where W` of a function item; the qualifiers (`const`,
    /// `async`, `unsafe`, an ABI) are [`qualifiers`]'s.
    pub(crate) fn signature(&self, name: &str, function: &Value) -> String {
        let inputs: Vec<String> = each(&function["sig"]["inputs"])
            .map(|input| {
                let arg = input[0].as_str().unwrap_or("_");
                let ty = self.ty(&input[1]);
                if arg == "self" {
                    match ty.as_str() {
                        "Self" => "self".to_owned(),
                        "&Self" => "&self".to_owned(),
                        "&mut Self" => "&mut self".to_owned(),
                        _ => format!("self: {ty}"),
                    }
                } else {
                    format!("{arg}: {ty}")
                }
            })
            .collect();
        format!(
            "{name}{}({}){}{}",
            self.generics(&function["generics"]),
            inputs.join(", "),
            self.output(&function["sig"]["output"]),
            self.where_clause(&function["generics"])
        )
    }
}

/// The path rustdoc gives for the definition of item `id`, without the modules whose name
/// starts with `_`: `aws_sdk_dynamodb::types::_attribute_value::AttributeValue` is
/// re-exported from its `_`-private module as `aws_sdk_dynamodb::types::AttributeValue`.
pub(crate) fn definition(known: &Value, id: &str) -> Option<String> {
    let segments: Vec<&str> = each(&known[id]["path"])
        .filter_map(Value::as_str)
        .filter(|s| !s.starts_with('_'))
        .collect();
    (!segments.is_empty()).then(|| segments.join("::"))
}

/// `const async unsafe extern "C" ` before `fn`: what a caller relies on besides the types.
pub(crate) fn qualifiers(function: &Value) -> String {
    let header = &function["header"];
    let mut out = String::new();
    for (flag, word) in [
        ("is_const", "const "),
        ("is_async", "async "),
        ("is_unsafe", "unsafe "),
    ] {
        if header[flag] == true {
            out.push_str(word);
        }
    }
    match &header["abi"] {
        Value::String(rust) if rust == "Rust" => {}
        Value::Null => {}
        abi => {
            let name = abi
                .as_object()
                .and_then(|o| o.keys().next().cloned())
                .or_else(|| abi.as_str().map(str::to_owned))
                .unwrap_or_default();
            out.push_str(&format!("extern \"{name}\" "));
        }
    }
    out
}

/// `for<'a> ` of a higher-ranked bound, or nothing.
fn higher_ranked(params: &Value) -> String {
    let names: Vec<&str> = each(params).filter_map(|p| p["name"].as_str()).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("for<{}> ", names.join(", "))
    }
}

/// The elements of a JSON array, none for anything else.
pub(crate) fn each(value: &Value) -> impl Iterator<Item = &Value> {
    value.as_array().into_iter().flatten()
}
