//! The handle every operation starts from.

use std::marker::PhantomData;
use std::sync::Arc;

use aws_sdk_dynamodb::Client;

use crate::span::send_in;
use crate::table::Table;

/// A DynamoDB table of layout `L` (a `#[derive(Table)]` type), reached through an
/// `aws_sdk_dynamodb::Client`.
///
/// The handle knows its layout: every operation takes only entities of `L` (and enums of
/// them), so an entity of another layout is a compile error, never a write into the wrong
/// table. `Db::new(client, "app")` infers `L` from use; signatures name it (`Db<App>`).
/// A second layout over the same physical table is an explicit
/// [`with_layout`](Db::with_layout).
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
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
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
/// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # fn example(client: aws_sdk_dynamodb::Client) {
/// // `client` is `aws_sdk_dynamodb::Client::new(&config)`, with `config` from
/// // `aws_config::load_defaults(BehaviorVersion::latest()).await` (see the guide's
/// // real-dynamodb chapter), or `dynamap_local::DynamoLocal::client()` in tests.
/// let db: dynamap::Db<App> = dynamap::Db::new(client, "app");
/// assert_eq!(db.table_name(), "app");
/// # }
/// ```
pub struct Db<L> {
    handle: Handle,
    layout: PhantomData<fn() -> L>,
}

impl<L> Clone for Db<L> {
    fn clone(&self) -> Self {
        Self {
            handle: self.handle.clone(),
            layout: PhantomData,
        }
    }
}

impl<L: Table> Db<L> {
    /// A handle on table `table` through `client`.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Self::from_handle(Handle::new(client, table.into()))
    }

    pub(crate) fn from_handle(handle: Handle) -> Self {
        Self {
            handle,
            layout: PhantomData,
        }
    }

    /// The same table (and every setting of this handle) read through layout `M`: for a
    /// physical table two layouts share, such as a peer service's entities stored next to
    /// this one's. The only way to use another layout's entities; it is explicit on
    /// purpose, since `M`'s key attributes must be the table's.
    ///
    /// ```
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct Billing;
    /// # fn example(db: dynamap::Db<App>) {
    /// let billing: dynamap::Db<Billing> = db.with_layout::<Billing>();
    /// assert_eq!(billing.table_name(), db.table_name());
    /// # }
    /// ```
    pub fn with_layout<M: Table>(&self) -> Db<M> {
        Db::from_handle(self.handle.clone())
    }

    /// Signs page cursors with `key` (HMAC-SHA256), so clients given a cursor can neither
    /// forge nor alter one. Without a key, cursors are still bound to their query and
    /// checked for edits, but not secret. Use the same key in every process that reads the
    /// cursors; see [`Cursor`](crate::query::Cursor).
    pub fn with_cursor_key(mut self, key: impl AsRef<[u8]>) -> Self {
        self.handle.cursor_key = Some(Arc::from(key.as_ref()));
        self
    }

    /// True when the client encrypts and signs items with the AWS Database Encryption
    /// SDK's interceptor, found by its name when the handle is made. The SDK verifies an
    /// item's signature over every signed attribute, so reads through it ask for whole
    /// items: projections (and dynamap's own projected reads, such as a lookup owner's
    /// records) are not sent, and the attributes a projection leaves out are read too.
    pub fn reads_whole_items(&self) -> bool {
        self.handle.whole_items
    }

    /// Returns items whose time to live has passed but that DynamoDB has not deleted yet.
    /// By default gets, queries, scans and batch gets hide them (on tables with a TTL
    /// attribute); each request can also opt out on its own with `include_expired()`.
    pub fn include_expired_items(mut self) -> Self {
        self.handle.include_expired = true;
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
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # fn example(client: aws_sdk_dynamodb::Client) {
    /// let db: dynamap::Db<App> = dynamap::Db::new(client, "app").with_metrics();
    /// # }
    /// ```
    #[cfg(feature = "metrics")]
    pub fn with_metrics(mut self) -> Self {
        self.handle.metrics = true;
        self
    }

    /// The SDK client, for anything dynamap does not cover.
    pub fn client(&self) -> &Client {
        &self.handle.client
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        &self.handle.table
    }
}

impl<L> Db<L> {
    /// The handle without its layout, which request builders and the layers below keep.
    pub(crate) fn handle(&self) -> &Handle {
        &self.handle
    }

    pub(crate) fn includes_expired(&self) -> bool {
        self.handle.include_expired
    }
}

impl<L> std::fmt::Debug for Db<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The cursor key is a secret: say whether there is one, not what it is.
        f.debug_struct("Db")
            .field("layout", &std::any::type_name::<L>())
            .field("table", &self.handle.table)
            .field(
                "cursor_key",
                &self.handle.cursor_key.as_ref().map(|_| "<set>"),
            )
            .finish_non_exhaustive()
    }
}

/// What a [`Db`] holds, without its layout: the client, the table's name and every
/// setting. Request builders keep one (a builder of entity `E` was made by a `Db<E::Table>`,
/// so the layout is already checked), as do the layers below them.
#[derive(Clone)]
pub(crate) struct Handle {
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

impl Handle {
    fn new(client: Client, table: String) -> Self {
        let whole_items = client
            .config()
            .interceptors()
            .any(|i| aws_sdk_dynamodb::config::Intercept::name(&i) == ENCRYPTION_INTERCEPTOR);
        Self {
            whole_items,
            client,
            table: Arc::from(table),
            cursor_key: None,
            include_expired: false,
            #[cfg(feature = "metrics")]
            metrics: false,
        }
    }

    /// A handle on table `table` with every setting of this one (client, cursor key,
    /// expired items, metrics, encryption): how the library reaches a table other than
    /// the user's own, such as a rolled table, without losing what the user set.
    pub(crate) fn on_table(&self, table: &str) -> Self {
        Self {
            table: Arc::from(table),
            ..self.clone()
        }
    }

    /// See [`Db::reads_whole_items`].
    pub(crate) fn reads_whole_items(&self) -> bool {
        self.whole_items
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
        let call = crate::span::Call::new(self, "GetItem", entity, None);
        let result = send_in!(
            call,
            self.client()
                .get_item()
                .table_name(self.table_name())
                .set_key(Some(key))
                .consistent_read(true)
        );
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| crate::Error::service("GetItem", e))?;
        Ok(output.item)
    }

    pub(crate) fn cursor_key(&self) -> Option<&[u8]> {
        self.cursor_key.as_deref()
    }

    pub(crate) fn client(&self) -> &Client {
        &self.client
    }

    pub(crate) fn table_name(&self) -> &str {
        &self.table
    }
}

/// The name the AWS Database Encryption SDK's interceptor reports (`Intercept::name`).
const ENCRYPTION_INTERCEPTOR: &str = "DbEsdkInterceptor";
