//! Seeding the partitions with the raw SDK's `BatchWriteItem`.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use dynamap::{Db, Entity};

use crate::entity::{BenchTable, reading};

/// Concurrent `BatchWriteItem` callers while seeding.
pub(crate) const WRITERS: usize = 6;
/// DynamoDB's limit of items per `BatchWriteItem`.
pub(crate) const BATCH: usize = 25;

/// Writes readings `0..count` of `sensor_id`, in dynamap's format (`to_item`), with the raw
/// SDK's `BatchWriteItem`: 25 items a call, a few calls at once, unprocessed items retried.
pub(crate) async fn seed(db: &Db<BenchTable>, sensor_id: &str, count: usize) -> Duration {
    let start = Instant::now();
    let batches = count.div_ceil(BATCH);
    let mut writers = tokio::task::JoinSet::new();
    for writer in 0..WRITERS {
        let client = db.client().clone();
        let table = db.table_name().to_owned();
        let sensor_id = sensor_id.to_owned();
        writers.spawn(async move {
            for batch in (writer..batches).step_by(WRITERS) {
                let requests = (batch * BATCH..((batch + 1) * BATCH).min(count))
                    .map(|i| {
                        let item = reading(&sensor_id, i).to_item().expect("to_item failed");
                        let put = PutRequest::builder()
                            .set_item(Some(item))
                            .build()
                            .expect("a put request with an item");
                        WriteRequest::builder().put_request(put).build()
                    })
                    .collect();
                write_batch(&client, &table, requests).await;
            }
        });
    }
    while let Some(done) = writers.join_next().await {
        done.expect("a seeding task panicked");
    }
    start.elapsed()
}

pub(crate) async fn write_batch(client: &Client, table: &str, mut requests: Vec<WriteRequest>) {
    for attempt in 0u32.. {
        let output = client
            .batch_write_item()
            .request_items(table, requests)
            .send()
            .await
            .expect("BatchWriteItem failed");
        requests = output
            .unprocessed_items
            .and_then(|mut unprocessed| unprocessed.remove(table))
            .unwrap_or_default();
        if requests.is_empty() {
            return;
        }
        assert!(
            attempt < 20,
            "BatchWriteItem kept leaving items unprocessed"
        );
        tokio::time::sleep(Duration::from_millis(10 << attempt.min(6))).await;
    }
}
