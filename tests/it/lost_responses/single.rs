//! Single-item writes (PutItem, UpdateItem, DeleteItem) whose answer is lost.

use dynamap::Db;

use super::lose::{RUNS, assert_unknown, lossy_db};
use crate::models::{App, Sensor, sensor};
use crate::raw_item;
use crate::write_models::{Counter, Device};

fn device(id: &str) -> Device {
    Device {
        id: id.into(),
        state: "idle".into(),
        alarms: 0,
        balance: 0,
        tags: Vec::new(),
        note: None,
    }
}

async fn stored_device(db: &Db<App>, id: &str) -> Device {
    db.get(Device::key(id))
        .consistent()
        .await
        .expect("get")
        .expect("device stored")
}

/// A create, put or replace whose write was applied succeeds: the retry meets the item this
/// call wrote and knows it for its own. A versioned save cannot know, and says so.
#[tokio::test]
async fn puts_whose_answer_is_lost_succeed_once_applied() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_puts_{sdk_retries}"), sdk_retries).await;

        losses.lose("PutItem", lost);
        db.create(&sensor("S1"))
            .await
            .expect("the create was applied");
        assert!(losses.sent() > lost, "sent again after the lost answers");
        let stored = db.get(Sensor::key("S1")).consistent().await.expect("get");
        assert_eq!(stored, Some(sensor("S1")));

        losses.lose("PutItem", lost);
        db.put(&sensor("S2")).await.expect("the put was applied");
        assert!(raw_item(&db, "SENSOR#S2", "SENSORINFO").await.is_some());

        let noted = Sensor {
            note: Some("moved".into()),
            ..sensor("S1")
        };
        losses.lose("PutItem", lost);
        db.replace(&noted).await.expect("the replace was applied");
        let stored = db.get(Sensor::key("S1")).consistent().await.expect("get");
        assert_eq!(stored, Some(noted));

        // A versioned save: the retry's version condition fails, and an item equal to
        // this call's is no proof that this call wrote it (another read-modify-write from
        // the same version stores an equal item), so the answer is `OutcomeUnknown`; the
        // item is stored once, at version 1.
        let mut counter = Counter {
            id: "c".into(),
            value: 7,
            version: 0,
        };
        losses.lose("PutItem", lost);
        let err = db
            .save(&mut counter)
            .await
            .expect_err("the outcome is unknown");
        assert!(
            matches!(err, dynamap::Error::OutcomeUnknown { .. }),
            "{err:?}"
        );
        let stored = db.get(Counter::key("c")).consistent().await.expect("get");
        assert_eq!(
            stored.map(|c| (c.value, c.version)),
            Some((7, 1)),
            "applied once"
        );
    }
}

/// A create whose condition really failed, but whose answer was lost: the retry finds
/// another item than this call's and cannot tell whether the call wrote it and someone
/// replaced it, so the answer is `OutcomeUnknown`, never a wrong success.
#[tokio::test]
async fn a_create_that_finds_another_item_after_a_lost_answer_is_unknown() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_create_other_{sdk_retries}"), sdk_retries).await;
        db.put(&sensor("S1")).await.expect("seed");
        let other = Sensor {
            note: Some("another".into()),
            ..sensor("S1")
        };
        losses.lose("PutItem", lost);
        assert_unknown(db.create(&other).await, "create");
        let stored = db.get(Sensor::key("S1")).consistent().await.expect("get");
        assert_eq!(stored, Some(sensor("S1")), "nothing overwritten");
    }
}

/// Deletes: a plain one is simply sent again; one that must find the item cannot tell
/// its own delete from another's, so it is `OutcomeUnknown` rather than "not found".
#[tokio::test]
async fn deletes_whose_answer_is_lost_never_report_their_own_delete_as_missing() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_deletes_{sdk_retries}"), sdk_retries).await;
        db.put(&sensor("S1")).await.expect("seed");
        db.put(&sensor("S2")).await.expect("seed");

        losses.lose("DeleteItem", lost);
        db.delete(Sensor::key("S1"))
            .await
            .expect("a plain delete is sent again");
        assert!(raw_item(&db, "SENSOR#S1", "SENSORINFO").await.is_none());

        losses.lose("DeleteItem", lost);
        assert_unknown(db.delete(Sensor::key("S2")).if_exists().await, "delete");
        assert!(raw_item(&db, "SENSOR#S2", "SENSORINFO").await.is_none());
    }
}

/// Updates: one that sets values is sent again (setting them twice changes nothing); an
/// increment is not sent again at all, so it is applied once and answers
/// `OutcomeUnknown`; a conditional one whose retry fails its condition is
/// `OutcomeUnknown`, not a failed condition.
#[tokio::test]
async fn updates_whose_answer_is_lost_are_applied_once() {
    for (sdk_retries, lost) in RUNS {
        let (db, losses) = lossy_db(&format!("lost_updates_{sdk_retries}"), sdk_retries).await;
        db.put(&device("d1")).await.expect("seed");

        losses.lose("UpdateItem", lost);
        db.update(Device::key("d1"))
            .set(Device::STATE, "busy")
            .await
            .expect("a set is sent again");
        assert_eq!(stored_device(&db, "d1").await.state, "busy");

        losses.lose("UpdateItem", lost);
        let increment = db
            .update(Device::key("d1"))
            .increment(Device::ALARMS, 1u32)
            .await;
        assert_unknown(increment, "update");
        assert_eq!(losses.sent(), 1, "an increment is not sent again");
        assert_eq!(stored_device(&db, "d1").await.alarms, 1, "applied once");

        losses.lose("UpdateItem", lost);
        let conditional = db
            .update(Device::key("d1"))
            .condition(Device::STATE.eq("busy"))
            .set(Device::STATE, "idle")
            .await;
        assert_unknown(conditional, "update");
        assert_eq!(stored_device(&db, "d1").await.state, "idle");
    }
}
