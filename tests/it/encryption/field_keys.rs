//! A table whose keys are fields' own attributes (`userId` S, `timestamp` N), through the
//! SDK's interceptor: the key fields are signed like any key, the secret field encrypted.

use dynamap::Entity;
use dynamap::codec::AttributeValue::{B, N, S};
use dynamap_encryption::{Action, TableEncryption, raw_aes_keyring};

use super::{KEY, client_with};
use crate::fresh_db;
use crate::typed_primary_keys::Events;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Events, entity = "Visit", pk = field(user_id), sk = field(timestamp))]
struct Visit {
    #[dynamap(rename = "userId")]
    user_id: String,
    timestamp: i64,
    #[dynamap(encrypt)]
    page: String,
}

#[tokio::test]
async fn keys_that_are_fields_are_signed_and_the_rest_round_trips() {
    let encryption = TableEncryption::<Events>::new("events").entity::<Visit>();
    let actions = encryption.attribute_actions().expect("actions");
    assert_eq!(actions["userId"], Action::SignOnly);
    assert_eq!(actions["timestamp"], Action::SignOnly);
    assert_eq!(actions["page"], Action::Encrypt);

    let raw = fresh_db::<Events>("enc_field_keys").await;
    let keyring = raw_aes_keyring("dynamap-tests", "events-key", KEY)
        .await
        .expect("keyring");
    let config = TableEncryption::<Events>::new(raw.table_name())
        .entity::<Visit>()
        .tables_config(keyring)
        .expect("config");
    let db = dynamap::Db::new(client_with(&raw, config).await, raw.table_name());
    for timestamp in [10, 20, 30] {
        let visit = Visit {
            user_id: "u1".into(),
            timestamp,
            page: format!("/secret/{timestamp}"),
        };
        db.put(&visit).await.expect("put");
    }

    let read = db
        .get(Visit::key("u1", 20i64))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(read.page, "/secret/20");
    let later = db
        .query(Visit::partition("u1"))
        .sk_gt(10i64)
        .all()
        .await
        .expect("query");
    let stamps: Vec<i64> = later.iter().map(|v| v.timestamp).collect();
    assert_eq!(stamps, [20, 30]);

    let stored = raw
        .client()
        .get_item()
        .table_name(raw.table_name())
        .key("userId", S("u1".into()))
        .key("timestamp", N("20".into()))
        .send()
        .await
        .expect("raw get")
        .item
        .expect("stored");
    assert!(matches!(stored.get("page"), Some(B(_))), "ciphertext");
    assert_eq!(
        stored.get("timestamp"),
        Some(&N("20".into())),
        "readable key"
    );
}
