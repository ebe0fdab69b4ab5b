//! Maintenance jobs on DynamoDB Local: re-keying, moving, upgrading and mapping the items of
//! one entity across a table, under concurrent writes, stopped and resumed, split across
//! runs, and as a dry run. The shared table and its old items are here; the tests are in one
//! file per topic.

mod adoption;
mod audit;
mod budget;
mod concurrent_writes;
mod live_rekey;
mod moves;
mod offline;
mod rekey;
mod wide_items;

use std::collections::BTreeMap;

use dynamap::codec::AttributeValue::{N, S};
use dynamap::codec::Item;
use dynamap::{Db, Entity, Table};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub(crate) struct Desk;

/// A ticket as the code renders it now: its status index was added (or its template
/// changed) after many tickets were written.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Ticket", pk = "TICKET#{id}", sk = "TICKET",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "TICKET#{id}"))]
pub(crate) struct Ticket {
    pub(crate) id: String,
    pub(crate) status: String,
    pub(crate) touches: u64,
    #[dynamap(version)]
    pub(crate) version: u64,
}

/// Another entity of the table, which a job over tickets never touches.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "Agent", pk = "AGENT#{id}", sk = "AGENT",
          index(name = "GSI1", pk = "TEAM#{team}", sk = "AGENT#{id}"))]
pub(crate) struct Agent {
    pub(crate) id: String,
    pub(crate) team: String,
}

/// A user whose primary key template changed from `U#{id}` to `USER#{id}`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Desk, entity = "User", pk = "USER#{id}", sk = "PROFILE")]
pub(crate) struct User {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// Every item of the table, raw, by primary key.
pub(crate) async fn raw_items<L: dynamap::Table>(db: &Db<L>) -> BTreeMap<(String, String), Item> {
    let mut items = BTreeMap::new();
    let mut start = None;
    loop {
        let out = db
            .client()
            .scan()
            .table_name(db.table_name())
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("raw scan");
        for item in out.items.unwrap_or_default() {
            let text = |name: &str| {
                item.get(name)
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .unwrap_or_default()
            };
            items.insert((text("PK"), text("SK")), item);
        }
        match out.last_evaluated_key {
            Some(next) => start = Some(next),
            None => return items,
        }
    }
}

/// `tickets` tickets written the old way (the first half with no index keys, the rest with
/// an old status key format), and `agents` agents written normally.
pub(crate) async fn old_desk(test: &str, tickets: usize, agents: usize) -> Db<Desk> {
    let db = fresh_db::<Desk>(test).await;
    let mut batch = db.batch_write();
    let mut raw = Vec::new();
    for i in 0..tickets {
        let mut item = Item::new();
        item.insert("PK".into(), S(format!("TICKET#{i:05}")));
        item.insert("SK".into(), S("TICKET".into()));
        item.insert("_type".into(), S("Ticket".into()));
        item.insert("id".into(), S(format!("{i:05}")));
        item.insert(
            "status".into(),
            S(if i % 3 == 0 { "open" } else { "closed" }.into()),
        );
        item.insert("touches".into(), N("0".into()));
        item.insert("version".into(), N("1".into()));
        if i >= tickets / 2 {
            item.insert("GSI1PK".into(), S(format!("S#{}", i % 3)));
            item.insert("GSI1SK".into(), S(format!("T#{i:05}")));
        }
        raw.push(item);
    }
    put_raw_items(&db, raw).await;
    let agents: Vec<Agent> = (0..agents)
        .map(|i| Agent {
            id: format!("a{i}"),
            team: format!("t{}", i % 4),
        })
        .collect();
    for agent in &agents {
        batch = batch.put(agent);
    }
    assert!(batch.await.expect("agents").is_complete());
    db
}

/// `n` users stored under the old key template `U#{id}`, with an attribute of another writer.
pub(crate) async fn old_users(test: &str, n: usize) -> dynamap::Db<Desk> {
    let db = fresh_db::<Desk>(test).await;
    let users: Vec<_> = (0..n)
        .map(|i| {
            [
                ("PK", format!("U#{i}")),
                ("SK", "PROFILE".to_owned()),
                ("_type", "User".to_owned()),
                ("id", i.to_string()),
                ("name", format!("user {i}")),
                ("theirs", "kept".to_owned()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), S(v)))
            .collect::<dynamap::codec::Item>()
        })
        .collect();
    put_raw_items(&db, users).await;
    db
}

/// Stores `items` as they are, 25 to a raw `BatchWriteItem` call.
pub(crate) async fn put_raw_items<L: dynamap::Table>(db: &Db<L>, items: Vec<Item>) {
    for chunk in items.chunks(25) {
        let requests = chunk
            .iter()
            .map(|item| {
                dynamap::aws_sdk_dynamodb::types::WriteRequest::builder()
                    .put_request(
                        dynamap::aws_sdk_dynamodb::types::PutRequest::builder()
                            .set_item(Some(item.clone()))
                            .build()
                            .expect("put request"),
                    )
                    .build()
            })
            .collect();
        let out = db
            .client()
            .batch_write_item()
            .request_items(db.table_name(), requests)
            .send()
            .await
            .expect("raw batch");
        assert!(
            out.unprocessed_items().is_none_or(|u| u.is_empty()),
            "DynamoDB Local processes every item"
        );
    }
}

/// True when every ticket's stored item is what the entity renders from it.
async fn every_ticket_rendered(db: &Db<Desk>) -> usize {
    let mut tickets = 0;
    for item in raw_items(db).await.into_values() {
        if item.get("_type") == Some(&S("Ticket".into())) {
            let ticket = Ticket::from_item(item.clone()).expect("decodes");
            let rendered = ticket.to_item().expect("renders");
            for (name, value) in &rendered {
                assert_eq!(
                    item.get(name),
                    Some(value),
                    "{name} of ticket {}",
                    ticket.id
                );
            }
            tickets += 1;
        }
    }
    tickets
}
