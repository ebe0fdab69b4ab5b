//! Items too wide to check attribute by attribute within DynamoDB's expression limit.

use dynamap::codec::AttributeValue::{N, S};
use dynamap::codec::Item;

use super::{Ticket, User, every_ticket_rendered, old_desk};

/// An item of hundreds of attributes cannot be checked attribute by attribute within
/// DynamoDB's 4 KB expression limit: without a version it fails alone, with a clear error;
/// a versioned one is checked by its version and re-keyed.
#[tokio::test]
async fn an_item_too_wide_to_check_attribute_by_attribute_needs_a_version() {
    let db = old_desk("maintain_wide", 0, 0).await;
    let wide = |pk: &str, sk: &str, kind: &str| {
        let mut item: Item = (0..300)
            .map(|i| (format!("extra_{i:03}"), N(i.to_string())))
            .collect();
        item.insert("PK".into(), S(pk.into()));
        item.insert("SK".into(), S(sk.into()));
        item.insert("_type".into(), S(kind.into()));
        item
    };
    let mut user = wide("U#1", "PROFILE", "User");
    user.insert("id".into(), S("1".into()));
    user.insert("name".into(), S("wide".into()));
    let mut ticket = wide("TICKET#00001", "TICKET", "Ticket");
    ticket.insert("id".into(), S("00001".into()));
    ticket.insert("status".into(), S("open".into()));
    ticket.insert("touches".into(), N("0".into()));
    ticket.insert("version".into(), N("4".into()));
    for item in [user, ticket] {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .expect("raw put");
    }

    let users = db
        .maintain::<User>("wide")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!((users.moved, users.failed_count), (0, 1), "{users:?}");
    let message = users.failed[0].error.to_string();
    assert!(
        matches!(users.failed[0].error, dynamap::Error::Unsupported { .. })
            && message.contains("4096")
            && message.contains("version"),
        "{message}"
    );

    let tickets = db
        .maintain::<Ticket>("wide")
        .rekey()
        .send()
        .await
        .expect("job");
    assert_eq!(
        (tickets.rekeyed, tickets.failed_count),
        (1, 0),
        "{tickets:?}"
    );
    assert_eq!(every_ticket_rendered(&db).await, 1);
}
