//! Transactions, optimistic locking and lookup items kept in sync, against DynamoDB Local.

use std::sync::Arc;

use dynamap::codec::AttributeValue::S;
use dynamap::{Db, Error};

use crate::fresh_db;
use crate::models::{App, Score, sensor};
use crate::write_models::{Counter, Member, PlacedSensor};

fn score(user: &str, score: i64) -> Score {
    Score {
        game: "g".into(),
        score,
        user: user.into(),
    }
}

#[tokio::test]
async fn a_transaction_writes_everything_or_nothing() {
    let db = fresh_db::<App>("tx_all_or_nothing").await;
    db.put(&score("a", 1)).await.expect("put");

    db.transaction()
        .put(&score("b", 2))
        .create(&sensor("S1"))
        .check(Score::key("g", 1i64, "a"), Score::USER.eq("a"))
        .send()
        .await
        .expect("transaction");
    assert!(
        db.get(Score::key("g", 2i64, "b"))
            .await
            .expect("get")
            .is_some()
    );

    let err = db
        .transaction()
        .put(&score("c", 3))
        .create(&sensor("S1"))
        .delete(Score::key("g", 1i64, "a"))
        .send()
        .await
        .expect_err("S1 exists");
    let Error::TransactionCanceled { reasons, .. } = &err else {
        panic!("expected a cancellation, got {err:?}")
    };
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert_eq!(
        (reasons[0].index, reasons[0].entity, reasons[0].operation),
        (1, "Sensor", "create")
    );
    assert!(reasons[0].is_conditional_check_failed());
    assert!(err.is_conditional_check_failed());
    assert!(
        db.get(Score::key("g", 3i64, "c"))
            .consistent()
            .await
            .expect("get")
            .is_none(),
        "nothing was written"
    );
    assert!(
        db.get(Score::key("g", 1i64, "a"))
            .consistent()
            .await
            .expect("get")
            .is_some(),
        "nothing was deleted"
    );
}

#[tokio::test]
async fn transaction_limits_are_checked_before_sending() {
    let db = fresh_db::<App>("tx_limits").await;
    let mut tx = db.transaction();
    for i in 0..101 {
        tx = tx.put(&score(&format!("u{i}"), i));
    }
    let err = tx.send().await.expect_err("101 actions");
    assert!(
        matches!(
            err,
            Error::TooManyActions {
                actions: 101,
                limit: 100,
                ..
            }
        ),
        "{err:?}"
    );

    let err = db
        .transaction()
        .put(&score("a", 1))
        .delete(Score::key("g", 1i64, "a"))
        .send()
        .await
        .expect_err("same item twice");
    assert!(
        matches!(
            err,
            Error::DuplicateTransactionItem {
                first: 0,
                second: 1,
                ..
            }
        ),
        "{err:?}"
    );

    let mut tx = db.transaction();
    for i in 0..11 {
        let mut big = sensor(&format!("S{i}"));
        big.note = Some("x".repeat(400_000));
        tx = tx.put(&big);
    }
    let err = tx.send().await.expect_err("over 4 MB");
    assert!(
        matches!(
            err,
            Error::TransactionTooLarge {
                limit: 4_194_304,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        db.scan::<Score>().count().await.expect("count"),
        0,
        "nothing was sent"
    );
}

#[tokio::test]
async fn an_idempotency_token_applies_a_transaction_once() {
    let db = fresh_db::<App>("tx_token").await;
    let run = || {
        db.transaction()
            .create(&sensor("S1"))
            .idempotency_token("register-S1")
    };
    run().send().await.expect("first");
    run()
        .send()
        .await
        .expect("a retry with the same token succeeds without applying again");
    let err = db
        .transaction()
        .create(&sensor("S1"))
        .send()
        .await
        .expect_err("without the token");
    assert!(err.is_conditional_check_failed());
}

#[tokio::test]
async fn versions_detect_lost_updates() {
    let db = fresh_db::<App>("versions").await;
    let mut counter = Counter {
        id: "c".into(),
        value: 0,
        version: 0,
    };
    db.save(&mut counter).await.expect("create");
    assert_eq!(counter.version, 1);
    let stale = counter.clone();

    counter.value = 5;
    db.save(&mut counter).await.expect("second save");
    assert_eq!(counter.version, 2);

    let err = db.put(&stale).await.expect_err("stale version");
    assert!(
        matches!(
            err,
            Error::VersionConflict {
                entity: "Counter",
                expected: 1,
                ..
            }
        ),
        "{err:?}"
    );
    let stored = db
        .get(Counter::key("c"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!((stored.value, stored.version), (5, 2));

    let err = db
        .put(&Counter {
            id: "c".into(),
            value: 9,
            version: 0,
        })
        .await
        .expect_err("not new");
    assert!(
        matches!(err, Error::VersionConflict { expected: 0, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn fifty_concurrent_versioned_increments_end_at_fifty() {
    let db = Arc::new(fresh_db::<App>("increments").await);
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let db = Arc::clone(&db);
            tokio::spawn(async move {
                loop {
                    let read = db
                        .get(Counter::key("hits"))
                        .consistent()
                        .await
                        .expect("get");
                    let mut counter = read.unwrap_or(Counter {
                        id: "hits".into(),
                        value: 0,
                        version: 0,
                    });
                    counter.value += 1;
                    match db.save(&mut counter).await {
                        Ok(()) => return,
                        Err(Error::VersionConflict { .. }) => continue,
                        Err(err) => panic!("unexpected error: {err}"),
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }
    let counter = db
        .get(Counter::key("hits"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!((counter.value, counter.version), (50, 50));
}

/// The lookup items of table `db`, as (partition key, sort key, owner partition key).
async fn lookups<L: dynamap::Table>(
    db: &Db<L>,
    entity_type: &str,
) -> Vec<(String, String, String)> {
    let scan = db
        .client()
        .scan()
        .table_name(db.table_name())
        .filter_expression("#t = :t")
        .expression_attribute_names("#t", "_type")
        .expression_attribute_values(":t", S(entity_type.into()))
        .consistent_read(true)
        .send()
        .await
        .expect("scan");
    let text = |item: &dynamap::codec::Item, name: &str| item[name].as_s().expect("string").clone();
    let mut found: Vec<_> = scan
        .items()
        .iter()
        .map(|i| (text(i, "PK"), text(i, "SK"), text(i, "_owner_pk")))
        .collect();
    found.sort();
    found
}

fn placed(id: &str, building: &str, room: &str) -> PlacedSensor {
    PlacedSensor {
        id: id.into(),
        city: "Poznań".into(),
        building: building.into(),
        floor: "2".into(),
        room: room.into(),
    }
}

#[tokio::test]
async fn a_location_item_follows_its_sensor() {
    let db = fresh_db::<App>("lookup_sync").await;
    db.put(&placed("S1", "A", "13")).await.expect("register");
    let expected = |room: &str| {
        vec![(
            "CITY#Poznań".to_owned(),
            format!("LOCATION#A#2#{room}#S1"),
            "PLACED#S1".to_owned(),
        )]
    };
    assert_eq!(lookups(&db, "PlacedSensor.location").await, expected("13"));

    db.put(&placed("S1", "A", "14")).await.expect("move");
    assert_eq!(
        lookups(&db, "PlacedSensor.location").await,
        expected("14"),
        "the old location is gone"
    );

    db.put(&placed("S1", "A", "14"))
        .await
        .expect("write again unchanged");
    assert_eq!(lookups(&db, "PlacedSensor.location").await, expected("14"));

    let err = db
        .create(&placed("S1", "B", "1"))
        .await
        .expect_err("exists");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(lookups(&db, "PlacedSensor.location").await, expected("14"));

    let err = db
        .delete(PlacedSensor::key("S1"))
        .condition(PlacedSensor::ROOM.eq("99"))
        .await
        .expect_err("the condition does not hold");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(lookups(&db, "PlacedSensor.location").await, expected("14"));

    db.delete(PlacedSensor::key("S1"))
        .condition(PlacedSensor::ROOM.eq("14"))
        .await
        .expect("delete");
    assert!(
        lookups(&db, "PlacedSensor.location").await.is_empty(),
        "the lookup went with its sensor"
    );
    assert_eq!(
        db.get(PlacedSensor::key("S1"))
            .consistent()
            .await
            .expect("get"),
        None
    );
    let err = db
        .delete(PlacedSensor::key("S1"))
        .if_exists()
        .await
        .expect_err("gone");
    assert!(err.is_conditional_check_failed());
}

#[tokio::test]
async fn a_lookup_guards_uniqueness() {
    let db = fresh_db::<App>("unique_email").await;
    let member = |id: &str, email: &str| Member {
        id: id.into(),
        email: email.into(),
    };
    db.put(&member("m1", "ada@example.com"))
        .await
        .expect("first");
    let err = db
        .put(&member("m2", "ada@example.com"))
        .await
        .expect_err("taken");
    assert!(
        matches!(
            err,
            Error::LookupTaken {
                entity: "Member",
                lookup: "email",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        db.get(Member::key("m2")).consistent().await.expect("get"),
        None,
        "nothing was written"
    );

    db.put(&member("m1", "ada@lovelace.org"))
        .await
        .expect("change e-mail");
    db.put(&member("m2", "ada@example.com"))
        .await
        .expect("the old address is free again");
    let owners: Vec<String> = lookups(&db, "Member.email")
        .await
        .into_iter()
        .map(|l| format!("{} {}", l.0, l.2))
        .collect();
    assert_eq!(
        owners,
        [
            "EMAIL#ada@example.com MEMBER#m2",
            "EMAIL#ada@lovelace.org MEMBER#m1"
        ]
    );
}

#[tokio::test]
async fn concurrent_location_changes_under_faults_leave_one_matching_lookup_each() {
    use dynamap_local::{DynamoLocal, Faults};
    const SENSORS: usize = 20;
    const TASKS: usize = 50;
    const CHANGES_PER_TASK: usize = 20;

    let faults = Faults::seeded(2024).throttle(0.05).server_error(0.02);
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let db = Arc::new(
        local
            .fresh_db_with_faults::<App>("lookup_race", &faults)
            .await
            .expect("table"),
    );
    let buildings = ["A", "B", "C"];
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let db = Arc::clone(&db);
            tokio::spawn(async move {
                // A small deterministic generator per task: which sensor moves where.
                let mut state = task as u64 * 7919 + 1;
                let mut next = move |n: usize| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 33) as usize % n
                };
                for _ in 0..CHANGES_PER_TASK {
                    let id = format!("S{}", next(SENSORS));
                    let sensor = placed(&id, buildings[next(3)], &next(40).to_string());
                    db.put(&sensor)
                        .await
                        .unwrap_or_else(|err| panic!("moving {id}: {err}"));
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }
    assert!(
        faults.counts().faulty_calls() > 0,
        "faults were injected: {:?}",
        faults.counts()
    );

    // Checked through a client without faults: the scans are not what is under test.
    let clean = Db::new(local.client(), db.table_name());
    let found = lookups(&clean, "PlacedSensor.location").await;
    let sensors = clean
        .scan::<PlacedSensor>()
        .consistent()
        .all()
        .await
        .expect("scan");
    assert!(sensors.len() <= SENSORS && !sensors.is_empty());
    assert_eq!(
        found.len(),
        sensors.len(),
        "exactly one lookup per sensor: {found:?}"
    );
    for s in &sensors {
        let expected = (
            format!("CITY#{}", s.city),
            format!("LOCATION#{}#{}#{}#{}", s.building, s.floor, s.room, s.id),
            format!("PLACED#{}", s.id),
        );
        assert!(
            found.contains(&expected),
            "lookup of {} matches its fields: {expected:?} in {found:?}",
            s.id
        );
    }
}

#[tokio::test]
async fn batch_writes_refuse_entities_that_need_guarded_writes() {
    let db = fresh_db::<App>("batch_refusals").await;
    let report = db
        .batch_write()
        .put(&placed("S1", "A", "1"))
        .put(&Counter {
            id: "c".into(),
            value: 1,
            version: 0,
        })
        .put(&score("ok", 1))
        .delete(PlacedSensor::key("S2"))
        .send()
        .await
        .expect("batch");
    assert_eq!(report.written, 1, "the plain entity is written");
    assert_eq!(report.failed.len(), 3);
    for failed in &report.failed {
        assert!(
            matches!(&*failed.error, Error::Unsupported { operation: "BatchWriteItem", reason, .. } if reason.contains("a batch write cannot")),
            "{failed}"
        );
    }
    assert_eq!(
        db.get(PlacedSensor::key("S1"))
            .consistent()
            .await
            .expect("get"),
        None
    );
    assert!(lookups(&db, "PlacedSensor.location").await.is_empty());
}

/// Fifty tasks add one each through `modify`, with its default policy, on one versioned
/// item: every one lands (the loop keeps going within its time budget, not for a fixed
/// number of attempts that fifty writers exhaust), and none is lost.
#[tokio::test]
async fn modify_retries_until_every_concurrent_change_lands() {
    use crate::write_models::Counter;
    let db = crate::fresh_db::<crate::models::App>("writes_modify").await;
    let mut counter = Counter {
        id: "issues".into(),
        value: 0,
        version: 0,
    };
    db.save(&mut counter).await.expect("create");
    let tasks = (0..50).map(|_| {
        let db = db.clone();
        tokio::spawn(async move { db.modify(Counter::key("issues"), |c| c.value += 1).await })
    });
    // Spawned all at once, so they run concurrently (a lazy iterator would spawn each
    // only after the previous one finished).
    let tasks: Vec<_> = tasks.collect();
    let mut numbers = Vec::new();
    for task in tasks {
        let saved = task
            .await
            .expect("joined")
            .expect("modify")
            .expect("exists");
        numbers.push(saved.value);
    }
    numbers.sort_unstable();
    assert_eq!(
        numbers,
        (1..=50).collect::<Vec<u64>>(),
        "each caller got its own number"
    );
    let stored = db
        .get(Counter::key("issues"))
        .consistent()
        .await
        .expect("get")
        .expect("stored");
    assert_eq!((stored.value, stored.version), (50, 51));

    assert_eq!(
        db.modify(Counter::key("missing"), |c| c.value += 1)
            .await
            .expect("no item"),
        None
    );
}
