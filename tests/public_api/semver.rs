//! Which differences between the release baseline and today's listing break users, and
//! whether `CHANGELOG.md` announces them. Pure functions on listing lines.
//!
//! A break is a baseline line that is gone or changed (a removal, a changed signature, a lost
//! auto trait, a tightened bound, a lost `#[dyn_compatible]`), except the marks whose loss
//! only frees users (`#[non_exhaustive]`, `#[private_fields]`, `#[sealed]`, `#[deprecated]`)
//! and a required trait item that became provided; and an added line that breaks code
//! written against the baseline:
//! - a required item of a trait that users may implement (not `#[sealed]`);
//! - a variant of an enum, or a field of a struct or struct variant, that users may match
//!   exhaustively or build (not `#[non_exhaustive]`, no `#[private_fields]`);
//! - `#[non_exhaustive]`, `#[private_fields]` or `#[sealed]` on an item of the baseline
//!   (but one of the first two on a struct that had the other: users could not build it).

use std::collections::{BTreeSet, HashSet};

/// Marks whose removal takes nothing from users.
const RELAXED_WHEN_GONE: [&str; 4] = ["non_exhaustive", "private_fields", "sealed", "deprecated"];
/// Marks whose addition to an existing item takes something from users.
const RESTRICTING: [&str; 3] = ["non_exhaustive", "private_fields", "sealed"];

/// One line of a listing, split where the classifier looks.
#[derive(Debug, PartialEq)]
pub(crate) struct Line<'a> {
    pub(crate) text: &'a str,
    /// `non_exhaustive` of `#[non_exhaustive] struct dynamap::Page`.
    pub(crate) mark: Option<&'a str>,
    /// The words before the path: `struct`, `required async fn`, `field`; `impl` for impls.
    pub(crate) kind: String,
    /// The item the line is about: `dynamap::Db::put`; an impl's type if it is the crate's,
    /// else its trait.
    pub(crate) path: String,
}

pub(crate) fn parse<'a>(krate: &str, text: &'a str) -> Line<'a> {
    let (mark, rest) = match text.strip_prefix("#[").and_then(|t| t.split_once("] ")) {
        Some((mark, rest)) => (Some(mark), rest),
        None => (None, text),
    };
    if let Some(imp) = rest
        .strip_prefix("unsafe ")
        .unwrap_or(rest)
        .strip_prefix("impl")
    {
        return Line {
            text,
            mark,
            kind: "impl".to_owned(),
            path: impl_subject(krate, imp),
        };
    }
    let mut kind = Vec::new();
    let mut path = String::new();
    for word in rest.split(' ') {
        if word.contains("::") {
            path = path_prefix(word);
            break;
        }
        kind.push(word);
    }
    Line {
        text,
        mark,
        kind: kind.join(" "),
        path,
    }
}

/// `dynamap::Db::put` of `dynamap::Db::put<E>(`, `dynamap::Page::items` of
/// `dynamap::Page::items:`.
fn path_prefix(word: &str) -> String {
    let mut out = String::new();
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' || c == '*' {
            out.push(c);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push_str("::");
        } else {
            break;
        }
    }
    out
}

/// The type of `<G> Trait for Type where …` when it is the crate's, else the trait.
fn impl_subject(krate: &str, imp: &str) -> String {
    let mut depth = 0usize;
    let mut split = None;
    for (at, c) in imp.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 && imp[at..].starts_with(" for ") => {
                split = Some(at);
                break;
            }
            _ => {}
        }
    }
    let Some(at) = split else {
        return String::new();
    };
    let trait_part = imp[..at].rsplit(' ').next().unwrap_or("");
    // `&'a mut dynamap::expr::Path<E, T>`: the path after the reference.
    let for_type = imp[at + " for ".len()..]
        .split(' ')
        .map(|word| word.trim_start_matches(['&', '*']))
        .find(|word| {
            !word.is_empty() && !word.starts_with('\'') && !["mut", "const"].contains(word)
        })
        .map(path_prefix)
        .unwrap_or_default();
    if for_type.starts_with(&format!("{krate}::")) {
        for_type
    } else {
        path_prefix(trait_part.trim_start_matches('!'))
    }
}

/// Lines of a listing file: not its `# ` header, not blank.
pub(crate) fn lines(listing: &str) -> impl Iterator<Item = &str> {
    listing
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("# "))
}

/// A difference that breaks code written against the baseline.
#[derive(Debug, PartialEq)]
pub(crate) struct Break {
    /// The item it concerns, as the listing names it (`dynamap::Db::put`).
    pub(crate) path: String,
    /// `gone: …`, `changed: …\n   to: …` or `added: … (why)`.
    pub(crate) what: String,
}

/// Every break between the baseline and today's listing of crate `krate`.
pub(crate) fn breaks(krate: &str, baseline: &str, current: &str) -> Vec<Break> {
    let old: BTreeSet<&str> = lines(baseline).collect();
    let new: BTreeSet<&str> = lines(current).collect();
    let old_lines: Vec<Line<'_>> = old.iter().map(|l| parse(krate, l)).collect();
    let gone: Vec<Line<'_>> = old.difference(&new).map(|l| parse(krate, l)).collect();
    let added: Vec<Line<'_>> = new.difference(&old).map(|l| parse(krate, l)).collect();
    let mut paired: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for line in &gone {
        if line.mark.is_some_and(|m| RELAXED_WHEN_GONE.contains(&m)) {
            continue;
        }
        let successor = added
            .iter()
            .find(|a| !paired.contains(a.text) && a.mark == line.mark && same_item(line, a));
        match successor {
            Some(new) => {
                paired.insert(new.text);
                let freed = line
                    .text
                    .strip_prefix("required ")
                    .is_some_and(|rest| new.text.strip_prefix("provided ") == Some(rest));
                if !freed {
                    out.push(Break {
                        path: line.path.clone(),
                        what: format!("changed: {}\n      to: {}", line.text, new.text),
                    });
                }
            }
            None => out.push(Break {
                path: line.path.clone(),
                what: format!("gone: {}", line.text),
            }),
        }
    }
    for line in added.iter().filter(|a| !paired.contains(a.text)) {
        if let Some(why) = breaking_addition(&old_lines, line) {
            out.push(Break {
                path: line.path.clone(),
                what: format!("added: {} ({why})", line.text),
            });
        }
    }
    out
}

/// Whether two lines describe the same thing: the same item, or the same trait's impl for
/// the same type.
fn same_item(a: &Line<'_>, b: &Line<'_>) -> bool {
    let base = |kind: &str| kind.rsplit(' ').next().unwrap_or("").to_owned();
    if a.path != b.path || base(&a.kind) != base(&b.kind) {
        return false;
    }
    a.kind != "impl" || impl_trait_name(a.text) == impl_trait_name(b.text)
}

/// `core::marker::Send` of `impl<L> core::marker::Send for dynamap::Db<L> where …`.
fn impl_trait_name(text: &str) -> String {
    let head = text.split(" for ").next().unwrap_or("");
    path_prefix(
        head.rsplit(' ')
            .next()
            .unwrap_or("")
            .trim_start_matches('!'),
    )
}

/// Why an added line breaks code written against the baseline, if it does.
fn breaking_addition(old: &[Line<'_>], line: &Line<'_>) -> Option<&'static str> {
    let has = |mark: Option<&str>, kind: &str, path: &str| {
        old.iter()
            .any(|l| l.mark == mark && l.path == path && l.kind.ends_with(kind))
    };
    let exists = |path: &str| old.iter().any(|l| l.mark.is_none() && l.path == path);
    let parent = line.path.rsplit_once("::").map_or("", |(p, _)| p);
    if let Some(mark) = line.mark {
        // A struct users could not build already (one of the two marks) loses nothing by
        // the other.
        let already = match mark {
            "non_exhaustive" if line.kind != "enum" => Some("private_fields"),
            "private_fields" => Some("non_exhaustive"),
            _ => None,
        };
        let closed = already.is_some_and(|other| has(Some(other), &line.kind, &line.path));
        return (RESTRICTING.contains(&mark) && exists(&line.path) && !closed)
            .then_some("a restriction on an item users already use");
    }
    if line.kind.starts_with("required ") && has(None, "trait", parent) {
        return (!has(Some("sealed"), "trait", parent))
            .then_some("a new required item of a trait users may implement");
    }
    if line.kind == "variant" && has(None, "enum", parent) {
        return (!has(Some("non_exhaustive"), "enum", parent))
            .then_some("a new variant of an enum users may match exhaustively");
    }
    if line.kind == "field" {
        for kind in ["struct", "variant"] {
            if has(None, kind, parent) {
                let open = has(Some("non_exhaustive"), kind, parent)
                    || has(Some("private_fields"), kind, parent);
                return (!open).then_some("a new field where users may build or match all fields");
            }
        }
    }
    None
}

/// The names `CHANGELOG.md` announces as breaking: the backquoted spans under a heading of
/// its `## Unreleased` section whose text contains "breaking" (any case, "non-breaking" not
/// counted), up to the next
/// heading of the same or a higher level. A span is cut at its first `<`, `(`, `!`, `{` or
/// space, so `` `Db<L>` `` names `Db` and `` `Db::put()` `` names `Db::put`.
pub(crate) fn announced(changelog: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut in_unreleased = false;
    let mut breaking_level: Option<usize> = None;
    let mut in_code = false;
    for line in changelog.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.starts_with("## ") {
            in_unreleased = line
                .trim_start_matches("## ")
                .trim()
                .starts_with("Unreleased");
            breaking_level = None;
            continue;
        }
        if !in_unreleased {
            continue;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if level > 0 && line[level..].starts_with(' ') {
            if breaking_level.is_some_and(|b| level <= b) {
                breaking_level = None;
            }
            if line
                .to_lowercase()
                .replace("non-breaking", "")
                .contains("breaking")
            {
                breaking_level = Some(level);
            }
        }
        if breaking_level.is_some() {
            for span in line.split('`').skip(1).step_by(2) {
                let end = span.find(['<', '(', '!', '{', ' ']).unwrap_or(span.len());
                let name = span[..end].trim_end_matches("::");
                if !name.is_empty() {
                    names.insert(name.to_owned());
                }
            }
        }
    }
    names
}

/// Whether a name announces the item at `path`: the name is the item's path or one of its
/// parents', with or without the crate's name (`Db`, `Db::put`, `dynamap::Db::put` all
/// announce `dynamap::Db::put`).
pub(crate) fn is_announced(names: &BTreeSet<String>, path: &str) -> bool {
    let relative = path.split_once("::").map_or(path, |(_, rest)| rest);
    names.iter().any(|name| {
        [path, relative]
            .iter()
            .any(|p| p == name || p.starts_with(&format!("{name}::")))
    })
}
