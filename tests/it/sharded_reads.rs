//! Several physical partitions read as one query: days of an index spread over shards,
//! walked with `PartitionKey::across`, merged in sort order (ties to the shard given first),
//! one cursor resuming the whole read.

use dynamap::key::PartitionKey;
use dynamap::query::{Page, Query};
use dynamap::{Db, Entity, EntityEnum, EntityProjection, ErrorKind};

use crate::fresh_db;
use crate::models::App;

const DAYS: [&str; 3] = ["2026-11-24", "2026-11-25", "2026-11-26"];
const SHARDS: u8 = 4;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}"))]
struct Deal {
    id: String,
    day: String,
    shard: u8,
    created_at: i64,
    title: String,
}

/// Another entity type in the same index partitions.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Promo", pk = "PROMO#{id}", sk = "INFO",
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}"))]
struct Promo {
    id: String,
    day: String,
    shard: u8,
    created_at: i64,
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
enum Listed {
    Deal(Deal),
    Promo(Promo),
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
enum OnlyDeals {
    Deal(Deal),
}

#[derive(EntityProjection, Debug)]
#[dynamap(entity = Deal)]
struct DealTime {
    id: String,
    created_at: i64,
}

/// 120 deals over 3 days and 4 shards, unevenly: shard 3 is empty on the second day, many
/// equal sort keys within and across shards; every tenth deal is titled "keep". Plus 6
/// promos.
async fn seeded(test: &str) -> Db<App> {
    let db = fresh_db::<App>(test).await;
    let deals: Vec<Deal> = (0..120i64)
        .map(|i| {
            let day = (i % 3) as usize;
            let mut shard = ((i * 5 + i / 7) % 4) as u8;
            if day == 1 && shard == 3 {
                shard = (i % 3) as u8;
            }
            Deal {
                id: format!("{i:03}"),
                day: DAYS[day].to_owned(),
                shard,
                created_at: (i * 7) % 13,
                title: if i % 10 == 3 { "keep" } else { "drop" }.to_owned(),
            }
        })
        .collect();
    let report = db.put_all(&deals).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    for i in 0..6i64 {
        db.put(&Promo {
            id: format!("p{i}"),
            day: DAYS[(i % 3) as usize].to_owned(),
            shard: (i % 2) as u8,
            created_at: i * 2,
        })
        .await
        .expect("promo");
    }
    db
}

fn day(day: &str) -> PartitionKey<Deal, (i64,)> {
    PartitionKey::across((0..SHARDS).map(|shard| Deal::gsi1(day, shard))).merged()
}

fn days(list: &[&str]) -> PartitionKey<Deal, (i64,)> {
    PartitionKey::across(list.iter().map(|d| day(d)))
}

/// The expected order of `query(shard)` over every day and shard: days in order, then sort
/// key, ties to the earlier shard, within a shard DynamoDB's own order (as a single-partition
/// query returns it); descending reverses days, keys and shards.
async fn expected<T: dynamap::query::Decode>(
    descending: bool,
    query: impl Fn(PartitionKey<Deal, (i64,)>) -> Query<T, (i64,)>,
    created_at: impl Fn(&T) -> i64,
) -> Vec<T> {
    let mut order: Vec<&str> = DAYS.to_vec();
    if descending {
        order.reverse();
    }
    let mut all = Vec::new();
    for d in order {
        let mut tagged = Vec::new();
        for shard in 0..SHARDS {
            let mut q = query(Deal::gsi1(d, shard));
            if descending {
                q = q.descending();
            }
            for (n, item) in q.all().await.expect("shard").into_iter().enumerate() {
                tagged.push((created_at(&item), shard, n, item));
            }
        }
        tagged.sort_by(|a, b| {
            let keys = a.0.cmp(&b.0).then(a.1.cmp(&b.1));
            if descending { keys.reverse() } else { keys }.then(a.2.cmp(&b.2))
        });
        all.extend(tagged.into_iter().map(|t| t.3));
    }
    all
}

/// Every page of `query`, each resumed by the cursor of the one before; no cursor leads to
/// an empty page and the last page has none.
async fn walk<T: dynamap::query::Decode, S>(query: impl Fn() -> Query<T, S>) -> Vec<Page<T>> {
    let mut pages: Vec<Page<T>> = Vec::new();
    loop {
        let mut next = query();
        if let Some(page) = pages.last() {
            match &page.cursor {
                Some(cursor) => next = next.after(cursor.clone()),
                None => return pages,
            }
        }
        let page = next.send().await.expect("page");
        assert!(
            pages.is_empty() || !page.is_empty(),
            "a cursor led to an empty page"
        );
        pages.push(page);
    }
}

fn ids(items: &[Deal]) -> Vec<String> {
    items.iter().map(|d| d.id.clone()).collect()
}

#[tokio::test]
async fn pages_walked_by_cursor_over_sharded_days_are_the_global_sort() {
    let db = seeded("sharded_walk").await;
    for descending in [false, true] {
        let want = ids(&expected(descending, |p| db.query(p), |d| d.created_at).await);
        assert_eq!(want.len(), 120);
        for size in [1, 7, 10, 40, 119, 120, 200] {
            let pages = walk(|| {
                let q = db.query(days(&DAYS)).limit(size);
                if descending { q.descending() } else { q }
            })
            .await;
            let got: Vec<Deal> = pages.iter().flat_map(|p| p.items.clone()).collect();
            assert_eq!(ids(&got), want, "size {size}, descending {descending}");
            assert_eq!(
                pages.len(),
                want.len().div_ceil(size),
                "size {size}: page count"
            );
            for page in &pages[..pages.len() - 1] {
                assert_eq!(page.len(), size, "pages before the last are full");
            }
        }
    }
}

#[tokio::test]
async fn a_cursor_resumes_only_its_own_merged_query() {
    let db = seeded("sharded_cursor_binding").await;
    let page = db.query(days(&DAYS)).limit(10).send().await.expect("page");
    let cursor = page.cursor.expect("more follow");
    let again = db
        .query(days(&DAYS))
        .limit(25)
        .after(cursor.clone())
        .send()
        .await;
    assert!(again.is_ok(), "the page size may change: {again:?}");
    let refused = [
        db.query(days(&DAYS[..2]))
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
        db.query(days(&DAYS))
            .sk_ge((3i64,))
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
        db.query(days(&DAYS))
            .descending()
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
        db.query(days(&DAYS))
            .filter(Deal::TITLE.eq("keep"))
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
        db.query(Deal::gsi1(DAYS[0], 0))
            .limit(10)
            .after(cursor.clone())
            .send()
            .await,
    ];
    for (i, result) in refused.into_iter().enumerate() {
        let err = result.expect_err("another query");
        assert!(
            matches!(err, dynamap::Error::InvalidCursor { .. }),
            "case {i}: {err}"
        );
    }
    let single = db
        .query(Deal::gsi1(DAYS[0], 0))
        .limit(1)
        .send()
        .await
        .expect("page");
    let err = db
        .query(days(&DAYS))
        .after(single.cursor.expect("more"))
        .send()
        .await
        .expect_err("single-partition cursor");
    assert!(matches!(err, dynamap::Error::InvalidCursor { .. }), "{err}");
    assert_eq!(err.kind(), ErrorKind::InvalidRequest);
}

#[tokio::test]
async fn first_last_limit_count_stream_and_all_follow_the_merged_order() {
    use futures_util::TryStreamExt;
    let db = seeded("sharded_edges").await;
    let up = ids(&expected(false, |p| db.query(p), |d| d.created_at).await);
    let down = ids(&expected(true, |p| db.query(p), |d| d.created_at).await);
    let first = db.query(days(&DAYS)).first(5).all().await.expect("first");
    assert_eq!(ids(&first), up[..5]);
    let last = db.query(days(&DAYS)).last(5).send().await.expect("last");
    assert_eq!(ids(&last.items), down[..5]);
    let limited = db.query(days(&DAYS)).limit(33).all().await.expect("limit");
    assert_eq!(ids(&limited), up[..33]);
    assert_eq!(ids(&db.query(days(&DAYS)).all().await.expect("all")), up);
    let streamed: Vec<Deal> = db
        .query(days(&DAYS))
        .descending()
        .stream()
        .try_collect()
        .await
        .expect("stream");
    assert_eq!(ids(&streamed), down);
    let streamed: Vec<Deal> = db
        .query(days(&DAYS))
        .limit(17)
        .stream()
        .try_collect()
        .await
        .expect("stream");
    assert_eq!(ids(&streamed), up[..17]);
    assert_eq!(db.query(days(&DAYS)).count().await.expect("count"), 120);
    let kept = db
        .query(days(&DAYS))
        .filter(Deal::TITLE.eq("keep"))
        .count()
        .await;
    assert_eq!(kept.expect("count"), 12);
    assert!(db.query(days(&DAYS)).limit(3).count().await.is_err());
    let fan = db
        .query(days(&DAYS))
        .fan_out(1)
        .all()
        .await
        .expect("one at a time");
    assert_eq!(ids(&fan), up);
    let err = db
        .query(days(&DAYS))
        .fan_out(0)
        .send()
        .await
        .expect_err("no requests");
    assert!(
        matches!(
            err,
            dynamap::Error::InvalidSetting {
                setting: "fan_out",
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn a_sparse_filter_keeps_pages_full_and_ends_without_a_cursor() {
    let db = seeded("sharded_filter").await;
    for descending in [false, true] {
        let want: Vec<String> = expected(
            descending,
            |p| db.query(p).filter(Deal::TITLE.eq("keep")),
            |d| d.created_at,
        )
        .await
        .iter()
        .map(|d| d.id.clone())
        .collect();
        assert_eq!(want.len(), 12);
        for size in [4, 5, 12] {
            let pages = walk(|| {
                let q = db
                    .query(days(&DAYS))
                    .filter(Deal::TITLE.eq("keep"))
                    .limit(size);
                if descending { q.descending() } else { q }
            })
            .await;
            let got: Vec<Deal> = pages.iter().flat_map(|p| p.items.clone()).collect();
            assert_eq!(ids(&got), want, "size {size}");
            assert_eq!(
                pages.len(),
                want.len().div_ceil(size),
                "size {size}: full pages"
            );
        }
    }
}

/// Over several shards each request asks for what the page still wants, not one more, so a
/// shard that fills the page alone ends its response exactly there (with a
/// `LastEvaluatedKey`): whether more follow is then learnt by a look-ahead, and the page
/// has a cursor exactly when they do.
#[tokio::test]
async fn a_page_filled_by_one_shard_alone_has_a_cursor_exactly_when_more_follow() {
    let db = fresh_db::<App>("sharded_one_shard_fills").await;
    let deal = |i: i64| Deal {
        id: format!("{i:03}"),
        day: DAYS[0].to_owned(),
        shard: 2,
        created_at: i,
        title: "only".to_owned(),
    };
    let deals: Vec<Deal> = (0..5).map(deal).collect();
    let report = db.put_all(&deals).await.expect("seeded");
    assert!(report.is_complete(), "{report}");
    let page = db.query(day(DAYS[0])).limit(5).send().await.expect("page");
    assert_eq!(ids(&page.items), ids(&deals));
    assert!(page.cursor.is_none(), "the page ends the results");

    db.put(&deal(5)).await.expect("one more");
    let page = db.query(day(DAYS[0])).limit(5).send().await.expect("page");
    assert_eq!(ids(&page.items), ids(&deals));
    let cursor = page.cursor.expect("one more follows");
    let rest = db
        .query(day(DAYS[0]))
        .limit(5)
        .after(cursor)
        .send()
        .await
        .expect("rest");
    assert_eq!(ids(&rest.items), vec!["005".to_owned()]);
    assert!(rest.cursor.is_none());
}

#[tokio::test]
async fn sort_conditions_projections_and_enums_apply_across_shards() {
    let db = seeded("sharded_conditions").await;
    let want = expected(false, |p| db.query(p).sk_ge((5i64,)), |d| d.created_at).await;
    assert!(want.iter().all(|d| d.created_at >= 5) && want.len() > 40);
    let pages = walk(|| db.query(days(&DAYS)).sk_ge((5i64,)).limit(9)).await;
    let got: Vec<Deal> = pages.iter().flat_map(|p| p.items.clone()).collect();
    assert_eq!(ids(&got), ids(&want));

    let want = expected(
        true,
        |p| db.query(p).sk_between((2i64,), (6i64,)),
        |d| d.created_at,
    )
    .await;
    let got = db
        .query(days(&DAYS))
        .sk_between((2i64,), (6i64,))
        .descending()
        .all()
        .await;
    assert_eq!(ids(&got.expect("between")), ids(&want));

    let projected = db
        .query(days(&DAYS))
        .limit(30)
        .project_as::<DealTime>()
        .all()
        .await;
    let up = expected(false, |p| db.query(p), |d| d.created_at).await;
    let projected: Vec<(String, i64)> = projected
        .expect("projection")
        .into_iter()
        .map(|d| (d.id, d.created_at))
        .collect();
    let want: Vec<(String, i64)> = up[..30]
        .iter()
        .map(|d| (d.id.clone(), d.created_at))
        .collect();
    assert_eq!(projected, want);

    // Every item of the partitions, promos included, in merged order.
    let created = |item: &Listed| match item {
        Listed::Deal(d) => d.created_at,
        Listed::Promo(p) => p.created_at,
    };
    let want = expected(false, |p| db.query(p).decode_as::<Listed>(), created).await;
    assert_eq!(want.len(), 126);
    let pages = walk(|| db.query(days(&DAYS)).decode_as::<Listed>().limit(11)).await;
    let got: Vec<Listed> = pages.into_iter().flat_map(|p| p.items).collect();
    assert_eq!(got, want);

    // An enum without promos skips them: they take no place on a page.
    let pages = walk(|| db.query(days(&DAYS)).decode_as::<OnlyDeals>().limit(7)).await;
    assert_eq!(pages.len(), 120usize.div_ceil(7));
    let got: Vec<String> = pages
        .into_iter()
        .flat_map(|p| p.items)
        .map(|OnlyDeals::Deal(d)| d.id)
        .collect();
    let deals: Vec<String> = want
        .iter()
        .filter_map(|item| match item {
            Listed::Deal(d) => Some(d.id.clone()),
            Listed::Promo(_) => None,
        })
        .collect();
    assert_eq!(got, deals);
}

#[tokio::test]
async fn partitions_that_cannot_be_read_as_one_fail_before_sending() {
    let db = crate::offline(&fresh_db::<App>("sharded_refusals").await);
    let err = db
        .query(PartitionKey::<Deal, (i64,)>::across([]))
        .send()
        .await
        .expect_err("none");
    assert!(matches!(err, dynamap::Error::Key(_)), "{err}");
}

#[tokio::test]
async fn a_failing_shard_fails_the_read_never_a_short_page() {
    use dynamap_local::{DynamoLocal, Faults};
    let db = seeded("sharded_faults").await;
    let want = db.query(days(&DAYS)).limit(30).send().await.expect("page");
    let local = DynamoLocal::shared().expect("DynamoDB Local");
    let faulty = |faults: &Faults| Db::new(local.faulty_client(faults), db.table_name());

    let all_fail = Faults::seeded(7).server_error(1.0).only(["Query"]);
    let err = faulty(&all_fail).query(days(&DAYS)).limit(30).send().await;
    assert_eq!(
        err.expect_err("every shard fails").kind(),
        ErrorKind::Service
    );

    // Some requests fail (after the SDK's own retries): each read is the whole page or an
    // error.
    let some_fail = Faults::seeded(11).throttle(0.6).only(["Query"]);
    let (mut failed, mut whole) = (0, 0);
    for _ in 0..10 {
        match faulty(&some_fail).query(days(&DAYS)).limit(30).send().await {
            Ok(page) => {
                assert_eq!(ids(&page.items), ids(&want.items));
                assert_eq!(page.cursor.is_some(), want.cursor.is_some());
                whole += 1;
            }
            Err(err) => {
                assert_eq!(err.kind(), ErrorKind::Throttled, "{err}");
                failed += 1;
            }
        }
    }
    assert!(
        failed > 0,
        "the faults reached the read ({whole} whole pages)"
    );
}
