//! One table, two services: dynamap and a TypeScript service on DynamoDB Toolbox 2
//! (installed from npm on first use, `tests/peer/toolbox_service.mjs`) write items the other
//! reads. dynamap declares Toolbox's layout exactly as the shared-tables guide's recipe does
//! (`_et`, verbatim keys with case kept, `_ct`/`_md` as text), and a set each side adds to
//! is one native `SS`.

use std::collections::BTreeSet;

use dynamap::codec::AttributeValue;
use dynamap::{Db, Entity, Table};
use serde_json::json;

use crate::fresh_db;
use crate::node_packages::PeerService;

const PACKAGES: &[&str] = &[
    "dynamodb-toolbox@2.10.6",
    "@aws-sdk/client-dynamodb@3.1169.0",
    "@aws-sdk/lib-dynamodb@3.1169.0",
];

// The recipe of `docs/guide/shared-tables.md`, unchanged.
#[derive(Table)]
#[dynamap(pk = "pk", sk = "sk", entity_type = "_et", key_format(verbatim))]
struct Shop;

#[derive(Entity, Debug)]
#[dynamap(table = Shop, entity = "Customer", pk = "CUSTOMER#{id}", sk = "CUSTOMER")]
struct Customer {
    id: String,
    name: String,
    #[dynamap(rename = "_ct")]
    created: String,
    #[dynamap(rename = "_md")]
    modified: String,
}

/// A set, which both store as `SS`.
#[derive(Entity, Debug, PartialEq)]
#[dynamap(table = Shop, entity = "Basket", pk = "BASKET#{id}", sk = "BASKET")]
struct Basket {
    id: String,
    skus: BTreeSet<String>,
}

async fn setup(test: &str) -> Option<(Db<Shop>, PeerService)> {
    let db = fresh_db::<Shop>(test).await;
    let Some(peer) = PeerService::new("toolbox_service.mjs", PACKAGES, db.table_name()) else {
        eprintln!("skipped: no node or npm to run the DynamoDB Toolbox service with");
        return None;
    };
    Some((db, peer))
}

/// The item as stored (the table's key attributes are `pk` and `sk`).
async fn stored(db: &Db<Shop>, pk: &str, sk: &str) -> dynamap::codec::Item {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("pk", AttributeValue::S(pk.to_owned()))
        .key("sk", AttributeValue::S(sk.to_owned()))
        .send()
        .await
        .expect("raw get")
        .item
        .expect("the item is stored")
}

/// Toolbox's timestamp text: ISO-8601 UTC with milliseconds (`2026-11-26T12:00:00.000Z`).
fn is_toolbox_time(text: &str) -> bool {
    text.len() == 24 && text.ends_with('Z') && text.as_bytes()[19] == b'.'
}

#[tokio::test]
async fn each_service_reads_what_the_other_wrote() {
    let Some((db, peer)) = setup("peer_toolbox").await else {
        return;
    };
    // Toolbox writes; dynamap reads it by key and by partition, its timestamps as text.
    peer.run(json!({"op": "put_customer", "customer": {"id": "Ada Lovelace", "name": "Ada"}}));
    let ada = db
        .get(Customer::key("Ada Lovelace"))
        .await
        .expect("get")
        .expect("dynamap finds the peer's item");
    assert_eq!(
        (ada.id.as_str(), ada.name.as_str()),
        ("Ada Lovelace", "Ada")
    );
    assert!(is_toolbox_time(&ada.created), "{ada:?}");
    assert!(is_toolbox_time(&ada.modified), "{ada:?}");
    let partition = db
        .query(Customer::partition("Ada Lovelace"))
        .all()
        .await
        .expect("query");
    assert_eq!(partition.len(), 1);

    // dynamap writes; Toolbox reads it by key and by its entity-filtered query.
    let at = "2026-11-26T12:00:00.000Z";
    db.put(&Customer {
        id: "Grace Hopper".into(),
        name: "Grace".into(),
        created: at.into(),
        modified: at.into(),
    })
    .await
    .expect("put");
    let grace = json!({"id": "Grace Hopper", "name": "Grace", "created": at, "modified": at});
    assert_eq!(
        peer.run(json!({"op": "get_customer", "id": "Grace Hopper"})),
        grace
    );
    assert_eq!(
        peer.run(json!({"op": "query_customer", "id": "Grace Hopper"})),
        json!([grace]),
        "Toolbox's query, filtered on `_et`, finds dynamap's item"
    );
    let item = stored(&db, "CUSTOMER#Grace Hopper", "CUSTOMER").await;
    assert_eq!(item["_et"], AttributeValue::S("Customer".into()));
}

#[tokio::test]
async fn both_add_to_one_native_set() {
    let Some((db, peer)) = setup("peer_toolbox_sets").await else {
        return;
    };
    peer.run(json!({"op": "put_basket", "id": "b1", "skus": ["x", "a"]}));
    db.update(Basket::key("b1"))
        .add_to_set(Basket::SKUS, ["m".to_owned()])
        .await
        .expect("dynamap adds to the peer's set");
    peer.run(json!({"op": "add_skus", "id": "b1", "skus": ["z"]}));
    let all: BTreeSet<String> = ["a", "m", "x", "z"].map(str::to_owned).into();
    assert_eq!(
        db.get(Basket::key("b1")).await.expect("get"),
        Some(Basket {
            id: "b1".into(),
            skus: all.clone()
        })
    );
    assert_eq!(
        peer.run(json!({"op": "get_basket", "id": "b1"})),
        json!({"id": "b1", "skus": all})
    );
    let item = stored(&db, "BASKET#b1", "BASKET").await;
    assert!(
        matches!(&item["skus"], AttributeValue::Ss(skus) if skus.len() == 4),
        "{item:?}"
    );
}
