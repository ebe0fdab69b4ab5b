//! A conditional write of an entity with lookups answers from what DynamoDB evaluated, not
//! from a read made afterwards. Another writer changes the owner's lookup (A → B) just
//! before the write's transaction leaves, and changes it back (B → A) as soon as the
//! cancellation is back (an SDK interceptor on the writer's client runs both). The owner
//! existed the whole time and the write's own condition held, so every path, alone and in
//! a transaction, starts over and succeeds: none reports a failed condition.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use dynamap::{Db, Entity};

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

type Write = Pin<Box<dyn Future<Output = dynamap::Result<()>> + Send>>;

/// The other writer's two writes around the next `TransactWriteItems` of the client it is
/// installed on: `before` runs before the request leaves, `after` once its response is back.
#[derive(Default)]
struct AroundTransaction {
    before: Mutex<Option<Write>>,
    after: Mutex<Option<Write>>,
    /// The transaction of `before` is out, so the next response is its answer.
    answering: AtomicBool,
    /// Transactions sent since armed.
    sent: AtomicU32,
}

impl std::fmt::Debug for AroundTransaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AroundTransaction").finish_non_exhaustive()
    }
}

impl AroundTransaction {
    fn arm(
        &self,
        before: impl IntoFuture<Output = dynamap::Result<()>, IntoFuture: Send + 'static>,
        after: impl IntoFuture<Output = dynamap::Result<()>, IntoFuture: Send + 'static>,
    ) {
        *self.before.lock().expect("lock") = Some(Box::pin(before.into_future()));
        *self.after.lock().expect("lock") = Some(Box::pin(after.into_future()));
        self.sent.store(0, Ordering::SeqCst);
    }

    /// Runs one of the other writer's writes to its end from inside the SDK's synchronous hook.
    fn run(&self, slot: &Mutex<Option<Write>>) {
        let write = slot.lock().expect("lock").take();
        if let Some(write) = write {
            tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(write))
                .expect("the other writer's write");
        }
    }
}

#[derive(Debug, Clone)]
struct Injector(Arc<AroundTransaction>);

impl Intercept for Injector {
    fn name(&self) -> &'static str {
        "AroundTransaction"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let target = context.request().headers().get("x-amz-target");
        if target.is_some_and(|t| t.ends_with(".TransactWriteItems")) {
            self.0.sent.fetch_add(1, Ordering::SeqCst);
            if self.0.before.lock().expect("lock").is_some() {
                self.0.run(&self.0.before);
                self.0.answering.store(true, Ordering::SeqCst);
            }
        }
        Ok(())
    }

    fn read_before_deserialization(
        &self,
        _: &BeforeDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.0.answering.swap(false, Ordering::SeqCst) {
            self.0.run(&self.0.after);
        }
        Ok(())
    }
}

/// Two handles on one table: `other`, the other writer, and the writer under test, whose
/// transactions `other` writes around once armed. The account is stored with `a@old`.
async fn race(test: &str) -> (Db<App>, Db<App>, Arc<AroundTransaction>) {
    let other = fresh_db::<App>(test).await;
    let around = Arc::new(AroundTransaction::default());
    let config = other
        .client()
        .config()
        .to_builder()
        .interceptor(Injector(Arc::clone(&around)))
        .build();
    let db = Db::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        other.table_name(),
    );
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 2, "sent again");
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 2, "sent again");
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 2, "sent again");
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 2, "sent again");
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 2, "sent again");
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
    assert_eq!(around.sent.load(Ordering::SeqCst), 1, "not sent again");

    other.put(&account("a@old", "first")).await.expect("active");
    around.arm(other.put(&inactive), other.put(&inactive));
    let err = db
        .transaction()
        .put(db.replace(&account("a@old", "mine")).condition(active()))
        .send()
        .await
        .expect_err("inactive when evaluated");
    assert!(err.is_conditional_check_failed(), "{err:?}");
    assert_eq!(around.sent.load(Ordering::SeqCst), 1, "not sent again");
    assert_eq!(stored(&other).await, Some(inactive));
}
