//! Request previews: a builder's `preview` is exactly what its `send` puts on the wire (the
//! SDK input the `lose` interceptor captures before serializing it), up to the first request
//! an answer decides; fails as `send` would before sending, and reads as text. And a
//! builder's `Debug` keeps its cursor to itself.

use dynamap::key::PartitionKey;
use dynamap::preview::{Preview, Request};
use dynamap::{Db, Entity, Error};

use crate::lost_responses::lose::{Losses, lossy_db};
use crate::models::{App, Score, Sensor, sensor};

fn score(game: &str, score: i64, user: &str) -> Score {
    Score {
        game: game.into(),
        score,
        user: user.into(),
    }
}

/// Sends `send` and returns what went on the wire, after checking nothing else did.
pub(crate) async fn sent<F: std::future::IntoFuture>(
    losses: &Losses,
    send: F,
) -> (F::Output, Vec<Request>) {
    assert_eq!(losses.take_inputs(), [], "nothing sent before");
    let output = send.await;
    (output, losses.take_inputs())
}

#[tokio::test]
async fn a_preview_is_what_send_sends() {
    let (db, losses) = lossy_db("a_preview_is_what_send_sends", false).await;
    for user in ["ann", "bob", "cyd"] {
        db.put(&score("chess", 10, user)).await.expect("put");
    }
    db.put(&sensor("S1")).await.expect("put");
    losses.take_inputs();

    // A query with a sort condition, a filter, a projection, a limit, a direction; and a
    // second page from the first's cursor.
    let query = || {
        db.query(Score::partition("chess"))
            .sk_ge((5i64,))
            .filter(Score::USER.ne("zed"))
            .project(Score::USER)
            .descending()
            .limit(2)
            .include_expired()
    };
    let preview = query().preview().expect("preview");
    let (page, wire) = sent(&losses, query().send()).await;
    let page = page.expect("query");
    assert_eq!(preview.requests(), wire, "{preview}");
    let next = query().after(page.cursor.expect("more follow"));
    let preview = next.preview().expect("preview");
    let (_, wire) = sent(&losses, next.send()).await;
    assert_eq!(preview.requests(), &wire[..1], "{preview}");

    // An update with a condition.
    let update = || {
        db.update(Sensor::key("S1"))
            .set(Sensor::NOTE, "calibrated")
            .condition(Sensor::CITY.eq("Poznań"))
    };
    let preview = update().preview().expect("preview");
    let (result, wire) = sent(&losses, update().send()).await;
    result.expect("update");
    assert_eq!(preview.requests(), wire, "{preview}");

    // A transaction of a put, an update, a delete and a check (its token given: a fresh
    // one is made per send otherwise).
    let transaction = || {
        db.transaction()
            .put(
                db.put(&score("go", 1, "ann"))
                    .condition(Score::USER.exists().not()),
            )
            .update(
                db.update(Sensor::key("S1"))
                    .set_option(Sensor::NOTE, None::<String>),
            )
            .delete(Score::key("chess", 10, "cyd"))
            .check(Score::key("chess", 10, "ann"), Score::USER.eq("ann"))
            .idempotency_token("preview-1")
    };
    let preview = transaction().preview().expect("preview");
    let (result, wire) = sent(&losses, transaction().send()).await;
    result.expect("transaction");
    assert_eq!(preview.requests(), wire, "{preview}");

    // A batch write of 30 puts and a delete: two calls, 25 writes and 6.
    let batch = || {
        db.batch_write()
            .put_all((0..30).map(|i| score("batch", i, "ann")))
            .delete(Score::key("chess", 10, "bob"))
            .concurrency(1)
    };
    let preview = batch().preview().expect("preview");
    assert_eq!(preview.requests().len(), 2, "{preview}");
    let (report, wire) = sent(&losses, batch().send()).await;
    assert!(report.expect("batch").is_complete());
    assert_eq!(preview.requests(), wire, "{preview}");

    // The single-item reads and writes too.
    let get = db.get(Sensor::key("S1")).consistent();
    let preview = get.preview().expect("preview");
    assert_eq!(preview.requests(), sent(&losses, get).await.1);
    let put = db.replace(&sensor("S1")).condition(Sensor::FLOOR.eq("2"));
    let preview = put.preview().expect("preview");
    assert_eq!(preview.requests(), sent(&losses, put).await.1);
    let delete = db.delete(Score::key("go", 1, "ann")).if_exists();
    let preview = delete.preview().expect("preview");
    assert_eq!(preview.requests(), sent(&losses, delete).await.1);
    let scan = db
        .scan::<Score>()
        .filter(Score::SCORE.gt(3i64))
        .include_expired();
    let preview = scan.preview().expect("preview");
    assert_eq!(preview.requests(), &sent(&losses, scan.send()).await.1[..1]);
}

/// A user with a unique handle: its writes keep a lookup item in sync.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER",
          lookup(name = "handle", pk = "HANDLE#{handle}", sk = "HANDLE"))]
struct User {
    id: String,
    handle: String,
}

fn user(id: &str, handle: &str) -> User {
    User {
        id: id.into(),
        handle: handle.into(),
    }
}

/// Deals of a day spread over shards of an index partition.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Deal", pk = "DEAL#{id}", sk = "INFO",
          index(name = "GSI1", pk = "DEALS#{day}#{shard}", sk = "{created_at}"))]
struct Deal {
    id: String,
    day: String,
    shard: u8,
    created_at: i64,
}

/// A preview of a write with lookups is its consistent read; on the wire the transaction
/// that read decides follows it, as the text's last line says.
fn read_then_transaction(preview: &Preview, wire: &[Request]) {
    assert_eq!(preview.requests(), &wire[..1], "{preview}");
    assert!(
        matches!(preview.requests(), [Request::GetItem(read)] if read.consistent_read() == Some(true)),
        "{preview}"
    );
    assert!(
        matches!(&wire[1..], [Request::TransactWriteItems(_)]),
        "{wire:?}"
    );
    assert!(
        preview.to_string().contains("\nthen: TransactWriteItems"),
        "{preview}"
    );
}

#[tokio::test]
async fn a_preview_is_every_request_no_answer_decides() {
    let (db, losses) = lossy_db("a_preview_is_every_request_no_answer_decides", false).await;

    // Writes of an entity with a lookup: create, update moving the lookup, put, a
    // transaction holding one, delete.
    let create = db.create(&user("u1", "ann"));
    let preview = create.preview().expect("preview");
    let (result, wire) = sent(&losses, create).await;
    result.expect("create");
    read_then_transaction(&preview, &wire);
    let update = db.update(User::key("u1")).set(User::HANDLE, "bea");
    let preview = update.preview().expect("preview");
    let (result, wire) = sent(&losses, update.send()).await;
    result.expect("update");
    read_then_transaction(&preview, &wire);
    let put = db.put(&user("u1", "cat"));
    let preview = put.preview().expect("preview");
    let (result, wire) = sent(&losses, put).await;
    result.expect("put");
    read_then_transaction(&preview, &wire);
    let transaction = db
        .transaction()
        .put(&user("u1", "dan"))
        .put(&score("go", 1, "ann"));
    let preview = transaction.preview().expect("preview");
    let (result, wire) = sent(&losses, transaction.send()).await;
    result.expect("transaction");
    read_then_transaction(&preview, &wire);
    let delete = db.delete(User::key("u1"));
    let preview = delete.preview().expect("preview");
    let (result, wire) = sent(&losses, delete).await;
    result.expect("delete");
    read_then_transaction(&preview, &wire);
    assert_eq!(db.get(User::key("u1")).await.expect("get"), None);

    // A query over days of three shards each, read merged: its preview is one request
    // per shard of the first day, which `send` sends together before any answer.
    for (i, shard) in [0u8, 0, 1, 2, 2, 2].into_iter().enumerate() {
        let day = if i < 4 { "d1" } else { "d2" };
        let id = format!("deal{i}");
        let deal = Deal {
            id,
            day: day.into(),
            shard,
            created_at: i as i64,
        };
        db.put(&deal).await.expect("deal");
    }
    losses.take_inputs();
    let day =
        |day: &str| PartitionKey::across((0..3u8).map(|shard| Deal::gsi1(day, shard))).merged();
    let query = || {
        db.query(PartitionKey::across(["d1", "d2"].map(day)))
            .limit(2)
    };
    let preview = query().preview().expect("preview");
    let (page, wire) = sent(&losses, query().send()).await;
    assert_eq!(page.expect("query").items.len(), 2);
    let requests = preview.requests();
    assert_eq!(requests.len(), 3, "{preview}");
    for request in requests {
        assert!(
            wire[..3].contains(request),
            "{request:?} not among the first on the wire {wire:?}"
        );
        let Request::Query(input) = request else {
            panic!("{request:?}")
        };
        let values = format!("{:?}", input.expression_attribute_values());
        assert!(
            values.contains("DEALS#d1#"),
            "the first day's shards: {values}"
        );
    }
}

#[tokio::test]
async fn a_preview_fails_as_send_would_before_sending() {
    let db = crate::offline(&crate::fresh_db::<App>("a_preview_fails_as_send_would").await);
    let both = db.query(Score::partition("chess")).limit(3).first(5);
    assert!(matches!(both.preview(), Err(Error::Unsupported { .. })));
    assert!(matches!(both.send().await, Err(Error::Unsupported { .. })));

    let mut too_many = db.transaction();
    for i in 0..101 {
        too_many = too_many.put(&score("g", i, "u"));
    }
    assert!(matches!(
        too_many.preview(),
        Err(Error::TooManyActions { .. })
    ));
    let twice = db
        .transaction()
        .put(&score("g", 1, "u"))
        .delete(Score::key("g", 1, "u"));
    assert!(matches!(
        twice.preview(),
        Err(Error::DuplicateTransactionItem { .. })
    ));
    let repeated = db
        .batch_write()
        .put(&score("g", 1, "u"))
        .put(&score("g", 1, "u"));
    assert!(matches!(
        repeated.preview(),
        Err(Error::DuplicateKey { .. })
    ));
    assert_eq!(db.transaction().preview().expect("empty").requests(), []);
}

#[tokio::test]
async fn a_preview_reads_as_text() {
    let db: Db<App> = crate::fresh_db::<App>("a_preview_reads_as_text").await;
    let text = db
        .query(Score::partition("chess"))
        .sk_ge((5i64,))
        .limit(10)
        .include_expired()
        .preview()
        .expect("preview")
        .to_string();
    for expected in [
        "Query on table `",
        "KeyConditionExpression: #n0 = :v0 AND ",
        "Limit: 11",
        "ScanIndexForward: true",
        "ExpressionAttributeNames:\n    #n0 = PK",
        r#":v0 = {"S":"GAME#chess"}"#,
    ] {
        assert!(text.contains(expected), "{expected:?} in:\n{text}");
    }
    let text = db
        .transaction()
        .create(&score("go", 1, "ann"))
        .delete(Score::key("go", 2, "bob"))
        .preview()
        .expect("preview")
        .to_string();
    assert!(
        text.starts_with("TransactWriteItems\n  action 0: Put on table `"),
        "{text}"
    );
    assert!(text.contains("\n  action 1: Delete on table `"), "{text}");
    assert!(text.contains(r#""user":{"S":"ann"}"#), "{text}");
}

#[tokio::test]
async fn debug_of_a_builder_keeps_its_cursor_to_itself() {
    let db = crate::fresh_db::<App>("debug_keeps_the_cursor").await;
    for user in ["ann", "bob"] {
        db.put(&score("chess", 10, user)).await.expect("put");
    }
    let page = db
        .query(Score::partition("chess"))
        .limit(1)
        .send()
        .await
        .expect("page");
    let cursor = page.cursor.expect("more follow");
    let query = db
        .query(Score::partition("chess"))
        .limit(1)
        .after(cursor.clone());
    let scan = db.scan::<Score>().after(cursor.clone());
    for debug in [format!("{query:?}"), format!("{scan:?}")] {
        assert!(!debug.contains(cursor.as_str()), "{debug}");
        assert!(debug.contains("after: Some(Cursor(<"), "{debug}");
    }
}
