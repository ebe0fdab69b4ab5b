//! Every read and write path of dynamap through the SDK's interceptor: each round-trips the
//! encrypted fields, and what the SDK cannot do is refused with a typed error.

use dynamap::Db;

use super::{Clinic, Patient, Prescription, Ward, encrypted_db, patient};
use crate::raw_item;

async fn read(db: &Db<Clinic>, id: &str) -> Patient {
    db.get(Patient::key(id))
        .consistent()
        .await
        .expect("get")
        .expect("found")
}

#[tokio::test]
async fn query_scan_and_lookup_queries_decrypt_every_item() {
    let (_raw, db) = encrypted_db("enc_reads").await;
    for (id, ward) in [("p1", "cardio"), ("p2", "cardio"), ("p3", "neuro")] {
        db.put(&patient(id, ward)).await.expect("put");
    }
    db.put(&Ward {
        name: "cardio".into(),
        beds: 12,
    })
    .await
    .expect("put ward");

    let in_cardio = db
        .query(Patient::gsi1("cardio"))
        .all()
        .await
        .expect("index query");
    let ids: Vec<_> = in_cardio.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["p1", "p2"]);
    assert_eq!(in_cardio[0].diagnosis, "diagnosis of p1");

    let one = db
        .query(Patient::partition("p3"))
        .all()
        .await
        .expect("query");
    assert_eq!(one[0].notes.as_deref(), Some("allergic to penicillin"));

    let scanned = db.scan::<Patient>().consistent().all().await.expect("scan");
    assert_eq!(scanned.len(), 3);
    assert!(
        scanned
            .iter()
            .all(|p| p.diagnosis == format!("diagnosis of {}", p.id))
    );

    let by_badge = db
        .query(Patient::by_badge("B-p2"))
        .all()
        .await
        .expect("lookup query");
    assert_eq!(by_badge.len(), 1);
}

#[tokio::test]
async fn batches_write_and_read_encrypted_items() {
    let (raw, db) = encrypted_db("enc_batches").await;
    let rx = |i: u32| Prescription {
        id: format!("rx{i:02}"),
        drug: format!("drug {i}"),
        doses: i,
    };
    let report = db.put_all((0..30).map(rx)).await.expect("batch write");
    assert!(report.is_complete(), "{report}");
    let stored = raw_item(&raw, "RX#rx07", "RX").await.expect("stored");
    assert!(
        stored["drug"].as_b().is_ok(),
        "batch writes encrypt too: {stored:?}"
    );

    let keys = (0..30).map(|i| Prescription::key(format!("rx{i:02}")));
    let got = db.batch_get(keys).consistent().await.expect("batch get");
    assert!(got.failed.is_empty());
    let got: Vec<Prescription> = got
        .items
        .into_iter()
        .map(|item| item.expect("found"))
        .collect();
    assert_eq!(got, (0..30).map(rx).collect::<Vec<_>>());
}

#[tokio::test]
async fn transactions_write_and_read_encrypted_items() {
    let (raw, db) = encrypted_db("enc_transactions").await;
    db.transaction()
        .put(&patient("p1", "cardio"))
        .put(&Ward {
            name: "cardio".into(),
            beds: 3,
        })
        .send()
        .await
        .expect("transaction");
    let stored = raw_item(&raw, "PATIENT#p1", "PATIENT")
        .await
        .expect("stored");
    assert!(
        stored["diagnosis"].as_b().is_ok(),
        "transactions encrypt too"
    );

    let mut reads = db.transact_get();
    let slot = reads.get(Patient::key("p1"));
    let results = reads.send().await.expect("transact get");
    let found = results.get(slot).expect("decoded").expect("found");
    assert_eq!(found.diagnosis, "diagnosis of p1");

    db.transaction()
        .delete(Patient::key("p1"))
        .send()
        .await
        .expect("delete in transaction");
    assert!(
        db.get(Patient::key("p1"))
            .consistent()
            .await
            .expect("get")
            .is_none()
    );
}

#[tokio::test]
async fn versions_and_read_modify_write_change_encrypted_fields() {
    let (_raw, db) = encrypted_db("enc_modify").await;
    db.create(&patient("p1", "cardio")).await.expect("create");
    // The SDK encrypts whole items only, so an encrypted field changes by a whole-item
    // write: `modify` reads, changes and writes back on the version's condition.
    let changed = db
        .modify(Patient::key("p1"), |p| {
            p.diagnosis = "recovered".into();
            p.visits += 1;
        })
        .await
        .expect("modify")
        .expect("found");
    assert_eq!(changed.version, 2);
    let p = read(&db, "p1").await;
    assert_eq!(
        (p.diagnosis.as_str(), p.visits, p.version),
        ("recovered", 2, 2)
    );

    // A stale version is refused as without encryption.
    let mut fresh = Patient {
        diagnosis: "discharged".into(),
        ..p.clone()
    };
    let mut stale = Patient {
        diagnosis: "stale".into(),
        ..p
    };
    db.save(&mut fresh)
        .await
        .expect("save at the stored version");
    assert_eq!(read(&db, "p1").await.diagnosis, "discharged");
    let error = db.save(&mut stale).await.expect_err("version moved on");
    assert!(error.is_conflict(), "{error:?}");
}

#[tokio::test]
async fn updates_change_plain_fields_and_refuse_signed_ones() {
    let (_raw, db) = encrypted_db("enc_updates").await;
    db.put(&patient("p1", "cardio")).await.expect("put");

    // A plain field (and the index key it renders) is not signed: updates work.
    db.update(Patient::key("p1"))
        .increment(Patient::VISITS, 4u32)
        .set(Patient::WARD, "neuro")
        .send()
        .await
        .expect("update of plain fields");
    let p = read(&db, "p1").await;
    assert_eq!(
        (p.visits, p.ward.as_str(), p.diagnosis.as_str()),
        (5, "neuro", "diagnosis of p1")
    );
    assert_eq!(
        db.query(Patient::gsi1("neuro"))
            .all()
            .await
            .expect("query")
            .len(),
        1
    );

    // A signed field cannot change in place: the signature covers it. The SDK refuses the
    // update before sending it. (An encrypted field's constant has no `set`: compile error.)
    let error = db
        .update(Patient::key("p1"))
        .set(Patient::INSURER, "Other Mutual")
        .send()
        .await
        .expect_err("the SDK refuses updates of signed attributes");
    assert!(error.is_encryption_failure(), "{error:?}");
    assert_eq!(error.kind(), dynamap::ErrorKind::InvalidRequest);
    assert_eq!(read(&db, "p1").await.insurer, "Acme Health");
}

#[tokio::test]
async fn conditions_and_filters_on_signed_and_plain_fields_work() {
    let (_raw, db) = encrypted_db("enc_conditions").await;
    db.put(&patient("p1", "cardio")).await.expect("put");
    db.put(&patient("p2", "neuro")).await.expect("put");
    let acme = db
        .scan::<Patient>()
        .filter(
            Patient::INSURER
                .eq("Acme Health")
                .and(Patient::WARD.eq("neuro")),
        )
        .consistent()
        .all()
        .await
        .expect("filtered scan");
    assert_eq!(acme.len(), 1);
    assert_eq!(acme[0].diagnosis, "diagnosis of p2");

    db.delete(Patient::key("p1"))
        .condition(Patient::INSURER.eq("Acme Health"))
        .await
        .expect("conditional delete");
    assert!(
        db.get(Patient::key("p1"))
            .consistent()
            .await
            .expect("get")
            .is_none()
    );
    // Lookup items go with their owner.
    assert!(
        db.query(Patient::by_badge("B-p1"))
            .all()
            .await
            .expect("lookup")
            .is_empty()
    );
}

/// What a ward list shows: plain fields only.
#[derive(dynamap::EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Patient)]
struct PatientRow {
    id: String,
    visits: u32,
}

#[tokio::test]
async fn projections_read_whole_items_through_the_interceptor() {
    let (raw, db) = encrypted_db("enc_projection").await;
    assert!(db.reads_whole_items() && !raw.reads_whole_items());
    db.put(&patient("p1", "cardio")).await.expect("put");
    // The SDK verifies a signature over every signed attribute, so the query asks for the
    // whole item (a projected one could not be verified) and decodes the projection.
    let rows = db
        .query(Patient::gsi1("cardio"))
        .project_as::<PatientRow>()
        .all()
        .await
        .expect("projected query");
    assert_eq!(
        rows,
        [PatientRow {
            id: "p1".into(),
            visits: 1
        }]
    );
}
