//! A query filter that names a key attribute of the table or index the query reads is
//! refused before sending (DynamoDB would answer with a `ValidationException`), saying to use
//! a key condition; the same attributes stay free to filter on in queries of other indexes.

use dynamap::expr::{Attr, Condition};
use dynamap::query::Query;
use dynamap::{Entity, Error, Table};

use crate::fresh_db;

/// Every kind of key: the table's, a template index, a multi-attribute index, an index on
/// fields' own attributes and a local index on one.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(
        name = "ByStatus",
        pk("owner", "repo"),
        sk("status", "number"),
        sk_type("S", "N")
    ),
    index(name = "ByScore", pk = "team", sk = "score", sk_type = "N"),
    local_index(name = "ByPriority", sk = "priority", sk_type = "N")
)]
struct Tracker;

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Tracker,
    entity = "Ticket",
    pk = "REPO#{owner}#{repo}",
    sk = "TICKET#{number}",
    index(name = "GSI1", pk = "ASSIGNEE#{assignee}", sk = "TICKET#{number}"),
    index(name = "ByStatus", pk = fields(owner, repo), sk = fields(status, number)),
    index(name = "ByScore", pk = field(team), sk = field(score)),
    local_index(name = "ByPriority", sk = field(priority))
)]
struct Ticket {
    owner: String,
    repo: String,
    number: u64,
    status: String,
    assignee: String,
    team: String,
    score: i64,
    priority: u32,
    title: String,
}

/// A filter on a raw attribute name: the table's key attributes and template indexes'
/// attributes have no field constant.
fn raw(name: &'static str) -> Condition<Ticket> {
    Attr::<Ticket, String>::new(name).exists()
}

/// Checks that `query` is refused before sending, naming `attribute` and the fix.
async fn refused<S>(query: Query<Ticket, S>, attribute: &str) {
    match query.send().await {
        Err(Error::InvalidExpression {
            part: dynamap::ExpressionPart::Filter,
            reason,
            ..
        }) => assert!(
            reason.contains(&format!("`{attribute}`")) && reason.contains("key condition"),
            "{attribute}: {reason}"
        ),
        other => panic!("a filter on `{attribute}` was not refused: {other:?}"),
    }
}

#[tokio::test]
async fn filters_on_the_queried_key_attributes_are_refused_before_sending() {
    let db = fresh_db::<Tracker>("key_filters_refused").await;
    // Any request this client sent would fail with a service error.
    let offline = crate::offline(&db);
    let table = || offline.query(Ticket::partition("octo", "hello"));
    refused(table().filter(raw("PK")), "PK").await;
    refused(table().filter(raw("SK")), "SK").await;

    let gsi1 = || offline.query(Ticket::gsi1("mona"));
    refused(gsi1().filter(raw("GSI1PK")), "GSI1PK").await;
    refused(gsi1().filter(raw("GSI1SK")), "GSI1SK").await;

    // Every attribute of a multi-attribute key, also inside combinators.
    let by_status = || offline.query(Ticket::by_status("octo", "hello"));
    refused(by_status().filter(Ticket::OWNER.eq("octo")), "owner").await;
    refused(by_status().filter(Ticket::REPO.eq("hello")), "repo").await;
    refused(by_status().filter(Ticket::STATUS.eq("OPEN")), "status").await;
    let nested = Ticket::TITLE.exists().and(!Ticket::NUMBER.gt(3u64));
    refused(by_status().filter(nested), "number").await;

    let by_score = || offline.query(Ticket::by_score("red"));
    refused(by_score().filter(Ticket::TEAM.eq("red")), "team").await;
    refused(by_score().filter(Ticket::SCORE.gt(10)), "score").await;

    // A local index: the table's partition key and the index's sort key.
    let by_priority = || offline.query(Ticket::by_priority("octo", "hello"));
    refused(by_priority().filter(raw("PK")), "PK").await;
    refused(by_priority().filter(Ticket::PRIORITY.ge(2u32)), "priority").await;
}

#[tokio::test]
async fn key_attributes_of_other_indexes_stay_free_to_filter_on() {
    let db = fresh_db::<Tracker>("key_filters_accepted").await;
    db.put(&Ticket {
        owner: "octo".into(),
        repo: "hello".into(),
        number: 7,
        status: "OPEN".into(),
        assignee: "mona".into(),
        team: "red".into(),
        score: 40,
        priority: 2,
        title: "crash".into(),
    })
    .await
    .expect("put");
    let found = |page: dynamap::Result<dynamap::query::Page<Ticket>>| {
        page.expect("DynamoDB accepts the filter").len()
    };
    let table = || db.query(Ticket::partition("octo", "hello"));
    let everything = Ticket::OWNER
        .eq("octo")
        .and(Ticket::STATUS.eq("OPEN"))
        .and(Ticket::TEAM.eq("red"))
        .and(Ticket::SCORE.gt(10))
        .and(Ticket::PRIORITY.eq(2u32))
        .and(raw("GSI1PK"));
    assert_eq!(found(table().filter(everything).send().await), 1);
    let gsi1 = db
        .query(Ticket::gsi1("mona"))
        .filter(raw("PK").and(raw("SK")));
    assert_eq!(found(gsi1.send().await), 1);
    let by_status = db
        .query(Ticket::by_status("octo", "hello"))
        .filter(Ticket::TITLE.eq("crash").and(Ticket::SCORE.gt(10)));
    assert_eq!(found(by_status.send().await), 1);
    let by_score = db
        .query(Ticket::by_score("red"))
        .filter(Ticket::NUMBER.eq(7u64).and(Ticket::OWNER.eq("octo")));
    assert_eq!(found(by_score.send().await), 1);
    // A local index's sort key replaces the table's: `SK` is an ordinary attribute there.
    let by_priority = db
        .query(Ticket::by_priority("octo", "hello"))
        .filter(raw("SK").and(Ticket::NUMBER.eq(7u64)));
    assert_eq!(found(by_priority.send().await), 1);
}

#[tokio::test]
async fn a_filter_that_does_not_render_names_the_filter() {
    let db = fresh_db::<Tracker>("key_filters_unrendered").await;
    // Any request this client sent would fail with a service error.
    let offline = crate::offline(&db);
    let none: [&str; 0] = [];
    let query = offline
        .query(Ticket::partition("octo", "hello"))
        .filter(Ticket::TITLE.is_in(none))
        .send()
        .await;
    let scan = offline
        .scan::<Ticket>()
        .filter(Ticket::TITLE.is_in(none))
        .send()
        .await;
    for result in [query.map(drop), scan.map(drop)] {
        assert!(
            matches!(
                &result,
                Err(Error::InvalidExpression {
                    part: dynamap::ExpressionPart::Filter,
                    ..
                })
            ),
            "{result:?}"
        );
    }
}
