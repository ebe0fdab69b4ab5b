//! Sharded partitions read as one: 120 deals over 3 days and 4 shards (`DEALS#{day}#{shard}`,
//! both computed), read through `Deal::gsi1(day)` (every shard of a day, merged) and
//! `PartitionKey::across(days)` (the days one after another). Pages of every size, both
//! directions, equal the global sort with no duplicates or gaps; cursors resume exactly and
//! are refused by other queries; the last page has none. Growing the shard count keeps
//! every item readable before and after the re-keying job.

use dynamap::{Entity, Error, PartitionKey, Table};
use time::macros::datetime;
use time::{Date, Duration, OffsetDateTime};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct Site;

fn day_of(at: &OffsetDateTime) -> Date {
    at.date()
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Site, entity = "Deal", pk = "DEAL#{id}", sk = "DEAL",
          computed(day: Date = day_of(posted_at)),
          shard(of(id), count = 4),
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{posted_at}#{id}"))]
struct Deal {
    id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    posted_at: OffsetDateTime,
    likes: u32,
}

/// The same entity after its shard count grew to 8.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Site, entity = "Deal", pk = "DEAL#{id}", sk = "DEAL",
          computed(day: Date = day_of(posted_at)),
          shard(of(id), count = 8),
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{posted_at}#{id}"))]
struct DealV8 {
    id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    posted_at: OffsetDateTime,
    likes: u32,
}

fn days() -> [Date; 3] {
    [
        datetime!(2026-11-24 0:00 UTC).date(),
        datetime!(2026-11-25 0:00 UTC).date(),
        datetime!(2026-11-26 0:00 UTC).date(),
    ]
}

/// 40 deals a day, at scattered minutes, so each shard holds a different share.
fn deals() -> Vec<Deal> {
    (0..120u32)
        .map(|i| {
            let day = days()[(i % 3) as usize];
            let minute = (i * 37) % 1440;
            Deal {
                id: format!("deal-{i:03}"),
                posted_at: day.midnight().assume_utc() + Duration::minutes(minute.into()),
                likes: i,
            }
        })
        .collect()
}

/// The ids in the index's global order: by day, then by sort key.
fn sorted_ids(deals: &[Deal]) -> Vec<String> {
    let mut sorted: Vec<&Deal> = deals.iter().collect();
    sorted.sort_by(|a, b| (a.posted_at, &a.id).cmp(&(b.posted_at, &b.id)));
    sorted.into_iter().map(|d| d.id.clone()).collect()
}

async fn seeded(test: &str) -> dynamap::Db<Site> {
    let db = fresh_db::<Site>(test).await;
    let report = db.put_all(deals()).await.expect("seed");
    assert!(report.is_complete(), "{report}");
    db
}

fn all_days() -> PartitionKey<Deal, DealGsi1Sk> {
    PartitionKey::across(days().map(Deal::gsi1))
}

/// Every page of the read, by cursor, checking each page's size and cursor.
async fn walk(db: &dynamap::Db<Site>, size: usize, descending: bool) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = db.query(all_days()).limit(size);
        if descending {
            query = query.descending();
        }
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor);
        }
        let page = query.send().await.expect("page");
        let last = page.cursor.is_none();
        assert!(
            page.items.len() == size || last,
            "a page before the last is full (size {size})"
        );
        ids.extend(page.items.into_iter().map(|d| d.id));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => return ids,
        }
    }
}

#[tokio::test]
async fn merged_pages_of_every_size_equal_the_global_sort_both_ways() {
    let db = seeded("sharded_pages").await;
    let ascending = sorted_ids(&deals());
    let descending: Vec<String> = ascending.iter().rev().cloned().collect();
    for size in [1, 7, 10, 40, 119, 120, 200] {
        assert_eq!(
            walk(&db, size, false).await,
            ascending,
            "ascending, pages of {size}"
        );
        assert_eq!(
            walk(&db, size, true).await,
            descending,
            "descending, pages of {size}"
        );
    }
}

#[tokio::test]
async fn one_day_reads_every_shard_merged_and_counts() {
    let db = seeded("sharded_day").await;
    let day = days()[1];
    let of_day: Vec<Deal> = deals()
        .into_iter()
        .filter(|d| d.posted_at.date() == day)
        .collect();
    let expected = sorted_ids(&of_day);
    let page = db
        .query(Deal::gsi1(day))
        .limit(25)
        .send()
        .await
        .expect("page");
    let ids: Vec<String> = page.items.into_iter().map(|d| d.id).collect();
    assert_eq!(ids, expected[..25]);
    let newest = db.query(Deal::gsi1(day)).last(3).all().await.expect("last");
    let newest: Vec<String> = newest.into_iter().map(|d| d.id).collect();
    let top: Vec<String> = expected.iter().rev().take(3).cloned().collect();
    assert_eq!(newest, top);
    assert_eq!(db.query(Deal::gsi1(day)).count().await.expect("count"), 40);
    assert_eq!(db.query(all_days()).count().await.expect("count"), 120);
}

#[tokio::test]
async fn a_cursor_resumes_only_its_own_read() {
    let db = seeded("sharded_cursors").await;
    let page = db.query(all_days()).limit(10).send().await.expect("page");
    let cursor = page.cursor.expect("more pages");
    let refused = |result: Result<dynamap::query::Page<Deal>, Error>, what: &str| match result {
        Err(Error::InvalidCursor { .. }) => {}
        other => panic!("{what}: expected an invalid cursor, got {other:?}"),
    };
    refused(
        db.query(all_days())
            .limit(10)
            .descending()
            .after(cursor.clone())
            .send()
            .await,
        "the other direction",
    );
    refused(
        db.query(PartitionKey::across(
            days()[1..].iter().copied().map(Deal::gsi1),
        ))
        .limit(10)
        .after(cursor.clone())
        .send()
        .await,
        "other days",
    );
    refused(
        db.query(Deal::gsi1(days()[0]))
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
        "one day of the days",
    );
    let next = db
        .query(all_days())
        .limit(10)
        .after(cursor)
        .send()
        .await
        .expect("resumes");
    let ids: Vec<String> = next.items.into_iter().map(|d| d.id).collect();
    assert_eq!(ids, sorted_ids(&deals())[10..20]);
}

#[tokio::test]
async fn growing_the_shard_count_keeps_every_item_readable() {
    let db = seeded("sharded_growth").await;
    let read_v8 = || async {
        let items = db
            .query(PartitionKey::across(days().map(DealV8::gsi1)))
            .all()
            .await
            .expect("read over 8 shards");
        items.into_iter().map(|d| d.id).collect::<Vec<_>>()
    };
    let expected = sorted_ids(&deals());
    assert_eq!(
        read_v8().await,
        expected,
        "old items sit in shards 0 to 3 of 8"
    );
    let report = db
        .maintain::<DealV8>("grow-shards")
        .rekey()
        .send()
        .await
        .expect("job");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert!(report.rekeyed > 0, "some deals move to shards 4 to 7");
    assert_eq!(
        read_v8().await,
        expected,
        "and every deal is found after the job"
    );
    for deal in db.scan::<DealV8>().all().await.expect("scan") {
        let stored = crate::raw_item(&db, &format!("DEAL#{}", deal.id), "DEAL")
            .await
            .expect("stored");
        let rendered = dynamap::Entity::to_item(&deal).expect("renders");
        assert_eq!(stored.get("GSI1PK"), rendered.get("GSI1PK"), "{}", deal.id);
    }
}
