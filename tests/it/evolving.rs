//! Models that evolve: items written by an older version of a struct still read through
//! the newer one (defaults for added fields, unknown attributes ignored, renamed entities
//! through aliases), and are written back under the new name.

use dynamap::query::UnknownEntity;
use dynamap::{Entity, EntityEnum};

use crate::models::App;
use crate::{fresh_db, raw_item};

/// The first version of the model: entity `Client`, with a field the new one dropped.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Client", pk = "CUSTOMER#{id}", sk = "PROFILE#{id}")]
struct ClientV1 {
    id: String,
    name: String,
    fax: String,
}

fn bronze() -> String {
    "bronze".to_owned()
}

/// The second version: renamed to `Customer` (`Client` kept as an alias), `fax` dropped,
/// three fields added.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Customer", alias = "Client", alias = "Shopper",
          pk = "CUSTOMER#{id}", sk = "PROFILE#{id}")]
struct Customer {
    id: String,
    name: String,
    #[dynamap(default)]
    loyalty_points: u32,
    #[dynamap(default = "bronze")]
    tier: String,
    #[dynamap(default = "bronze_option")]
    badge: Option<String>,
}

fn bronze_option() -> Option<String> {
    Some(bronze())
}

#[derive(EntityEnum, Debug, PartialEq)]
enum Row {
    Customer(Customer),
}

fn v1(id: &str) -> ClientV1 {
    ClientV1 {
        id: id.into(),
        name: format!("name {id}"),
        fax: "+48 61 000".into(),
    }
}

#[tokio::test]
async fn items_of_an_older_struct_read_through_the_newer_one() {
    let db = fresh_db::<App>("evolve_read").await;
    for id in ["c1", "c2"] {
        db.put(&v1(id)).await.expect("old put");
    }
    let expected = |id: &str| Customer {
        id: id.into(),
        name: format!("name {id}"),
        loyalty_points: 0,
        tier: "bronze".into(),
        badge: Some("bronze".into()),
    };

    // A get, a query (filtered on the entity type, aliases included), a batch get and a
    // mixed query all read the old items.
    let got = db.get(Customer::key("c1")).consistent().await.expect("get");
    assert_eq!(got, Some(expected("c1")));
    let queried = db
        .query(Customer::partition("c2"))
        .all()
        .await
        .expect("query");
    assert_eq!(queried, vec![expected("c2")]);
    let batch = db
        .batch_get([Customer::key("c1"), Customer::key("c2")])
        .await
        .expect("batch get");
    assert_eq!(
        batch.items,
        vec![Some(expected("c1")), Some(expected("c2"))]
    );
    let mixed = db
        .query(Customer::partition("c1"))
        .decode_as::<Row>()
        .on_unknown(UnknownEntity::Error)
        .all()
        .await
        .expect("mixed");
    assert_eq!(mixed, vec![Row::Customer(expected("c1"))]);

    // Written back, the item carries the new name and fields; the dropped one is gone.
    let mut customer = got.expect("found");
    customer.loyalty_points = 7;
    db.put(&customer).await.expect("re-save");
    let raw = raw_item(&db, "CUSTOMER#c1", "PROFILE#c1")
        .await
        .expect("stored");
    assert_eq!(raw["_type"].as_s().expect("S"), "Customer");
    assert_eq!(raw["loyalty_points"].as_n().expect("N"), "7");
    assert!(!raw.contains_key("fax"), "{raw:?}");
    assert_eq!(
        db.get(Customer::key("c1")).consistent().await.expect("get"),
        Some(Customer {
            loyalty_points: 7,
            ..expected("c1")
        })
    );
}

#[tokio::test]
async fn stored_values_win_over_defaults_and_unknown_attributes_are_ignored() {
    let db = fresh_db::<App>("evolve_unknown").await;
    let customer = Customer {
        id: "c3".into(),
        name: "Ada".into(),
        loyalty_points: 12,
        tier: "gold".into(),
        badge: None,
    };
    db.put(&customer).await.expect("put");
    // An attribute written by a newer model, or by other code.
    db.client()
        .update_item()
        .table_name(db.table_name())
        .key(
            "PK",
            dynamap::codec::AttributeValue::S("CUSTOMER#c3".into()),
        )
        .key("SK", dynamap::codec::AttributeValue::S("PROFILE#c3".into()))
        .update_expression("SET #f = :v")
        .expression_attribute_names("#f", "future_field")
        .expression_attribute_values(":v", dynamap::codec::AttributeValue::Bool(true))
        .send()
        .await
        .expect("raw update");
    let read = db
        .get(Customer::key("c3"))
        .consistent()
        .await
        .expect("get")
        .expect("found");
    // `badge` is absent from the item, so it reads as its default, not as the `None` put.
    assert_eq!(
        read,
        Customer {
            badge: Some("bronze".into()),
            ..customer
        }
    );
}

#[tokio::test]
async fn an_entity_of_another_name_is_still_refused() {
    let db = fresh_db::<App>("evolve_other").await;
    db.put(&crate::models::sensor("S1")).await.expect("put");
    let raw = raw_item(&db, "SENSOR#S1", "SENSORINFO")
        .await
        .expect("stored");
    let err = Customer::from_item(raw).expect_err("a sensor is no customer");
    assert!(
        matches!(
            err,
            dynamap::Error::WrongEntityType {
                expected: "Customer",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(Customer::ALIASES, ["Client", "Shopper"]);
}

/// An account name held by a user or by an organization, read in one get.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "User", pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
struct User {
    name: String,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Org", pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
struct Org {
    name: String,
    members: u32,
}

#[derive(EntityEnum, Debug, PartialEq)]
enum Account {
    User(User),
    Org(Org),
}

#[tokio::test]
async fn a_get_decodes_whichever_entity_the_key_holds() {
    let db = fresh_db::<App>("evolve_get_enum").await;
    db.put(&User { name: "ada".into() }).await.expect("user");
    let org = Org {
        name: "rust-lang".into(),
        members: 300,
    };
    db.put(&org).await.expect("org");
    let read = |name: &'static str| db.get(User::key(name)).consistent().decode_as::<Account>();
    assert_eq!(
        read("ada").await.expect("get"),
        Some(Account::User(User { name: "ada".into() }))
    );
    assert_eq!(
        read("rust-lang").await.expect("get"),
        Some(Account::Org(org))
    );
    assert_eq!(read("nobody").await.expect("get"), None);
    db.put(&crate::models::sensor("S9")).await.expect("sensor");
    let err = db
        .get(crate::models::Sensor::key("S9"))
        .decode_as::<Account>()
        .await
        .expect_err("a sensor is neither");
    assert!(
        matches!(err, dynamap::Error::UnknownEntityType { .. }),
        "{err:?}"
    );
}
