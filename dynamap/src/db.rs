//! The handle every operation starts from.

use std::sync::Arc;

use aws_sdk_dynamodb::Client;

/// A DynamoDB table, reached through an `aws_sdk_dynamodb::Client`.
///
/// Cheap to clone: clones share the client and its connection pool.
///
/// ```
/// # fn example(client: aws_sdk_dynamodb::Client) {
/// // `client` comes from `aws_config::load_from_env()`, or from
/// // `dynamap::local::DynamoLocal` in tests.
/// let db = dynamap::Db::new(client, "app");
/// assert_eq!(db.table_name(), "app");
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Db {
    client: Client,
    table: Arc<str>,
}

impl Db {
    /// A handle on table `table` through `client`.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Self {
            client,
            table: Arc::from(table.into()),
        }
    }

    /// The SDK client, for anything dynamap does not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        &self.table
    }
}
