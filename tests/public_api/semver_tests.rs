//! The break classifier and the changelog rule, on small listings written by hand.

use std::collections::BTreeSet;

use crate::semver::{announced, breaks, is_announced, parse};

const BASELINE: &str = "\
# dynamap 0.1.0: the public surface at this release
struct dynamap::Db<L: dynamap::Table>
fn dynamap::Db::put<E>(&self, entity: E) -> dynamap::ops::Put<L, E> [impl<L: dynamap::Table> dynamap::Db<L>]
fn dynamap::Db::get(&self)
impl<L> core::marker::Send for dynamap::Db<L> where L: core::marker::Send
impl<L> core::clone::Clone for dynamap::Db<L> where L: core::clone::Clone
trait dynamap::KeyPart
required fn dynamap::KeyPart::write(&self, out: &mut alloc::string::String)
provided fn dynamap::KeyPart::len(&self) -> usize
trait dynamap::KeyArg: dynamap::key::sealed::Sealed
#[sealed] trait dynamap::KeyArg
enum dynamap::Mode
variant dynamap::Mode::Fast
enum dynamap::Error
#[non_exhaustive] enum dynamap::Error
variant dynamap::Error::Service(dynamap::ServiceError)
struct dynamap::Point
field dynamap::Point::x: u32
struct dynamap::Page<T>
#[non_exhaustive] struct dynamap::Page
field dynamap::Page::items: alloc::vec::Vec<T>
struct dynamap::Key
#[private_fields] struct dynamap::Key
use dynamap::key::Key = dynamap::Key
";

fn broken(current: &str) -> Vec<String> {
    breaks("dynamap", BASELINE, current)
        .into_iter()
        .map(|b| format!("{} | {}", b.path, b.what))
        .collect()
}

/// The baseline with `from` replaced by `to` (a line, or `""` to remove it).
fn edited(edits: &[(&str, &str)]) -> String {
    let mut out = BASELINE.to_owned();
    for (from, to) in edits {
        assert!(out.contains(from), "the baseline has no {from:?}");
        out = out.replacen(
            &format!("{from}\n"),
            &if to.is_empty() {
                String::new()
            } else {
                format!("{to}\n")
            },
            1,
        );
    }
    out
}

#[test]
fn the_same_surface_breaks_nothing() {
    assert!(broken(BASELINE).is_empty());
    assert!(broken(&BASELINE.replace("# dynamap 0.1.0", "# dynamap 0.2.0")).is_empty());
}

#[test]
fn a_removed_method_breaks() {
    let current = edited(&[("fn dynamap::Db::get(&self)", "")]);
    assert_eq!(
        broken(&current),
        ["dynamap::Db::get | gone: fn dynamap::Db::get(&self)"]
    );
}

#[test]
fn a_changed_signature_is_one_break_with_both_lines() {
    let current = edited(&[(
        "fn dynamap::Db::get(&self)",
        "async fn dynamap::Db::get(&self)",
    )]);
    assert_eq!(
        broken(&current),
        [
            "dynamap::Db::get | changed: fn dynamap::Db::get(&self)\n      to: async fn dynamap::Db::get(&self)"
        ]
    );
}

#[test]
fn a_lost_auto_trait_breaks_the_type() {
    let send = "impl<L> core::marker::Send for dynamap::Db<L> where L: core::marker::Send";
    let current = edited(&[(send, "impl<L> !core::marker::Send for dynamap::Db<L>")]);
    let found = broken(&current);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("dynamap::Db | changed: impl<L> core::marker::Send"),
        "{found:?}"
    );
    // Gone without a successor: still a break of the type.
    let current = edited(&[(send, "")]);
    assert_eq!(broken(&current), [format!("dynamap::Db | gone: {send}")]);
}

#[test]
fn a_tightened_bound_breaks() {
    let clone = "impl<L> core::clone::Clone for dynamap::Db<L> where L: core::clone::Clone";
    let tighter = "impl<L> core::clone::Clone for dynamap::Db<L> where L: core::clone::Clone + core::marker::Send";
    assert_eq!(broken(&edited(&[(clone, tighter)])).len(), 1);
}

#[test]
fn a_new_required_method_breaks_an_open_trait_only() {
    let open = format!("{BASELINE}required fn dynamap::KeyPart::width(&self) -> usize\n");
    assert_eq!(
        broken(&open),
        [
            "dynamap::KeyPart::width | added: required fn dynamap::KeyPart::width(&self) -> usize (a new required item of a trait users may implement)"
        ]
    );
    let sealed = format!("{BASELINE}required fn dynamap::KeyArg::width(&self) -> usize\n");
    assert!(broken(&sealed).is_empty());
    let provided = format!("{BASELINE}provided fn dynamap::KeyPart::width(&self) -> usize\n");
    assert!(broken(&provided).is_empty());
    let new_trait =
        format!("{BASELINE}trait dynamap::Fresh\nrequired fn dynamap::Fresh::go(&self)\n");
    assert!(broken(&new_trait).is_empty());
}

#[test]
fn a_required_item_made_provided_breaks_nothing_and_the_reverse_breaks() {
    let required = "required fn dynamap::KeyPart::write(&self, out: &mut alloc::string::String)";
    let provided = "provided fn dynamap::KeyPart::write(&self, out: &mut alloc::string::String)";
    assert!(broken(&edited(&[(required, provided)])).is_empty());
    let len = "provided fn dynamap::KeyPart::len(&self) -> usize";
    let found = broken(&edited(&[(
        len,
        "required fn dynamap::KeyPart::len(&self) -> usize",
    )]));
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn a_new_variant_breaks_an_exhaustive_enum_only() {
    let exhaustive = format!("{BASELINE}variant dynamap::Mode::Slow\n");
    assert_eq!(broken(&exhaustive).len(), 1);
    assert!(broken(&exhaustive)[0].starts_with("dynamap::Mode::Slow | added:"));
    let open = format!("{BASELINE}variant dynamap::Error::Clock\n");
    assert!(broken(&open).is_empty());
}

#[test]
fn a_new_field_breaks_a_struct_users_can_build_only() {
    let all_public = format!("{BASELINE}field dynamap::Point::y: u32\n");
    assert_eq!(broken(&all_public).len(), 1);
    let non_exhaustive = format!("{BASELINE}field dynamap::Page::cursor: u32\n");
    assert!(broken(&non_exhaustive).is_empty());
    let private = format!("{BASELINE}field dynamap::Key::pk: u32\n");
    assert!(broken(&private).is_empty());
}

#[test]
fn a_new_field_of_a_struct_variant_breaks_unless_the_variant_is_non_exhaustive() {
    let baseline = "enum dynamap::Change\nvariant dynamap::Change::Set {…}\nfield dynamap::Change::Set::value: u32\nvariant dynamap::Change::Add {…}\n#[non_exhaustive] variant dynamap::Change::Add\n";
    let current = format!(
        "{baseline}field dynamap::Change::Set::path: u32\nfield dynamap::Change::Add::path: u32\n"
    );
    let found = breaks("dynamap", baseline, &current);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].path, "dynamap::Change::Set::path");
}

#[test]
fn restrictions_on_existing_items_break_and_their_removal_does_not() {
    for mark in [
        "#[non_exhaustive] enum dynamap::Mode",
        "#[private_fields] struct dynamap::Point",
        "#[sealed] trait dynamap::KeyPart",
    ] {
        let found = broken(&format!("{BASELINE}{mark}\n"));
        assert_eq!(found.len(), 1, "{mark}: {found:?}");
    }
    assert!(broken(&format!("{BASELINE}#[deprecated] fn dynamap::Db::get\n")).is_empty());
    // Users could not build these already.
    assert!(
        broken(&format!(
            "{BASELINE}#[private_fields] struct dynamap::Page\n"
        ))
        .is_empty()
    );
    assert!(
        broken(&format!(
            "{BASELINE}#[non_exhaustive] struct dynamap::Key\n"
        ))
        .is_empty()
    );
    let fresh = format!("{BASELINE}enum dynamap::Fresh\n#[non_exhaustive] enum dynamap::Fresh\n");
    assert!(broken(&fresh).is_empty());
    let freed = edited(&[
        ("#[non_exhaustive] enum dynamap::Error", ""),
        ("#[sealed] trait dynamap::KeyArg", ""),
        ("#[private_fields] struct dynamap::Key", ""),
    ]);
    assert!(broken(&freed).is_empty());
}

#[test]
fn a_removed_reexport_breaks() {
    let found = broken(&edited(&[("use dynamap::key::Key = dynamap::Key", "")]));
    assert_eq!(
        found,
        ["dynamap::key::Key | gone: use dynamap::key::Key = dynamap::Key"]
    );
}

#[test]
fn lines_are_split_into_mark_kind_and_item() {
    let line = parse("dynamap", "#[non_exhaustive] struct dynamap::Page");
    assert_eq!(
        (line.mark, &*line.kind, &*line.path),
        (Some("non_exhaustive"), "struct", "dynamap::Page")
    );
    let line = parse(
        "dynamap",
        "required async fn dynamap::Job::run<T: dynamap::Entity>(&self)",
    );
    assert_eq!(
        (line.mark, &*line.kind, &*line.path),
        (None, "required async fn", "dynamap::Job::run")
    );
    let line = parse("dynamap", "field dynamap::Page::items: alloc::vec::Vec<T>");
    assert_eq!(line.path, "dynamap::Page::items");
    let line = parse(
        "dynamap",
        "impl<T: dynamap::Entity> core::fmt::Debug for dynamap::Page<T>",
    );
    assert_eq!((&*line.kind, &*line.path), ("impl", "dynamap::Page"));
    let line = parse(
        "dynamap",
        "impl<E, T> dynamap::expr::Target<E, T> for &dynamap::expr::Path<E, T>",
    );
    assert_eq!(line.path, "dynamap::expr::Path");
    let line = parse(
        "dynamap",
        "impl<'a> core::marker::Send for &'a mut dynamap::Page",
    );
    assert_eq!(line.path, "dynamap::Page");
    let line = parse("dynamap", "impl dynamap::KeyPart for alloc::string::String");
    assert_eq!(line.path, "dynamap::KeyPart");
}

const CHANGELOG: &str = "\
# Changelog

## Unreleased

### Breaking changes, in short

- `Db<L>` is typed by its layout; `error::Error::Clock` is gone.

### A new query (not announced)

- `Query::limit` is new.

### Sort keys by name (breaking)

- `KeyPart::write()` takes a buffer.

#### Migration

- Replace `dynamap::Point` with `Point3`.

### Other

- `Mode` gains a variant.

### Non-breaking additions

- `Query::offset`.

```text
`Inside` a code block
```

## 0.1.0

### Breaking

- `Page` (released long ago).
";

#[test]
fn the_changelog_announces_the_names_under_its_breaking_headings_of_unreleased_only() {
    let names = announced(CHANGELOG);
    let expected: BTreeSet<String> = [
        "Db",
        "error::Error::Clock",
        "KeyPart::write",
        "dynamap::Point",
        "Point3",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(names, expected);
}

#[test]
fn a_name_announces_its_item_and_everything_under_it() {
    let names = announced(CHANGELOG);
    assert!(is_announced(&names, "dynamap::Db"));
    assert!(is_announced(&names, "dynamap::Db::put"));
    assert!(is_announced(&names, "dynamap::KeyPart::write"));
    assert!(is_announced(&names, "dynamap::Point::x"));
    assert!(is_announced(&names, "dynamap::error::Error::Clock"));
    assert!(!is_announced(&names, "dynamap::Dbx"));
    assert!(!is_announced(&names, "dynamap::KeyPart"));
    assert!(!is_announced(&names, "dynamap::Mode::Slow"));
    assert!(!is_announced(&names, "dynamap::Query::limit"));
    assert!(!is_announced(&names, "dynamap::Query::offset"));
    assert!(!is_announced(&names, "dynamap::Page"));
}
