//! Items that do not decode (stored before a required field existed, or corrupted): a
//! `lossy()` query or scan returns the good items and one error per bad item, naming its
//! key, through pages, cursors, filters and streams; other errors still end the read. A
//! strict read's error names the item too.

use futures_util::TryStreamExt;

use dynamap::codec::AttributeValue;
use dynamap::{Db, Entity, EntityEnum, Error, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Tracker;

/// An issue whose `owner` was added without a default after some issues were stored.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Tracker, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
struct Issue {
    repo: String,
    number: u32,
    owner: String,
    open: bool,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Tracker, entity = "Repo", pk = "REPO#{name}", sk = "#REPO")]
struct Repo {
    name: String,
}

#[derive(EntityEnum, Debug, Clone, PartialEq)]
enum RepoItem {
    Repo(Repo),
    Issue(Issue),
}

fn issue(number: u32) -> Issue {
    Issue {
        repo: "dynamap".into(),
        number,
        owner: format!("owner-{number}"),
        open: number.is_multiple_of(2),
    }
}

/// Issues 1..=10, of which 3 and 7 were stored without `owner`, and 9 with a number
/// where `open` should be a boolean.
async fn tracker(db: &Db<Tracker>) {
    db.put(&Repo {
        name: "dynamap".into(),
    })
    .await
    .expect("repo");
    for number in 1..=10 {
        let mut item = issue(number).to_item().expect("to_item");
        match number {
            3 | 7 => drop(item.remove("owner")),
            9 => drop(item.insert("open".into(), AttributeValue::N("1".into()))),
            _ => {}
        }
        crate::put_raw(db, item).await;
    }
}

/// The numbers of the good items and the sort keys the errors name.
fn split(items: Vec<Result<Issue, Error>>) -> (Vec<u32>, Vec<String>) {
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    for item in items {
        match item {
            Ok(issue) => good.push(issue.number),
            Err(err) => {
                assert_eq!(err.kind(), dynamap::ErrorKind::Decode, "{err}");
                let key = err.item_key().expect("names the item");
                assert_eq!(key.pk, "REPO#dynamap");
                assert!(err.to_string().contains(&key.pk), "{err}");
                bad.push(key.sk.clone().expect("sort key"));
            }
        }
    }
    (good, bad)
}

fn sort_key(number: u32) -> String {
    issue(number)
        .primary_key()
        .into_values()
        .expect("key")
        .1
        .expect("sk")
}

#[tokio::test]
async fn a_lossy_query_returns_good_items_and_names_each_bad_one() {
    let db = fresh_db::<Tracker>("lossy_query").await;
    tracker(&db).await;
    let issues = || db.query(Issue::partition("dynamap"));

    let strict = issues().all().await.expect_err("one bad item fails it all");
    assert!(
        matches!(
            strict,
            Error::MissingAttribute {
                attribute: "owner",
                ..
            }
        ),
        "{strict}"
    );
    let key = strict.item_key().expect("a strict read names the item too");
    assert_eq!(
        (key.pk.as_str(), key.sk.clone()),
        ("REPO#dynamap", Some(sort_key(3)))
    );
    assert!(strict.to_string().contains(&sort_key(3)), "{strict}");
    let err = db
        .get(Issue::key("dynamap", 9u32))
        .await
        .expect_err("`open` is not a boolean");
    assert!(
        matches!(
            err,
            Error::InvalidAttribute {
                attribute: "open",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.item_key().and_then(|k| k.sk.clone()), Some(sort_key(9)));

    let (good, bad) = split(issues().lossy().all().await.expect("lossy"));
    assert_eq!(good, [1, 2, 4, 5, 6, 8, 10]);
    assert_eq!(bad, [sort_key(3), sort_key(7), sort_key(9)]);

    // Page by page, with cursors, in both directions: the same items, once each.
    for descending in [false, true] {
        let mut all = Vec::new();
        let mut query = issues().lossy().limit(4);
        if descending {
            query = query.descending();
        }
        loop {
            let page = query.clone().send().await.expect("page");
            all.extend(page.items);
            match page.cursor {
                Some(cursor) => query = query.after(cursor),
                None => break,
            }
        }
        let (mut good, mut bad) = split(all);
        if descending {
            good.reverse();
            bad.reverse();
        }
        assert_eq!(good, [1, 2, 4, 5, 6, 8, 10]);
        assert_eq!(bad.len(), 3);
    }

    // A filter set before `lossy` stays, and streams read the same way.
    let open: Vec<_> = issues()
        .filter(Issue::OPEN.eq(true))
        .lossy()
        .stream()
        .try_collect()
        .await
        .expect("stream");
    let (good, bad) = split(open);
    assert_eq!(good, [2, 4, 6, 8, 10], "the filter kept only open issues");
    assert!(bad.is_empty(), "3, 7 and 9 are not open: {bad:?}");
}

#[tokio::test]
async fn a_lossy_scan_returns_good_items_and_names_each_bad_one() {
    let db = fresh_db::<Tracker>("lossy_scan").await;
    tracker(&db).await;
    let scanned = db
        .scan::<Issue>()
        .segments(3)
        .lossy()
        .all()
        .await
        .expect("lossy scan");
    let (mut good, mut bad) = split(scanned);
    good.sort_unstable();
    bad.sort();
    assert_eq!(good, [1, 2, 4, 5, 6, 8, 10]);
    assert_eq!(bad, [sort_key(3), sort_key(7), sort_key(9)]);
}

#[tokio::test]
async fn other_errors_still_end_a_lossy_read() {
    let db = fresh_db::<Tracker>("lossy_other_errors").await;
    tracker(&db).await;
    let missing = Db::new(db.client().clone(), "no_such_table");
    let err = missing
        .query(Issue::partition("dynamap"))
        .lossy()
        .all()
        .await
        .expect_err("no table");
    assert_eq!(err.kind(), dynamap::ErrorKind::NotFound, "{err}");
}

#[tokio::test]
async fn decode_as_keeps_a_filter_set_before_it() {
    let db = fresh_db::<Tracker>("decode_as_filter").await;
    for number in [1, 2] {
        db.put(&issue(number)).await.expect("issue");
    }
    let items = db
        .query(Issue::partition("dynamap"))
        .filter(Issue::OPEN.eq(true))
        .decode_as::<RepoItem>()
        .all()
        .await
        .expect("query");
    assert_eq!(items, [RepoItem::Issue(issue(2))]);
}
