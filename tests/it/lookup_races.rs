//! A conditional write of an entity with lookups answers from what DynamoDB evaluated, not
//! from a read made afterwards. Another writer changes the owner's lookup (A → B) just
//! before the write's transaction leaves, and changes it back (B → A) as soon as the
//! cancellation is back (an SDK interceptor on the writer's client runs both). The owner
//! existed the whole time and the write's own condition held, so every path, alone and in
//! a transaction, starts over and succeeds: none reports a failed condition.

use std::sync::Arc;

use dynamap::{Db, Entity};

use crate::around_transaction::{AroundTransaction, raced_by};
use crate::models::App;
use crate::{fresh_db, raw_item};

/// An account with a unique e-mail address (a lookup) and fields a condition can name.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT",
          lookup(name = "email", pk = "MAIL#{email}", sk = "MAIL"))]
struct Account {
    id: String,
    email: String,
    status: String,
    bio: String,
}

fn account(email: &str, bio: &str) -> Account {
    Account {
        id: "a1".into(),
        email: email.into(),
        status: "active".into(),
        bio: bio.into(),
    }
}

/// Two handles on one table: `other`, the other writer, and the writer under test, whose
/// transactions `other` writes around once armed. The account is stored with `a@old`.
async fn race(test: &str) -> (Db<App>, Db<App>, Arc<AroundTransaction>) {
    let other = fresh_db::<App>(test).await;
    let (db, around) = raced_by(&other);
    other.put(&account("a@old", "first")).await.expect("stored");
    // A → B before the transaction, B → A after its cancellation.
    around.arm(
        other.put(&account("a@new", "moved")),
        other.put(&account("a@old", "back")),
    );
    (other, db, around)
}

async fn mail(db: &Db<App>, address: &str) -> bool {
    raw_item(db, &format!("MAIL#{address}"), "MAIL")
        .await
        .is_some()
}

async fn stored(db: &Db<App>) -> Option<Account> {
    db.get(Account::key("a1")).consistent().await.expect("read")
}

fn active() -> dynamap::expr::Condition<Account> {
    Account::STATUS.eq("active")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replace_whose_condition_held_starts_over() {
    let (other, db, around) = race("lookup_race_replace").await;
    db.replace(&account("a@old", "mine"))
        .condition(active())
        .await
        .expect("the account existed and was active throughout");
    assert_eq!(around.sent(), 2, "sent again");
    assert_eq!(stored(&other).await, Some(account("a@old", "mine")));
    assert!(mail(&other, "a@old").await && !mail(&other, "a@new").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_whose_condition_held_starts_over() {
    let (other, db, around) = race("lookup_race_update").await;
    db.update(Account::key("a1"))
        .set(Account::EMAIL, "a@mine")
        .condition(active())
        .await
        .expect("the account existed and was active throughout");
    assert_eq!(around.sent(), 2, "sent again");
    assert_eq!(stored(&other).await, Some(account("a@mine", "back")));
    assert!(mail(&other, "a@mine").await);
    assert!(!mail(&other, "a@old").await && !mail(&other, "a@new").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_if_exists_starts_over() {
    let (other, db, around) = race("lookup_race_delete").await;
    db.delete(Account::key("a1"))
        .if_exists()
        .await
        .expect("the account existed throughout");
    assert_eq!(around.sent(), 2, "sent again");
    assert_eq!(stored(&other).await, None);
    assert!(!mail(&other, "a@old").await && !mail(&other, "a@new").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_replace_whose_condition_held_is_sent_again() {
    let (other, db, around) = race("lookup_race_tx_replace").await;
    db.transaction()
        .put(db.replace(&account("a@old", "mine")).condition(active()))
        .send()
        .await
        .expect("the account existed and was active throughout");
    assert_eq!(around.sent(), 2, "sent again");
    assert_eq!(stored(&other).await, Some(account("a@old", "mine")));
    assert!(mail(&other, "a@old").await && !mail(&other, "a@new").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_delete_if_exists_is_sent_again() {
    let (other, db, around) = race("lookup_race_tx_delete").await;
    db.transaction()
        .delete(db.delete(Account::key("a1")).if_exists())
        .send()
        .await
        .expect("the account existed throughout");
    assert_eq!(around.sent(), 2, "sent again");
    assert_eq!(stored(&other).await, None);
    assert!(!mail(&other, "a@old").await && !mail(&other, "a@new").await);
}

/// The other side of the rule: when the guard held and the caller's condition did not,
/// the condition's failure is the answer, alone and in a transaction, without a second try.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_condition_that_failed_on_the_evaluated_item_is_the_answer() {
    let (other, db, around) = race("lookup_race_failed").await;
    // The other writer leaves the lookup as it is and makes the account inactive.
    let inactive = Account {
        status: "closed".into(),
        ..account("a@old", "closed")
    };
    around.arm(other.put(&inactive), other.put(&inactive));
    let err = db
        .replace(&account("a@old", "mine"))
        .condition(active())
        .await
        .expect_err("inactive when evaluated");
    assert!(
        matches!(err, dynamap::Error::ConditionalCheckFailed { .. }),
        "{err:?}"
    );
    assert_eq!(around.sent(), 1, "not sent again");

    other.put(&account("a@old", "first")).await.expect("active");
    around.arm(other.put(&inactive), other.put(&inactive));
    let err = db
        .transaction()
        .put(db.replace(&account("a@old", "mine")).condition(active()))
        .send()
        .await
        .expect_err("inactive when evaluated");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(around.sent(), 1, "not sent again");
    assert_eq!(stored(&other).await, Some(inactive));
}
