//! The fault: answers lost after DynamoDB applied the request.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeSerializationInterceptorContextRef,
    BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use dynamap::preview::Request;
use dynamap::{Db, Error, ErrorKind};

use crate::fresh_db;
use crate::models::App;

/// The two runs of every test: (the SDK's retries on, answers lost).
pub(super) const RUNS: [(bool, u32); 2] = [(false, 1), (true, 3)];

/// Which answers to lose, and what was sent.
#[derive(Debug, Default)]
pub(crate) struct Losses {
    /// The operation whose answers are lost (`PutItem`, `TransactWriteItems`, ...).
    operation: Mutex<Option<&'static str>>,
    left: AtomicU32,
    /// Requests of the operation sent since [`lose`](Self::lose).
    sent: AtomicU32,
    /// Their `ClientRequestToken`s, for transactions.
    tokens: Mutex<Vec<String>>,
    /// The request on its way is to lose its answer.
    losing: AtomicBool,
    /// Every request's input as the SDK serializes it, whatever its operation, for the
    /// previews' tests (`tests/it/previews.rs`).
    inputs: Mutex<Vec<Request>>,
}

impl Losses {
    /// Loses the next `count` answers of `operation`, whatever they were.
    pub(crate) fn lose(&self, operation: &'static str, count: u32) {
        *self.operation.lock().expect("lock") = Some(operation);
        self.left.store(count, Ordering::SeqCst);
        self.sent.store(0, Ordering::SeqCst);
        self.tokens.lock().expect("lock").clear();
    }

    /// Requests of the operation sent since [`lose`](Self::lose).
    pub(crate) fn sent(&self) -> u32 {
        self.sent.load(Ordering::SeqCst)
    }

    /// The tokens of the transactions sent since [`lose`](Self::lose).
    pub(crate) fn tokens(&self) -> Vec<String> {
        self.tokens.lock().expect("lock").clone()
    }

    /// The inputs of the requests sent since the last call, in order, without the
    /// `ReturnConsumedCapacity` a listening subscriber asks for.
    pub(crate) fn take_inputs(&self) -> Vec<Request> {
        std::mem::take(&mut *self.inputs.lock().expect("lock"))
    }

    /// Every transaction since [`lose`](Self::lose) was sent again with one token.
    pub(crate) fn assert_one_token(&self, at_least: u32) {
        let tokens = self.tokens();
        assert!(tokens.len() >= at_least as usize, "{tokens:?}");
        assert!(
            tokens.iter().all(|t| t == &tokens[0] && !t.is_empty()),
            "one token for every attempt: {tokens:?}"
        );
    }
}

#[derive(Debug, Clone)]
struct Lose(Arc<Losses>);

impl Intercept for Lose {
    fn name(&self) -> &'static str {
        "LoseAnswers"
    }

    fn read_before_serialization(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let input = context.input();
        macro_rules! captured {
            ($($variant:ident($type:ty)),*) => {
                $(if let Some(input) = input.downcast_ref::<$type>() {
                    let mut input = input.clone();
                    input.return_consumed_capacity = None;
                    Some(Request::$variant(input))
                } else)* { None }
            };
        }
        use aws_sdk_dynamodb::operation as op;
        let request = captured!(
            GetItem(op::get_item::GetItemInput),
            PutItem(op::put_item::PutItemInput),
            UpdateItem(op::update_item::UpdateItemInput),
            DeleteItem(op::delete_item::DeleteItemInput),
            Query(op::query::QueryInput),
            Scan(op::scan::ScanInput),
            BatchWriteItem(op::batch_write_item::BatchWriteItemInput),
            BatchGetItem(op::batch_get_item::BatchGetItemInput),
            TransactWriteItems(op::transact_write_items::TransactWriteItemsInput),
            TransactGetItems(op::transact_get_items::TransactGetItemsInput)
        );
        self.0.inputs.lock().expect("lock").extend(request);
        Ok(())
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(operation) = *self.0.operation.lock().expect("lock") else {
            return Ok(());
        };
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        if target.rsplit('.').next() != Some(operation) {
            return Ok(());
        }
        self.0.sent.fetch_add(1, Ordering::SeqCst);
        let body: serde_json::Value = request
            .body()
            .bytes()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or_default();
        if let Some(token) = body.get("ClientRequestToken").and_then(|t| t.as_str()) {
            self.0.tokens.lock().expect("lock").push(token.to_owned());
        }
        let lose = self
            .0
            .left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        // One request at a time goes through a test's `Db`: the answer that comes back
        // next is this request's.
        self.0.losing.store(lose, Ordering::SeqCst);
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.0.losing.swap(false, Ordering::SeqCst) {
            let response = context.response_mut();
            *response.status_mut() = 500.try_into()?;
            response.headers_mut().remove("content-length");
            response.headers_mut().remove("x-amz-crc32");
            *response.body_mut() =
                r#"{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"answer lost in a test"}"#
                    .into();
        }
        Ok(())
    }
}

/// A fresh table, and a `Db` on it whose answers [`Losses`] can lose; the SDK's default
/// retries when `sdk_retries`, none otherwise.
pub(crate) async fn lossy_db(test: &str, sdk_retries: bool) -> (Db<App>, Arc<Losses>) {
    let plain = fresh_db::<App>(test).await;
    let losses = Arc::new(Losses::default());
    // Without the SDK's retries, the library's resends after a lost answer wait with the
    // client's backoff: a short one keeps the test quick.
    let retries = if sdk_retries {
        RetryConfig::standard()
    } else {
        RetryConfig::disabled().with_initial_backoff(std::time::Duration::from_millis(20))
    };
    let config = plain
        .client()
        .config()
        .to_builder()
        .interceptor(Lose(Arc::clone(&losses)))
        .retry_config(retries)
        .build();
    let db = Db::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        plain.table_name(),
    );
    (db, losses)
}

/// `result` is `Error::OutcomeUnknown`, which is a transport error not to retry as it is.
pub(super) fn assert_unknown(result: dynamap::Result<()>, operation: &str) {
    match result {
        Err(Error::OutcomeUnknown {
            operation: op,
            attempts,
            ref source,
            ..
        }) => {
            assert_eq!(op, operation);
            assert!(attempts >= 1);
            assert_eq!(source.http_status(), Some(500), "{source}");
            let err = result.expect_err("unknown");
            assert_eq!(err.kind(), ErrorKind::Transport);
            assert!(!err.is_retryable() && !err.is_conditional_check_failed());
        }
        other => panic!("expected OutcomeUnknown of {operation}, got {other:?}"),
    }
}
