//! A template sort key of several parts, the table's (`Desk::sk()`) or an index's
//! (`Desk::gsi1_sk()`), given part by part, by name: prefixes and ranges on DynamoDB Local
//! select by the part each value is given for, and end on segment boundaries, so floor `2`
//! of building `A` never matches floor `20`, floor `2 `, building `AB` or building `A#2`.
//! (That a part cannot be given before the one it follows is
//! `ui-tests/tests/ui/template_sort_builder_swaps.rs`.)

use dynamap::{Entity, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub(crate) struct Office;

/// Both sort keys are strings only: a tuple of them could be given in any order.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Office, entity = "Desk", pk = "CITY#{city}", sk = "DESK#{building}#{floor}#{id}",
          index(name = "GSI1", pk = "ORG#{org}", sk = "LOC#{building}#{floor}#{id}"))]
pub(crate) struct Desk {
    city: String,
    org: String,
    building: String,
    floor: String,
    id: String,
}

/// Buildings and floors whose keys start alike: `A`/`AB`/`A#2`, and floors `2`, `2 `, `20`.
const PLACES: [(&str, &str); 8] = [
    ("A", "1"),
    ("A", "2"),
    ("A", "2 "),
    ("A", "20"),
    ("A#2", "1"),
    ("AB", "2"),
    ("B", "1"),
    ("B", "2"),
];

/// Two desks at each place, in Poznań and for org `acme`.
async fn seeded(test: &str) -> dynamap::Db<Office> {
    let db = fresh_db::<Office>(test).await;
    let desks: Vec<Desk> = PLACES
        .iter()
        .flat_map(|(building, floor)| {
            ["d1", "d2"].map(|id| Desk {
                city: "Poznań".into(),
                org: "acme".into(),
                building: (*building).into(),
                floor: (*floor).into(),
                id: id.into(),
            })
        })
        .collect();
    let report = db.put_all(&desks).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    db
}

/// `(building, floor)` of each desk read, once per place, in the order read.
fn places(desks: &[Desk]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for desk in desks {
        let place = (desk.building.clone(), desk.floor.clone());
        if out.last() != Some(&place) {
            out.push(place);
        }
    }
    out
}

fn place(building: &str, floor: &str) -> (String, String) {
    (building.into(), floor.into())
}

#[tokio::test]
async fn a_prefix_given_by_name_ends_on_the_last_named_part() {
    let db = seeded("sort_parts_prefix").await;
    let org = || db.query(Desk::gsi1("acme"));
    let loc = Desk::gsi1_sk;

    let floor_2 = org()
        .sk_prefix(loc().building("A").floor("2"))
        .all()
        .await
        .expect("floor 2");
    assert_eq!(places(&floor_2), [place("A", "2")], "not 2 , 20, AB or A#2");
    assert_eq!(floor_2.len(), 2, "both desks of floor 2");

    let building_a = org()
        .sk_prefix(loc().building("A"))
        .all()
        .await
        .expect("building A");
    assert_eq!(
        places(&building_a),
        [
            place("A", "1"),
            place("A", "2"),
            place("A", "2 "),
            place("A", "20")
        ],
        "not A#2 or AB"
    );

    let one_desk = org()
        .sk_eq(loc().building("A#2").floor("1").id("d2"))
        .all()
        .await
        .expect("one desk");
    assert_eq!(
        (places(&one_desk), one_desk.len()),
        (vec![place("A#2", "1")], 1)
    );

    // The table's sort key, from its own builder, the same way.
    let in_poznan = db
        .query(Desk::partition("Poznań"))
        .sk_prefix(Desk::sk().building("A").floor("2"))
        .all()
        .await
        .expect("table prefix");
    assert_eq!(places(&in_poznan), [place("A", "2")]);
}

#[tokio::test]
async fn ranges_given_by_name_compare_the_named_parts() {
    let db = seeded("sort_parts_ranges").await;
    let org = || db.query(Desk::gsi1("acme"));
    let loc = Desk::gsi1_sk;
    let a2 = || loc().building("A").floor("2");
    let read = |q: dynamap::query::Query<Desk, DeskGsi1Sk>| async move {
        places(&q.all().await.expect("range"))
    };

    // After (A, 2): its longer floors, then the buildings after A.
    assert_eq!(
        read(org().sk_gt(a2())).await,
        [
            place("A", "2 "),
            place("A", "20"),
            place("A#2", "1"),
            place("AB", "2"),
            place("B", "1"),
            place("B", "2")
        ]
    );
    assert_eq!(
        read(org().sk_ge(a2())).await[..2],
        [place("A", "2"), place("A", "2 ")]
    );
    assert_eq!(read(org().sk_lt(a2())).await, [place("A", "1")]);
    assert_eq!(
        read(org().sk_le(a2())).await,
        [place("A", "1"), place("A", "2")]
    );
    assert_eq!(
        read(org().sk_between(loc().building("A").floor("1"), a2())).await,
        [place("A", "1"), place("A", "2")],
        "floor 2 is the high end: 2  and 20 are after it"
    );
    assert_eq!(
        read(org().sk_between(loc().building("A#2"), loc().building("B"))).await,
        [
            place("A#2", "1"),
            place("AB", "2"),
            place("B", "1"),
            place("B", "2")
        ]
    );
    assert_eq!(
        read(org().sk_lt(loc().building("A")).descending()).await,
        Vec::<(String, String)>::new()
    );
    // Whole keys: one desk after another on the same floor.
    assert_eq!(
        org()
            .sk_gt(a2().id("d1"))
            .first(1)
            .all()
            .await
            .expect("next desk")
            .iter()
            .map(|d| d.id.as_str())
            .collect::<Vec<_>>(),
        ["d2"]
    );
}

#[tokio::test]
async fn a_part_that_is_no_key_value_is_reported_for_its_name() {
    let db = seeded("sort_parts_errors").await;
    let offline = crate::offline(&db);
    let empty_floor = offline
        .query(Desk::gsi1("acme"))
        .sk_prefix(Desk::gsi1_sk().building("A").floor(""))
        .all()
        .await;
    match empty_floor {
        Err(dynamap::Error::Key(err)) => {
            assert_eq!((err.attribute, err.field), ("GSI1SK", Some("floor")));
        }
        other => panic!("expected a key error, got {other:?}"),
    }
}
