//! One table, two services: dynamap and a TypeScript service on ElectroDB (installed from
//! npm on first use, `tests/peer/electrodb_service.mjs`) write items the other reads,
//! queries and updates, with values holding spaces, mixed case and numbers, and a set each
//! side adds to. dynamap declares ElectroDB's layout: its type attributes, its key
//! templates, verbatim lower-cased keys with plain numbers, native sets.

use std::collections::BTreeSet;
use std::process::Command;

use dynamap::key::{KeyErrorKind, KeyPartError};
use dynamap::{Db, Entity, Error, Table};
use dynamap_local::DynamoLocal;
use serde_json::{Value, json};

use crate::fresh_db;
use crate::node_packages::node_modules;

const PACKAGES: &[&str] = &[
    "electrodb@3.9.3",
    "@aws-sdk/client-dynamodb@3.1169.0",
    "@aws-sdk/lib-dynamodb@3.1169.0",
];

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    entity_type = "__edb_e__",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    key_format(verbatim, lowercase, numbers = "plain")
)]
struct Org;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Org, entity = "employee",
          pk = "$org#name_{name}", sk = "$employee_1#team_{team}#level_{level}",
          index(name = "GSI1", pk = "$org#status_{status}", sk = "$employee_1#name_{name}"),
          const_attr(name = "__edb_v__", value = "1"))]
struct Employee {
    name: String,
    team: String,
    level: u32,
    status: String,
    skills: BTreeSet<String>,
}

/// The ElectroDB service, run once per command.
struct Peer {
    dir: std::path::PathBuf,
    endpoint: String,
    table: String,
}

impl Peer {
    fn run(&self, command: Value) -> Value {
        let output = Command::new("node")
            .arg(self.dir.join("electrodb_service.mjs"))
            .arg(command.to_string())
            .env("PEER_ENDPOINT", &self.endpoint)
            .env("PEER_TABLE", &self.table)
            .output()
            .expect("node runs");
        assert!(
            output.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("the service answers JSON")
    }
}

fn employee(name: &str, team: &str, level: u32, status: &str, skills: &[&str]) -> Employee {
    Employee {
        name: name.to_owned(),
        team: team.to_owned(),
        level,
        status: status.to_owned(),
        skills: skills.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// The employee as the ElectroDB service answers it.
fn as_peer(e: &Employee) -> Value {
    json!({
        "name": e.name, "team": e.team, "level": e.level, "status": e.status,
        "skills": e.skills.iter().collect::<Vec<_>>(),
    })
}

/// The employee as the ElectroDB service puts it: an empty set left out, as DynamoDB
/// stores no empty set.
fn to_put(e: &Employee) -> Value {
    let mut value = as_peer(e);
    if e.skills.is_empty() {
        value.as_object_mut().expect("object").remove("skills");
    }
    value
}

async fn setup(test: &str) -> Option<(Db<Org>, Peer)> {
    let Some(dir) = node_modules(PACKAGES) else {
        eprintln!("skipped: no node or npm to run the ElectroDB service with");
        return None;
    };
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/peer/electrodb_service.mjs"
        ),
        dir.join("electrodb_service.mjs"),
    )
    .expect("the service beside its packages");
    let db = fresh_db::<Org>(test).await;
    let endpoint = DynamoLocal::shared().expect("local").endpoint().to_owned();
    let table = db.table_name().to_owned();
    Some((
        db,
        Peer {
            dir,
            endpoint,
            table,
        },
    ))
}

#[tokio::test]
async fn each_service_reads_queries_and_updates_what_the_other_wrote() {
    let Some((db, peer)) = setup("peer_electrodb").await else {
        return;
    };
    // ElectroDB writes; dynamap reads it by key, by partition, by sort prefix, by index.
    let mary = employee("Mary Ann", "Ops 1", 4, "In Progress", &["sql"]);
    peer.run(json!({"op": "put", "employee": to_put(&mary)}));
    let got = db
        .get(Employee::key("Mary Ann", "Ops 1", 4u32))
        .await
        .expect("get")
        .expect("dynamap finds the peer's item");
    assert_eq!(got, mary);
    let team = db
        .query(Employee::partition("Mary Ann"))
        .sk_prefix(("Ops 1",))
        .all()
        .await
        .expect("query");
    assert_eq!(team, std::slice::from_ref(&mary));
    let in_progress = db
        .query(Employee::gsi1("In Progress"))
        .all()
        .await
        .expect("index query");
    assert_eq!(in_progress, std::slice::from_ref(&mary));

    // dynamap writes; ElectroDB reads it by key, by partition, by team, by status.
    let bob = employee("Bob O'Neil", "R&D 100%", 10, "Active", &["rust"]);
    db.put(&bob).await.expect("put");
    let key = json!({"name": bob.name, "team": bob.team, "level": bob.level});
    let mut get = key.clone();
    get["op"] = json!("get");
    assert_eq!(peer.run(get.clone()), as_peer(&bob));
    assert_eq!(
        peer.run(json!({"op": "by_name", "name": "Bob O'Neil"})),
        json!([as_peer(&bob)])
    );
    assert_eq!(
        peer.run(json!({"op": "by_team", "name": "Bob O'Neil", "team": "R&D 100%"})),
        json!([as_peer(&bob)])
    );
    assert_eq!(
        peer.run(json!({"op": "by_status", "status": "Active"})),
        json!([as_peer(&bob)])
    );

    // Each updates the other's item, index keys included, and adds to its set.
    db.update(Employee::key("Mary Ann", "Ops 1", 4u32))
        .set(Employee::STATUS, "Done Now")
        .add_to_set(Employee::SKILLS, ["rust".to_owned()])
        .await
        .expect("dynamap updates the peer's item");
    let mut mary_now = mary.clone();
    mary_now.status = "Done Now".into();
    mary_now.skills.insert("rust".into());
    assert_eq!(
        peer.run(json!({"op": "by_status", "status": "Done Now"})),
        json!([as_peer(&mary_now)]),
        "the peer's own status query finds the item dynamap moved"
    );
    let mut set_status = key.clone();
    set_status["op"] = json!("set_status");
    set_status["status"] = json!("On Leave");
    peer.run(set_status);
    let mut add = key;
    add["op"] = json!("add_skills");
    add["skills"] = json!(["ts"]);
    peer.run(add);
    let mut bob_now = bob.clone();
    bob_now.status = "On Leave".into();
    bob_now.skills.insert("ts".into());
    assert_eq!(
        db.get(Employee::key(&bob.name, &bob.team, 10u32))
            .await
            .expect("get")
            .as_ref(),
        Some(&bob_now)
    );
    assert_eq!(
        db.query(Employee::gsi1("On Leave")).all().await.expect("q"),
        [bob_now.clone()],
        "dynamap's index query finds the item the peer moved"
    );
    assert!(
        db.query(Employee::gsi1("Active"))
            .all()
            .await
            .expect("q")
            .is_empty()
    );
}

#[tokio::test]
async fn a_value_holding_the_delimiter_is_refused_by_dynamap_and_still_read_by_query() {
    let Some((db, peer)) = setup("peer_electrodb_delimiter").await else {
        return;
    };
    // ElectroDB stores `ops#1` raw; dynamap reaches the item through queries, which decode
    // attributes, but cannot render its key: refused before sending, nothing written.
    let forged = employee("ops#1", "a", 1, "Active", &[]);
    peer.run(json!({"op": "put", "employee": to_put(&forged)}));
    let active = db
        .query(Employee::gsi1("Active"))
        .all()
        .await
        .expect("query");
    assert_eq!(active, std::slice::from_ref(&forged));
    let err = db.put(&forged).await.expect_err("refused");
    assert!(
        matches!(&err, Error::Key(key) if key.kind == KeyErrorKind::Part(KeyPartError::NotVerbatim { text: "ops#1".into() })),
        "{err:?}"
    );
    let err = db
        .get(Employee::key("ops#1", "a", 1u32))
        .await
        .expect_err("refused");
    assert!(matches!(err, Error::Key(_)), "{err:?}");
    assert_eq!(
        peer.run(json!({"op": "by_status", "status": "Active"})),
        json!([as_peer(&forged)]),
        "the peer's item is untouched"
    );
}
