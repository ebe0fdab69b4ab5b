//! Compile-fail tests for the derive macros: every file in `tests/ui/` holds one mistake a
//! user can make with `#[derive(Table)]`, `#[derive(Entity)]`, `#[derive(EntityEnum)]`,
//! `#[derive(EntityProjection)]` or `#[derive(KeyPart)]`, and the `.stderr` beside it is the exact diagnostic the build must
//! print, so a message that becomes vaguer or moves away from the culprit fails the test.
//!
//! Covered: unknown, duplicate and malformed attributes (on tables, entities and fields);
//! malformed key templates (empty, unterminated `{`, a hole not followed by `#` or the end,
//! a hole naming a missing or skipped field); hole fields whose type cannot be a key part
//! (reported once, at the field's type, with `KeyPart`'s `on_unimplemented` message, in the
//! primary key, an index or a lookup); missing `table`/`pk`; optional fields in the primary
//! key; layout mismatches checked against the table's schema (missing or extra `sk`, a
//! field stored under a key attribute name, an index the table lacks, a TTL attribute of
//! another name, an index key of another arity, name or type), each a trait error with its
//! own message at the attribute concerned; duplicate indexes; a lookup whose query method
//! (`by_<name>`) an index also makes; local indexes misdeclared (on a table without a sort
//! key, with a `pk` or a multi-attribute sort key of their own, an entity's `local_index`
//! naming a global index or none, an entity giving one another partition key);
//! derives on the wrong kind of type; entity enums mixing tables or holding non-entities;
//! compressed fields (unknown codec, level or budget out of range, `with` alongside, used in
//! a key template); TTL fields (table without a TTL attribute, another attribute name, not a
//! timestamp, two of them); event rows (with an index, a `time` field that is missing or not
//! a time); multi-attribute index keys (one type per attribute, at most four, an entity
//! listing another number of fields than the key has, a query giving its sort attributes as
//! a tuple, which could pass a month for a year of the same type, a sort key builder
//! skipping an attribute, used on another index's query or with no attribute given, an
//! entity storing an index's key attribute without mapping the index); the sort key builder
//! of a template of several parts (a part given before the one it follows, where a tuple
//! could swap two of one type; the table's builder on an index's query);
//! primary keys mapped to fields (`pk = field(x)`: of another type or name than the
//! table's key attribute, a template on a number key, `fields(...)`, an optional or
//! defaulted field, a field also in the other template, with lookups; a table's own key
//! type unknown or without its key); `Db::modify` on an entity without a version field; an update's `set` given an `Option`
//! for an `Option` field (one error pointing to `set_option`); a `KeyPart` mistake reported
//! once although entities use the type; projections (a `#[derive(EntityProjection)]` field
//! the entity lacks or of another type, no `entity`, one entity's projection on another's
//! query, and `project` with field constants of an entity with required fields); encrypted
//! fields (in a key template, an index key or a lookup, with `sign_only`, `version` or
//! `skip`, in a condition or an update); and
//! `multiple_errors.rs`, which shows that one build reports every mistake of a derive.
//!
//! After changing a diagnostic on purpose, regenerate the expectations with
//! `TRYBUILD=overwrite cargo test --all-features -p dynamap-ui-tests` and review the diff of every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
