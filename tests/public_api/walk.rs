//! Every item a crate's users can reach, with each path that reaches it: the modules walked
//! from the crate's root, through `pub use` (globs included). rustdoc's JSON holds no hidden
//! or private item, so whatever is reached is public.

use std::collections::HashSet;

use serde_json::Value;

use crate::render::{definition, each};

/// Whether path `new` is shorter than `old` (fewer segments, then first in order): an item
/// is listed at its shortest path, and the others are `use` lines to it.
pub(crate) fn shortest(new: &str, old: &str) -> bool {
    (new.matches("::").count(), new) < (old.matches("::").count(), old)
}

/// Every `(item, public path)` reachable from the crate's root.
pub(crate) struct Walk<'a> {
    pub(crate) index: &'a Value,
    pub(crate) known: &'a Value,
    pub(crate) reached: Vec<(String, String)>,
    /// `pub use` of items rustdoc did not inline (other crates' items): path and target.
    pub(crate) reexports: Vec<(String, String)>,
    pub(crate) seen: HashSet<(String, String)>,
}

impl Walk<'_> {
    pub(crate) fn module(&mut self, id: &str, path: &str) {
        let items: Vec<String> = each(&self.index[id]["inner"]["module"]["items"])
            .map(Value::to_string)
            .collect();
        for child in items {
            let item = &self.index[child.as_str()];
            if let Some(reexport) = item["inner"].get("use") {
                let target = reexport["id"].to_string();
                let name = reexport["name"].as_str().unwrap_or("_");
                let inlined = self.index.get(&target).is_some();
                let glob = reexport["is_glob"] == true;
                match (inlined, glob) {
                    (true, true) => self.module(&target, path),
                    (true, false) => self.reached(&target, &format!("{path}::{name}")),
                    (false, _) => {
                        let source = definition(self.known, &target).unwrap_or_else(|| {
                            reexport["source"].as_str().unwrap_or("_").to_owned()
                        });
                        let (alias, source) = if glob {
                            (format!("{path}::*"), format!("{source}::*"))
                        } else {
                            (format!("{path}::{name}"), source)
                        };
                        self.reexports.push((alias, source));
                    }
                }
            } else if let Some(name) = item["name"].as_str() {
                self.reached(&child, &format!("{path}::{name}"));
            }
        }
    }

    fn reached(&mut self, id: &str, path: &str) {
        if !self.seen.insert((id.to_owned(), path.to_owned())) {
            return;
        }
        self.reached.push((id.to_owned(), path.to_owned()));
        if self.index[id]["inner"].get("module").is_some() {
            self.module(id, path);
        }
    }
}
