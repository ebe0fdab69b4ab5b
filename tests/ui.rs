//! Compile-fail tests for the derive macros: every file in `tests/ui/` holds one mistake a
//! user can make with `#[derive(Table)]`, `#[derive(Entity)]` or `#[derive(KeyPart)]`, and
//! the `.stderr` beside it is the exact diagnostic the build must print.
//!
//! Covered: unknown and duplicate attributes (on tables, entities and fields), malformed key
//! templates (unterminated `{`, a hole not followed by `#` or the end, a hole naming a
//! missing or skipped field), hole fields whose type cannot be a key part (reported at the
//! field's type with `KeyPart`'s `on_unimplemented` message), missing `table`/`pk`, optional
//! fields in the primary key, layout mismatches found at compile time (missing `sk`, a field
//! stored under a key attribute name, an index the table lacks), derives on the wrong kind
//! of type, and `multiple_errors.rs`, which shows that one build reports every mistake of a
//! derive at once.
//!
//! After changing a diagnostic on purpose, regenerate the expectations with
//! `TRYBUILD=overwrite cargo test --test ui` and review the diff of every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
