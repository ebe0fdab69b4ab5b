//! Tables whose own key attributes are numbers or binaries, as other mappers write them
//! (the Java Enhanced Client's `userId` S / `timestamp` N), with primary keys mapped to
//! fields (`pk = field(user_id)`): every path that sends or reads a primary key (reads of
//! several partitions and maintenance jobs in `typed_primary_keys_jobs.rs`).

use dynamap::codec::AttributeValue;
use dynamap::key::{Binary, KeyErrorKind};
use dynamap::{Entity, Key, Table};

use crate::fresh_db;

/// A Java-Enhanced-Client-style table: string partition key, number sort key.
#[derive(Table)]
#[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
pub(crate) struct Events;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = field(timestamp))]
pub(crate) struct Event {
    #[dynamap(rename = "userId")]
    pub(crate) user_id: String,
    pub(crate) timestamp: i64,
    pub(crate) kind: String,
    pub(crate) count: u32,
}

/// A number partition key, and a template sort key.
#[derive(Table)]
#[dynamap(pk = "accountId", pk_type = "N", sk = "SK")]
pub(crate) struct Ledger;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Ledger, entity = "Entry", pk = field(account_id), sk = "TX#{seq}")]
pub(crate) struct Entry {
    #[dynamap(rename = "accountId")]
    account_id: u64,
    seq: u32,
    amount: i64,
}

/// A binary sort key.
#[derive(Table)]
#[dynamap(pk = "PK", sk = "digest", sk_type = "B")]
pub(crate) struct Blobs;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Blobs, entity = "Blob", pk = "BLOB#{owner}", sk = field(digest))]
pub(crate) struct Blob {
    owner: String,
    digest: Binary,
    size: u32,
}

pub(crate) fn event(user: &str, timestamp: i64) -> Event {
    Event {
        user_id: user.into(),
        timestamp,
        kind: "click".into(),
        count: 1,
    }
}

fn entry(account_id: u64, seq: u32) -> Entry {
    Entry {
        account_id,
        seq,
        amount: i64::from(seq) * 10,
    }
}

async fn raw_get<L: dynamap::Table>(
    db: &dynamap::Db<L>,
    key: [(&str, AttributeValue); 2],
) -> Option<dynamap::codec::Item> {
    let [(a, va), (b, vb)] = key;
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key(a, va)
        .key(b, vb)
        .consistent_read(true)
        .send()
        .await
        .expect("raw get")
        .item
}

#[tokio::test]
async fn tables_are_created_and_verified_with_their_key_types() {
    let client = crate::fresh_db::<Events>("typed_pk_create_client")
        .await
        .client()
        .clone();
    for (name, expected) in [
        (
            fresh_db::<Events>("typed_pk_create_events")
                .await
                .table_name()
                .to_owned(),
            [("timestamp", "N"), ("userId", "S")],
        ),
        (
            fresh_db::<Ledger>("typed_pk_create_ledger")
                .await
                .table_name()
                .to_owned(),
            [("SK", "S"), ("accountId", "N")],
        ),
    ] {
        let table = client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .expect("describe")
            .table
            .expect("table");
        let mut types: Vec<(String, String)> = table
            .attribute_definitions()
            .iter()
            .map(|d| {
                (
                    d.attribute_name().to_owned(),
                    d.attribute_type().as_str().to_owned(),
                )
            })
            .collect();
        types.sort();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(a, t)| ((*a).into(), (*t).into()))
            .collect();
        assert_eq!(types, expected);
    }
    let db = fresh_db::<Events>("typed_pk_verify").await;
    assert_eq!(db.verify_table().await.expect("verify"), []);
    // The same table declared with a string sort key drifts.
    #[derive(Table)]
    #[dynamap(pk = "userId", sk = "timestamp")]
    struct StringTimestamps;
    let drift = db
        .with_layout::<StringTimestamps>()
        .verify_table()
        .await
        .expect("verify");
    assert_eq!(drift.len(), 1, "{drift:?}");
}

#[tokio::test]
async fn single_item_paths_carry_the_typed_key() {
    let db = fresh_db::<Events>("typed_pk_items").await;
    let first = event("u1", 1_700_000_000_000);
    db.put(&first).await.expect("put");
    // Stored once, under the key attributes, with their types.
    let raw = raw_get(
        &db,
        [
            ("userId", AttributeValue::S("u1".into())),
            ("timestamp", AttributeValue::N("1700000000000".into())),
        ],
    )
    .await
    .expect("stored");
    assert!(!raw.contains_key("user_id"));
    assert_eq!(
        raw.len(),
        5,
        "userId, timestamp, _type, kind, count: {raw:?}"
    );

    let key = Event::key("u1", 1_700_000_000_000i64);
    assert_eq!(db.get(key.clone()).await.expect("get"), Some(first.clone()));
    db.create(&first)
        .await
        .expect_err("create refuses an existing key");
    db.create(&event("u1", 1_700_000_000_001))
        .await
        .expect("create");

    // Updates, with a condition and returning the item; the key stays as it is.
    let updated = db
        .update(key.clone())
        .increment(Event::COUNT, 2u32)
        .condition(Event::KIND.eq("click"))
        .returning_new()
        .await
        .expect("update");
    assert_eq!((updated.count, updated.timestamp), (3, 1_700_000_000_000));
    // An update that creates its item writes it as a put would.
    db.update(Event::key("u1", 5i64))
        .set(Event::KIND, "view")
        .set(Event::COUNT, 7u32)
        .create_if_missing()
        .send()
        .await
        .expect("update creates");
    let created = db.get(Event::key("u1", 5i64)).await.expect("get");
    assert_eq!(
        created,
        Some(Event {
            kind: "view".into(),
            count: 7,
            ..event("u1", 5)
        })
    );
    // A key attribute cannot be updated.
    db.update(key.clone())
        .set(Event::TIMESTAMP, 1i64)
        .send()
        .await
        .expect_err("a key attribute is not updated");

    db.delete(key.clone())
        .condition(Event::KIND.eq("view"))
        .await
        .expect_err("condition fails");
    db.delete(key.clone()).await.expect("delete");
    assert_eq!(db.get(key).await.expect("get"), None);
}

#[tokio::test]
async fn number_sort_key_ranges_order_and_cursors() {
    let db = fresh_db::<Events>("typed_pk_queries").await;
    // 9 sorts after 10 as text, never as a number; negative numbers first.
    let stamps = [9i64, 10, 100, -5, 1_000, 2, 55];
    for stamp in stamps {
        db.put(&event("u1", stamp)).await.expect("put");
    }
    db.put(&event("u2", 1)).await.expect("other partition");
    let stamps_of =
        |events: Vec<Event>| events.into_iter().map(|e| e.timestamp).collect::<Vec<_>>();
    let all = db.query(Event::partition("u1")).all().await.expect("all");
    assert_eq!(stamps_of(all), [-5, 2, 9, 10, 55, 100, 1_000]);
    let q = || db.query(Event::partition("u1"));
    assert_eq!(stamps_of(q().sk_eq(10i64).all().await.expect("eq")), [10]);
    assert_eq!(
        stamps_of(q().sk_lt(10i64).all().await.expect("lt")),
        [-5, 2, 9]
    );
    assert_eq!(
        stamps_of(q().sk_le(10i64).all().await.expect("le")),
        [-5, 2, 9, 10]
    );
    assert_eq!(
        stamps_of(q().sk_gt(55i64).all().await.expect("gt")),
        [100, 1_000]
    );
    assert_eq!(
        stamps_of(q().sk_ge(55i64).all().await.expect("ge")),
        [55, 100, 1_000]
    );
    assert_eq!(
        stamps_of(q().sk_between(2i64, 55i64).all().await.expect("between")),
        [2, 9, 10, 55]
    );
    assert_eq!(
        stamps_of(q().descending().limit(2).all().await.expect("last two")),
        [1_000, 100]
    );
    let err = q()
        .sk_prefix(1i64)
        .all()
        .await
        .expect_err("a number has no prefix");
    assert!(err.to_string().contains("no prefix"), "{err}");

    // Pages of two, each resumed from the cursor of the one before.
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let mut query = q().limit(2);
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor);
        }
        let page = query.send().await.expect("page");
        seen.extend(page.items.iter().map(|e| e.timestamp));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, [-5, 2, 9, 10, 55, 100, 1_000]);
    // Descending, from a range, across pages.
    let first = q()
        .sk_ge(9i64)
        .descending()
        .limit(3)
        .send()
        .await
        .expect("page");
    assert_eq!(stamps_of(first.items), [1_000, 100, 55]);
    let rest = q()
        .sk_ge(9i64)
        .descending()
        .limit(3)
        .after(first.cursor.expect("more"))
        .all()
        .await
        .expect("rest");
    assert_eq!(stamps_of(rest), [10, 9]);
}

#[tokio::test]
async fn number_partition_key_items_queries_and_parse_back() {
    let db = fresh_db::<Ledger>("typed_pk_ledger").await;
    for seq in [3u32, 1, 2] {
        db.put(&entry(42, seq)).await.expect("put");
    }
    db.put(&entry(7, 1)).await.expect("other account");
    let raw = raw_get(
        &db,
        [
            ("accountId", AttributeValue::N("42".into())),
            ("SK", AttributeValue::S("TX#0000000001".into())),
        ],
    )
    .await
    .expect("stored");
    assert_eq!(raw["amount"], AttributeValue::N("10".into()));
    assert_eq!(
        db.get(Entry::key(42u64, 1u32)).await.expect("get"),
        Some(entry(42, 1))
    );
    let seqs = |entries: Vec<Entry>| entries.into_iter().map(|e| e.seq).collect::<Vec<_>>();
    let all = db
        .query(Entry::partition(42u64))
        .all()
        .await
        .expect("query");
    assert_eq!(seqs(all), [1, 2, 3]);
    let later = db
        .query(Entry::partition(42u64))
        .sk_gt((1u32,))
        .all()
        .await
        .expect("range on the template");
    assert_eq!(seqs(later), [2, 3]);
    // parse_key takes a number key as its decimal text.
    assert_eq!(
        Entry::parse_key("42", Some("TX#0000000002")).expect("parse"),
        (42, 2)
    );
    assert!(Entry::parse_key("forty-two", Some("TX#0000000002")).is_err());
    // A scan decodes the items, key fields included.
    let mut scanned = db.scan::<Entry>().all().await.expect("scan");
    scanned.sort_by_key(|e| (e.account_id, e.seq));
    assert_eq!(scanned.len(), 4);
    assert_eq!(scanned[0], entry(7, 1));
}

#[tokio::test]
async fn binary_sort_keys() {
    let db = fresh_db::<Blobs>("typed_pk_binary").await;
    let blob = |digest: &[u8]| Blob {
        owner: "ann".into(),
        digest: Binary(digest.to_vec()),
        size: 3,
    };
    for digest in [&[2u8, 0][..], &[1, 255], &[1, 0]] {
        db.put(&blob(digest)).await.expect("put");
    }
    let got = db
        .get(Blob::key("ann", Binary(vec![1, 255])))
        .await
        .expect("get");
    assert_eq!(got, Some(blob(&[1, 255])));
    let all = db.query(Blob::partition("ann")).all().await.expect("query");
    let digests: Vec<Vec<u8>> = all.into_iter().map(|b| b.digest.0).collect();
    assert_eq!(digests, [vec![1, 0], vec![1, 255], vec![2, 0]]);
    let eq = db
        .query(Blob::partition("ann"))
        .sk_eq(&[1u8, 255][..])
        .all()
        .await
        .expect("eq");
    assert_eq!(eq, [blob(&[1, 255])]);
    // parse_key and the report's text form of a binary key: base64.
    let (owner, digest) = Blob::parse_key("BLOB#ann", Some("Af8=")).expect("parse");
    assert_eq!((owner.as_str(), digest.0), ("ann", vec![1, 255]));
    db.delete(Blob::key("ann", Binary(vec![1, 255])))
        .await
        .expect("delete");
    assert_eq!(
        db.query(Blob::partition("ann"))
            .count()
            .await
            .expect("count"),
        2
    );
}

#[tokio::test]
async fn batches_carry_typed_keys() {
    let db = fresh_db::<Events>("typed_pk_batches").await;
    let events: Vec<Event> = (0..30).map(|i| event("u1", i * 1_000)).collect();
    let report = db.put_all(&events).await.expect("batch put");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let keys = [0i64, 29_000, 5_000, 0, 999]
        .into_iter()
        .map(|stamp| Event::key("u1", stamp));
    let got = db.batch_get(keys).consistent().await.expect("batch get");
    let stamps: Vec<Option<i64>> = got
        .items
        .iter()
        .map(|e| e.as_ref().map(|e| e.timestamp))
        .collect();
    assert_eq!(stamps, [Some(0), Some(29_000), Some(5_000), Some(0), None]);
    let mut batch = db.batch_write();
    for stamp in [0i64, 1_000, 2_000] {
        batch = batch.delete(Event::key("u1", stamp));
    }
    let report = batch.send().await.expect("batch delete");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(
        db.query(Event::partition("u1"))
            .count()
            .await
            .expect("count"),
        27
    );

    // An item refused before sending is reported under its typed key.
    let too_big = Event {
        kind: "x".repeat(410_000),
        ..event("u1", 77)
    };
    let report = db.put_all([too_big]).await.expect("reports");
    assert_eq!(report.failed.len(), 1);
    let key = report.failed[0].key.as_ref().expect("the key is named");
    assert_eq!((key.pk.as_str(), key.sk.as_deref()), ("u1", Some("77")));
    assert_eq!(key.sk_type, dynamap::ScalarType::Number);
    assert_eq!(
        key.attribute_values().1,
        Some(AttributeValue::N("77".into()))
    );
}

#[tokio::test]
async fn transactions_carry_typed_keys() {
    let db = fresh_db::<Events>("typed_pk_transactions").await;
    db.put(&event("u1", 1)).await.expect("put");
    db.put(&event("u1", 2)).await.expect("put");
    db.put(&event("u1", 5)).await.expect("put");
    db.transaction()
        .put(db.create(&event("u1", 3)))
        .update(
            db.update(Event::key("u1", 1i64))
                .increment(Event::COUNT, 1u32),
        )
        .delete(Event::key("u1", 2i64))
        .check(Event::key("u1", 5i64), Event::KIND.eq("click"))
        .send()
        .await
        .expect("transaction");
    // One item twice is refused before sending, told apart by its typed key.
    let err = db
        .transaction()
        .delete(Event::key("u1", 5i64))
        .check(Event::key("u1", 5i64), Event::KIND.eq("click"))
        .send()
        .await
        .expect_err("one item twice");
    assert!(
        matches!(err, dynamap::Error::DuplicateTransactionItem { .. }),
        "{err}"
    );
    let mut read = db.transact_get();
    let one = read.get(Event::key("u1", 1i64));
    let two = read.get(Event::key("u1", 2i64));
    let three = read.get(Event::key("u1", 3i64));
    let results = read.send().await.expect("read");
    assert_eq!(results.get(one).expect("decoded").map(|e| e.count), Some(2));
    assert_eq!(results.get(two).expect("decoded"), None);
    assert_eq!(results.get(three).expect("decoded"), Some(event("u1", 3)));
    let err = db
        .transaction()
        .check(Event::key("u1", 3i64), Event::KIND.eq("view"))
        .put(db.put(&event("u1", 4)))
        .send()
        .await
        .expect_err("the check fails");
    assert!(
        err.is_conditional_check_failed() || err.to_string().contains("cancel"),
        "{err}"
    );
}

#[tokio::test]
async fn raw_keys_are_checked_against_the_table_key_types() {
    let key = Key::<Event>::from_raw_values(
        AttributeValue::S("u1".into()),
        Some(AttributeValue::N("17".into())),
    );
    assert_eq!(key, Event::key("u1", 17i64));
    let wrong = Key::<Event>::from_raw("u1", Some("17"));
    let err = wrong
        .attribute_values()
        .expect_err("a string for a number key");
    assert_eq!(err.attribute, "timestamp");
    assert!(matches!(
        err.kind,
        KeyErrorKind::WrongType {
            expected: "N",
            found: "S"
        }
    ));
    let not_a_number = Key::<Event>::from_raw_values(
        AttributeValue::S("u1".into()),
        Some(AttributeValue::N("seventeen".into())),
    );
    assert!(not_a_number.attribute_values().is_err());
    // `values()` is for string keys; a number key says so.
    let err = Event::key("u1", 17i64)
        .values()
        .expect_err("not a string key");
    assert!(matches!(
        err.kind,
        KeyErrorKind::WrongType {
            expected: "S",
            found: "N"
        }
    ));
    let (pk, sk) = Event::key("u1", 17i64)
        .into_attribute_values()
        .expect("values");
    assert_eq!(
        (pk.as_s().ok(), sk.as_ref().and_then(|s| s.as_n().ok())),
        (Some(&"u1".to_owned()), Some(&"17".to_owned()))
    );
    // A raw key reaches the item.
    let db = fresh_db::<Events>("typed_pk_raw").await;
    db.put(&event("u1", 17)).await.expect("put");
    assert_eq!(db.get(key).await.expect("get"), Some(event("u1", 17)));
    let err = db.get(wrong).await.expect_err("refused before sending");
    assert!(err.to_string().contains("type N"), "{err}");
    // An item that does not decode is named by its typed key.
    let mut broken = dynamap::codec::Item::new();
    broken.insert("userId".into(), AttributeValue::S("u1".into()));
    broken.insert("timestamp".into(), AttributeValue::N("18".into()));
    broken.insert("_type".into(), AttributeValue::S("Event".into()));
    broken.insert("kind".into(), AttributeValue::N("1".into()));
    broken.insert("count".into(), AttributeValue::N("1".into()));
    crate::put_raw(&db, broken).await;
    let err = db
        .get(Event::key("u1", 18i64))
        .await
        .expect_err("kind is no string");
    let key = err.item_key().expect("the item is named");
    assert_eq!((key.pk.as_str(), key.sk.as_deref()), ("u1", Some("18")));
}
