//! Creating the table from a `#[derive(Table)]` layout.

use aws_sdk_dynamodb::types::{BillingMode, ProjectionType, TimeToLiveStatus};

use crate::fresh_db;
use crate::models::App;

#[tokio::test]
async fn table_is_created_with_indexes_on_demand_billing_and_ttl() {
    let db = fresh_db::<App>("layout").await;
    db.create_table().await.expect("creating again is safe");

    let described = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .expect("describe");
    let table = described.table().expect("table");
    let billing = table.billing_mode_summary().and_then(|b| b.billing_mode());
    assert_eq!(billing, Some(&BillingMode::PayPerRequest));
    let keys: Vec<_> = table
        .key_schema()
        .iter()
        .map(|k| k.attribute_name())
        .collect();
    assert_eq!(keys, ["PK", "SK"]);
    let gsi = &table.global_secondary_indexes()[0];
    assert_eq!(gsi.index_name(), Some("GSI1"));
    let gsi_keys: Vec<_> = gsi
        .key_schema()
        .iter()
        .map(|k| k.attribute_name())
        .collect();
    assert_eq!(gsi_keys, ["GSI1PK", "GSI1SK"]);
    assert_eq!(
        gsi.projection().and_then(|p| p.projection_type()),
        Some(&ProjectionType::All)
    );

    let ttl = db
        .client()
        .describe_time_to_live()
        .table_name(db.table_name())
        .send()
        .await
        .expect("describe ttl");
    let ttl = ttl.time_to_live_description().expect("ttl description");
    assert_eq!(ttl.attribute_name(), Some("expires_at"));
    assert_eq!(ttl.time_to_live_status(), Some(&TimeToLiveStatus::Enabled));
}
