//! Computed key parts: `computed(day: Date = day_of(posted_at))` and `shard(of(id), count =
//! N)` are rendered on every write path (put, batch, transaction, upsert, an update that
//! creates), kept right by updates, alone or as a transaction's action (setting `posted_at`
//! moves the index and lookup keys to the new day, in the same request; an update that
//! cannot render them is refused, naming what else to set), sparse when computed from an
//! optional field, and queried by the part's own value (every shard of a sharded
//! partition, merged).

use dynamap::codec::AttributeValue::S;
use dynamap::{Entity, Error, Table};
use time::macros::datetime;
use time::{Date, OffsetDateTime};

use crate::{fresh_db, raw_item};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(name = "GSI2", pk = "GSI2PK", sk = "GSI2SK")
)]
struct Deals;

fn day_of(at: &OffsetDateTime) -> Date {
    at.date()
}

const SHARDS: u16 = 4;

/// The latest deals, spread over four partitions a day; the deals of a brand by day; the
/// featured deals by the day they were featured (a sparse index).
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Deals, entity = "Deal", pk = "DEAL#{id}", sk = "DEAL",
          computed(day: Date = day_of(posted_at), featured_day: Date = day_of(featured_at)),
          shard(of(id), count = 4),
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{posted_at}#{id}"),
          index(name = "GSI2", pk = "FEATURED#{featured_day}", sk = "{id}"),
          lookup(name = "brand_day", pk = "BRAND#{brand}#{day}", sk = "DEAL#{id}"))]
struct Deal {
    id: String,
    brand: String,
    title: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    posted_at: OffsetDateTime,
    #[dynamap(with = "dynamap::codec::timestamp::option")]
    featured_at: Option<OffsetDateTime>,
}

/// Without a lookup, so batch writes take it.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Deals, entity = "Post", pk = "POST#{id}", sk = "POST",
          computed(day: Date = day_of(posted_at)),
          shard(of(id), count = 4),
          index(name = "GSI1", pk = "POSTS#{day}#{shard}", sk = "{posted_at}#{id}"))]
struct Post {
    id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    posted_at: OffsetDateTime,
}

fn deal(id: &str, posted_at: OffsetDateTime) -> Deal {
    Deal {
        id: id.into(),
        brand: "acme".into(),
        title: format!("deal {id}"),
        posted_at,
        featured_at: None,
    }
}

/// The raw item's attribute as text.
async fn stored(db: &dynamap::Db<Deals>, id: &str, attribute: &str) -> Option<String> {
    let item = raw_item(db, &format!("DEAL#{id}"), "DEAL").await?;
    match item.get(attribute)? {
        S(text) => Some(text.clone()),
        other => panic!("{attribute} is {other:?}"),
    }
}

/// `DEALS#<day>#<shard>` split into its day and shard.
fn day_and_shard(gsi1pk: &str) -> (String, u16) {
    let mut parts = gsi1pk.split('#');
    assert_eq!(parts.next(), Some("DEALS"), "{gsi1pk}");
    let day = parts.next().expect("a day").to_owned();
    let shard = parts.next().expect("a shard").parse().expect("a number");
    assert_eq!(parts.next(), None, "{gsi1pk}");
    (day, shard)
}

#[tokio::test]
async fn every_write_path_renders_the_computed_parts() {
    let db = fresh_db::<Deals>("computed_writes").await;
    let at = datetime!(2026-11-26 09:30 UTC);
    db.put(&deal("put", at)).await.expect("put");
    let post = Post {
        id: "batch".into(),
        posted_at: at,
    };
    let report = db.put_all([post]).await.expect("batch");
    assert!(report.is_complete(), "{report}");
    let gsi1pk = raw_item(&db, "POST#batch", "POST").await.expect("stored")["GSI1PK"].clone();
    let (day, shard) = day_and_shard(&gsi1pk.as_s().expect("text").replace("POSTS#", "DEALS#"));
    assert_eq!(day, "2026-11-26");
    assert!(shard < SHARDS, "shard {shard}");
    db.transaction()
        .put(&deal("tx", at))
        .send()
        .await
        .expect("transaction");
    db.upsert(&deal("upsert", at)).await.expect("upsert");
    db.update(Deal::key("update"))
        .set(Deal::BRAND, "acme")
        .set(Deal::TITLE, "created by an update")
        .set(Deal::POSTED_AT, at)
        .create_if_missing()
        .await
        .expect("an update that creates");
    for id in ["put", "tx", "upsert", "update"] {
        let gsi1pk = stored(&db, id, "GSI1PK").await.expect(id);
        let (day, shard) = day_and_shard(&gsi1pk);
        assert_eq!(day, "2026-11-26", "{id}");
        assert!(shard < SHARDS, "{id}: shard {shard}");
        assert_eq!(
            stored(&db, id, "GSI1SK").await.as_deref(),
            Some(format!("2026-11-26T09:30:00.000000000Z#{id}").as_str()),
        );
        let lookup = raw_item(&db, "BRAND#acme#2026-11-26", &format!("DEAL#{id}")).await;
        assert!(lookup.is_some(), "{id}'s lookup item");
        // No `featured_at`: out of the featured index.
        assert_eq!(stored(&db, id, "GSI2PK").await, None, "{id}");
    }
}

#[tokio::test]
async fn a_shard_depends_on_the_hashed_fields_only_and_spreads_items() {
    let db = fresh_db::<Deals>("computed_shards").await;
    let mut shards = std::collections::BTreeSet::new();
    for i in 0..40 {
        let id = format!("d{i}");
        db.put(&deal(&id, datetime!(2026-11-26 09:30 UTC)))
            .await
            .expect("put");
        let (_, first) = day_and_shard(&stored(&db, &id, "GSI1PK").await.expect("key"));
        // Another day, brand and title: the same shard.
        let mut moved = deal(&id, datetime!(2027-01-02 18:00 UTC));
        moved.brand = "other".into();
        moved.title = "changed".into();
        db.put(&moved).await.expect("put again");
        let (day, again) = day_and_shard(&stored(&db, &id, "GSI1PK").await.expect("key"));
        assert_eq!((day.as_str(), again), ("2027-01-02", first), "{id}");
        shards.insert(first);
    }
    assert_eq!(shards.len(), usize::from(SHARDS), "40 ids use every shard");
}

#[tokio::test]
async fn a_partition_is_queried_by_the_parts_own_values() {
    let db = fresh_db::<Deals>("computed_queries").await;
    let day = datetime!(2026-11-26 0:00 UTC).date();
    for i in 0..12 {
        let at = datetime!(2026-11-26 08:00 UTC) + time::Duration::minutes(i);
        db.put(&deal(&format!("d{i}"), at)).await.expect("put");
    }
    db.put(&deal("tomorrow", datetime!(2026-11-27 08:00 UTC)))
        .await
        .expect("put");
    // The day's partition is every shard of it, merged in sort order.
    let found: Vec<String> = db
        .query(Deal::gsi1(day))
        .all()
        .await
        .expect("query")
        .into_iter()
        .map(|d| d.id)
        .collect();
    let expected: Vec<String> = (0..12).map(|i| format!("d{i}")).collect();
    assert_eq!(found, expected, "every deal of the day, in posting order");
    let owners = db
        .query(Deal::by_brand_day("acme", day))
        .owners()
        .await
        .expect("lookup query");
    assert_eq!(owners.len(), 12);
}

#[tokio::test]
async fn updating_a_field_a_part_is_computed_from_moves_the_keys() {
    let db = fresh_db::<Deals>("computed_updates").await;
    db.put(&deal("d1", datetime!(2026-11-26 09:30 UTC)))
        .await
        .expect("put");
    let (_, shard) = day_and_shard(&stored(&db, "d1", "GSI1PK").await.expect("key"));
    // `brand` is not set, but the lookup needs it with the new day.
    let err = db
        .update(Deal::key("d1"))
        .set(Deal::POSTED_AT, datetime!(2026-11-28 07:00 UTC))
        .await
        .expect_err("the lookup key needs `brand` too");
    match err {
        Error::IncompleteKeyUpdate { key, missing, .. } => {
            assert!(key.contains("lookup `brand_day`"), "{key}");
            assert_eq!(missing, ["brand"]);
        }
        other => panic!("expected an incomplete key update, got {other:?}"),
    }
    db.update(Deal::key("d1"))
        .set(Deal::POSTED_AT, datetime!(2026-11-28 07:00 UTC))
        .set(Deal::BRAND, "acme")
        .await
        .expect("update");
    assert_eq!(
        stored(&db, "d1", "GSI1PK").await,
        Some(format!("DEALS#2026-11-28#{shard:05}")),
        "the index key moved to the new day, in the same shard"
    );
    assert_eq!(
        stored(&db, "d1", "GSI1SK").await.as_deref(),
        Some("2026-11-28T07:00:00.000000000Z#d1")
    );
    assert!(
        raw_item(&db, "BRAND#acme#2026-11-28", "DEAL#d1")
            .await
            .is_some()
    );
    assert!(
        raw_item(&db, "BRAND#acme#2026-11-26", "DEAL#d1")
            .await
            .is_none()
    );
    let read = db.get(Deal::key("d1")).await.expect("get").expect("found");
    assert_eq!(read.posted_at, datetime!(2026-11-28 07:00 UTC));
}

#[tokio::test]
async fn a_part_computed_from_an_optional_field_makes_a_sparse_index() {
    let db = fresh_db::<Deals>("computed_sparse").await;
    db.put(&deal("d1", datetime!(2026-11-26 09:30 UTC)))
        .await
        .expect("put");
    assert_eq!(stored(&db, "d1", "GSI2PK").await, None);
    db.update(Deal::key("d1"))
        .set(Deal::FEATURED_AT, datetime!(2026-12-01 12:00 UTC))
        .await
        .expect("feature");
    assert_eq!(
        stored(&db, "d1", "GSI2PK").await.as_deref(),
        Some("FEATURED#2026-12-01")
    );
    let featured = db
        .query(Deal::gsi2(datetime!(2026-12-01 0:00 UTC).date()))
        .all()
        .await
        .expect("query");
    assert_eq!(featured.len(), 1);
    db.update(Deal::key("d1"))
        .remove(Deal::FEATURED_AT)
        .await
        .expect("unfeature");
    assert_eq!(stored(&db, "d1", "GSI2PK").await, None);
    assert_eq!(stored(&db, "d1", "GSI2SK").await, None);
}

/// A sharded primary key: the votes for a candidate spread over eight partitions by voter,
/// and the day of the vote in the sort key, computed from `at`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Deals, entity = "Vote", pk = "VOTES#{candidate}#{shard}", sk = "{day}#{at}#{voter}",
          computed(day: Date = day_of(at)),
          shard(of(voter), count = 8))]
struct Vote {
    candidate: String,
    voter: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    weight: u32,
}

#[tokio::test]
async fn a_primary_key_with_computed_parts_renders_and_parses_back() {
    let db = fresh_db::<Deals>("computed_primary").await;
    let vote = Vote {
        candidate: "ada".into(),
        voter: "v#1 x".into(),
        at: datetime!(2026-11-26 10:00 UTC),
        weight: 3,
    };
    db.put(&vote).await.expect("put");
    let key = Vote::key("ada", vote.at, "v#1 x");
    let (pk, sk) = key.values().expect("renders");
    let shard: u16 = pk
        .strip_prefix("VOTES#ada#")
        .expect("the candidate's partition")
        .parse()
        .expect("a shard");
    assert!(shard < 8, "{pk}");
    assert_eq!(
        sk,
        Some("2026-11-26#2026-11-26T10:00:00.000000000Z#v%231%20x")
    );
    assert_eq!(db.get(key.clone()).await.expect("get"), Some(vote.clone()));
    assert_eq!(
        Vote::parse_key(pk, sk).expect("parses back"),
        (
            "ada".to_owned(),
            shard,
            datetime!(2026-11-26 0:00 UTC).date(),
            vote.at,
            "v#1 x".to_owned()
        ),
        "every part, computed ones included"
    );
    // An item holding only its keys and `weight` reads its key fields back from the key,
    // computed parts skipped.
    let mut bare = raw_item(&db, pk, sk.expect("a sort key"))
        .await
        .expect("stored");
    bare.retain(|name, _| ["PK", "SK", "_type", "weight"].contains(&name.as_str()));
    crate::put_raw(&db, bare).await;
    assert_eq!(db.get(key.clone()).await.expect("get"), Some(vote.clone()));
    let votes = db.query(Vote::partition("ada")).all().await.expect("query");
    assert_eq!(votes, std::slice::from_ref(&vote));
    // An empty key field is refused naming it, before the computed part is computed.
    let err = Vote::key("", vote.at, "v2").values().expect_err("empty");
    assert_eq!(err.field, Some("candidate"));
    // Updates cannot change the primary key's fields, computed parts' fields included.
    let err = db
        .update(Vote::key("ada", vote.at, "v#1 x"))
        .set(Vote::AT, datetime!(2026-11-27 10:00 UTC))
        .await
        .expect_err("a key field");
    assert!(err.to_string().contains("primary key"), "{err}");
    db.update(Vote::key("ada", vote.at, "v#1 x"))
        .increment(Vote::WEIGHT, 1u32)
        .await
        .expect("update");
    let read = db
        .get(Vote::key("ada", vote.at, "v#1 x"))
        .await
        .expect("get");
    assert_eq!(read.map(|v| v.weight), Some(4));
}

#[tokio::test]
async fn a_transaction_update_moves_the_computed_keys_too() {
    let db = fresh_db::<Deals>("computed_tx_update").await;
    let post = Post {
        id: "p1".into(),
        posted_at: datetime!(2026-11-26 09:30 UTC),
    };
    db.put(&post).await.expect("put");
    let before = raw_item(&db, "POST#p1", "POST").await.expect("stored");
    db.transaction()
        .update(
            db.update(Post::key("p1"))
                .set(Post::POSTED_AT, datetime!(2026-12-02 08:00 UTC)),
        )
        .send()
        .await
        .expect("transaction");
    let after = raw_item(&db, "POST#p1", "POST").await.expect("stored");
    let text = |item: &dynamap::codec::Item, name: &str| item[name].as_s().expect("text").clone();
    let moved = text(&after, "GSI1PK");
    assert_eq!(
        moved,
        text(&before, "GSI1PK").replace("2026-11-26", "2026-12-02"),
        "the same shard, on the new day"
    );
    assert_eq!(text(&after, "GSI1SK"), "2026-12-02T08:00:00.000000000Z#p1");
}
