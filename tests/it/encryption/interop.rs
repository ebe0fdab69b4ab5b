//! Items dynamap writes are ordinary Database Encryption SDK items: a plain SDK client
//! with the interceptor and the same configuration reads them, and dynamap reads what such
//! a client writes.

use std::collections::HashMap;

use dynamap::codec::AttributeValue::{self, N, S};
use dynamap_encryption::raw_aes_keyring;

use super::{KEY, Patient, client_with, encrypted_db, encryption, patient};

/// A plain SDK client with the interceptor, configured from the same actions.
async fn plain_client<L: dynamap::Table>(db: &dynamap::Db<L>) -> dynamap::aws_sdk_dynamodb::Client {
    let keyring = raw_aes_keyring("dynamap-tests", "clinic-key", KEY)
        .await
        .expect("keyring");
    let config = encryption(db.table_name())
        .tables_config(keyring)
        .expect("config");
    client_with(db, config).await
}

#[tokio::test]
async fn a_plain_sdk_client_reads_what_dynamap_wrote() {
    let (raw, db) = encrypted_db("enc_interop_read").await;
    db.put(&patient("p1", "cardio")).await.expect("put");
    let client = plain_client(&raw).await;
    let item = client
        .get_item()
        .table_name(raw.table_name())
        .key("PK", S("PATIENT#p1".into()))
        .key("SK", S("PATIENT".into()))
        .consistent_read(true)
        .send()
        .await
        .expect("plain get")
        .item
        .expect("found");
    assert_eq!(item["diagnosis"], S("diagnosis of p1".into()));
    assert_eq!(item["insurer"], S("Acme Health".into()));
}

#[tokio::test]
async fn dynamap_reads_what_a_plain_sdk_client_wrote() {
    let (raw, db) = encrypted_db("enc_interop_write").await;
    let client = plain_client(&raw).await;
    let text = |s: &str| S(s.to_owned());
    let item: HashMap<String, AttributeValue> = HashMap::from([
        ("PK".into(), text("PATIENT#p9")),
        ("SK".into(), text("PATIENT")),
        ("_type".into(), text("Patient")),
        ("GSI1PK".into(), text("WARD#ortho")),
        ("GSI1SK".into(), text("PATIENT#p9")),
        ("ward".into(), text("ortho")),
        ("badge".into(), text("B-p9")),
        ("diagnosis".into(), text("written elsewhere")),
        ("insurer".into(), text("Acme Health")),
        ("visits".into(), N("3".into())),
        ("version".into(), N("1".into())),
    ]);
    client
        .put_item()
        .table_name(raw.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("plain put");
    let p = db
        .get(Patient::key("p9"))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(p.diagnosis, "written elsewhere");
    assert_eq!(p.notes, None);
    assert_eq!(p.visits, 3);
}

#[tokio::test]
async fn another_key_cannot_read_and_says_so() {
    let (raw, db) = encrypted_db("enc_other_key").await;
    db.put(&patient("p1", "cardio")).await.expect("put");
    let keyring = raw_aes_keyring("dynamap-tests", "clinic-key", [8; 32])
        .await
        .expect("keyring");
    let config = encryption(raw.table_name())
        .tables_config(keyring)
        .expect("config");
    let other = dynamap::Db::new(client_with(&raw, config).await, raw.table_name());
    let error = other
        .get(Patient::key("p1"))
        .consistent()
        .await
        .expect_err("wrong key");
    assert!(error.is_encryption_failure(), "{error:?}");
    assert_eq!(error.kind(), dynamap::ErrorKind::Decode);
}
