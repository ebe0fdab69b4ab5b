//! CreateTable from a [`Table`] layout.

use std::collections::BTreeMap;
use std::time::Duration;

use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    Projection as SdkProjection, ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
    TimeToLiveStatus,
};
use tracing::Instrument;

use super::call_span;
use crate::table::{Projection, ScalarType, Table, TableSchema};
use crate::{Db, Error, Result};

/// How long [`Db::create_table`] waits for a new table to become active.
const ACTIVE_TIMEOUT: Duration = Duration::from_secs(300);

impl Db {
    /// Creates this handle's table with layout `T`: on-demand billing, every global
    /// secondary index, and time to live enabled on the TTL attribute if `T` names one.
    ///
    /// Safe to call when the table already exists: it then only makes sure TTL is enabled.
    /// Returns once the table is active.
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.create_table::<App>().await?;
    /// # Ok(()) }
    /// ```
    pub async fn create_table<T: Table>(&self) -> Result<()> {
        let schema = T::SCHEMA;
        let span = call_span("CreateTable", self.table_name(), "");
        let created = self
            .client()
            .create_table()
            .table_name(self.table_name())
            .billing_mode(BillingMode::PayPerRequest)
            .set_attribute_definitions(Some(attribute_definitions(&schema)?))
            .set_key_schema(Some(key_schema([schema.pk], schema.sk)?))
            .set_global_secondary_indexes(global_secondary_indexes(&schema)?)
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
        self.client()
            .wait_until_table_exists()
            .table_name(self.table_name())
            .wait(ACTIVE_TIMEOUT)
            .await
            .map_err(|err| Error::Service {
                operation: "DescribeTable",
                code: None,
                message: format!("table `{}` did not become active: {err}", self.table_name()),
                source: Box::new(err),
            })?;
        if let Some(attribute) = schema.ttl {
            self.enable_ttl(attribute).await?;
        }
        Ok(())
    }

    async fn enable_ttl(&self, attribute: &str) -> Result<()> {
        let current = self
            .client()
            .describe_time_to_live()
            .table_name(self.table_name())
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
        self.client()
            .update_time_to_live()
            .table_name(self.table_name())
            .time_to_live_specification(spec)
            .send()
            .await
            .map_err(|err| Error::service("UpdateTimeToLive", err))?;
        Ok(())
    }
}

fn build_error(operation: &'static str, err: aws_sdk_dynamodb::error::BuildError) -> Error {
    Error::Service {
        operation,
        code: None,
        message: err.to_string(),
        source: Box::new(err),
    }
}

fn attribute_definitions(schema: &TableSchema) -> Result<Vec<AttributeDefinition>> {
    let mut types: BTreeMap<&str, ScalarType> = BTreeMap::new();
    types.insert(schema.pk, ScalarType::String);
    if let Some(sk) = schema.sk {
        types.insert(sk, ScalarType::String);
    }
    for index in schema.indexes {
        for (name, kind) in index.pk_attributes().chain(index.sk_attributes()) {
            if let Some(declared) = types.insert(name, kind)
                && declared != kind
            {
                return Err(Error::InvalidRequest {
                    reason: format!(
                        "attribute `{name}` is a key of type {} and of type {} in layout `{}`",
                        declared.code(),
                        kind.code(),
                        schema.type_name
                    ),
                });
            }
        }
    }
    types
        .into_iter()
        .map(|(name, kind)| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::from(kind.code()))
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect()
}

/// The key schema: every partition key attribute (`HASH`), then every sort key attribute
/// (`RANGE`), in key order.
fn key_schema<'a>(
    pk: impl IntoIterator<Item = &'a str>,
    sk: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<KeySchemaElement>> {
    let pk = pk.into_iter().map(|name| (name, KeyType::Hash));
    let sk = sk.into_iter().map(|name| (name, KeyType::Range));
    pk.chain(sk)
        .map(|(name, key_type)| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(key_type)
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect()
}

fn global_secondary_indexes(schema: &TableSchema) -> Result<Option<Vec<GlobalSecondaryIndex>>> {
    if schema.indexes.is_empty() {
        return Ok(None);
    }
    schema
        .indexes
        .iter()
        .map(|index| {
            let projection = match index.projection {
                Projection::All => SdkProjection::builder().projection_type(ProjectionType::All),
                Projection::KeysOnly => {
                    SdkProjection::builder().projection_type(ProjectionType::KeysOnly)
                }
                Projection::Include(attributes) => SdkProjection::builder()
                    .projection_type(ProjectionType::Include)
                    .set_non_key_attributes(Some(
                        attributes.iter().map(|a| (*a).to_owned()).collect(),
                    )),
            };
            GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema(
                    index.pk_attributes().map(|(name, _)| name),
                    index.sk_attributes().map(|(name, _)| name),
                )?))
                .projection(projection.build())
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}
