//! Reads over several partitions and jobs over a whole table, on a table whose sort key is
//! a number mapped to a field (see `typed_primary_keys.rs`).

use dynamap::key::PartitionKey;

use crate::fresh_db;
use crate::typed_primary_keys::{Event, Events, event};

#[tokio::test]
async fn partitions_read_as_one_merge_by_number_and_resume() {
    let db = fresh_db::<Events>("typed_pk_merged").await;
    for (user, stamp) in [
        ("u1", 9),
        ("u2", 10),
        ("u1", 100),
        ("u2", -3),
        ("u1", 11),
        ("u2", 99),
    ] {
        db.put(&event(user, stamp)).await.expect("put");
    }
    let users = || PartitionKey::across(["u1", "u2"].map(Event::partition)).merged();
    let stamps_of = |events: &[Event]| events.iter().map(|e| e.timestamp).collect::<Vec<_>>();
    let first = db.query(users()).limit(4).send().await.expect("page");
    assert_eq!(stamps_of(&first.items), [-3, 9, 10, 11]);
    let rest = db
        .query(users())
        .after(first.cursor.expect("more"))
        .all()
        .await
        .expect("rest");
    assert_eq!(stamps_of(&rest), [99, 100]);
    let descending = db
        .query(users())
        .sk_lt(100i64)
        .descending()
        .all()
        .await
        .expect("range");
    assert_eq!(stamps_of(&descending), [99, 11, 10, 9, -3]);
}

#[tokio::test]
async fn maintenance_jobs_read_typed_keys() {
    let db = fresh_db::<Events>("typed_pk_maintain").await;
    for stamp in 0..5 {
        db.put(&event("u1", stamp)).await.expect("put");
    }
    let report = db
        .maintain::<Event>("rekey")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!((report.scanned, report.unchanged), (5, 5), "{report:?}");
    let mapped = db
        .maintain::<Event>("bump")
        .map(|e| {
            let mut e = e.clone();
            e.count += 1;
            dynamap::maintain::Change::Write(e)
        })
        .send()
        .await
        .expect("job");
    assert_eq!(mapped.mapped, 5, "{mapped:?}");
    let counts: Vec<u32> = db
        .query(Event::partition("u1"))
        .all()
        .await
        .expect("query")
        .into_iter()
        .map(|e| e.count)
        .collect();
    assert_eq!(counts, [2; 5]);
}
