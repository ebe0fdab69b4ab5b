//! Where the SDK client connects, and with which region and credentials.

use std::env;

use aws_credential_types::Credentials;
use aws_sdk_dynamodb::config::{BehaviorVersion, Region};

/// The SDK's standard variable for a DynamoDB endpoint override.
pub(super) const ENDPOINT_VAR: &str = "AWS_ENDPOINT_URL_DYNAMODB";

/// DynamoDB Local accepts any region; this one is merely the most common.
const DEFAULT_REGION: &str = "us-east-1";

/// Everything a client needs, kept instead of a client: a client's connection pool belongs to
/// the async runtime it first ran on, and every `#[tokio::test]` has a runtime of its own.
#[derive(Debug, Clone)]
pub(super) struct Connection {
    pub(super) endpoint: String,
    region: String,
    credentials: Credentials,
}

impl Connection {
    /// Our own server. `-sharedDb` makes region and credentials irrelevant to which tables a
    /// client sees, but the SDK still wants both to sign requests.
    pub(super) fn local(port: u16) -> Self {
        Self {
            endpoint: format!("http://127.0.0.1:{port}"),
            region: DEFAULT_REGION.to_owned(),
            credentials: Credentials::new("local", "local", None, None, "dynamap-local"),
        }
    }

    /// The endpoint named by `AWS_ENDPOINT_URL_DYNAMODB`, if set.
    pub(super) fn from_env() -> Option<Self> {
        from_vars(|name| env::var(name).ok())
    }

    pub(super) fn client(&self) -> aws_sdk_dynamodb::Client {
        aws_sdk_dynamodb::Client::from_conf(self.config().build())
    }

    /// A client whose calls get `faults`, with the SDK's retries off so that every fault
    /// reaches the caller.
    pub(super) fn faulty_client(&self, faults: &super::Faults) -> aws_sdk_dynamodb::Client {
        let config = self
            .config()
            .http_client(faults.wrap_default())
            .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
            .build();
        aws_sdk_dynamodb::Client::from_conf(config)
    }

    /// A DynamoDB Streams client for the same endpoint, region and credentials.
    #[cfg(feature = "streams")]
    pub(super) fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        let config = aws_sdk_dynamodbstreams::Config::builder()
            .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
            .http_client(http_client())
            .sleep_impl(aws_smithy_async::rt::sleep::SharedAsyncSleep::new(
                aws_smithy_async::rt::sleep::TokioSleep::new(),
            ))
            .endpoint_url(&self.endpoint)
            .region(aws_sdk_dynamodbstreams::config::Region::new(
                self.region.clone(),
            ))
            .credentials_provider(self.credentials.clone())
            .build();
        aws_sdk_dynamodbstreams::Client::from_conf(config)
    }

    fn config(&self) -> aws_sdk_dynamodb::config::Builder {
        aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .http_client(http_client())
            .sleep_impl(aws_smithy_async::rt::sleep::SharedAsyncSleep::new(
                aws_smithy_async::rt::sleep::TokioSleep::new(),
            ))
            .endpoint_url(&self.endpoint)
            .region(Region::new(self.region.clone()))
            .credentials_provider(self.credentials.clone())
    }
}

/// The HTTP client of this crate's clients: hyper 1 with rustls on ring, for
/// DynamoDB Local over HTTP and a real endpoint over HTTPS. (dynamap turns on no HTTP client
/// of the SDK's: an application's own client is configured by the application.)
pub(super) fn http_client() -> aws_smithy_runtime_api::client::http::SharedHttpClient {
    use aws_smithy_http_client::tls::{Provider, rustls_provider::CryptoMode};
    aws_smithy_http_client::Builder::new()
        .tls_provider(Provider::Rustls(CryptoMode::Ring))
        .build_https()
}

/// An external endpoint may be DynamoDB Local started without `-sharedDb` (which keeps tables
/// per access key and region) or even real DynamoDB, so the usual variables are honoured.
fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<Connection> {
    let var = |name| var(name).filter(|value| !value.trim().is_empty());
    let endpoint = var(ENDPOINT_VAR)?;
    let region = var("AWS_REGION")
        .or_else(|| var("AWS_DEFAULT_REGION"))
        .unwrap_or_else(|| DEFAULT_REGION.to_owned());
    let credentials = match (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
        (Some(id), Some(secret)) => {
            Credentials::new(id, secret, var("AWS_SESSION_TOKEN"), None, "environment")
        }
        _ => Credentials::new("local", "local", None, None, "dynamap-local"),
    };
    Some(Connection {
        endpoint: endpoint.trim().to_owned(),
        region,
        credentials,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars<'a>(set: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            set.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn no_endpoint_variable_means_no_external_endpoint() {
        assert!(from_vars(vars(&[("AWS_REGION", "eu-west-1")])).is_none());
        assert!(from_vars(vars(&[(ENDPOINT_VAR, " ")])).is_none());
    }

    #[test]
    fn external_endpoint_defaults_region_and_credentials() {
        let conn = from_vars(vars(&[(ENDPOINT_VAR, "http://localhost:8000")]));
        let conn = conn.as_ref();
        assert_eq!(
            conn.map(|c| c.endpoint.as_str()),
            Some("http://localhost:8000")
        );
        assert_eq!(conn.map(|c| c.region.as_str()), Some("us-east-1"));
        assert_eq!(conn.map(|c| c.credentials.access_key_id()), Some("local"));
    }

    #[test]
    fn external_endpoint_uses_environment_region_and_credentials() {
        let conn = from_vars(vars(&[
            (ENDPOINT_VAR, "http://db:8000"),
            ("AWS_DEFAULT_REGION", "eu-west-1"),
            ("AWS_ACCESS_KEY_ID", "AKID"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
        ]));
        let conn = conn.as_ref();
        assert_eq!(conn.map(|c| c.region.as_str()), Some("eu-west-1"));
        assert_eq!(conn.map(|c| c.credentials.access_key_id()), Some("AKID"));
    }

    #[test]
    fn aws_region_beats_aws_default_region() {
        let conn = from_vars(vars(&[
            (ENDPOINT_VAR, "x"),
            ("AWS_REGION", "a"),
            ("AWS_DEFAULT_REGION", "b"),
        ]));
        assert_eq!(conn.map(|c| c.region), Some("a".to_owned()));
    }

    #[test]
    fn half_set_credentials_fall_back_to_dummies() {
        let conn = from_vars(vars(&[(ENDPOINT_VAR, "x"), ("AWS_ACCESS_KEY_ID", "AKID")]));
        assert_eq!(
            conn.map(|c| c.credentials.access_key_id().to_owned()),
            Some("local".to_owned())
        );
    }
}
