//! The HTTP client wrapper that injects the faults.

use aws_sdk_dynamodb::config::{RuntimeComponents, RuntimeComponentsBuilder, SharedHttpClient};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::connector_metadata::ConnectorMetadata;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_types::config_bag::ConfigBag;

use super::response::error_response;
use super::{Fault, Faults, unprocessed};

/// The header naming the operation of a DynamoDB JSON request.
const TARGET_HEADER: &str = "x-amz-target";
const TARGET_PREFIX: &str = "DynamoDB_20120810.";

/// Hands out connectors that inject faults around the inner client's connectors.
#[derive(Debug)]
pub(super) struct FaultyClient {
    inner: SharedHttpClient,
    faults: Faults,
}

impl FaultyClient {
    pub(super) fn new(inner: SharedHttpClient, faults: Faults) -> Self {
        Self { inner, faults }
    }
}

impl HttpClient for FaultyClient {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        // The inner client caches its connectors; wrapping one per call is an `Arc`.
        SharedHttpConnector::new(FaultyConnector {
            inner: self.inner.http_connector(settings, components),
            faults: self.faults.clone(),
        })
    }

    fn validate_base_client_config(
        &self,
        components: &RuntimeComponentsBuilder,
        cfg: &ConfigBag,
    ) -> Result<(), BoxError> {
        self.inner.validate_base_client_config(components, cfg)
    }

    fn validate_final_config(
        &self,
        components: &RuntimeComponents,
        cfg: &ConfigBag,
    ) -> Result<(), BoxError> {
        self.inner.validate_final_config(components, cfg)
    }

    fn connector_metadata(&self) -> Option<ConnectorMetadata> {
        self.inner.connector_metadata()
    }
}

#[derive(Debug)]
struct FaultyConnector {
    inner: SharedHttpConnector,
    faults: Faults,
}

impl HttpConnector for FaultyConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let operation = request
            .headers()
            .get(TARGET_HEADER)
            .and_then(|target| target.strip_prefix(TARGET_PREFIX))
            .unwrap_or_default()
            .to_owned();
        match self.faults.next_call(&operation) {
            (None, _) => self.inner.call(request),
            (Some(Fault::Throttle), _) => HttpConnectorFuture::ready(error_response(
                400,
                "ProvisionedThroughputExceededException",
                "The level of configured provisioned throughput for the table was exceeded \
                 (injected by dynamap_local::Faults)",
            )),
            (Some(Fault::ServerError), _) => HttpConnectorFuture::ready(error_response(
                500,
                "InternalServerError",
                "Internal server error (injected by dynamap_local::Faults)",
            )),
            (Some(Fault::Unprocessed), rng) => {
                let inner = self.inner.clone();
                let faults = self.faults.clone();
                HttpConnectorFuture::new(async move {
                    unprocessed::call(&inner, request, &operation, rng, &faults).await
                })
            }
        }
    }
}
