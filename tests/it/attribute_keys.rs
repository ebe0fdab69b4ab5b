//! Index keys that are a field's own attribute (seed 001's GameTitle / TopScore): a number
//! sort key kept right by atomic increments, string and binary partition keys, typed
//! conditions, and the attribute types `create_table` declares.

use dynamap::key::Binary;
use dynamap::{Entity, Table};

use crate::fresh_db;

// Two indexes share the `score` attribute: the second names it in the list form, which
// clippy's `duplicated_attributes` does not mistake for a repeat of the first.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "Leaderboard", pk = "GSI1PK", sk = "score", sk_type = "N"),
    index(name = "ByGame", pk = "game", sk("score"), sk_type("N")),
    index(name = "ByDigest", pk = "digest", pk_type = "B")
)]
pub(crate) struct Arcade;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Arcade, entity = "Score", pk = "PLAYER#{user_id}", sk = "GAME#{game}",
          index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score)),
          index(name = "ByGame", pk = field(game), sk = field(score)))]
pub(crate) struct Score {
    pub(crate) user_id: String,
    pub(crate) game: String,
    pub(crate) score: u64,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Arcade, entity = "Upload", pk = "UPLOAD#{id}", sk = "UPLOAD",
          index(name = "ByDigest", pk = field(digest)))]
pub(crate) struct Upload {
    id: String,
    digest: Option<Binary>,
}

fn score(user: u32, points: u64) -> Score {
    Score {
        user_id: format!("u{user:02}"),
        game: "Meteor Blasters".into(),
        score: points,
    }
}

#[tokio::test]
async fn create_table_declares_each_key_attribute_with_its_type() {
    let db = fresh_db::<Arcade>("attr_keys_types").await;
    let table = db
        .client()
        .describe_table()
        .table_name(db.table_name())
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
    let expected = [
        ("GSI1PK", "S"),
        ("PK", "S"),
        ("SK", "S"),
        ("digest", "B"),
        ("game", "S"),
        ("score", "N"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(a, t)| ((*a).to_owned(), (*t).to_owned()))
        .collect();
    assert_eq!(types, expected);
}

#[tokio::test]
async fn a_number_sort_key_orders_and_filters_by_value() {
    let db = fresh_db::<Arcade>("attr_keys_numbers").await;
    // 9 sorts after 10 as text, never as a number.
    for (user, points) in [(1, 9), (2, 10), (3, 1_000), (4, 250), (5, 99_999)] {
        db.put(&score(user, points)).await.expect("put");
    }
    let raw = crate::raw_item(&db, "PLAYER#u01", "GAME#Meteor%20Blasters")
        .await
        .expect("stored");
    assert_eq!(raw["score"].as_n().expect("a number attribute"), "9");
    assert_eq!(raw["GSI1PK"].as_s().expect("S"), "GAME#Meteor%20Blasters");

    let points = |scores: Vec<Score>| scores.into_iter().map(|s| s.score).collect::<Vec<_>>();
    let top = db
        .query(Score::leaderboard("Meteor Blasters"))
        .descending()
        .limit(3)
        .all()
        .await
        .expect("top 3");
    assert_eq!(points(top), [99_999, 1_000, 250]);
    // A page keeps the fields that are also key attributes (`game`, `score`).
    let page = db
        .query(Score::by_game("Meteor Blasters"))
        .last(2)
        .send()
        .await
        .expect("page");
    assert_eq!(points(page.items), [99_999, 1_000]);
    let at_least = db
        .query(Score::leaderboard("Meteor Blasters"))
        .sk_ge(250u64)
        .all()
        .await
        .expect("ge");
    assert_eq!(points(at_least), [250, 1_000, 99_999]);
    let between = db
        .query(Score::by_game("Meteor Blasters"))
        .sk_between(10u64, 1_000u64)
        .all()
        .await
        .expect("between");
    assert_eq!(points(between), [10, 250, 1_000]);
    let below = db
        .query(Score::by_game("Meteor Blasters"))
        .sk_lt(10u64)
        .count()
        .await
        .expect("lt");
    assert_eq!(below, 1);
    let err = db
        .query(Score::leaderboard("Meteor Blasters"))
        .sk_prefix(1u64)
        .all()
        .await
        .expect_err("a number has no prefix");
    assert!(err.to_string().contains("no prefix"), "{err}");
}

#[tokio::test]
async fn concurrent_atomic_increments_keep_the_leaderboard_right() {
    let db = fresh_db::<Arcade>("attr_keys_increments").await;
    for user in 0..10 {
        db.put(&score(user, u64::from(user) * 100))
            .await
            .expect("put");
    }
    // 50 concurrent increments of 30 on player 0, one UpdateItem each: no read, no lost
    // update, and the index follows (player 0 goes from last to first).
    let tasks = (0..50).map(|_| {
        let db = db.clone();
        tokio::spawn(async move {
            db.update(Score::key("u00", "Meteor Blasters"))
                .increment(Score::SCORE, 30u64)
                .await
        })
    });
    for task in tasks {
        task.await.expect("joined").expect("increment");
    }
    let top = db
        .query(Score::leaderboard("Meteor Blasters"))
        .descending()
        .limit(3)
        .all()
        .await
        .expect("top");
    let top: Vec<(String, u64)> = top.into_iter().map(|s| (s.user_id, s.score)).collect();
    assert_eq!(
        top,
        [
            ("u00".to_owned(), 1_500),
            ("u09".to_owned(), 900),
            ("u08".to_owned(), 800)
        ]
    );
    let first = db
        .query(Score::by_game("Meteor Blasters"))
        .sk_eq(1_500u64)
        .all()
        .await
        .expect("eq");
    assert_eq!(first, vec![score(0, 1_500)]);
}

#[tokio::test]
async fn binary_and_string_partition_keys_and_bad_values() {
    let db = fresh_db::<Arcade>("attr_keys_binary").await;
    let upload = Upload {
        id: "a".into(),
        digest: Some(Binary(vec![0xde, 0xad])),
    };
    db.put(&upload).await.expect("put");
    db.put(&Upload {
        id: "b".into(),
        digest: None,
    })
    .await
    .expect("put without digest");
    let found = db
        .query(Upload::by_digest(Binary(vec![0xde, 0xad])))
        .all()
        .await
        .expect("query");
    assert_eq!(found, vec![upload]);
    let found = db
        .query(Upload::by_digest(&[0xde_u8, 0xad][..]))
        .count()
        .await
        .expect("query by slice");
    assert_eq!(found, 1);

    // An empty binary or string key value is refused before sending, naming the field.
    let err = db
        .put(&Upload {
            id: "c".into(),
            digest: Some(Binary(Vec::new())),
        })
        .await
        .expect_err("empty binary key");
    assert!(err.to_string().contains("digest"), "{err}");
    let err = db
        .query(Score::by_game(""))
        .all()
        .await
        .expect_err("empty partition");
    assert!(matches!(err, dynamap::Error::Key(_)), "{err:?}");
}
