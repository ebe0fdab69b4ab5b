//! Every request dynamap makes is a `Send + 'static` future (or stream): it owns a handle
//! on the table instead of borrowing the `Db`, so it can be spawned, stored or sent to
//! another thread. Only what a request is given by reference (a borrowed batch input, the
//! entity `save` writes its version back into) can tie it to a lifetime.
//!
//! Nothing here is sent: the requests are built and their types checked. A request type
//! that borrowed the `Db` again would fail to compile.

use std::future::{Future, IntoFuture};

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{BehaviorVersion, Region};
use dynamap::timeseries::rolling::{RollingTables, TableNaming, WriteMonth};
use dynamap::timeseries::rows::{EventRow, WritePath};
use dynamap::{Db, Entity, EntityEnum, Table};
use futures_util::Stream;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO")]
struct Repo {
    name: String,
    issues: u64,
    #[dynamap(version)]
    version: u64,
}

#[derive(Entity, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[dynamap(table = App, entity = "Ping", pk = "DEVICE#{device}", sk = "{at}")]
struct Ping {
    device: String,
    at: i64,
    value: u32,
}

impl EventRow for Ping {}

// Only its type is used: nothing is decoded here.
#[allow(dead_code)]
#[derive(EntityEnum, Debug)]
enum Any {
    Repo(Repo),
    Ping(Ping),
}

/// A `Db` whose client would fail every call: nothing is sent here.
fn db() -> Db<App> {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .retry_config(RetryConfig::disabled())
        .build();
    Db::new(aws_sdk_dynamodb::Client::from_conf(config), "app")
}

fn repo() -> Repo {
    Repo {
        name: "dynamap".into(),
        issues: 0,
        version: 0,
    }
}

fn spawnable<F>(request: F)
where
    F: IntoFuture + Send + 'static,
    F::IntoFuture: Send + 'static,
{
    drop(request);
}

fn spawnable_future<F: Future + Send + 'static>(future: F) {
    drop(future);
}

fn spawnable_stream<S: Stream + Send + 'static>(stream: S) {
    drop(stream);
}

#[test]
fn single_item_requests_are_send_and_static() {
    let db = db();
    spawnable(db.get(Repo::key("dynamap")).consistent());
    spawnable_future(db.get(Repo::key("dynamap")).decode_as::<Any>());
    spawnable(db.put(&repo()));
    spawnable(db.create(&repo()));
    spawnable(db.replace(&repo()));
    spawnable(db.put(&repo()).condition(Repo::ISSUES.lt(10u64)));
    spawnable(db.delete(Repo::key("dynamap")));
    spawnable(
        db.delete(Repo::key("dynamap"))
            .if_exists()
            .condition(Repo::ISSUES.eq(0u64)),
    );
    spawnable(
        db.update(Repo::key("dynamap"))
            .increment(Repo::ISSUES, 1u64),
    );
    spawnable_future(db.update(Repo::key("dynamap")).returning_new());
    spawnable(db.upsert(&repo()));
    spawnable_future(db.modify(Repo::key("dynamap"), |repo| repo.issues += 1));
    // `save` writes the new version back into the entity it is given, so the future lives
    // as long as that borrow; with an owned entity it is 'static too.
    spawnable_future(db.save(Box::leak(Box::new(repo()))));
}

#[test]
fn reads_of_many_items_are_send_and_static() {
    let db = db();
    spawnable_future(db.query(Repo::partition("dynamap")).limit(10).send());
    spawnable(db.query(Repo::partition("dynamap")).limit(10));
    spawnable_future(db.scan::<Repo>().limit(10).send());
    spawnable(db.scan::<Repo>().segments(2).limit(10));
    spawnable_future(db.query(Repo::partition("dynamap")).all());
    spawnable_future(db.query(Repo::partition("dynamap")).count());
    spawnable_stream(db.query(Repo::partition("dynamap")).stream());
    spawnable_future(db.scan::<Repo>().all());
    spawnable_future(db.scan::<Repo>().count());
    spawnable_stream(db.scan::<Repo>().segments(4).limit(10).stream());
    spawnable(db.maintain::<Repo>("job").rekey().segments(4));
    spawnable_future(db.maintain::<Repo>("job").rekey().segments(4).send());
    spawnable(db.audit().entity::<Repo>());
    spawnable_future(db.audit().entity::<Repo>().send());
    spawnable(db.batch_get([Repo::key("a"), Repo::key("b")]));
    spawnable(db.batch_get([Repo::key("a")]).decode_as::<Any>());
    let mut reads = db.transact_get();
    let _slot = reads.get(Repo::key("a"));
    spawnable_future(reads.send());
    let mut reads = db.transact_get();
    let _slot = reads.get(Repo::key("a"));
    spawnable(reads);
}

#[test]
fn batches_and_transactions_of_owned_values_are_send_and_static() {
    let db = db();
    spawnable(db.batch_write().put(&repo()).delete(Repo::key("old")));
    spawnable(db.put_all(vec![repo(), repo()]));
    spawnable_future(
        db.transaction()
            .put(&repo())
            .check(Repo::key("dynamap"), Repo::ISSUES.lt(10u64))
            .send(),
    );
    spawnable(
        db.transaction()
            .put(db.create(&repo()))
            .delete(db.delete(Repo::key("old")).condition(Repo::ISSUES.eq(0u64))),
    );
    let handle = db.clone();
    spawnable_future(db.transact_retry(move || {
        let db = handle.clone();
        async move { Ok(db.transaction().put(&repo())) }
    }));
}

#[test]
fn table_administration_is_send_and_static() {
    let db = db();
    spawnable(db.create_table());
    spawnable_future(db.describe_table());
    spawnable_future(db.verify_table());
    spawnable_future(db.delete_table());
}

#[test]
fn time_series_requests_are_send_and_static() {
    let db = db();
    let rows = db.event_rows::<Ping>();
    let ping = Ping {
        device: "d1".into(),
        at: 1,
        value: 7,
    };
    spawnable_future(rows.write(&ping));
    spawnable_future(rows.at(Ping::key("d1", 1)));
    spawnable_stream(rows.range(Ping::partition("d1"), (0i64,), (9i64,)));
    let pings: &'static [Ping] = Box::leak(Box::new([ping]));
    spawnable_future(rows.write_all(pings, 4));

    let naming = TableNaming::new("iot").expect("a valid prefix");
    let rolling = RollingTables::<App>::new(db.client().clone(), naming);
    spawnable_future(rolling.db_for(0, 0));
    spawnable_future(rolling.db_for_now(0));
    spawnable_future(rolling.tables());
    spawnable_future(rolling.tables_overlapping(0..=1));
    spawnable_future(rolling.range(0..=1));
    spawnable_future(rolling.drop_written_before(WriteMonth::new(2020, 1).expect("a month")));

    // An ingest borrows its events and the router: its future lives as long as they do,
    // and is `Send`, so it can run on a multi-threaded runtime's task.
    let events: &'static [Ping] = Box::leak(Box::new([]));
    let rolling: &'static RollingTables<App> = Box::leak(Box::new(rolling));
    spawnable(rolling.ingest(events, |p| p.at));
    spawnable(
        rolling
            .ingest(events, |p| p.at)
            .event_rows(WritePath::MapFirst),
    );
    spawnable_future(rolling.ingest(events, |p| p.at).send());
}

/// The request printed, after checking that a clone prints the same.
fn debug<T: std::fmt::Debug>(request: T) -> String {
    format!("{request:?}")
}

fn debug_and_clone<T: std::fmt::Debug + Clone>(request: T) -> String {
    let text = debug(request.clone());
    assert_eq!(debug(request), text, "a clone is the same request");
    text
}

/// Every request builder prints what it would send, for logs and test failures (its name
/// and its table, at least), and can be cloned to send the same request again. A batch
/// write (which reads its input lazily, once) and a read transaction (whose slots belong to
/// one transaction) are not `Clone`.
#[test]
fn every_request_builder_is_debug() {
    let db = db();
    let printed = [
        ("Get", debug_and_clone(db.get(Repo::key("dynamap")))),
        ("Put", debug_and_clone(db.put(&repo()))),
        ("Delete", debug_and_clone(db.delete(Repo::key("dynamap")))),
        (
            "Update",
            debug_and_clone(
                db.update(Repo::key("dynamap"))
                    .increment(Repo::ISSUES, 1u64),
            ),
        ),
        ("Upsert", debug_and_clone(db.upsert(&repo()))),
        (
            "Maintain",
            debug_and_clone(db.maintain::<Repo>("job").rekey().segments(4)),
        ),
        (
            "Query",
            debug_and_clone(db.query(Repo::partition("dynamap"))),
        ),
        ("Scan", debug_and_clone(db.scan::<Repo>())),
        ("BatchGet", debug_and_clone(db.batch_get([Repo::key("a")]))),
        ("BatchWrite", debug(db.batch_write().put(&repo()))),
        (
            "Transaction",
            debug_and_clone(db.transaction().put(&repo())),
        ),
        ("TransactGet", debug(db.transact_get())),
        ("CreateTable", debug_and_clone(db.create_table())),
    ];
    for (name, text) in printed {
        assert!(text.starts_with(name), "{text}");
        assert!(
            text.contains("\"app\""),
            "{name} does not name its table: {text}"
        );
    }
}

fn debug_and_clone_type<T: std::fmt::Debug + Clone>(_: &T) {}

/// Every builder is `Debug + Clone` whatever its type parameters are: the entity and the
/// table layout are markers, and need neither (`App` derives neither here).
#[test]
fn every_builder_is_debug_and_clone_without_bounds_on_its_layout() {
    let db = db();
    let naming = TableNaming::new("iot").expect("a valid prefix");
    let rolling = RollingTables::<App>::new(db.client().clone(), naming);
    let events = [Ping {
        device: "d1".into(),
        at: 1,
        value: 7,
    }];
    let ingest = rolling.ingest(&events, |p| p.at).concurrency(2);
    debug_and_clone_type(&ingest);
    let printed = debug_and_clone(ingest.clone());
    assert!(
        printed.starts_with("Ingest") && printed.contains("\"iot\""),
        "{printed}"
    );
    let rows = ingest.event_rows(WritePath::MapFirst);
    assert!(debug_and_clone(rows).starts_with("IngestRows"));
    let audit = debug_and_clone(db.audit().entity::<Repo>().segments(2));
    assert!(
        audit.starts_with("Audit") && audit.contains("\"app\""),
        "{audit}"
    );
    debug_and_clone_type(&db.event_rows::<Ping>());
    debug_and_clone_type(&db.create_table());
    debug_and_clone_type(&rolling);
}

/// The names of earlier releases still build the same requests, deprecated for one release
/// (the compiler's warning names the new spelling).
#[test]
#[allow(deprecated)]
fn deprecated_names_build_the_same_requests() {
    let db = db();
    let same = |old: String, new: String| assert_eq!(old, new);
    same(
        debug(db.patch(Repo::key("a")).increment(Repo::ISSUES, 1u64)),
        debug(db.update(Repo::key("a")).increment(Repo::ISSUES, 1u64)),
    );
    same(
        debug(db.transaction().put_if(&repo(), Repo::ISSUES.lt(3u64))),
        debug(
            db.transaction()
                .put(db.put(&repo()).condition(Repo::ISSUES.lt(3u64))),
        ),
    );
    same(
        debug(
            db.transaction()
                .delete_if(Repo::key("a"), Repo::ISSUES.eq(0u64)),
        ),
        debug(
            db.transaction()
                .delete(db.delete(Repo::key("a")).condition(Repo::ISSUES.eq(0u64))),
        ),
    );
    same(
        debug(db.query(Repo::partition("a")).mixed::<Any>()),
        debug(db.query(Repo::partition("a")).decode_as::<Any>()),
    );
    spawnable_future(db.maintain::<Repo>("job").rekey().run());
    spawnable_future(db.audit().entity::<Repo>().run());
    let rows = dynamap::timeseries::rows::EventRows::<Ping>::new(&db);
    same(debug(rows), debug(db.event_rows::<Ping>()));
    let labels: std::collections::BTreeSet<String> = ["x".to_owned()].into();
    spawnable(db.update(Repo::key("a")).add(Repo::ISSUES, 1u64));
    let _ = labels;
}
