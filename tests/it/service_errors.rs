//! Errors DynamoDB answers, and failures to reach it: categorised, with the HTTP status,
//! the request id and the SDK's own error, against a real DynamoDB Local.

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::operation::get_item::GetItemError;
use dynamap::{Db, Error, ErrorKind};
use dynamap_local::{DynamoLocal, Faults};

use crate::models::{App, Sensor};

fn local() -> &'static DynamoLocal {
    DynamoLocal::shared().expect("DynamoDB Local starts")
}

#[tokio::test]
async fn a_missing_table_is_not_found_with_status_request_id_and_the_typed_sdk_error() {
    let db = Db::new(local().client(), "service_errors_no_such_table");
    let err = db.get(Sensor::key("S1")).await.expect_err("no table");
    assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
    assert!(!err.is_retryable());
    assert_eq!(err.code(), Some("ResourceNotFoundException"));
    assert_eq!(err.http_status(), Some(400));
    assert!(err.request_id().is_some_and(|id| !id.is_empty()), "{err:?}");
    let Error::Service(service) = &err else {
        panic!("a service error: {err:?}");
    };
    assert_eq!(service.operation(), "GetItem");
    let typed = service
        .sdk_error::<GetItemError>()
        .and_then(|e| e.as_service_error());
    assert!(
        matches!(typed, Some(GetItemError::ResourceNotFoundException(_))),
        "{typed:?}"
    );
    assert!(
        service
            .sdk_error::<aws_sdk_dynamodb::operation::put_item::PutItemError>()
            .is_none()
    );
    assert!(
        std::error::Error::source(&err).is_none(),
        "the message says it all"
    );
}

#[tokio::test]
async fn throttling_and_server_errors_are_retryable_and_keep_their_status() {
    let faulty = |faults: &Faults| Db::new(local().faulty_client(faults), "any_table");
    let throttled = faulty(&Faults::seeded(1).throttle(1.0))
        .get(Sensor::key("S1"))
        .await
        .expect_err("throttled");
    assert_eq!(throttled.kind(), ErrorKind::Throttled, "{throttled}");
    assert!(throttled.is_throttled() && throttled.is_retryable());
    assert_eq!(throttled.http_status(), Some(400));
    assert_eq!(throttled.request_id(), Some("dynamap-injected-fault"));

    let failed = faulty(&Faults::seeded(1).server_error(1.0))
        .get(Sensor::key("S1"))
        .await
        .expect_err("server error");
    assert_eq!(failed.kind(), ErrorKind::Service, "{failed}");
    assert!(failed.is_retryable() && !failed.is_throttled());
    assert_eq!(failed.http_status(), Some(500));
}

#[tokio::test]
async fn an_unreachable_endpoint_is_a_retryable_transport_error() {
    let config = local()
        .client()
        .config()
        .to_builder()
        .endpoint_url("http://127.0.0.1:9")
        .retry_config(RetryConfig::disabled())
        .build();
    let db = Db::new(aws_sdk_dynamodb::Client::from_conf(config), "any_table");
    let err = db
        .get(Sensor::key("S1"))
        .await
        .expect_err("nothing listens");
    assert_eq!(err.kind(), ErrorKind::Transport, "{err}");
    assert!(err.is_retryable());
    assert_eq!(
        (err.http_status(), err.request_id(), err.code()),
        (None, None, None)
    );
    let Error::Service(service) = &err else {
        panic!("a service error: {err:?}");
    };
    assert!(service.is_transport());
}

#[tokio::test]
async fn a_raw_request_that_cannot_be_built_is_invalid_and_not_retried() {
    let db = crate::fresh_db::<App>("service_errors_not_built").await;
    let err = db
        .client()
        .get_item()
        .send()
        .await
        .map_err(|err| Error::from_sdk("GetItem", err))
        .expect_err("no table name, no key");
    assert_eq!(err.kind(), ErrorKind::InvalidRequest, "{err}");
    assert!(!err.is_retryable(), "{err}");
}
