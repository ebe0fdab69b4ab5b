//! CreateTable from a [`Table`] layout, with capacity, streams, protection and tags.

use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::time::Duration;

use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::types::{
    BillingMode, GlobalSecondaryIndex, LocalSecondaryIndex, PointInTimeRecoverySpecification,
    ProvisionedThroughput, StreamSpecification, StreamViewType, Tag, TimeToLiveSpecification,
    TimeToLiveStatus,
};
use tracing::Instrument;

use super::schema::{
    attribute_definitions, build_error, index_key, key_schema, projection, table_key,
};
use super::tag_limits::{MAX_KEY_CHARS, MAX_TAGS, MAX_VALUE_CHARS};
use crate::clone_builder::clone_builder;
use crate::error::ServiceError;
use crate::span::call_span;
use crate::table::{Table, TableSchema};
use crate::{Db, Error, Result};

/// How long creating a table waits for it to become active.
const ACTIVE_TIMEOUT: Duration = Duration::from_secs(300);

/// Read and write capacity units of a provisioned table or index.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// db.create_table::<App>().provisioned(10, 5).await?; // Throughput { read: 10, write: 5 }
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
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// use dynamap::admin::StreamView;
/// db.create_table::<App>().stream(StreamView::NewImage).await?;
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

impl StreamView {
    fn sdk(self) -> StreamViewType {
        match self {
            Self::KeysOnly => StreamViewType::KeysOnly,
            Self::NewImage => StreamViewType::NewImage,
            Self::OldImage => StreamViewType::OldImage,
            Self::NewAndOldImages => StreamViewType::NewAndOldImages,
        }
    }
}

/// A pending CreateTable for layout `T`, sent when awaited. Made by [`Db::create_table`].
///
/// By default the table is on-demand (pay per request), with every global and local
/// secondary index of `T`, no stream, no deletion protection, no tags, and time to live enabled on `T`'s
/// TTL attribute if it names one. The builder methods change that; every value is checked
/// against DynamoDB's limits before anything is sent.
///
/// When the table already exists, creating it succeeds and changes nothing but turning on
/// time to live (and point-in-time recovery, when asked for): compare an existing table
/// with its layout with [`Db::verify_table`].
///
/// # Examples
///
/// ```no_run
/// # use dynamap::Table;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// db.create_table::<App>().deletion_protection(true).tag("stage", "prod").await?;
/// # Ok(()) }
/// ```
#[must_use = "a CreateTable does nothing until it is awaited"]
pub struct CreateTable<T> {
    db: Db,
    table: Option<Throughput>,
    indexes: Vec<(String, Throughput)>,
    stream: Option<StreamView>,
    deletion_protection: bool,
    tags: Vec<(String, String)>,
    point_in_time_recovery: bool,
    layout: PhantomData<fn() -> T>,
}

clone_builder!(CreateTable<T> {
    db, table, indexes, stream, deletion_protection, tags, point_in_time_recovery, layout,
});

impl<T: Table> std::fmt::Debug for CreateTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateTable")
            .field("table", &self.db.table_name())
            .field("layout", &T::SCHEMA.type_name)
            .field("throughput", &self.table)
            .field("index_throughput", &self.indexes)
            .field("stream", &self.stream)
            .field("deletion_protection", &self.deletion_protection)
            .field("tags", &self.tags)
            .field("point_in_time_recovery", &self.point_in_time_recovery)
            .finish()
    }
}

impl Db {
    /// Creates this handle's table with layout `T`: on-demand billing, every global
    /// secondary index, and time to live enabled on the TTL attribute if `T` names one.
    /// Returns once the table is active.
    ///
    /// Safe to call when the table already exists: it then only makes sure TTL is enabled.
    /// The returned [`CreateTable`] takes provisioned capacity, a stream, deletion
    /// protection, tags and point-in-time recovery.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().await?;
    /// # Ok(()) }
    /// ```
    pub fn create_table<T: Table>(&self) -> CreateTable<T> {
        CreateTable {
            db: self.clone(),
            table: None,
            indexes: Vec::new(),
            stream: None,
            deletion_protection: false,
            tags: Vec::new(),
            point_in_time_recovery: false,
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
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().provisioned(10, 5).await?;
    /// # Ok(()) }
    /// ```
    pub fn provisioned(mut self, read: i64, write: i64) -> Self {
        self.table = Some(Throughput { read, write });
        self
    }

    /// The capacity of one global secondary index of a provisioned table.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().provisioned(10, 5).index_provisioned("GSI1", 20, 5).await?;
    /// # Ok(()) }
    /// ```
    pub fn index_provisioned(mut self, index: &str, read: i64, write: i64) -> Self {
        self.indexes.retain(|(name, _)| name != index);
        self.indexes
            .push((index.to_owned(), Throughput { read, write }));
        self
    }

    /// Turns on the table's DynamoDB stream, each record carrying `view` of the item.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// use dynamap::admin::StreamView;
    /// db.create_table::<App>().stream(StreamView::NewAndOldImages).await?;
    /// # Ok(()) }
    /// ```
    pub fn stream(mut self, view: StreamView) -> Self {
        self.stream = Some(view);
        self
    }

    /// Protects the table against deletion: [`Db::delete_table`] (and any DeleteTable)
    /// then fails until the protection is turned off.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().deletion_protection(true).await?;
    /// # Ok(()) }
    /// ```
    pub fn deletion_protection(mut self, on: bool) -> Self {
        self.deletion_protection = on;
        self
    }

    /// Adds a tag (at most 50; keys 1 to 128 characters, values up to 256).
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().tag("team", "sensors").tag("stage", "prod").await?;
    /// # Ok(()) }
    /// ```
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.push((key.into(), value.into()));
        self
    }

    /// Turns on point-in-time recovery once the table is active (UpdateContinuousBackups).
    /// DynamoDB Local does not implement it, so there this fails after creating the table.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().point_in_time_recovery(true).await?;
    /// # Ok(()) }
    /// ```
    pub fn point_in_time_recovery(mut self, on: bool) -> Self {
        self.point_in_time_recovery = on;
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
        let schema = T::SCHEMA;
        self.check(&schema)?;
        let db = self.db.clone();
        let span = call_span("CreateTable", db.table_name(), "");
        let created = db
            .client()
            .create_table()
            .table_name(db.table_name())
            .billing_mode(match self.table {
                Some(_) => BillingMode::Provisioned,
                None => BillingMode::PayPerRequest,
            })
            .set_provisioned_throughput(self.table.map(sdk_throughput).transpose()?)
            .set_attribute_definitions(Some(attribute_definitions(&schema)?))
            .set_key_schema(Some(key_schema(&table_key(&schema))?))
            .set_global_secondary_indexes(self.global_secondary_indexes(&schema)?)
            .set_local_secondary_indexes(local_secondary_indexes(&schema)?)
            .set_stream_specification(self.stream_specification()?)
            .deletion_protection_enabled(self.deletion_protection)
            .set_tags(self.sdk_tags()?)
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
        if let Some(attribute) = schema.ttl {
            enable_ttl(&db, attribute).await?;
        }
        if self.point_in_time_recovery {
            enable_point_in_time_recovery(&db).await?;
        }
        Ok(())
    }

    /// Every option against the layout and DynamoDB's limits, before sending.
    fn check(&self, schema: &TableSchema) -> Result<()> {
        let invalid =
            |setting: &'static str, reason: String| Err(Error::InvalidSetting { setting, reason });
        for (setting, name, throughput) in self
            .table
            .iter()
            .map(|t| ("provisioned", "the table", t))
            .chain(
                self.indexes
                    .iter()
                    .map(|(name, t)| ("index_provisioned", name.as_str(), t)),
            )
        {
            if throughput.read < 1 || throughput.write < 1 {
                return invalid(
                    setting,
                    format!(
                        "provisioned capacity of {name} must be at least 1 read and 1 write unit, not {} and {}",
                        throughput.read, throughput.write
                    ),
                );
            }
        }
        if let Some((name, _)) = self.indexes.first()
            && self.table.is_none()
        {
            return invalid(
                "index_provisioned",
                format!(
                    "index {name:?} is given provisioned capacity, but the table is on-demand; call provisioned(read, write) for the table too"
                ),
            );
        }
        if let Some((name, _)) = self
            .indexes
            .iter()
            .find(|(name, _)| schema.index(name).is_none())
        {
            return Err(Error::UnknownIndex {
                table: schema.type_name,
                index: name.clone(),
            });
        }
        if let Some((name, _)) = self
            .indexes
            .iter()
            .find(|(name, _)| schema.index(name).is_some_and(|i| i.local))
        {
            return invalid(
                "index_provisioned",
                format!(
                    "index {name:?} is local: it shares the table's capacity and has none of its own"
                ),
            );
        }
        if self.tags.len() > MAX_TAGS {
            return invalid(
                "tag",
                format!(
                    "{} tags given; a table has at most {MAX_TAGS}",
                    self.tags.len()
                ),
            );
        }
        for (i, (key, value)) in self.tags.iter().enumerate() {
            let key_chars = key.chars().count();
            if key_chars == 0 || key_chars > MAX_KEY_CHARS {
                return invalid(
                    "tag",
                    format!(
                        "tag key {key:?} is {key_chars} characters; tag keys are 1 to {MAX_KEY_CHARS}"
                    ),
                );
            }
            let value_chars = value.chars().count();
            if value_chars > MAX_VALUE_CHARS {
                return invalid(
                    "tag",
                    format!(
                        "the value of tag {key:?} is {value_chars} characters; tag values are at most {MAX_VALUE_CHARS}"
                    ),
                );
            }
            if self.tags[..i].iter().any(|(earlier, _)| earlier == key) {
                return invalid("tag", format!("tag {key:?} is given twice"));
            }
        }
        Ok(())
    }

    fn global_secondary_indexes(
        &self,
        schema: &TableSchema,
    ) -> Result<Option<Vec<GlobalSecondaryIndex>>> {
        let global: Vec<_> = schema.indexes.iter().filter(|i| !i.local).collect();
        if global.is_empty() {
            return Ok(None);
        }
        global
            .into_iter()
            .map(|index| {
                let own = self
                    .indexes
                    .iter()
                    .find(|(name, _)| name == index.name)
                    .map(|(_, t)| *t);
                GlobalSecondaryIndex::builder()
                    .index_name(index.name)
                    .set_key_schema(Some(key_schema(&index_key(index))?))
                    .projection(projection(schema, index.projection))
                    .set_provisioned_throughput(own.or(self.table).map(sdk_throughput).transpose()?)
                    .build()
                    .map_err(|err| build_error("CreateTable", err))
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    fn stream_specification(&self) -> Result<Option<StreamSpecification>> {
        self.stream
            .map(|view| {
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(view.sdk())
                    .build()
                    .map_err(|err| build_error("CreateTable", err))
            })
            .transpose()
    }

    fn sdk_tags(&self) -> Result<Option<Vec<Tag>>> {
        if self.tags.is_empty() {
            return Ok(None);
        }
        self.tags
            .iter()
            .map(|(key, value)| {
                Tag::builder()
                    .key(key)
                    .value(value)
                    .build()
                    .map_err(|err| build_error("CreateTable", err))
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }
}

fn local_secondary_indexes(schema: &TableSchema) -> Result<Option<Vec<LocalSecondaryIndex>>> {
    let local: Vec<_> = schema.indexes.iter().filter(|i| i.local).collect();
    if local.is_empty() {
        return Ok(None);
    }
    local
        .into_iter()
        .map(|index| {
            LocalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema(&index_key(index))?))
                .projection(projection(schema, index.projection))
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

impl<T: Table> IntoFuture for CreateTable<T> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

fn sdk_throughput(throughput: Throughput) -> Result<ProvisionedThroughput> {
    ProvisionedThroughput::builder()
        .read_capacity_units(throughput.read)
        .write_capacity_units(throughput.write)
        .build()
        .map_err(|err| build_error("CreateTable", err))
}

async fn enable_ttl(db: &Db, attribute: &str) -> Result<()> {
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

async fn enable_point_in_time_recovery(db: &Db) -> Result<()> {
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
