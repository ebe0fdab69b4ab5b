//! Retries built in: `transact_retry` rebuilds a transaction from fresh reads when a
//! concurrent writer wins, and stops at once on anything else; it and `try_modify` return
//! the value of the attempt that landed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use dynamap::retry::RetryPolicy;
use dynamap::{Entity, Error};

use crate::models::App;
use crate::write_models::Counter;

/// An issue numbered from a counter, created in the same transaction as the increment.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "NumberedIssue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
struct NumberedIssue {
    repo: String,
    number: u64,
    author: u32,
}

async fn counter_at_zero(db: &dynamap::Db<App>, id: &str) {
    let mut counter = Counter {
        id: id.into(),
        value: 0,
        version: 0,
    };
    db.save(&mut counter).await.expect("counter");
}

/// Fifty tasks number an issue each from one counter, in a transaction that bumps the
/// versioned counter and creates the issue: every task lands, with its own number, and
/// gets back the number of the attempt that landed. All fifty read the counter before any
/// writes, so 49 first attempts are stale for sure.
#[tokio::test]
async fn concurrent_transactions_each_land_once() {
    let db = crate::fresh_db::<App>("retries_transact").await;
    counter_at_zero(&db, "repo").await;
    let builds = Arc::new(AtomicU32::new(0));
    let all_read = Arc::new(tokio::sync::Barrier::new(50));
    let policy = RetryPolicy::default().max_attempts(200);
    let tasks = (0..50u32)
        .map(|author| {
            let (db, builds, all_read) = (db.clone(), builds.clone(), all_read.clone());
            tokio::spawn(async move {
                let (db, builds, all_read) = (&db, &builds, &all_read);
                let first = &std::sync::atomic::AtomicBool::new(true);
                db.transact_retry_with(policy, || async move {
                    builds.fetch_add(1, Ordering::Relaxed);
                    let mut counter = db
                        .get(Counter::key("repo"))
                        .consistent()
                        .await?
                        .expect("counter exists");
                    if first.swap(false, Ordering::Relaxed) {
                        all_read.wait().await;
                    }
                    counter.value += 1;
                    let issue = NumberedIssue {
                        repo: "hello".into(),
                        number: counter.value,
                        author,
                    };
                    Ok((db.transaction().put(&counter).create(&issue), issue.number))
                })
                .await
                .map(|number| (author, number))
            })
        })
        .collect::<Vec<_>>();
    let mut returned = Vec::new();
    for task in tasks {
        returned.push(task.await.expect("joined").expect("transaction lands"));
    }
    let stored = db
        .get(Counter::key("repo"))
        .consistent()
        .await
        .expect("get")
        .expect("counter");
    assert_eq!(stored.value, 50, "no increment lost");
    let issues = db
        .query(NumberedIssue::partition("hello"))
        .consistent()
        .all()
        .await
        .expect("issues");
    let mut numbers: Vec<u64> = issues.iter().map(|i| i.number).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=50).collect::<Vec<_>>());
    let mut stored: Vec<(u32, u64)> = issues.iter().map(|i| (i.author, i.number)).collect();
    stored.sort_unstable();
    returned.sort_unstable();
    assert_eq!(
        returned, stored,
        "each task got the number its issue landed with"
    );
    let mut authors: Vec<u32> = issues.iter().map(|i| i.author).collect();
    authors.sort_unstable();
    assert_eq!(authors, (0..50).collect::<Vec<_>>(), "one issue per task");
    assert!(
        builds.load(Ordering::Relaxed) >= 50 + 49,
        "every stale first attempt was rebuilt"
    );
}

/// A condition of the caller's own that does not hold is not a conflict: one attempt, and
/// its error.
#[tokio::test]
async fn a_failed_condition_of_your_own_is_not_retried() {
    let db = crate::fresh_db::<App>("retries_own_condition").await;
    counter_at_zero(&db, "repo").await;
    let existing = NumberedIssue {
        repo: "hello".into(),
        number: 1,
        author: 7,
    };
    db.put(&existing).await.expect("issue 1");
    let builds = AtomicU32::new(0);
    let (db, builds_ref, existing) = (&db, &builds, &existing);
    let result = db
        .transact_retry(|| async move {
            builds_ref.fetch_add(1, Ordering::Relaxed);
            let mut counter = db
                .get(Counter::key("repo"))
                .consistent()
                .await?
                .expect("counter");
            counter.value += 1;
            // Issue 1 exists already: `create` fails, and retrying cannot change that.
            Ok(db.transaction().put(&counter).create(existing))
        })
        .await;
    match result {
        Err(ref err @ Error::TransactionCanceled { ref reasons, .. }) => {
            assert!(!err.is_conflict(), "{err}");
            assert_eq!(reasons.len(), 1, "{err}");
            assert_eq!((reasons[0].index, reasons[0].operation), (1, "create"));
        }
        other => panic!("expected a canceled transaction, got {other:?}"),
    }
    assert_eq!(builds.load(Ordering::Relaxed), 1, "not retried");
    let counter = db
        .get(Counter::key("repo"))
        .consistent()
        .await
        .expect("get")
        .expect("counter");
    assert_eq!(counter.value, 0, "nothing written");
}

/// A stale versioned `put` in a transaction is reported as a conflict, and the loop gives
/// up after the policy's attempts with the last error.
#[tokio::test]
async fn a_stale_read_is_a_conflict_retried_up_to_the_policy() {
    let db = crate::fresh_db::<App>("retries_stale").await;
    counter_at_zero(&db, "repo").await;
    let stale = db
        .get(Counter::key("repo"))
        .consistent()
        .await
        .expect("get")
        .expect("counter");
    counter_at_zero(&db, "other").await;
    db.modify(Counter::key("repo"), |c| c.value = 10)
        .await
        .expect("moved on");
    let builds = AtomicU32::new(0);
    let (db, builds_ref, stale) = (&db, &builds, &stale);
    let result = db
        .transact_retry_with(RetryPolicy::default().max_attempts(3), || async move {
            builds_ref.fetch_add(1, Ordering::Relaxed);
            // Always the copy read before the item moved on.
            Ok(db.transaction().put(stale))
        })
        .await;
    let err = result.expect_err("stale every time");
    assert!(err.is_conflict(), "{err}");
    assert!(
        !err.is_retryable(),
        "resending the same request cannot help"
    );
    assert_eq!(builds.load(Ordering::Relaxed), 3);
}

#[derive(Debug, PartialEq)]
enum NumberingError {
    Frozen,
    Db(String),
}

impl From<Error> for NumberingError {
    fn from(err: Error) -> Self {
        NumberingError::Db(err.to_string())
    }
}

/// `try_modify` returns the closure's value from the attempt that was saved, writes nothing
/// on `Keep`, and ends with the caller's own error, unwritten.
#[tokio::test]
async fn try_modify_returns_values_keeps_and_aborts() {
    use dynamap::ops::Modify;

    let db = crate::fresh_db::<App>("retries_try_modify").await;
    counter_at_zero(&db, "repo").await;
    let next = |db: &dynamap::Db<App>| {
        db.try_modify(Counter::key("repo"), |c| {
            if c.value >= 3 {
                return Err(NumberingError::Frozen);
            }
            c.value += 1;
            Ok(Modify::Save(c.value))
        })
    };
    let tasks: Vec<_> = (0..3)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move { next(&db).await })
        })
        .collect();
    let mut numbers = Vec::new();
    for task in tasks {
        let modified = task.await.expect("joined").expect("saved").expect("exists");
        assert!(modified.saved);
        assert_eq!(modified.entity.value, modified.value);
        numbers.push(modified.value);
    }
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3], "each caller its own number");

    assert_eq!(next(&db).await.err(), Some(NumberingError::Frozen));

    let kept = db
        .try_modify(Counter::key("repo"), |c| {
            c.value = 99; // changed, but kept: not written
            Ok::<_, Error>(Modify::Keep("looked"))
        })
        .await
        .expect("kept")
        .expect("exists");
    assert_eq!((kept.value, kept.saved), ("looked", false));
    let stored = db
        .get(Counter::key("repo"))
        .consistent()
        .await
        .expect("get")
        .expect("counter");
    assert_eq!(
        (stored.value, stored.version),
        (3, 4),
        "three saves after the first"
    );

    let missing = db
        .try_modify(Counter::key("none"), |_| Ok::<_, Error>(Modify::Save(())))
        .await
        .expect("no item is no error");
    assert!(missing.is_none());
}
