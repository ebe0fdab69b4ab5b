//! CreateTable from a [`Table`] layout, with capacity, streams, protection and tags.

use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::time::Duration;

use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::types::{
    PointInTimeRecoverySpecification, TimeToLiveSpecification, TimeToLiveStatus,
};
use tracing::Instrument;

use super::definition::TableDefinition;
use super::options::TableOptions;
use super::schema::build_error;
use super::sdk_request::create_table_request;
use crate::clone_builder::clone_builder;
use crate::error::ServiceError;
use crate::span::call_span;
use crate::table::Table;
use crate::{Error, Handle, Result};

/// How long creating a table waits for it to become active.
const ACTIVE_TIMEOUT: Duration = Duration::from_secs(300);

/// Read and write capacity units of a provisioned table or index.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// db.create_table().provisioned(10, 5).await?; // Throughput { read: 10, write: 5 }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Throughput {
    /// Read capacity units (at least 1).
    pub read: i64,
    /// Write capacity units (at least 1).
    pub write: i64,
}

/// What a DynamoDB stream record carries of the item it is about.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// use dynamap::admin::StreamView;
/// db.create_table().stream(StreamView::NewImage).await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamView {
    /// Only the key attributes.
    KeysOnly,
    /// The item as it is after the change.
    NewImage,
    /// The item as it was before the change.
    OldImage,
    /// Both: the item before and after the change.
    NewAndOldImages,
}

/// A pending CreateTable for layout `T`, sent when awaited. Made by [`Db::create_table`](crate::Db::create_table).
///
/// By default the table is on-demand (pay per request), with every global and local
/// secondary index of `T`, no stream, no deletion protection, no tags, and time to live enabled on `T`'s
/// TTL attribute if it names one. The builder methods change that; every value is checked
/// against DynamoDB's limits before anything is sent.
///
/// When the table already exists, creating it succeeds and changes nothing but turning on
/// time to live (and point-in-time recovery, when asked for): compare an existing table
/// with its layout with [`Db::verify_table`](crate::Db::verify_table).
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// db.create_table().deletion_protection(true).tag("stage", "prod").await?;
/// # Ok(()) }
/// ```
#[must_use = "a CreateTable does nothing until it is awaited"]
pub struct CreateTable<T> {
    db: Handle,
    options: TableOptions,
    layout: PhantomData<fn() -> T>,
}

clone_builder!(CreateTable<T> { db, options, layout });

impl<T: Table> std::fmt::Debug for CreateTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateTable")
            .field("table", &self.db.table_name())
            .field("layout", &T::SCHEMA.type_name)
            .field("options", &self.options)
            .finish()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Creates this handle's table with its layout `L`: on-demand billing, every global
    /// secondary index, and time to live enabled on the TTL attribute if `L` names one.
    /// Returns once the table is active.
    ///
    /// Safe to call when the table already exists: it then only makes sure TTL is enabled.
    /// The returned [`CreateTable`] takes provisioned capacity, a stream, deletion
    /// protection, tags and point-in-time recovery.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().await?;
    /// # Ok(()) }
    /// ```
    pub fn create_table(&self) -> CreateTable<L> {
        CreateTable {
            db: self.handle().clone(),
            options: TableOptions::new(),
            layout: PhantomData,
        }
    }
}

impl<T: Table> CreateTable<T> {
    /// Provisioned capacity instead of on-demand: `read` and `write` capacity units for the
    /// table, and for each index not given its own with [`index_provisioned`](Self::index_provisioned).
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().provisioned(10, 5).await?;
    /// # Ok(()) }
    /// ```
    pub fn provisioned(mut self, read: i64, write: i64) -> Self {
        self.options = self.options.provisioned(read, write);
        self
    }

    /// The capacity of one global secondary index of a provisioned table.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().provisioned(10, 5).index_provisioned("GSI1", 20, 5).await?;
    /// # Ok(()) }
    /// ```
    pub fn index_provisioned(mut self, index: &str, read: i64, write: i64) -> Self {
        self.options = self.options.index_provisioned(index, read, write);
        self
    }

    /// Turns on the table's DynamoDB stream, each record carrying `view` of the item.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// use dynamap::admin::StreamView;
    /// db.create_table().stream(StreamView::NewAndOldImages).await?;
    /// # Ok(()) }
    /// ```
    pub fn stream(mut self, view: StreamView) -> Self {
        self.options = self.options.stream(view);
        self
    }

    /// Protects the table against deletion: [`Db::delete_table`](crate::Db::delete_table) (and any DeleteTable)
    /// then fails until the protection is turned off.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().deletion_protection(true).await?;
    /// # Ok(()) }
    /// ```
    pub fn deletion_protection(mut self, on: bool) -> Self {
        self.options = self.options.deletion_protection(on);
        self
    }

    /// Adds a tag (at most 50; keys 1 to 128 characters, values up to 256).
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().tag("team", "sensors").tag("stage", "prod").await?;
    /// # Ok(()) }
    /// ```
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.options = self.options.tag(key, value);
        self
    }

    /// Turns on point-in-time recovery once the table is active (UpdateContinuousBackups).
    /// DynamoDB Local does not implement it, so there this fails after creating the table.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.create_table().point_in_time_recovery(true).await?;
    /// # Ok(()) }
    /// ```
    pub fn point_in_time_recovery(mut self, on: bool) -> Self {
        self.options = self.options.point_in_time_recovery(on);
        self
    }

    /// Creates the table (see [`CreateTable`]); `.await` on the builder does the same.
    ///
    /// # Errors
    ///
    /// Fails before sending with [`Error::InvalidSetting`] when an option breaks a limit or does
    /// not fit the layout (capacity, tags, an attribute given two key types), with
    /// [`Error::UnknownIndex`] when capacity is given to an index the layout does not have; with
    /// [`Error::Service`] when DynamoDB refuses a call or cannot be reached, or the table does not
    /// become active in time. A table that already exists is not an error.
    pub async fn send(self) -> Result<()> {
        let definition = self.definition()?;
        let db = self.db.clone();
        let span = call_span("CreateTable", db.table_name(), "");
        let created = create_table_request(&definition, db.client().create_table())?
            .send()
            .instrument(span)
            .await;
        match created {
            Ok(_) => {}
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_resource_in_use_exception()) => {}
            Err(err) => return Err(Error::service("CreateTable", err)),
        }
        db.client()
            .wait_until_table_exists()
            .table_name(db.table_name())
            .wait(ACTIVE_TIMEOUT)
            .await
            .map_err(|err| {
                Error::Service(ServiceError::other(
                    "DescribeTable",
                    format!("table `{}` did not become active: {err}", db.table_name()),
                    Some(std::sync::Arc::new(err)),
                ))
            })?;
        if let Some(attribute) = definition.ttl {
            enable_ttl(&db, attribute).await?;
        }
        if definition.point_in_time_recovery {
            enable_point_in_time_recovery(&db).await?;
        }
        Ok(())
    }

    /// What [`send`](Self::send) would create, written down for infrastructure as code:
    /// render it as a CreateTable request, a CloudFormation or a Terraform resource (see
    /// [`TableDefinition`]). It is the very description `send` builds its request from.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let definition = db.create_table().provisioned(10, 5).definition()?;
    /// println!("{}", definition.cloudformation_yaml());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The checks `send` makes before sending: [`Error::InvalidSetting`] when an option breaks
    /// a limit or does not fit the layout, [`Error::UnknownIndex`] when capacity is given to an
    /// index the layout does not have.
    pub fn definition(&self) -> Result<TableDefinition> {
        TableDefinition::from_schema(&T::SCHEMA, self.db.table_name().to_owned(), &self.options)
    }
}

impl<T: Table> IntoFuture for CreateTable<T> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

async fn enable_ttl(db: &Handle, attribute: &str) -> Result<()> {
    let current = db
        .client()
        .describe_time_to_live()
        .table_name(db.table_name())
        .send()
        .await
        .map_err(|err| Error::service("DescribeTimeToLive", err))?;
    let status = current
        .time_to_live_description()
        .and_then(|d| d.time_to_live_status());
    if matches!(
        status,
        Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
    ) {
        return Ok(());
    }
    let spec = TimeToLiveSpecification::builder()
        .enabled(true)
        .attribute_name(attribute)
        .build()
        .map_err(|err| build_error("UpdateTimeToLive", err))?;
    db.client()
        .update_time_to_live()
        .table_name(db.table_name())
        .time_to_live_specification(spec)
        .send()
        .await
        .map_err(|err| Error::service("UpdateTimeToLive", err))?;
    Ok(())
}

async fn enable_point_in_time_recovery(db: &Handle) -> Result<()> {
    let spec = PointInTimeRecoverySpecification::builder()
        .point_in_time_recovery_enabled(true)
        .build()
        .map_err(|err| build_error("UpdateContinuousBackups", err))?;
    db.client()
        .update_continuous_backups()
        .table_name(db.table_name())
        .point_in_time_recovery_specification(spec)
        .send()
        .await
        .map_err(|err| Error::service("UpdateContinuousBackups", err))?;
    Ok(())
}
