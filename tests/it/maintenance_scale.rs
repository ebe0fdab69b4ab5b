//! The migration acceptance test, at a size that runs in CI: a re-key of one entity type in
//! a table of three, stopped at about half way, resumed as two shares of the segments while
//! 20 tasks keep updating 1% of the items. Afterwards every item of the type has its new
//! keys, every live update survived, no item was rewritten twice, nothing else was touched,
//! and the audit finds nothing.
//!
//! Full size (200,000 items): `DYNAMAP_MIGRATION_ITEMS=200000 cargo test --test it
//! maintenance_scale -- --nocapture`.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use dynamap::aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use dynamap::codec::AttributeValue::{N, S};
use dynamap::codec::Item;
use dynamap::{Db, Entity};
use futures_util::stream::{self, StreamExt};

use crate::fresh_db;
use crate::maintenance::{Agent, Desk, Ticket, User, raw_items};

/// Items in the table: 60% tickets (written before their index existed), 20% agents and
/// 20% users.
fn items() -> usize {
    std::env::var("DYNAMAP_MIGRATION_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Writes `items` as they are, 25 a call, 8 calls at a time.
async fn seed<L: dynamap::Table>(db: &Db<L>, items: Vec<Item>) {
    let chunks: Vec<Vec<Item>> = items.chunks(25).map(<[Item]>::to_vec).collect();
    stream::iter(chunks)
        .for_each_concurrent(8, |chunk| async move {
            let mut requests: Vec<WriteRequest> = chunk
                .into_iter()
                .map(|item| {
                    WriteRequest::builder()
                        .put_request(
                            PutRequest::builder()
                                .set_item(Some(item))
                                .build()
                                .expect("put"),
                        )
                        .build()
                })
                .collect();
            while !requests.is_empty() {
                let out = db
                    .client()
                    .batch_write_item()
                    .request_items(db.table_name(), requests)
                    .send()
                    .await
                    .expect("seed");
                requests = out
                    .unprocessed_items
                    .and_then(|mut left| left.remove(db.table_name()))
                    .unwrap_or_default();
            }
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn maintenance_scale_rekey_stopped_resumed_and_shared_under_live_updates() {
    let total = items();
    let tickets = total * 6 / 10;
    let others = (total - tickets) / 2;
    let db = fresh_db::<Desk>("maintain_scale").await;
    let started = Instant::now();
    let mut raw: Vec<Item> = (0..tickets)
        .map(|i| {
            let mut item = Item::new();
            item.insert("PK".into(), S(format!("TICKET#{i:07}")));
            item.insert("SK".into(), S("TICKET".into()));
            item.insert("_type".into(), S("Ticket".into()));
            item.insert("id".into(), S(format!("{i:07}")));
            item.insert(
                "status".into(),
                S(["open", "closed", "waiting"][i % 3].into()),
            );
            item.insert("touches".into(), N("0".into()));
            item.insert("version".into(), N("1".into()));
            item
        })
        .collect();
    for i in 0..others {
        raw.push(
            Agent {
                id: format!("a{i}"),
                team: format!("t{}", i % 7),
            }
            .to_item()
            .expect("agent"),
        );
        raw.push(
            User {
                id: format!("u{i}"),
                name: format!("user {i}"),
            }
            .to_item()
            .expect("user"),
        );
    }
    seed(&db, raw).await;
    eprintln!("seeded {total} items in {:?}", started.elapsed());
    let before = raw_items(&db).await;

    let job = || {
        db.maintain::<Ticket>("scale")
            .rekey()
            .segments(8)
            .concurrency(8)
    };

    // Stopped at about half way: the future is dropped once half the tickets are read.
    let half = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&half);
    let half_way = tickets as u64 / 2;
    let first = job().on_progress(move |p| {
        if p.scanned >= half_way {
            seen.store(true, Ordering::SeqCst);
        }
    });
    let watched = Arc::clone(&half);
    tokio::select! {
        report = first.send() => panic!("the job finished before it was stopped: {report:?}"),
        () = async move {
            while !watched.load(Ordering::SeqCst) {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        } => {}
    }
    eprintln!("stopped at half way after {:?}", started.elapsed());

    // 20 tasks update 1% of the tickets while the job resumes, as two shares of the
    // segments (two processes would run the same calls).
    let updated: Arc<HashMap<String, AtomicU64>> = Arc::new(
        (0..tickets)
            .step_by(100)
            .map(|i| (format!("{i:07}"), AtomicU64::new(0)))
            .collect(),
    );
    let ids: Vec<String> = updated.keys().cloned().collect();
    let updaters: Vec<_> = (0..20)
        .map(|task| {
            let (db, updated) = (db.clone(), Arc::clone(&updated));
            let mine: Vec<String> = ids.iter().skip(task).step_by(20).cloned().collect();
            tokio::spawn(async move {
                for round in 0..3 {
                    for id in &mine {
                        db.update(Ticket::key(id.as_str()))
                            .increment(Ticket::TOUCHES, 1u64)
                            .await
                            .unwrap_or_else(|err| panic!("update {id} round {round}: {err}"));
                        updated[id].fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    let (a, b) = tokio::join!(
        job().only_segments(0..4).send(),
        job().only_segments(4..8).send()
    );
    for updater in updaters {
        updater.await.expect("updater");
    }
    let (a, b) = (a.expect("first share"), b.expect("second share"));
    eprintln!(
        "resumed: {} + {} scanned, {} + {} re-keyed, {} + {} conflicts redone, in {:?}",
        a.scanned,
        b.scanned,
        a.rekeyed,
        b.rekeyed,
        a.conflicts_redone,
        b.conflicts_redone,
        started.elapsed()
    );
    assert!(
        a.failed.is_empty() && b.failed.is_empty(),
        "{:?} {:?}",
        a.failed,
        b.failed
    );

    let after = raw_items(&db).await;
    let mut checked = 0;
    for (key, item) in &after {
        match item.get("_type") {
            Some(S(kind)) if kind == "Ticket" => {
                let ticket = Ticket::from_item(item.clone()).expect("decodes");
                for (name, value) in ticket.to_item().expect("renders") {
                    assert_eq!(
                        item.get(&name),
                        Some(&value),
                        "{name} of ticket {}",
                        ticket.id
                    );
                }
                let updates = updated
                    .get(&ticket.id)
                    .map_or(0, |n| n.load(Ordering::Relaxed));
                assert_eq!(
                    ticket.touches, updates,
                    "every live update of {} survived",
                    ticket.id
                );
                assert_eq!(
                    ticket.version,
                    2 + updates,
                    "{} rewritten once by the job",
                    ticket.id
                );
                checked += 1;
            }
            Some(S(kind)) if kind == "_dynamap.checkpoint" => {}
            _ => assert_eq!(before.get(key), Some(item), "{key:?} untouched"),
        }
    }
    assert_eq!(checked, tickets);
    let audit = db
        .audit()
        .entity::<Ticket>()
        .entity::<Agent>()
        .entity::<User>()
        .segments(8)
        .send()
        .await
        .expect("audit");
    assert!(audit.is_clean(), "{audit}");
    assert_eq!(audit.scanned, (tickets + 2 * others) as u64);
    eprintln!(
        "{total} items migrated and audited in {:?}",
        started.elapsed()
    );
}
