//! `created_index_keys`: which keys an update that creates its item renders from its
//! primary key alone.

use super::*;
use crate::table::IndexSchema;

const SCHEMA: TableSchema = TableSchema::for_tests(
    "Shop",
    &[
        IndexSchema::for_tests("GSI1", "GSI1PK", "GSI1SK"),
        IndexSchema::for_tests("GSI2", "GSI2PK", "GSI2SK"),
        IndexSchema {
            local: true,
            ..IndexSchema::for_tests("LSI1", "PK", "LSI1SK")
        },
    ],
);

const F: KeyFormat = KeyFormat::ESCAPED;

/// One group of `holes`, rendering `pk` and/or `sk`.
const fn group(
    index: &'static str,
    holes: &'static [&'static str],
    optional: &'static [(&'static str, &'static str)],
    pk: Option<&'static [Segment]>,
    sk: Option<&'static [Segment]>,
) -> IndexUpdate {
    IndexUpdate {
        index,
        key: "",
        templates: "",
        fields: &[],
        optional,
        holes,
        pk,
        sk,
    }
}

fn hole(name: &'static str, key_part: Option<usize>) -> UpdateHole {
    UpdateHole {
        name,
        attribute: name,
        key_part,
        read: read_nothing,
        write: write_hole::<String>,
    }
}

#[test]
fn only_the_keys_of_the_primary_keys_fields_are_created() {
    let holes = [
        hole("id", Some(0)),
        hole("day", Some(1)),
        hole("name", None),
    ];
    let groups = [
        // From the key: written.
        group(
            "GSI1",
            &["id"],
            &[],
            Some(&[Segment::Literal("B#"), Segment::Hole("id", F)]),
            None,
        ),
        // A field the update sets: left to the update's own changes.
        group(
            "GSI1",
            &["name"],
            &[],
            None,
            Some(&[Segment::Hole("name", F)]),
        ),
        // A sparse index: written or removed with its optional field only.
        group(
            "GSI2",
            &["id", "day"],
            &[("note", "note")],
            Some(&[Segment::Hole("id", F)]),
            Some(&[Segment::Hole("day", F)]),
        ),
        // A local index: its partition key is the table's, set by the key.
        group("LSI1", &["id"], &[], Some(&[Segment::Hole("id", F)]), None),
        group(
            "LSI1",
            &["day"],
            &[],
            None,
            Some(&[Segment::Literal("D#"), Segment::Hole("day", F)]),
        ),
        // An index the table does not have.
        group("GONE", &["id"], &[], Some(&[Segment::Hole("id", F)]), None),
    ];
    let (id, day) = ("b1".to_owned(), "2024-05-01".to_owned());
    let mut item = Item::new();
    created_index_keys("Brand", &SCHEMA, &holes, &groups, &[&id, &day], &mut item)
        .expect("renders");
    let mut keys: Vec<_> = item.into_iter().collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        keys,
        [
            ("GSI1PK".to_owned(), AttributeValue::S("B#b1".into())),
            (
                "LSI1SK".to_owned(),
                AttributeValue::S("D#2024-05-01".into())
            ),
        ]
    );
}

#[test]
fn a_key_over_the_size_limit_fails() {
    let holes = [hole("id", Some(0))];
    let groups = [group(
        "GSI1",
        &["id"],
        &[],
        Some(&[Segment::Hole("id", F)]),
        None,
    )];
    let id = "x".repeat(MAX_PARTITION_KEY_BYTES + 1);
    let mut item = Item::new();
    let result = created_index_keys("Brand", &SCHEMA, &holes, &groups, &[&id], &mut item);
    assert!(result.is_err(), "{result:?}");
    assert!(item.is_empty());
}
