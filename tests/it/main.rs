//! Integration tests against a real DynamoDB Local, started once for this test binary.
//! Every test works in its own freshly created table, so they run in parallel.

mod around_transaction;
mod attribute_keys;
mod audit_versions;
mod batch;
mod capacity_metrics;
mod codec_models;
mod compressed;
mod computed_keys;
mod constant_attributes;
mod constant_mismatches;
mod cursors;
#[cfg(feature = "encryption")]
mod encryption;
mod evolving;
mod example_iot;
mod example_sleep_events;
mod examples;
mod export_memory;
mod exports;
mod faults;
mod first_last;
mod incomplete_keys;
mod infrastructure;
mod ingest_previews;
mod items;
mod key_filters;
mod key_formats;
mod key_order;
mod key_sync;
mod keys;
mod limits;
mod local_indexes;
mod lookup_queries;
mod lookup_races;
mod lookups_on_create;
mod lossy_reads;
mod lost_responses;
mod maintenance;
mod maintenance_lookups;
mod maintenance_progress;
mod maintenance_scale;
mod model_charts;
mod models;
mod multi_attribute_keys;
mod native_sets;
mod nested_updates;
mod node_packages;
mod observability;
mod otel_spans;
mod page_ends;
mod parquet;
mod peer_electrodb;
mod peer_toolbox;
mod previews;
mod projections;
mod python_venv;
mod queries;
mod raw_actions;
mod raw_keys;
mod retries;
mod rolled_settings;
mod scans;
mod schema_versions;
mod service_errors;
mod sharded_partitions;
mod sharded_reads;
mod sort_keys_by_name;
mod sort_parts_by_name;
mod stored_forms;
mod streams;
mod table;
mod table_lifecycle;
mod timeseries_rolling;
mod timeseries_rows;
mod transact_get;
mod transaction_lookups;
mod transaction_races;
mod ttl;
mod typed_primary_keys;
mod typed_primary_keys_jobs;
mod updates;
mod updates_that_create;
mod upserts;
mod versions_added_later;
mod write_models;
mod writes;

use dynamap::{Db, Table};
use dynamap_local::DynamoLocal;

/// A new, empty table with layout `T`, named after the test.
pub(crate) async fn fresh_db<T: Table>(test: &str) -> Db<T> {
    DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .fresh_db::<T>(test)
        .await
        .expect("test table is created")
}

/// Stores `item` as another writer would: through the raw SDK client, as it is.
pub(crate) async fn put_raw<L: dynamap::Table>(db: &Db<L>, item: dynamap::codec::Item) {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("raw put");
}

/// The item as stored, read with the raw SDK client.
pub(crate) async fn raw_item<L: dynamap::Table>(
    db: &Db<L>,
    pk: &str,
    sk: &str,
) -> Option<dynamap::codec::Item> {
    use dynamap::codec::AttributeValue::S;
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", S(pk.to_owned()))
        .key("SK", S(sk.to_owned()))
        .consistent_read(true)
        .send()
        .await
        .expect("raw get")
        .item
}

/// A client whose requests can never arrive: a refusal it returns was made before sending.
pub(crate) fn offline<L: dynamap::Table>(db: &dynamap::Db<L>) -> dynamap::Db<L> {
    let config = db
        .client()
        .config()
        .to_builder()
        .endpoint_url("http://127.0.0.1:9")
        .build();
    dynamap::Db::new(
        dynamap::aws_sdk_dynamodb::Client::from_conf(config),
        db.table_name(),
    )
}
