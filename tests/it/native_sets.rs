//! Native DynamoDB sets: `HashSet`/`BTreeSet` fields of strings, numbers and binaries are
//! stored as `SS`/`NS`/`BS` on every write path, an empty set is left out and reads back
//! empty, lists written by earlier versions still read, `add_to_set`/`remove_from_set` and a
//! peer service's `ADD` work on them, `contains` filters and conditions, and
//! `#[dynamap(list)]` keeps a list.

use std::collections::{BTreeSet, HashMap, HashSet};

use dynamap::codec::AttributeValue::{self, B, L, M, N, S};
use dynamap::key::Binary;
use dynamap::{Attribute, Entity, EntityProjection, Error, Table};

use crate::{fresh_db, offline, put_raw, raw_item};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

/// A nested type: its sets are native too.
#[derive(Attribute, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Default)]
struct Profile {
    nicknames: BTreeSet<String>,
}

#[derive(Entity, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
struct Post {
    id: String,
    tags: BTreeSet<String>,
    readers: HashSet<u64>,
    scores: BTreeSet<i32>,
    blobs: BTreeSet<Binary>,
    aliases: Option<BTreeSet<String>>,
    #[dynamap(list)]
    legacy: BTreeSet<String>,
    profile: Profile,
}

#[derive(EntityProjection, Debug, PartialEq)]
#[dynamap(entity = Post)]
struct PostTags {
    id: String,
    tags: BTreeSet<String>,
    readers: HashSet<u64>,
}

/// An aggregate created by the first `add_to_set`.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Followers", pk = "USER#{user}", sk = "FOLLOWERS")]
struct Followers {
    user: String,
    ids: BTreeSet<String>,
    count: u64,
}

fn strings(values: &[&str]) -> BTreeSet<String> {
    values.iter().map(|v| (*v).to_owned()).collect()
}

fn post(id: &str) -> Post {
    Post {
        id: id.to_owned(),
        tags: strings(&["rust", "dynamodb"]),
        readers: HashSet::from([1, 2]),
        scores: BTreeSet::from([-5, 7]),
        blobs: BTreeSet::from([Binary(vec![0, 1]), Binary(vec![])]),
        aliases: Some(strings(&["p"])),
        legacy: strings(&["old"]),
        profile: Profile {
            nicknames: strings(&["ada"]),
        },
    }
}

fn empty_post(id: &str) -> Post {
    Post {
        id: id.to_owned(),
        tags: BTreeSet::new(),
        readers: HashSet::new(),
        scores: BTreeSet::new(),
        blobs: BTreeSet::new(),
        aliases: None,
        legacy: BTreeSet::new(),
        profile: Profile::default(),
    }
}

fn sorted(mut values: Vec<String>) -> Vec<String> {
    values.sort();
    values
}

/// The stored item holds native sets of the right types (and a list for `legacy`).
fn assert_native(item: &HashMap<String, AttributeValue>) {
    let ss = |name: &str| sorted(item[name].as_ss().expect("SS").clone());
    assert_eq!(ss("tags"), ["dynamodb", "rust"]);
    assert_eq!(
        sorted(item["readers"].as_ns().expect("NS").clone()),
        ["1", "2"]
    );
    assert_eq!(
        sorted(item["scores"].as_ns().expect("NS").clone()),
        ["-5", "7"]
    );
    let mut blobs: Vec<Vec<u8>> = item["blobs"]
        .as_bs()
        .expect("BS")
        .iter()
        .map(|b| b.as_ref().to_vec())
        .collect();
    blobs.sort();
    assert_eq!(blobs, [vec![], vec![0, 1]]);
    assert_eq!(ss("aliases"), ["p"]);
    assert_eq!(item["legacy"], L(vec![S("old".into())]));
    let profile = item["profile"].as_m().expect("M");
    assert_eq!(profile["nicknames"].as_ss().expect("SS"), &["ada"]);
}

#[tokio::test]
async fn every_write_path_stores_native_sets() {
    let db = fresh_db::<App>("sets_write_paths").await;
    db.put(&post("put")).await.expect("put");
    let report = db
        .batch_write()
        .put(&post("batch"))
        .await
        .expect("batch runs");
    assert_eq!(report.written, 1, "{report:?}");
    db.transaction()
        .put(&post("tx"))
        .send()
        .await
        .expect("transaction");
    db.upsert(&post("upsert")).await.expect("upsert");
    for id in ["put", "batch", "tx", "upsert"] {
        let item = raw_item(&db, &format!("POST#{id}"), "POST")
            .await
            .expect("stored");
        assert_native(&item);
        let read = db.get(Post::key(id)).await.expect("reads").expect("there");
        assert_eq!(read, post(id), "{id}");
    }
}

#[tokio::test]
async fn an_empty_set_is_left_out_and_reads_back_empty() {
    let db = fresh_db::<App>("sets_empty").await;
    let mut empty = empty_post("e");
    // `Some` of an empty set is left out too, and reads back as `None`.
    empty.aliases = Some(BTreeSet::new());
    db.put(&empty).await.expect("DynamoDB accepts it");
    let item = raw_item(&db, "POST#e", "POST").await.expect("stored");
    for absent in ["tags", "readers", "scores", "blobs", "aliases"] {
        assert!(!item.contains_key(absent), "{absent}: {item:?}");
    }
    assert_eq!(item["legacy"], L(vec![]), "a list keeps its empty list");
    assert_eq!(
        item["profile"],
        M(HashMap::new()),
        "the empty nested set is left out"
    );
    let read = db.get(Post::key("e")).await.expect("reads").expect("there");
    assert_eq!(read, empty_post("e"));
    let projected: Vec<PostTags> = db
        .query(Post::partition("e"))
        .consistent()
        .project_as::<PostTags>()
        .all()
        .await
        .expect("projects");
    assert_eq!(
        projected,
        [PostTags {
            id: "e".into(),
            tags: BTreeSet::new(),
            readers: HashSet::new()
        }]
    );
}

#[tokio::test]
async fn items_stored_with_lists_by_earlier_versions_still_read() {
    let db = fresh_db::<App>("sets_old_lists").await;
    let list = |values: Vec<AttributeValue>| L(values);
    put_raw(
        &db,
        HashMap::from([
            ("PK".to_owned(), S("POST#old".into())),
            ("SK".to_owned(), S("POST".into())),
            ("_type".to_owned(), S("Post".into())),
            ("id".to_owned(), S("old".into())),
            (
                "tags".to_owned(),
                list(vec![S("rust".into()), S("dynamodb".into())]),
            ),
            (
                "readers".to_owned(),
                list(vec![N("1".into()), N("2".into())]),
            ),
            (
                "scores".to_owned(),
                list(vec![N("-5".into()), N("7".into())]),
            ),
            (
                "blobs".to_owned(),
                list(vec![B(vec![0, 1].into()), B(vec![].into())]),
            ),
            ("aliases".to_owned(), list(vec![S("p".into())])),
            ("legacy".to_owned(), list(vec![S("old".into())])),
            (
                "profile".to_owned(),
                M(HashMap::from([(
                    "nicknames".to_owned(),
                    list(vec![S("ada".into())]),
                )])),
            ),
        ]),
    )
    .await;
    let read = db
        .get(Post::key("old"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(read, post("old"));
    let projected: Vec<PostTags> = db
        .query(Post::partition("old"))
        .consistent()
        .project_as::<PostTags>()
        .all()
        .await
        .expect("projects");
    assert_eq!(projected[0].tags, strings(&["rust", "dynamodb"]));
}

#[tokio::test]
async fn a_set_attribute_holding_garbage_is_a_typed_error() {
    let db = fresh_db::<App>("sets_garbage").await;
    db.put(&post("g")).await.expect("put");
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", S("POST#g".into()))
        .key("SK", S("POST".into()))
        .update_expression("SET #r = :v")
        .expression_attribute_names("#r", "readers")
        .expression_attribute_values(":v", AttributeValue::Ss(vec!["x".into()]))
        .send()
        .await
        .expect("raw update");
    match db.get(Post::key("g")).await {
        Err(Error::InvalidAttribute { attribute, .. }) => assert_eq!(attribute, "readers"),
        other => panic!("expected an invalid attribute, got {other:?}"),
    }
}

#[tokio::test]
async fn add_to_set_and_remove_from_set_round_trip() {
    let db = fresh_db::<App>("sets_add_remove").await;
    db.put(&empty_post("a")).await.expect("put");
    db.update(Post::key("a"))
        .add_to_set(Post::TAGS, ["rust", "sets"])
        .add_to_set(Post::READERS, [7u64, 8])
        .add_to_set(Post::SCORES, [-1])
        .add_to_set(Post::BLOBS, [Binary(vec![9])])
        .add_to_set(Post::ALIASES, ["x"])
        .await
        .expect("adds");
    let read = db.get(Post::key("a")).await.expect("reads").expect("there");
    assert_eq!(read.tags, strings(&["rust", "sets"]));
    assert_eq!(read.readers, HashSet::from([7, 8]));
    assert_eq!(read.scores, BTreeSet::from([-1]));
    assert_eq!(read.blobs, BTreeSet::from([Binary(vec![9])]));
    assert_eq!(read.aliases, Some(strings(&["x"])));

    let after: Post = db
        .update(Post::key("a"))
        .remove_from_set(Post::TAGS, ["sets"])
        .remove_from_set(Post::READERS, [7u64, 8])
        .remove_from_set(Post::BLOBS, [Binary(vec![9])])
        // Adding nothing is a no-op.
        .add_to_set(Post::SCORES, Vec::<i32>::new())
        .returning_new()
        .await
        .expect("removes");
    assert_eq!(after.tags, strings(&["rust"]));
    assert_eq!(after.readers, HashSet::new(), "the last element removed");
    assert_eq!(after.blobs, BTreeSet::new());
    let item = raw_item(&db, "POST#a", "POST").await.expect("stored");
    assert!(
        !item.contains_key("readers"),
        "DynamoDB removes an emptied set"
    );
    assert_eq!(item["tags"].as_ss().expect("SS"), &["rust"]);
}

#[tokio::test]
async fn an_update_with_only_empty_additions_is_refused_before_sending() {
    let db = fresh_db::<App>("sets_add_nothing").await;
    let error = offline(&db)
        .update(Post::key("a"))
        .add_to_set(Post::TAGS, Vec::<String>::new())
        .await
        .expect_err("nothing to do");
    assert!(
        matches!(&error, Error::Unsupported { reason, .. } if reason.contains("at least one change")),
        "{error:?}"
    );
}

#[tokio::test]
async fn add_to_set_on_a_list_field_is_refused_before_sending() {
    let db = fresh_db::<App>("sets_add_to_list").await;
    let error = offline(&db)
        .update(Post::key("a"))
        .add_to_set(Post::LEGACY, ["x"])
        .await
        .expect_err("refused");
    assert!(
        matches!(&error, Error::InvalidExpression { part: dynamap::ExpressionPart::Update, reason, .. } if reason.contains("`legacy` is stored as a list")),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_peer_services_add_works_on_a_set_dynamap_wrote() {
    let db = fresh_db::<App>("sets_peer_add").await;
    db.put(&post("p")).await.expect("put");
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key("PK", S("POST#p".into()))
        .key("SK", S("POST".into()))
        .update_expression("ADD #t :t, #r :r")
        .expression_attribute_names("#t", "tags")
        .expression_attribute_names("#r", "readers")
        .expression_attribute_values(":t", AttributeValue::Ss(vec!["peer".into()]))
        .expression_attribute_values(":r", AttributeValue::Ns(vec!["3".into()]))
        .send()
        .await
        .expect("a peer's ADD succeeds on a native set");
    let read = db.get(Post::key("p")).await.expect("reads").expect("there");
    assert_eq!(read.tags, strings(&["rust", "dynamodb", "peer"]));
    assert_eq!(read.readers, HashSet::from([1, 2, 3]));
}

#[tokio::test]
async fn setting_a_whole_set_writes_a_set_and_an_empty_one_removes_it() {
    let db = fresh_db::<App>("sets_update_set").await;
    db.put(&empty_post("s")).await.expect("put");
    db.update(Post::key("s"))
        .set(Post::TAGS, strings(&["a", "b"]))
        .set(Post::READERS, HashSet::from([4u64]))
        .set(Post::LEGACY, strings(&["l"]))
        .await
        .expect("sets");
    let item = raw_item(&db, "POST#s", "POST").await.expect("stored");
    assert_eq!(
        sorted(item["tags"].as_ss().expect("SS").clone()),
        ["a", "b"]
    );
    assert_eq!(item["readers"].as_ns().expect("NS"), &["4"]);
    assert_eq!(
        item["legacy"],
        L(vec![S("l".into())]),
        "`list` keeps a list"
    );

    db.update(Post::key("s"))
        .set(Post::TAGS, BTreeSet::new())
        .set(Post::ALIASES, BTreeSet::new())
        .set_if_not_exists(Post::SCORES, BTreeSet::new())
        .await
        .expect("an empty set removes the attribute");
    let item = raw_item(&db, "POST#s", "POST").await.expect("stored");
    assert!(!item.contains_key("tags"), "{item:?}");
    assert!(!item.contains_key("scores"), "{item:?}");
    let read = db.get(Post::key("s")).await.expect("reads").expect("there");
    assert_eq!(read.tags, BTreeSet::new());
    assert_eq!(read.aliases, None);
    assert_eq!(read.readers, HashSet::from([4]));
}

#[tokio::test]
async fn add_to_set_creates_a_missing_item_with_the_set() {
    let db = fresh_db::<App>("sets_create").await;
    for id in ["f1", "f2", "f1"] {
        db.update(Followers::key("ada"))
            .add_to_set(Followers::IDS, [id])
            .increment(Followers::COUNT, 1u64)
            .create_if_missing()
            .await
            .expect("creates, then updates");
    }
    let item = raw_item(&db, "USER#ada", "FOLLOWERS")
        .await
        .expect("created");
    assert_eq!(
        sorted(item["ids"].as_ss().expect("SS").clone()),
        ["f1", "f2"]
    );
    let read = db
        .get(Followers::key("ada"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(
        read,
        Followers {
            user: "ada".into(),
            ids: strings(&["f1", "f2"]),
            count: 3
        }
    );
    // A set is not required of an update that creates: a missing one reads as empty.
    db.update(Followers::key("bob"))
        .increment(Followers::COUNT, 1u64)
        .create_if_missing()
        .await
        .expect("creates without the set");
    let bob = db
        .get(Followers::key("bob"))
        .await
        .expect("reads")
        .expect("there");
    assert_eq!(bob.ids, BTreeSet::new());
}

#[tokio::test]
async fn contains_filters_and_conditions_on_sets() {
    let db = fresh_db::<App>("sets_contains").await;
    db.put(&post("with")).await.expect("put");
    db.put(&empty_post("without")).await.expect("put");
    let found: Vec<Post> = db
        .scan::<Post>()
        .consistent()
        .filter(
            Post::TAGS
                .contains("rust")
                .and(Post::READERS.contains(2u64)),
        )
        .all()
        .await
        .expect("scans");
    assert_eq!(found, [post("with")]);
    let by_blob: Vec<Post> = db
        .scan::<Post>()
        .consistent()
        .filter(Post::BLOBS.contains(Binary(vec![0, 1])))
        .all()
        .await
        .expect("scans");
    assert_eq!(by_blob.len(), 1);

    db.update(Post::key("with"))
        .add_to_set(Post::TAGS, ["checked"])
        .condition(Post::SCORES.contains(7))
        .await
        .expect("the condition holds");
    let error = db
        .update(Post::key("without"))
        .add_to_set(Post::TAGS, ["checked"])
        .condition(Post::TAGS.contains("rust"))
        .await
        .expect_err("the condition fails");
    assert!(error.is_conditional_check_failed(), "{error:?}");
}

#[tokio::test]
async fn dynamodb_takes_empty_strings_and_binaries_inside_sets() {
    let db = fresh_db::<App>("sets_empty_elements").await;
    let mut with_empties = empty_post("x");
    with_empties.tags = strings(&["", "a"]);
    with_empties.blobs = BTreeSet::from([Binary(vec![])]);
    db.put(&with_empties)
        .await
        .expect("DynamoDB accepts empty elements");
    let read = db.get(Post::key("x")).await.expect("reads").expect("there");
    assert_eq!(read, with_empties);
}
