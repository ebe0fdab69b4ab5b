//! An encryption failure is found by the type dynamap's interceptor marks it with, not by
//! the text of any message.

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;

use super::super::service::EncryptionFailure;
use super::super::*;

fn refused(source: Box<dyn std::error::Error + Send + Sync>) -> Error {
    let err: SdkError<PutItemError, _> = SdkError::construction_failure(source);
    Error::from_sdk("PutItem", err)
}

#[test]
fn an_encryption_failure_is_told_apart_by_type() {
    let marked = refused(Box::new(EncryptionFailure("signed attribute".into())));
    assert!(marked.is_encryption_failure(), "{marked:?}");
    assert_eq!(marked.kind(), ErrorKind::InvalidRequest);
    assert!(!marked.is_retryable());

    // Text that looks like the interceptor's is not enough.
    let lookalike = refused(
        "DbEsdkInterceptor modify_before_serialization interceptor encountered an error".into(),
    );
    assert!(!lookalike.is_encryption_failure(), "{lookalike:?}");
}
