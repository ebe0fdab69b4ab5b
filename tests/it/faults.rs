//! Fault injection itself: reproducible, counted, and usable with any operation.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use dynamap::Db;
use dynamap_local::{DynamoLocal, Fault, Faults};

use crate::models::{App, Reading, Sensor, sensor};

async fn faulty_db(test: &str, faults: &Faults) -> Db<App> {
    DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .fresh_db_with_faults::<App>(test, faults)
        .await
        .expect("test table is created")
}

/// Which of 60 sequential puts fail, through a client with these faults.
async fn outcomes(test: &str, faults: Faults) -> Vec<bool> {
    let db = faulty_db(test, &faults).await;
    let mut outcomes = Vec::new();
    for i in 0..60 {
        match db.put(&sensor(&format!("S{i}"))).await {
            Ok(()) => outcomes.push(true),
            Err(err) => {
                assert!(err.is_throttled(), "{err}");
                outcomes.push(false);
            }
        }
    }
    outcomes
}

#[tokio::test]
async fn faults_same_seed_same_decisions() {
    let faults = |seed| Faults::seeded(seed).throttle(0.3);
    let first = outcomes("faults_seed_a", faults(99)).await;
    let again = outcomes("faults_seed_b", faults(99)).await;
    let other = outcomes("faults_seed_c", faults(100)).await;
    assert_eq!(first, again);
    assert_ne!(first, other);
    let throttled = first.iter().filter(|ok| !**ok).count();
    assert!((5..=35).contains(&throttled), "{throttled} of 60 throttled");

    // The decisions are the documented function of seed and call number.
    let planned: Vec<bool> = (0..60)
        .map(|n| faults(99).decide("PutItem", n) != Some(Fault::Throttle))
        .collect();
    assert_eq!(first, planned);
}

#[tokio::test]
async fn faults_throttle_any_operation_without_sending_it() {
    let faults = Faults::seeded(1)
        .throttle(1.0)
        .only(["PutItem", "Query", "TransactWriteItems"]);
    let db = faulty_db("faults_any_op", &faults).await;
    let err = db.put(&sensor("S1")).await.expect_err("throttled");
    assert_eq!(err.code(), Some("ProvisionedThroughputExceededException"));
    assert!(err.is_throttled());
    // Nothing reached the table: GetItem is not subject, and finds nothing.
    assert_eq!(db.get(Sensor::key("S1")).await.expect("get"), None);

    let err = db
        .query(Reading::partition("S1"))
        .send()
        .await
        .expect_err("throttled");
    assert!(err.is_throttled(), "{err}");

    let put = aws_sdk_dynamodb::types::Put::builder()
        .table_name(db.table_name())
        .set_item(Some(dynamap::Entity::to_item(&sensor("S2")).expect("item")))
        .build()
        .expect("put");
    let err = db
        .client()
        .transact_write_items()
        .transact_items(
            aws_sdk_dynamodb::types::TransactWriteItem::builder()
                .put(put)
                .build(),
        )
        .send()
        .await
        .expect_err("throttled");
    assert_eq!(
        ProvideErrorMetadata::code(&err),
        Some("ProvisionedThroughputExceededException")
    );
    assert_eq!(faults.counts().throttled, 3);
}

#[tokio::test]
async fn faults_server_errors_answer_500() {
    let faults = Faults::seeded(1).server_error(1.0).only(["PutItem"]);
    let db = faulty_db("faults_500", &faults).await;
    let err = db.put(&sensor("S1")).await.expect_err("server error");
    assert_eq!(err.code(), Some("InternalServerError"));
    assert!(!err.is_throttled());
    assert_eq!(faults.counts().server_errors, 1);
}
