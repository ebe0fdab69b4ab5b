//! dynamap's spans in OpenTelemetry's terms: collected through `tracing-opentelemetry`
//! into OpenTelemetry's in-memory exporter (the global subscriber of
//! [`observability`](crate::observability)), a query's, a batch write's and a
//! transaction's spans carry the semantic conventions' attributes for DynamoDB client
//! calls, and the library's own.

use std::collections::HashMap;

use opentelemetry::Value;
use opentelemetry::trace::SpanKind;
use opentelemetry_sdk::trace::SpanData;

use crate::models::{App, Score};
use crate::observability::listening;

fn score(game: &str, score: i64, user: &str) -> Score {
    Score {
        game: game.into(),
        score,
        user: user.into(),
    }
}

/// The exported spans of the calls on `table`, each by its attributes.
fn spans_on(table: &str) -> Vec<(SpanData, HashMap<String, Value>)> {
    listening()
        .exported()
        .into_iter()
        .map(|span| {
            let attributes = span
                .attributes
                .iter()
                .map(|kv| (kv.key.to_string(), kv.value.clone()))
                .collect();
            (span, attributes)
        })
        .filter(|(_, attributes): &(_, HashMap<String, Value>)| {
            attributes.get("aws.dynamodb.table_names") == Some(&Value::from(table.to_owned()))
        })
        .collect()
}

fn text(value: &str) -> Value {
    Value::from(value.to_owned())
}

#[tokio::test]
async fn spans_carry_opentelemetry_attributes() {
    let db = crate::fresh_db::<App>("otel_spans").await;
    let table = db.table_name().to_owned();
    listening().export_spans();

    let report = db
        .put_all((0..30).map(|i| score("chess", i, "ann")))
        .concurrency(1)
        .track_capacity()
        .await
        .expect("batch write");
    assert!(report.is_complete());
    let page = db
        .query(Score::partition("chess"))
        .descending()
        .limit(5)
        .consistent()
        .send()
        .await
        .expect("query");
    assert_eq!(page.items.len(), 5);
    db.transaction()
        .put(&score("go", 1, "bob"))
        .delete(Score::key("chess", 0, "ann"))
        .send()
        .await
        .expect("transaction");

    let spans = spans_on(&table);
    let of = |operation: &str| {
        spans
            .iter()
            .filter(|(_, a)| a.get("db.operation.name") == Some(&text(operation)))
            .collect::<Vec<_>>()
    };
    for (span, a) in spans.iter() {
        assert_eq!(span.span_kind, SpanKind::Client, "{span:?}");
        assert!(span.name.starts_with("DynamoDB."), "{}", span.name);
        assert_eq!(a["db.system.name"], text("aws.dynamodb"));
        assert_eq!(a["rpc.system"], text("aws-api"));
        assert_eq!(a["rpc.service"], text("DynamoDB"));
        assert_eq!(a["rpc.method"], a["db.operation.name"]);
        assert_eq!(a["table"], text(&table), "the library's own fields stay");
        // Capacity is asked for and recorded whenever a subscriber listens (and a batch
        // tracks it).
        let capacity = a["aws.dynamodb.consumed_capacity"].as_str();
        assert!(capacity.contains("\"CapacityUnits\""), "{capacity}");
    }

    let writes = of("BatchWriteItem");
    assert_eq!(writes.len(), 2, "30 writes are two calls: {writes:?}");
    for (span, a) in &writes {
        assert_eq!(span.name, "DynamoDB.BatchWriteItem");
        assert_eq!(a["entity"], text("Score"));
    }

    let [(span, a)] = of("Query")[..] else {
        panic!("one query: {spans:?}")
    };
    assert_eq!(span.name, "DynamoDB.Query");
    assert_eq!(a["entity"], text("Score"));
    assert_eq!(
        a["aws.dynamodb.limit"],
        Value::I64(6),
        "a page of 5, and one more"
    );
    assert_eq!(a["aws.dynamodb.scan_forward"], Value::Bool(false));
    assert_eq!(a["aws.dynamodb.consistent_read"], Value::Bool(true));
    assert_eq!(a["aws.dynamodb.count"], Value::I64(6));
    assert_eq!(a["aws.dynamodb.scanned_count"], Value::I64(6));
    assert!(
        !a.contains_key("aws.dynamodb.index_name"),
        "the table, no index"
    );

    let [(span, a)] = of("TransactWriteItems")[..] else {
        panic!("one transaction: {spans:?}")
    };
    assert_eq!(span.name, "DynamoDB.TransactWriteItems");
    assert_eq!(a["entity"], text("Score"));
}
