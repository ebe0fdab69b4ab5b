//! The handle every operation starts from.

use std::sync::Arc;

use aws_sdk_dynamodb::Client;

/// A DynamoDB table, reached through an `aws_sdk_dynamodb::Client`.
///
/// Cheap to clone: clones share the client and its connection pool. Every request builder
/// (`db.get(..)`, `db.query(..)`, `db.transaction()`, ...) keeps a clone, so the request is
/// `Send + 'static`: it can be spawned or stored without the `Db` it came from.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String }
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// let reads: Vec<_> = ["S1", "S2"]
///     .into_iter()
///     .map(|id| tokio::spawn(db.get(Sensor::key(id)).into_future()))
///     .collect();
/// for read in reads {
///     let sensor = read.await.expect("the task ran")?;
/// }
/// # Ok(()) }
/// ```
///
/// ```
/// # fn example(client: aws_sdk_dynamodb::Client) {
/// // `client` is `aws_sdk_dynamodb::Client::new(&config)`, with `config` from
/// // `aws_config::load_defaults(BehaviorVersion::latest()).await` (see the guide's
/// // real-dynamodb chapter), or `dynamap_local::DynamoLocal::client()` in tests.
/// let db = dynamap::Db::new(client, "app");
/// assert_eq!(db.table_name(), "app");
/// # }
/// ```
#[derive(Clone)]
pub struct Db {
    client: Client,
    table: Arc<str>,
    cursor_key: Option<Arc<[u8]>>,
    include_expired: bool,
    /// Whether the client encrypts items (the AWS Database Encryption SDK's interceptor):
    /// see [`Db::reads_whole_items`].
    whole_items: bool,
    /// Whether calls record metrics (and ask for their capacity): see [`Db::with_metrics`].
    #[cfg(feature = "metrics")]
    metrics: bool,
}

impl Db {
    /// A handle on table `table` through `client`.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        let whole_items = client
            .config()
            .interceptors()
            .any(|i| aws_sdk_dynamodb::config::Intercept::name(&i) == ENCRYPTION_INTERCEPTOR);
        Self {
            whole_items,
            client,
            table: Arc::from(table.into()),
            cursor_key: None,
            include_expired: false,
            #[cfg(feature = "metrics")]
            metrics: false,
        }
    }

    /// Signs page cursors with `key` (HMAC-SHA256), so clients given a cursor can neither
    /// forge nor alter one. Without a key, cursors are still bound to their query and
    /// checked for edits, but not secret. Use the same key in every process that reads the
    /// cursors; see [`Cursor`](crate::query::Cursor).
    pub fn with_cursor_key(mut self, key: impl AsRef<[u8]>) -> Self {
        self.cursor_key = Some(Arc::from(key.as_ref()));
        self
    }

    /// True when the client encrypts and signs items with the AWS Database Encryption
    /// SDK's interceptor, found by its name when the handle is made. The SDK verifies an
    /// item's signature over every signed attribute, so reads through it ask for whole
    /// items: projections (and dynamap's own projected reads, such as a lookup owner's
    /// records) are not sent, and the attributes a projection leaves out are read too.
    pub fn reads_whole_items(&self) -> bool {
        self.whole_items
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet.
    /// By default gets, queries, scans and batch gets hide them (on tables with a TTL
    /// attribute); each request can also opt out on its own with `include_expired()`.
    pub fn include_expired_items(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Records the capacity every call consumes (read and write units, on the table and
    /// on each index), its latency and its outcome, labeled by table, operation, entity
    /// type and index, through the [`metrics`](::metrics) facade: see
    /// [`dynamap::metrics`](crate::metrics) for the names and labels. Clones made after
    /// this call record too.
    ///
    /// Every call of such a handle asks DynamoDB for its consumed capacity per table and
    /// index (`ReturnConsumedCapacity::INDEXES`), which enlarges the responses; without it
    /// dynamap asks only when a tracing `DEBUG` listener is enabled, and records nothing.
    /// With no recorder installed the metrics go nowhere.
    ///
    /// ```
    /// # fn example(client: aws_sdk_dynamodb::Client) {
    /// let db = dynamap::Db::new(client, "app").with_metrics();
    /// # }
    /// ```
    #[cfg(feature = "metrics")]
    pub fn with_metrics(mut self) -> Self {
        self.metrics = true;
        self
    }

    /// Whether this handle records metrics ([`Db::with_metrics`]).
    #[cfg(feature = "metrics")]
    pub(crate) fn metrics_enabled(&self) -> bool {
        self.metrics
    }

    pub(crate) fn includes_expired(&self) -> bool {
        self.include_expired
    }

    /// The item `key` names, read with strong consistency, as stored: what a write that
    /// failed its condition reads to find out why, or to start over.
    pub(crate) async fn consistent_item(
        &self,
        key: crate::codec::Item,
    ) -> crate::Result<Option<crate::codec::Item>> {
        self.consistent_item_of(key, "").await
    }

    /// [`consistent_item`](Self::consistent_item), counted as a read of `entity`.
    pub(crate) async fn consistent_item_of(
        &self,
        key: crate::codec::Item,
        entity: &'static str,
    ) -> crate::Result<Option<crate::codec::Item>> {
        use tracing::Instrument;
        let call = crate::span::Call::new(self, "GetItem", entity, None);
        let result = self
            .client()
            .get_item()
            .table_name(self.table_name())
            .set_key(Some(key))
            .consistent_read(true)
            .set_return_consumed_capacity(call.capacity())
            .send()
            .instrument(call.span())
            .await;
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| crate::Error::service("GetItem", e))?;
        Ok(output.item)
    }

    pub(crate) fn cursor_key(&self) -> Option<&[u8]> {
        self.cursor_key.as_deref()
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

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The cursor key is a secret: say whether there is one, not what it is.
        f.debug_struct("Db")
            .field("table", &self.table)
            .field("cursor_key", &self.cursor_key.as_ref().map(|_| "<set>"))
            .finish_non_exhaustive()
    }
}

/// The name the AWS Database Encryption SDK's interceptor reports (`Intercept::name`).
const ENCRYPTION_INTERCEPTOR: &str = "DbEsdkInterceptor";
