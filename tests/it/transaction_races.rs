//! Writes of an entity with lookup items decide a lost race the same way alone and in a
//! transaction: another writer creates the owner just before the write's transaction is
//! sent and deletes it just after (injected by an SDK interceptor), so the owner reads the
//! same before and after. A write without a condition of the caller's starts over and
//! succeeds; a conditional one (create, `if_exists`) reports its failed condition.

use std::future::IntoFuture;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use dynamap::{Db, Error};

use crate::models::App;
use crate::write_models::Member;
use crate::{fresh_db, raw_item};

/// The other writer: on the first `TransactWriteItems` after [`arm`](Self::arm), puts the
/// member before the request leaves and deletes it once the response is back.
#[derive(Debug)]
struct CreateAroundTransaction {
    other: Db<App>,
    member: Member,
    armed: AtomicBool,
    deleting: AtomicBool,
    /// Transactions sent since armed.
    sent: AtomicU32,
}

impl CreateAroundTransaction {
    fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
        self.sent.store(0, Ordering::SeqCst);
    }

    /// Runs the other writer's request to its end from inside the SDK's synchronous hook.
    fn block_on<F: IntoFuture<Output = dynamap::Result<()>>>(&self, write: F) {
        tokio::task::block_in_place(|| {
            tokio::runtime::Handle::current().block_on(write.into_future())
        })
        .expect("the other writer's write");
    }
}

fn is_transaction(target: Option<&str>) -> bool {
    target.is_some_and(|t| t.ends_with(".TransactWriteItems"))
}

#[derive(Debug, Clone)]
struct Injector(Arc<CreateAroundTransaction>);

impl Intercept for Injector {
    fn name(&self) -> &'static str {
        "CreateAroundTransaction"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if !is_transaction(context.request().headers().get("x-amz-target")) {
            return Ok(());
        }
        self.0.sent.fetch_add(1, Ordering::SeqCst);
        if self.0.armed.swap(false, Ordering::SeqCst) {
            self.0.block_on(self.0.other.put(&self.0.member));
            self.0.deleting.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    fn read_before_deserialization(
        &self,
        _: &BeforeDeserializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.0.deleting.swap(false, Ordering::SeqCst) {
            self.0
                .block_on(self.0.other.delete(Member::key(&self.0.member.id)));
        }
        Ok(())
    }
}

/// A `Db` whose transactions race [`CreateAroundTransaction`], and the injector.
async fn racing_db(test: &str) -> (Db<App>, Arc<CreateAroundTransaction>) {
    let other = fresh_db::<App>(test).await;
    let injector = Arc::new(CreateAroundTransaction {
        other: other.clone(),
        member: Member {
            id: "m1".into(),
            email: "m1@example.com".into(),
        },
        armed: AtomicBool::new(false),
        deleting: AtomicBool::new(false),
        sent: AtomicU32::new(0),
    });
    let config = other
        .client()
        .config()
        .to_builder()
        .interceptor(Injector(Arc::clone(&injector)))
        .build();
    let db = Db::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        other.table_name(),
    );
    (db, injector)
}

async fn stored<L: dynamap::Table>(db: &Db<L>, member: &Member) -> (bool, bool) {
    (
        raw_item(db, &format!("MEMBER#{}", member.id), "PROFILE")
            .await
            .is_some(),
        raw_item(db, &format!("EMAIL#{}", member.email), "EMAIL")
            .await
            .is_some(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_without_a_condition_start_over_alone_and_in_transactions() {
    let (db, race) = racing_db("tx_race_unconditional").await;
    let member = race.member.clone();
    let key = || Member::key(&member.id);

    race.arm();
    db.transaction()
        .delete(key())
        .send()
        .await
        .expect("a transaction's delete without a condition");
    assert_eq!(
        race.sent.load(Ordering::SeqCst),
        2,
        "sent again after the race"
    );
    assert_eq!(stored(&db, &member).await, (false, false));

    race.arm();
    db.transaction()
        .put(&member)
        .send()
        .await
        .expect("a transaction's put without a condition");
    assert_eq!(
        race.sent.load(Ordering::SeqCst),
        2,
        "sent again after the race"
    );
    assert_eq!(stored(&db, &member).await, (true, true));

    db.delete(key()).await.expect("clean up");
    race.arm();
    db.put(&member).await.expect("a put without a condition");
    assert_eq!(
        race.sent.load(Ordering::SeqCst),
        2,
        "sent again after the race"
    );
    assert_eq!(stored(&db, &member).await, (true, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_writes_report_their_condition_alone_and_in_transactions() {
    let (db, race) = racing_db("tx_race_conditional").await;
    let member = race.member.clone();

    race.arm();
    let alone = db
        .create(&member)
        .await
        .expect_err("the item existed when sent");
    race.arm();
    let in_transaction = db
        .transaction()
        .create(&member)
        .send()
        .await
        .expect_err("the item existed when sent");
    for err in [alone, in_transaction] {
        assert!(err.is_conditional_check_failed(), "{err:?}");
        assert!(!matches!(err, Error::Contention { .. }), "{err:?}");
    }
    assert_eq!(race.sent.load(Ordering::SeqCst), 1, "not sent again");
    assert_eq!(stored(&db, &member).await, (false, false));

    race.arm();
    let err = db
        .transaction()
        .delete(db.delete(Member::key(&member.id)).if_exists())
        .send()
        .await
        .expect_err("no item to delete");
    assert!(err.is_conditional_check_failed(), "{err:?}");
}
