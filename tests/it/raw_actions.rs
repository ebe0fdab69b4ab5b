//! Raw SDK actions beside typed ones in a transaction, and SDK errors as dynamap errors.

use dynamap::Error;
use dynamap::aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, TransactWriteItem, Update};

use crate::models::App;
use crate::write_models::Counter;
use crate::{fresh_db, raw_item};

/// `ADD writes 1` on the audit item `pk` of `table`, built with the SDK.
fn bump(table: &str, pk: &str) -> TransactWriteItem {
    let update = Update::builder()
        .table_name(table)
        .key("PK", AttributeValue::S(pk.into()))
        .key("SK", AttributeValue::S("AUDIT".into()))
        .update_expression("ADD writes :one")
        .expression_attribute_values(":one", AttributeValue::N("1".into()))
        .build()
        .expect("update");
    TransactWriteItem::builder().update(update).build()
}

#[tokio::test]
async fn raw_actions_join_typed_ones_and_keep_their_index() {
    let db = fresh_db::<App>("raw_actions").await;
    let counter = Counter {
        id: "c".into(),
        value: 1,
        version: 0,
    };
    db.transaction()
        .put(&counter)
        .raw(bump(db.table_name(), "AUDIT#1"))
        .send()
        .await
        .expect("typed and raw together");
    let audit = raw_item(&db, "AUDIT#1", "AUDIT")
        .await
        .expect("raw update applied");
    assert_eq!(audit["writes"], AttributeValue::N("1".into()));

    let failing = ConditionCheck::builder()
        .table_name(db.table_name())
        .key("PK", AttributeValue::S("AUDIT#1".into()))
        .key("SK", AttributeValue::S("AUDIT".into()))
        .condition_expression("writes > :n")
        .expression_attribute_values(":n", AttributeValue::N("5".into()))
        .build()
        .expect("check");
    let err = db
        .transaction()
        .update(db.update(Counter::key("c")).increment(Counter::VALUE, 1u64))
        .raw(
            TransactWriteItem::builder()
                .condition_check(failing)
                .build(),
        )
        .send()
        .await
        .expect_err("the raw check fails");
    let Error::TransactionCanceled { reasons, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (reasons[0].index, reasons[0].entity, reasons[0].operation),
        (1, "raw", "check")
    );
    let empty = db
        .transaction()
        .raw(TransactWriteItem::builder().build())
        .send()
        .await;
    assert!(
        matches!(
            empty,
            Err(Error::Unsupported {
                operation: "TransactWriteItems",
                ..
            })
        ),
        "{empty:?}"
    );
}

#[tokio::test]
async fn sdk_errors_convert_into_dynamap_errors() {
    let db = fresh_db::<App>("raw_errors").await;
    async fn missing_table<L: dynamap::Table>(db: &dynamap::Db<L>) -> dynamap::Result<()> {
        db.client()
            .describe_table()
            .table_name(format!("{}-missing", db.table_name()))
            .send()
            .await?;
        Ok(())
    }
    let err = missing_table(&db).await.expect_err("no such table");
    assert_eq!(err.code(), Some("ResourceNotFoundException"), "{err:?}");
}

/// A transaction of `actions` updates, each setting a 390 KB value on condition that it
/// differs from another 390 KB value.
fn big_updates(db: &dynamap::Db<App>, actions: usize) -> dynamap::transact::Transaction<App> {
    use crate::write_models::Device;
    let body = "x".repeat(390_000);
    let mut tx = db.transaction();
    for i in 0..actions {
        tx = tx.update(
            db.update(Device::key(format!("d{i}")))
                .set(Device::STATE, body.clone())
                .condition(Device::STATE.ne(body.clone())),
        );
    }
    tx
}

#[tokio::test]
async fn update_and_condition_values_count_toward_the_4_mb() {
    let db = fresh_db::<App>("raw_payload").await;
    // Six updates, each with two 390 KB values: 4.7 MB of values and no item at all.
    let err = big_updates(&crate::offline(&db), 6)
        .send()
        .await
        .expect_err("too large");
    assert!(
        matches!(err, Error::TransactionTooLarge { size, limit: 4_194_304, .. } if size > 4_194_304),
        "refused before sending, not a connection error: {err:?}"
    );
    // Just under the limit it reaches DynamoDB Local (and fails there only because the
    // devices do not exist).
    let err = big_updates(&db, 5)
        .send()
        .await
        .expect_err("no such devices");
    assert!(matches!(err, Error::TransactionCanceled { .. }), "{err:?}");
}

#[tokio::test]
async fn messages_are_short_and_name_what_they_are_about() {
    let db = fresh_db::<App>("raw_messages").await;
    // A request that cannot reach DynamoDB says so in a line.
    let err = crate::offline(&db)
        .get(Counter::key("c"))
        .await
        .expect_err("unreachable");
    let text = err.to_string();
    assert!(text.contains("could not be reached"), "{text}");
    assert!(
        text.len() < 300 && !text.contains('{'),
        "a line, not a debug dump: {text}"
    );

    // Two actions on one item name both entities.
    let counter = Counter {
        id: "c".into(),
        value: 1,
        version: 0,
    };
    let err = db
        .transaction()
        .put(&counter)
        .check(Counter::key("c"), Counter::VALUE.gt(0u64))
        .send()
        .await
        .expect_err("same item twice");
    assert_eq!(
        err.to_string(),
        "transaction actions 0 (Counter) and 1 (Counter) both address one item"
    );
}
