//! The table's life on DynamoDB Local: creating it with options, describing, verifying it
//! against its layout (drift), and deleting it.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, StreamViewType,
};
use dynamap::admin::{Drift, StreamView};
use dynamap::{Db, Error, Table};
use dynamap_local::DynamoLocal;

use crate::models::App;

/// A handle on a table that does not exist yet.
fn unborn<L: Table>(test: &str) -> Db<L> {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    Db::new(
        local.client(),
        format!("{test}-{}", uuid::Uuid::new_v4().simple()),
    )
}

/// A layout with a multi-attribute index and an included projection, for the drift check.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(
        name = "ByScore",
        pk = "game",
        sk = "score",
        sk_type = "N",
        projection = "keys_only"
    ),
    index(name = "ByCity", pk("country", "city"), include("name", "rating"))
)]
struct Wide;

#[tokio::test]
async fn created_with_provisioned_capacity_a_stream_and_deletion_protection() {
    let db = unborn::<App>("provisioned");
    db.create_table()
        .provisioned(5, 7)
        .index_provisioned("GSI1", 3, 2)
        .stream(StreamView::NewAndOldImages)
        .deletion_protection(true)
        .tag("team", "sensors")
        .await
        .expect("created");

    let table = db.describe_table().await.expect("described");
    let throughput = table.provisioned_throughput().expect("throughput");
    assert_eq!(
        (
            throughput.read_capacity_units(),
            throughput.write_capacity_units()
        ),
        (Some(5), Some(7))
    );
    let billing = table.billing_mode_summary().and_then(|b| b.billing_mode());
    assert_ne!(billing, Some(&BillingMode::PayPerRequest));
    let gsi = &table.global_secondary_indexes()[0];
    let gsi_throughput = gsi.provisioned_throughput().expect("index throughput");
    assert_eq!(
        (
            gsi_throughput.read_capacity_units(),
            gsi_throughput.write_capacity_units()
        ),
        (Some(3), Some(2))
    );
    let stream = table.stream_specification().expect("stream");
    assert!(stream.stream_enabled());
    assert_eq!(
        stream.stream_view_type(),
        Some(&StreamViewType::NewAndOldImages)
    );
    assert!(table.latest_stream_arn().is_some());
    assert_eq!(table.deletion_protection_enabled(), Some(true));

    // Protected: DynamoDB refuses the delete and the table stays.
    let refused = db.delete_table().await.expect_err("protected");
    assert!(
        matches!(
            refused,
            Error::Service(ref service) if service.operation() == "DeleteTable"
        ),
        "{refused}"
    );
    assert!(db.describe_table().await.is_ok());
    assert_eq!(db.verify_table().await.expect("verified"), []);

    db.client()
        .update_table()
        .table_name(db.table_name())
        .deletion_protection_enabled(false)
        .send()
        .await
        .expect("protection off");
    db.delete_table().await.expect("deleted");
}

#[tokio::test]
async fn an_index_without_its_own_capacity_gets_the_tables() {
    let db = unborn::<App>("index-default");
    db.create_table().provisioned(4, 6).await.expect("created");
    let table = db.describe_table().await.expect("described");
    let gsi = table.global_secondary_indexes()[0]
        .provisioned_throughput()
        .expect("index throughput");
    assert_eq!(
        (gsi.read_capacity_units(), gsi.write_capacity_units()),
        (Some(4), Some(6))
    );
    db.delete_table().await.expect("deleted");
}

#[tokio::test]
async fn options_are_checked_before_anything_is_sent() {
    let db = unborn::<App>("refused");
    let cases = [
        (
            db.create_table().provisioned(0, 5).send().await,
            "at least 1 read and 1 write unit",
        ),
        (
            db.create_table()
                .index_provisioned("GSI1", 5, 5)
                .send()
                .await,
            "the table is on-demand",
        ),
        (
            db.create_table().tag("k".repeat(129), "v").send().await,
            "tag keys are 1 to 128",
        ),
        (
            db.create_table().tag("", "v").send().await,
            "tag keys are 1 to 128",
        ),
        (
            db.create_table().tag("k", "v".repeat(257)).send().await,
            "tag values are at most 256",
        ),
        (
            db.create_table().tag("k", "1").tag("k", "2").send().await,
            "given twice",
        ),
        (
            (0..51)
                .fold(db.create_table(), |create, i| {
                    create.tag(format!("k{i}"), "v")
                })
                .send()
                .await,
            "at most 50",
        ),
    ];
    for (result, expected) in cases {
        match result {
            Err(Error::InvalidSetting { reason, .. }) => {
                assert!(
                    reason.contains(expected),
                    "{reason:?} should say {expected:?}"
                )
            }
            other => panic!("expected a refusal saying {expected:?}, got {other:?}"),
        }
    }
    let unknown = db
        .create_table()
        .provisioned(5, 5)
        .index_provisioned("GSI9", 5, 5)
        .send()
        .await;
    assert!(
        matches!(&unknown, Err(Error::UnknownIndex { table: "App", index, .. }) if index == "GSI9"),
        "{unknown:?}"
    );
    // None of them reached DynamoDB.
    let missing = db.describe_table().await.expect_err("never created");
    assert_eq!(missing.code(), Some("ResourceNotFoundException"));
}

#[tokio::test]
async fn point_in_time_recovery_is_asked_for_after_creating_and_local_refuses_it() {
    // DynamoDB Local does not implement UpdateContinuousBackups: the table is created and
    // the error names the operation that failed.
    let db = unborn::<App>("pitr");
    let err = db
        .create_table()
        .point_in_time_recovery(true)
        .await
        .expect_err("DynamoDB Local has no continuous backups");
    assert!(
        matches!(
            err,
            Error::Service(ref service) if service.operation() == "UpdateContinuousBackups"
        ),
        "{err}"
    );
    assert!(db.describe_table().await.is_ok());
    db.delete_table().await.expect("deleted");
}

#[tokio::test]
async fn delete_table_removes_the_table_and_is_idempotent() {
    let db = unborn::<App>("delete");
    db.create_table().await.expect("created");
    db.delete_table().await.expect("deleted");
    let gone = db.describe_table().await.expect_err("gone");
    assert_eq!(gone.code(), Some("ResourceNotFoundException"));
    db.delete_table()
        .await
        .expect("deleting a missing table succeeds");
}

#[tokio::test]
async fn a_table_created_from_its_layout_has_no_drift() {
    let db = unborn::<App>("no-drift-app");
    db.create_table().await.expect("created");
    assert_eq!(db.verify_table().await.expect("verified"), []);
    db.delete_table().await.expect("deleted");

    // Multi-attribute keys, a numeric sort key, keys-only and included projections.
    let db = unborn::<Wide>("no-drift-wide");
    db.create_table().await.expect("created");
    assert_eq!(db.verify_table().await.expect("verified"), []);
    db.delete_table().await.expect("deleted");
}

fn key(name: &str, key_type: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(key_type)
        .build()
        .expect("key")
}

fn attribute(name: &str, kind: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(kind)
        .build()
        .expect("attribute")
}

fn index(name: &str, keys: Vec<KeySchemaElement>, projection: Projection) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .set_key_schema(Some(keys))
        .projection(projection)
        .build()
        .expect("index")
}

#[tokio::test]
async fn verify_table_lists_every_difference_from_the_layout() {
    // Made by hand, wrong in every way the check looks at: the sort key is named `sk`,
    // `score` is a string, ByScore projects everything, ByCity is keyed on `city` alone
    // and includes other attributes, an index `Old` is not in the layout, and TTL is on
    // although the layout has none.
    let db = unborn::<Wide>("drifted");
    let s = ScalarAttributeType::S;
    db.client()
        .create_table()
        .table_name(db.table_name())
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("PK", s.clone()))
        .attribute_definitions(attribute("sk", s.clone()))
        .attribute_definitions(attribute("game", s.clone()))
        .attribute_definitions(attribute("score", s.clone()))
        .attribute_definitions(attribute("city", s.clone()))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("sk", KeyType::Range))
        .global_secondary_indexes(index(
            "ByScore",
            vec![key("game", KeyType::Hash), key("score", KeyType::Range)],
            Projection::builder()
                .projection_type(ProjectionType::All)
                .build(),
        ))
        .global_secondary_indexes(index(
            "ByCity",
            vec![key("city", KeyType::Hash)],
            Projection::builder()
                .projection_type(ProjectionType::Include)
                .non_key_attributes("name")
                .build(),
        ))
        .global_secondary_indexes(index(
            "Old",
            vec![key("game", KeyType::Hash)],
            Projection::builder()
                .projection_type(ProjectionType::KeysOnly)
                .build(),
        ))
        .send()
        .await
        .expect("raw create");
    db.client()
        .update_time_to_live()
        .table_name(db.table_name())
        .time_to_live_specification(
            aws_sdk_dynamodb::types::TimeToLiveSpecification::builder()
                .enabled(true)
                .attribute_name("expires")
                .build()
                .expect("ttl"),
        )
        .send()
        .await
        .expect("ttl on");

    let drift = db.verify_table().await.expect("verified");
    let expected = [
        Drift::KeySchema {
            index: None,
            expected: "PK HASH, SK RANGE".into(),
            found: "PK HASH, sk RANGE".into(),
        },
        Drift::AttributeType {
            attribute: "score".into(),
            expected: "N".into(),
            found: "S".into(),
        },
        Drift::Projection {
            index: "ByScore".into(),
            expected: "INCLUDE _type".into(),
            found: "ALL".into(),
        },
        Drift::KeySchema {
            index: Some("ByCity".into()),
            expected: "country HASH, city HASH".into(),
            found: "city HASH".into(),
        },
        Drift::Projection {
            index: "ByCity".into(),
            expected: "INCLUDE _type, name, rating".into(),
            found: "INCLUDE name".into(),
        },
        Drift::UnexpectedIndex {
            index: "Old".into(),
        },
        Drift::Ttl {
            expected: None,
            found: Some("expires".into()),
        },
    ];
    assert_eq!(drift, expected);
    let lines: Vec<String> = drift.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines[0],
        "table key is PK HASH, sk RANGE, the layout's is PK HASH, SK RANGE"
    );
    assert_eq!(lines[5], "index \"Old\" is not in the layout");
    assert_eq!(
        lines[6],
        "time to live is on `expires`, the layout's is off"
    );
    db.delete_table().await.expect("deleted");
}

#[tokio::test]
async fn verify_table_reports_a_missing_index_and_ttl_and_a_missing_table() {
    let db = unborn::<App>("missing-parts");
    let s = ScalarAttributeType::S;
    db.client()
        .create_table()
        .table_name(db.table_name())
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("PK", s.clone()))
        .attribute_definitions(attribute("SK", s))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .send()
        .await
        .expect("raw create");
    let drift = db.verify_table().await.expect("verified");
    assert_eq!(
        drift,
        [
            Drift::MissingIndex {
                index: "GSI1".into()
            },
            Drift::Ttl {
                expected: Some("expires_at".into()),
                found: None,
            },
        ]
    );
    db.delete_table().await.expect("deleted");

    let missing = db.verify_table().await.expect_err("no table");
    assert_eq!(missing.code(), Some("ResourceNotFoundException"));
}
