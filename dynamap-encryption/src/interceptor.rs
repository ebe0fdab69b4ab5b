//! [`Interceptor`]: the AWS Database Encryption SDK's interceptor, with its failures marked
//! by type, so that [`Error::is_encryption_failure`](dynamap::Error::is_encryption_failure)
//! tells them apart without reading any message.

use aws_db_esdk::intercept::DbEsdkInterceptor;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeSerializationInterceptorContextMut, FinalizerInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;

use dynamap::__private::encryption_failure;
use dynamap::Result;

use crate::sdk::DynamoDbTablesEncryptionConfig;

/// The interceptor to build the application's client with, made by
/// [`TableEncryption::interceptor`](crate::TableEncryption::interceptor): the SDK's
/// `DbEsdkInterceptor`, whose failures reach dynamap's errors typed
/// ([`Error::is_encryption_failure`](dynamap::Error::is_encryption_failure)). A client built
/// with the SDK's own interceptor encrypts the same, but its failures are plain
/// [`Error::Service`](dynamap::Error::Service) errors.
#[derive(Debug)]
pub struct Interceptor {
    inner: DbEsdkInterceptor,
}

impl Interceptor {
    /// The interceptor of an SDK configuration built by hand; most applications use
    /// [`TableEncryption::interceptor`](crate::TableEncryption::interceptor).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSetting`](dynamap::Error::InvalidSetting) with the SDK's reason when
    /// it refuses the configuration.
    pub fn new(config: DynamoDbTablesEncryptionConfig) -> Result<Self> {
        let inner = DbEsdkInterceptor::new(config).map_err(crate::actions::sdk_error)?;
        Ok(Interceptor { inner })
    }
}

/// The interceptor's failure, marked as the encryption's.
fn marked(err: BoxError) -> BoxError {
    encryption_failure(err)
}

impl Intercept for Interceptor {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> std::result::Result<(), BoxError> {
        self.inner
            .modify_before_serialization(context, components, cfg)
            .map_err(marked)
    }

    fn modify_before_attempt_completion(
        &self,
        context: &mut FinalizerInterceptorContextMut<'_>,
        components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> std::result::Result<(), BoxError> {
        self.inner
            .modify_before_attempt_completion(context, components, cfg)
            .map_err(marked)
    }
}
