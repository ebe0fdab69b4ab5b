//! String parts keep tuple order in DynamoDB itself: stored keys come back in tuple order,
//! typed conditions on leading parts (given by name, and as tuples for `BETWEEN`) select
//! exactly the matching items, and items stored with the escaping of earlier builds still
//! read.

use dynamap::Entity;
use dynamap::key::{SortArgs, SortBound};
use dynamap::query::Query;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

use crate::keys::sort_keys;
use crate::models::App;
use crate::{fresh_db, raw_item};

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Spot", pk = "SITE#{site}", sk = "LOC#{building}#{floor}#{room}")]
struct Spot {
    site: String,
    building: String,
    floor: String,
    room: String,
}

type Parts = (String, String, String);

fn spot(site: &str, (building, floor, room): &Parts) -> Spot {
    Spot {
        site: site.to_owned(),
        building: building.clone(),
        floor: floor.clone(),
        room: room.clone(),
    }
}

fn parts(s: &Spot) -> Parts {
    (s.building.clone(), s.floor.clone(), s.room.clone())
}

fn tuple(building: &str, floor: &str, room: &str) -> Parts {
    (building.to_owned(), floor.to_owned(), room.to_owned())
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Prefix,
}

const OPS: [Op; 6] = [Op::Eq, Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Prefix];

impl Op {
    fn apply<A: SortArgs<SpotSk>>(self, q: Query<Spot, SpotSk>, a: A) -> Query<Spot, SpotSk> {
        match self {
            Op::Eq => q.sk_eq(a),
            Op::Lt => q.sk_lt(a),
            Op::Le => q.sk_le(a),
            Op::Gt => q.sk_gt(a),
            Op::Ge => q.sk_ge(a),
            Op::Prefix => q.sk_prefix(a),
        }
    }

    fn wants(self, lead: std::cmp::Ordering) -> bool {
        match self {
            Op::Eq | Op::Prefix => lead.is_eq(),
            Op::Lt => lead.is_lt(),
            Op::Le => lead.is_le(),
            Op::Gt => lead.is_gt(),
            Op::Ge => lead.is_ge(),
        }
    }
}

/// The leading parts `lead` of a tuple, given by name as the typed argument of a sort
/// condition (no part at all is the empty tuple: no builder stage gives none).
fn with_lead(q: Query<Spot, SpotSk>, op: Op, lead: &[String]) -> Query<Spot, SpotSk> {
    let sk = Spot::sk;
    match lead {
        [] => op.apply(q, ()),
        [a] => op.apply(q, sk().building(a)),
        [a, b] => op.apply(q, sk().building(a).floor(b)),
        [a, b, c] => op.apply(q, sk().building(a).floor(b).room(c)),
        _ => unreachable!("three parts at most"),
    }
}

fn lead_of(t: &Parts, k: usize) -> Vec<String> {
    [&t.0, &t.1, &t.2][..k]
        .iter()
        .map(|s| (*s).clone())
        .collect()
}

async fn read(q: Query<Spot, SpotSk>) -> Vec<Parts> {
    q.all().await.expect("query").iter().map(parts).collect()
}

#[tokio::test]
async fn dynamodb_orders_floors_that_extend_a_floor_after_it() {
    let db = fresh_db::<App>("key_order_floors").await;
    let mut tuples = vec![
        tuple("A", "1", "9"),
        tuple("A", "2", "1"),
        tuple("A", "2", "2"),
        tuple("A", "2 ", "1"),
        tuple("A", "2!", "1"),
        tuple("A", "2\"", "1"),
        tuple("A", "2#0", "1"),
        tuple("A", "2$", "1"),
        tuple("A", "2%", "1"),
        tuple("A", "2%20", "1"),
        tuple("A", "20", "1"),
        tuple("A B", "1", "1"),
        tuple("A!", "1", "1"),
        tuple("AB", "1", "1"),
    ];
    // Written in a scrambled order (5 is coprime to 14), so the order read back comes from
    // DynamoDB.
    for i in 0..tuples.len() {
        db.put(&spot("s", &tuples[i * 5 % tuples.len()]))
            .await
            .expect("put");
    }
    tuples.sort();

    let stored: Vec<Parts> = sort_keys(&db, "SITE#s")
        .await
        .iter()
        .map(|sk| {
            let (_, building, floor, room) = Spot::parse_key("SITE#s", Some(sk)).expect("parses");
            (building, floor, room)
        })
        .collect();
    assert_eq!(stored, tuples, "DynamoDB's order is tuple order");

    let site = || db.query(Spot::partition("s"));
    assert_eq!(read(site()).await, tuples);
    let floor_two = (String::from("A"), String::from("2"));
    let above: Vec<Parts> = tuples
        .iter()
        .filter(|t| (&t.0, &t.1) > (&floor_two.0, &floor_two.1))
        .cloned()
        .collect();
    assert_eq!(above.len(), 11, "{above:?}");
    assert_eq!(read(site().sk_gt(("A", "2"))).await, above);
    assert_eq!(
        read(site().sk_prefix(("A", "2"))).await,
        [tuple("A", "2", "1"), tuple("A", "2", "2")]
    );
    assert_eq!(
        read(site().sk_le(("A", "2"))).await,
        [
            tuple("A", "1", "9"),
            tuple("A", "2", "1"),
            tuple("A", "2", "2")
        ]
    );
    assert_eq!(
        read(site().sk_between(("A", "2 "), ("A", "2$"))).await,
        [
            tuple("A", "2 ", "1"),
            tuple("A", "2!", "1"),
            tuple("A", "2\"", "1"),
            tuple("A", "2#0", "1"),
            tuple("A", "2$", "1"),
        ]
    );
    assert_eq!(
        read(site().sk_prefix(("A",))).await.len(),
        11,
        "building A, not `A B`, `A!` or `AB`"
    );
    let mut descending = tuples.clone();
    descending.reverse();
    assert_eq!(read(site().descending()).await, descending);
}

/// Parts drawn mostly from characters that sort around the delimiter and the escape.
fn part() -> impl Strategy<Value = String> {
    let chars = vec![
        '\0',
        '\n',
        ' ',
        '!',
        '"',
        '#',
        '$',
        '%',
        '&',
        '0',
        '2',
        'A',
        'a',
        '~',
        'ą',
        '\u{10FFFF}',
    ];
    let ch = prop_oneof![8 => select(chars), 1 => any::<char>()];
    proptest::collection::vec(ch, 1..4).prop_map(String::from_iter)
}

#[tokio::test]
async fn typed_conditions_on_leading_parts_select_exactly_the_matching_items() {
    let db = fresh_db::<App>("key_order_conditions").await;
    let cases = (
        proptest::collection::btree_set((part(), part(), part()), 1..10),
        proptest::collection::vec(((part(), part(), part()), 0..=3usize), 3),
    );
    let mut runner = TestRunner::deterministic();
    for run in 0..6 {
        let (tuples, extra) = cases.new_tree(&mut runner).expect("case").current();
        let tuples: Vec<Parts> = tuples.into_iter().collect();
        let site = format!("run{run}");
        for t in &tuples {
            db.put(&spot(&site, t)).await.expect("put");
        }
        let q = || db.query(Spot::partition(site.as_str()));
        assert_eq!(read(q()).await, tuples, "whole keys in tuple order");

        // Leading parts of stored tuples (equal parts) and of random ones.
        let mut leads: Vec<Vec<String>> = (0..=3)
            .map(|k| lead_of(&tuples[run % tuples.len()], k))
            .collect();
        leads.extend(extra.iter().map(|(t, k)| lead_of(t, *k)));
        for lead in &leads {
            for op in OPS {
                let want: Vec<Parts> = tuples
                    .iter()
                    .filter(|t| op.wants(lead_of(t, lead.len()).cmp(lead)))
                    .cloned()
                    .collect();
                let got = read(with_lead(q(), op, lead)).await;
                assert_eq!(got, want, "{op:?} {lead:?} over {tuples:?}");
            }
        }
        for low in &leads {
            for high in &leads {
                let want: Vec<Parts> = tuples
                    .iter()
                    .filter(|t| lead_of(t, low.len()) >= *low && lead_of(t, high.len()) <= *high)
                    .cloned()
                    .collect();
                if !bounds_in_order(low, high) {
                    // DynamoDB refuses BETWEEN with its ends reversed; nothing is wanted then.
                    assert!(want.is_empty(), "{low:?}..={high:?}: {want:?}");
                    continue;
                }
                let got = read(between(q(), low, high)).await;
                assert_eq!(got, want, "between {low:?} and {high:?} over {tuples:?}");
            }
        }
    }
}

fn bound(lead: &[String]) -> SortBound {
    let template = Spot::partition("x").sort_template();
    match lead {
        [] => SortArgs::<SpotSk>::bound(&(), template),
        [a] => SortArgs::<SpotSk>::bound(&(a,), template),
        [a, b] => SortArgs::<SpotSk>::bound(&(a, b), template),
        [a, b, c] => SortArgs::<SpotSk>::bound(&(a, b, c), template),
        _ => unreachable!("three parts at most"),
    }
    .expect("renders")
}

/// Whether the keys `sk_between` sends for `low` and `high` are in order.
fn bounds_in_order(low: &[String], high: &[String]) -> bool {
    let from = match bound(low) {
        SortBound::Whole(key) | SortBound::Prefix { prefix: key, .. } => key,
        _ => unreachable!("a template"),
    };
    let to = match bound(high) {
        SortBound::Whole(key) | SortBound::Prefix { after: key, .. } => key,
        _ => unreachable!("a template"),
    };
    from <= to
}

fn between(q: Query<Spot, SpotSk>, low: &[String], high: &[String]) -> Query<Spot, SpotSk> {
    fn high_of<L: SortArgs<SpotSk>>(
        q: Query<Spot, SpotSk>,
        l: L,
        high: &[String],
    ) -> Query<Spot, SpotSk> {
        match high {
            [] => q.sk_between(l, ()),
            [a] => q.sk_between(l, (a,)),
            [a, b] => q.sk_between(l, (a, b)),
            [a, b, c] => q.sk_between(l, (a, b, c)),
            _ => unreachable!("three parts at most"),
        }
    }
    match low {
        [] => high_of(q, (), high),
        [a] => high_of(q, (a,), high),
        [a, b] => high_of(q, (a, b), high),
        [a, b, c] => high_of(q, (a, b, c), high),
        _ => unreachable!("three parts at most"),
    }
}

#[tokio::test]
async fn items_stored_with_the_earlier_escaping_still_read() {
    let db = fresh_db::<App>("key_order_old_items").await;
    // Earlier builds escaped only `#` and `%`: floor "2 $" of room "1#" was stored raw.
    let value = spot("s", &tuple("A", "2 $", "1#"));
    db.put(&value).await.expect("put");
    let new_sk = "LOC#A#2%20%24#1%23";
    let old_sk = "LOC#A#2 $#1%23";
    let mut item = raw_item(&db, "SITE#s", new_sk)
        .await
        .expect("stored in the new form");
    item.insert(
        "SK".to_owned(),
        dynamap::codec::AttributeValue::S(old_sk.to_owned()),
    );
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("raw put of the old form");
    db.delete(Spot::key("s", "A", "2 $", "1#"))
        .await
        .expect("delete the new form");

    assert_eq!(
        Spot::parse_key("SITE#s", Some(old_sk)).expect("old key parses"),
        (
            "s".to_owned(),
            "A".to_owned(),
            "2 $".to_owned(),
            "1#".to_owned()
        )
    );
    assert_eq!(
        read(db.query(Spot::partition("s"))).await,
        [parts(&value)],
        "a query reads it"
    );
    // What does not carry over: the key rendered today is the new form.
    assert_eq!(
        db.get(Spot::key("s", "A", "2 $", "1#")).await.expect("get"),
        None
    );

    // Rewriting: read each item, put it again (its key renders in the new form), and delete
    // the old key.
    let old = raw_item(&db, "SITE#s", old_sk).await.expect("old item");
    let spot = db
        .query(Spot::partition("s"))
        .all()
        .await
        .expect("query")
        .remove(0);
    db.put(&spot).await.expect("put again");
    db.client()
        .delete_item()
        .table_name(db.table_name())
        .key("PK", old["PK"].clone())
        .key("SK", old["SK"].clone())
        .send()
        .await
        .expect("delete the old key");
    assert_eq!(sort_keys(&db, "SITE#s").await, [new_sk]);
    assert_eq!(
        db.get(Spot::key("s", "A", "2 $", "1#")).await.expect("get"),
        Some(value)
    );
}
