//! Local secondary indexes: declared on the table, templated by entities, created with the
//! table, queried with typed conditions and strongly consistent reads.

use aws_sdk_dynamodb::types::ProjectionType;
use dynamap::{Entity, Error, Table};
use time::OffsetDateTime;
use time::macros::datetime;

use crate::fresh_db;

/// Orders under their customer, also sorted by date and by amount (keys only).
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    local_index(name = "ByDate", sk = "LSI1SK"),
    local_index(
        name = "ByAmount",
        sk = "amount",
        sk_type = "N",
        projection = "keys_only"
    ),
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
struct Shop;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Shop,
    entity = "Order",
    pk = "CUSTOMER#{customer}",
    sk = "ORDER#{id}",
    local_index(name = "ByDate", sk = "DATE#{placed_at}"),
    local_index(name = "ByAmount", sk = field(amount)),
    index(name = "GSI1", pk = "STATUS#{status}", sk = "ORDER#{id}")
)]
struct Order {
    customer: String,
    id: String,
    #[dynamap(with = "dynamap::codec::timestamp")]
    placed_at: OffsetDateTime,
    amount: u32,
    status: String,
}

fn order(id: &str, day: u8, amount: u32) -> Order {
    Order {
        customer: "c1".into(),
        id: id.into(),
        placed_at: datetime!(2026-11-01 12:00 UTC) + time::Duration::days(day.into()),
        amount,
        status: "open".into(),
    }
}

#[tokio::test]
async fn a_local_index_is_created_with_the_table_and_matches_the_layout() {
    let db = fresh_db::<Shop>("lsi-create").await;
    let table = db.describe_table().await.expect("described");
    let locals = table.local_secondary_indexes();
    assert_eq!(locals.len(), 2);
    let by_date = locals
        .iter()
        .find(|i| i.index_name() == Some("ByDate"))
        .expect("ByDate");
    let key: Vec<_> = by_date
        .key_schema()
        .iter()
        .map(|k| (k.attribute_name(), k.key_type().as_str()))
        .collect();
    assert_eq!(key, [("PK", "HASH"), ("LSI1SK", "RANGE")]);
    let by_amount = locals
        .iter()
        .find(|i| i.index_name() == Some("ByAmount"))
        .expect("ByAmount");
    // Keys only, and the entity type, which typed reads filter by.
    let projection = by_amount.projection().expect("projection");
    assert_eq!(projection.projection_type(), Some(&ProjectionType::Include));
    assert_eq!(projection.non_key_attributes(), ["_type"]);
    assert_eq!(table.global_secondary_indexes().len(), 1);
    assert_eq!(db.verify_table().await.expect("verified"), []);
}

#[tokio::test]
async fn local_index_queries_take_typed_conditions_and_consistent_reads() {
    let db = fresh_db::<Shop>("lsi-query").await;
    let orders = [order("o1", 5, 300), order("o2", 1, 120), order("o3", 9, 50)];
    for o in &orders {
        db.put(o).await.expect("put");
    }

    // Written just now and read at once: a consistent read of the local index sees them.
    let by_date = db
        .query(Order::by_date("c1"))
        .consistent()
        .all()
        .await
        .expect("query");
    let ids: Vec<_> = by_date.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["o2", "o1", "o3"]);
    let since = db
        .query(Order::by_date("c1"))
        .sk_ge((datetime!(2026-11-05 00:00 UTC),))
        .consistent()
        .all()
        .await
        .expect("query");
    assert_eq!(since, [orders[0].clone(), orders[2].clone()]);

    // The amount index projects keys only: the keys come back, in amount order.
    let count = db
        .query(Order::by_amount("c1"))
        .sk_between(100u32, 400u32)
        .consistent()
        .count()
        .await
        .expect("count");
    assert_eq!(count, 2);

    // A global index still refuses consistent reads, before sending.
    let refused = db
        .query(Order::gsi1("open"))
        .consistent()
        .all()
        .await
        .expect_err("global index");
    assert!(
        matches!(&refused, Error::Unsupported { reason, .. } if reason.contains("global secondary index `GSI1`")),
        "{refused}"
    );
}

#[tokio::test]
async fn updating_a_local_index_field_moves_the_item_in_the_index() {
    let db = fresh_db::<Shop>("lsi-update").await;
    db.put(&order("o1", 1, 10)).await.expect("put");
    db.put(&order("o2", 2, 20)).await.expect("put");
    db.update(Order::key("c1", "o1"))
        .set(Order::PLACED_AT, datetime!(2026-11-20 00:00 UTC))
        .await
        .expect("update");
    let latest = db
        .query(Order::by_date("c1"))
        .last(1)
        .consistent()
        .send()
        .await
        .expect("query");
    assert_eq!(latest.items[0].id, "o1");
}

/// The same table with `ByDate` made global: what a layout change from global to local
/// looks like to the drift check.
#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", index(name = "ByDate", pk = "PK", sk = "LSI1SK"))]
struct ShopWithGlobalDate;

#[tokio::test]
async fn verify_table_tells_local_from_global_and_capacity_is_refused_for_local_indexes() {
    let db = fresh_db::<ShopWithGlobalDate>("lsi-kind").await;
    let db = db.with_layout::<Shop>();
    let drift = db.verify_table().await.expect("verified");
    assert_eq!(
        drift,
        [
            dynamap::admin::Drift::IndexKind {
                index: "ByDate".into(),
                expected_local: true,
            },
            dynamap::admin::Drift::MissingIndex {
                index: "ByAmount".into(),
            },
            dynamap::admin::Drift::MissingIndex {
                index: "GSI1".into(),
            },
        ]
    );
    assert_eq!(
        drift[0].to_string(),
        "index \"ByDate\" is global, the layout's is local"
    );

    let refused = db
        .create_table()
        .provisioned(5, 5)
        .index_provisioned("ByDate", 1, 1)
        .send()
        .await
        .expect_err("local indexes have no capacity of their own");
    assert!(
        matches!(&refused, Error::InvalidSetting { setting: "index_provisioned", reason, .. } if reason.contains("is local")),
        "{refused}"
    );
}
