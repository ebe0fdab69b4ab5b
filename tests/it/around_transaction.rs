//! Another writer's two writes around a handle's next `TransactWriteItems`, run by an SDK
//! interceptor on that handle's client: one just before the request leaves, one as soon as
//! its answer is back. The races of `lookup_races` and `transaction_races` are built on it.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use dynamap::Db;

use crate::models::App;

type Write = Pin<Box<dyn Future<Output = dynamap::Result<()>> + Send>>;

/// The other writer's writes around the next transaction once [`arm`](Self::arm)ed, and
/// how many transactions were sent since.
#[derive(Default)]
pub(crate) struct AroundTransaction {
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
    /// `before` runs before the next transaction leaves, `after` once its answer is back.
    pub(crate) fn arm(
        &self,
        before: impl IntoFuture<Output = dynamap::Result<()>, IntoFuture: Send + 'static>,
        after: impl IntoFuture<Output = dynamap::Result<()>, IntoFuture: Send + 'static>,
    ) {
        *self.before.lock().expect("lock") = Some(Box::pin(before.into_future()));
        *self.after.lock().expect("lock") = Some(Box::pin(after.into_future()));
        self.sent.store(0, Ordering::SeqCst);
    }

    /// Transactions sent since armed.
    pub(crate) fn sent(&self) -> u32 {
        self.sent.load(Ordering::SeqCst)
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

/// A second handle on `other`'s table whose transactions `other` writes around once the
/// returned [`AroundTransaction`] is armed.
pub(crate) fn raced_by(other: &Db<App>) -> (Db<App>, Arc<AroundTransaction>) {
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
    (db, around)
}
