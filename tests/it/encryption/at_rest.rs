//! What DynamoDB stores: ciphertext for encrypted fields, a signature, readable signed and
//! plain attributes; and what a typed read makes of an altered item.

use dynamap::codec::AttributeValue;

use super::{Patient, encrypted_db, patient};
use crate::{put_raw, raw_item};

#[tokio::test]
async fn encrypted_fields_are_ciphertext_at_rest_and_plaintext_when_read() {
    let (raw, db) = encrypted_db("enc_at_rest").await;
    let p = patient("p1", "cardio");
    db.put(&p).await.expect("put");

    let stored = raw_item(&raw, "PATIENT#p1", "PATIENT")
        .await
        .expect("stored");
    // Encrypted attributes are binary ciphertext, not the text written.
    for name in ["diagnosis", "notes"] {
        let value = stored[name]
            .as_b()
            .unwrap_or_else(|_| panic!("{name} is binary ciphertext: {:?}", stored[name]));
        let bytes = value.as_ref();
        assert!(
            !bytes.windows(7).any(|w| w == b"diagnos" || w == b"allergi"),
            "{name} holds plaintext"
        );
    }
    // The signature and the header with the encrypted data key.
    assert!(stored.contains_key("aws_dbe_head"), "header: {stored:?}");
    assert!(stored.contains_key("aws_dbe_foot"), "signature: {stored:?}");
    // Signed-only and plain attributes stay readable, so DynamoDB can index and filter them.
    assert_eq!(
        stored["insurer"].as_s().ok(),
        Some(&"Acme Health".to_owned())
    );
    assert_eq!(
        stored["GSI1PK"].as_s().ok(),
        Some(&"WARD#cardio".to_owned())
    );

    let read = db
        .get(Patient::key("p1"))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(read, Patient { version: 1, ..p });
}

async fn tampered(change: impl FnOnce(&mut dynamap::codec::Item)) -> dynamap::Error {
    let (raw, db) = encrypted_db("enc_tamper").await;
    db.put(&patient("p1", "cardio")).await.expect("put");
    let mut stored = raw_item(&raw, "PATIENT#p1", "PATIENT")
        .await
        .expect("stored");
    change(&mut stored);
    put_raw(&raw, stored).await;
    db.get(Patient::key("p1"))
        .consistent()
        .await
        .expect_err("an altered item is refused, never decoded")
}

#[tokio::test]
async fn altered_ciphertext_is_a_typed_error() {
    let error = tampered(|item| {
        let mut bytes = item["diagnosis"]
            .as_b()
            .expect("binary")
            .clone()
            .into_inner();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        item.insert("diagnosis".into(), AttributeValue::B(bytes.into()));
    })
    .await;
    assert!(error.is_encryption_failure(), "{error:?}");
}

#[tokio::test]
async fn altered_signed_attribute_is_a_typed_error() {
    let error = tampered(|item| {
        item.insert("insurer".into(), AttributeValue::S("Evil Corp".into()));
    })
    .await;
    assert!(error.is_encryption_failure(), "{error:?}");
}

#[tokio::test]
async fn ciphertext_moved_to_another_item_is_a_typed_error() {
    let (raw, db) = encrypted_db("enc_swap").await;
    db.put(&patient("p1", "cardio")).await.expect("put");
    db.put(&patient("p2", "cardio")).await.expect("put");
    let one = raw_item(&raw, "PATIENT#p1", "PATIENT")
        .await
        .expect("stored");
    let mut two = raw_item(&raw, "PATIENT#p2", "PATIENT")
        .await
        .expect("stored");
    two.insert("diagnosis".into(), one["diagnosis"].clone());
    put_raw(&raw, two).await;
    let error = db
        .get(Patient::key("p2"))
        .consistent()
        .await
        .expect_err("refused");
    assert!(error.is_encryption_failure(), "{error:?}");
    // The untouched item still reads.
    assert!(
        db.get(Patient::key("p1"))
            .consistent()
            .await
            .expect("get")
            .is_some()
    );
}
