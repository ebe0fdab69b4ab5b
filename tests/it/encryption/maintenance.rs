//! Maintenance jobs through the SDK's interceptor: a re-key of encrypted items, a mapped
//! change of encrypted and signed fields (written whole), and an unversioned entity with
//! encrypted fields (refused: only a version can show it unchanged).

use dynamap::codec::AttributeValue::{B, S};
use dynamap::maintain::Change;

use super::{Patient, Prescription, encrypted_db, patient};
use crate::raw_item;

/// Sets `attribute` of the stored item at `(pk, sk)` with the raw client: what an older
/// layout of the index would have written (an unsigned attribute, so the item still verifies).
async fn set_raw<L: dynamap::Table>(
    db: &dynamap::Db<L>,
    pk: &str,
    sk: &str,
    attribute: &str,
    value: &str,
) {
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", S(pk.into()))
        .key("SK", S(sk.into()))
        .update_expression("SET #a = :v")
        .expression_attribute_names("#a", attribute)
        .expression_attribute_values(":v", S(value.into()))
        .send()
        .await
        .expect("raw update");
}

#[tokio::test]
async fn a_rekey_of_encrypted_items_restores_their_index_keys_and_keeps_them_sealed() {
    let (raw, db) = encrypted_db("enc_maintain_rekey").await;
    for id in ["p1", "p2", "p3"] {
        db.put(&patient(id, "cardio")).await.expect("put");
        set_raw(
            &raw,
            &format!("PATIENT#{id}"),
            "PATIENT",
            "GSI1PK",
            "WARD#old",
        )
        .await;
    }
    assert!(
        db.query(Patient::gsi1("cardio"))
            .all()
            .await
            .expect("query")
            .is_empty()
    );

    // The audit reads through the interceptor too, and finds the drift.
    let audit = || {
        db.audit()
            .entity::<Patient>()
            .entity::<Prescription>()
            .entity::<super::Ward>()
            .send()
    };
    let drift = audit().await.expect("audit");
    // Three patients and their badge lookup items.
    assert_eq!(
        (drift.scanned, drift.key_drift, drift.undecodable),
        (6, 3, 0)
    );

    let report = db
        .maintain::<Patient>("enc-rekey")
        .rekey()
        .send()
        .await
        .expect("job");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!((report.scanned, report.rekeyed), (3, 3));

    let cardio = db
        .query(Patient::gsi1("cardio"))
        .all()
        .await
        .expect("index query");
    assert_eq!(cardio.len(), 3);
    assert!(
        cardio
            .iter()
            .all(|p| p.diagnosis.starts_with("diagnosis of"))
    );
    let stored = raw_item(&raw, "PATIENT#p1", "PATIENT").await.expect("item");
    assert!(
        matches!(stored.get("diagnosis"), Some(B(_))),
        "still ciphertext"
    );
    assert_eq!(audit().await.expect("audit").key_drift, 0);
}

#[tokio::test]
async fn a_mapped_change_of_an_encrypted_field_writes_it_encrypted() {
    let (raw, db) = encrypted_db("enc_maintain_map").await;
    for id in ["p1", "p2"] {
        db.put(&patient(id, "cardio")).await.expect("put");
    }

    let report = db
        .maintain::<Patient>("enc-map")
        .map(|p| {
            let mut p = p.clone();
            p.diagnosis = format!("reviewed: {}", p.diagnosis);
            p.insurer = "Beta Health".into();
            Change::Write(p)
        })
        .send()
        .await
        .expect("job");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!((report.scanned, report.mapped), (2, 2));

    let read = db
        .get(Patient::key("p1"))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    assert_eq!(read.diagnosis, "reviewed: diagnosis of p1");
    assert_eq!(read.insurer, "Beta Health");
    let stored = raw_item(&raw, "PATIENT#p1", "PATIENT").await.expect("item");
    assert!(
        matches!(stored.get("diagnosis"), Some(B(_))),
        "still ciphertext"
    );
}

#[tokio::test]
async fn a_job_over_an_unversioned_entity_with_encrypted_fields_is_refused_before_reading() {
    let (raw, db) = encrypted_db("enc_maintain_unversioned").await;
    let rx = Prescription {
        id: "r1".into(),
        drug: "aspirin".into(),
        doses: 2,
    };
    db.put(&rx).await.expect("put");
    let before = raw_item(&raw, "RX#r1", "RX").await;

    // No condition may name an encrypted attribute, so only a version could tell that
    // another writer changed the drug between the job's read and its write.
    let err = db
        .maintain::<Prescription>("enc-unversioned")
        .map(|rx| {
            let mut rx = rx.clone();
            rx.doses += 1;
            Change::Write(rx)
        })
        .send()
        .await
        .expect_err("refused");
    assert!(
        matches!(&err, dynamap::Error::Unsupported { operation: "Maintain", reason, .. }
            if reason.contains("Prescription") && reason.contains("#[dynamap(version)]")),
        "{err}"
    );
    assert_eq!(
        raw_item(&raw, "RX#r1", "RX").await,
        before,
        "nothing written"
    );
}
