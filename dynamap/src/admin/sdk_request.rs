//! A [`TableDefinition`] as the SDK's CreateTable request: a field-by-field mapping, so the
//! layout decisions stay in the definition that the infrastructure renderings read too.

use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ProvisionedThroughput, ScalarAttributeType,
    StreamSpecification, StreamViewType, Tag,
};

use super::Throughput;
use super::definition::{IndexDefinition, TableDefinition};
use super::schema::build_error;
use crate::Result;

/// `builder` (a client's `create_table()`) filled in from `definition`.
pub(super) fn create_table_request(
    definition: &TableDefinition,
    builder: CreateTableFluentBuilder,
) -> Result<CreateTableFluentBuilder> {
    let attributes = definition
        .attributes
        .iter()
        .map(|(name, kind)| {
            AttributeDefinition::builder()
                .attribute_name(*name)
                .attribute_type(ScalarAttributeType::from(kind.code()))
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()?;
    let global = definition
        .global_indexes
        .iter()
        .map(|index| {
            GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema(&index.key)?))
                .projection(projection(index))
                .set_provisioned_throughput(index.throughput.map(throughput).transpose()?)
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()?;
    let local = definition
        .local_indexes
        .iter()
        .map(|index| {
            LocalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema(&index.key)?))
                .projection(projection(index))
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()?;
    let stream = definition
        .stream
        .map(|view| {
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(StreamViewType::from(view.code()))
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .transpose()?;
    let tags = definition
        .tags
        .iter()
        .map(|(key, value)| {
            Tag::builder()
                .key(key)
                .value(value)
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(builder
        .table_name(&definition.table_name)
        .billing_mode(match definition.throughput {
            Some(_) => BillingMode::Provisioned,
            None => BillingMode::PayPerRequest,
        })
        .set_provisioned_throughput(definition.throughput.map(throughput).transpose()?)
        .set_attribute_definitions(Some(attributes))
        .set_key_schema(Some(key_schema(&definition.key)?))
        .set_global_secondary_indexes((!global.is_empty()).then_some(global))
        .set_local_secondary_indexes((!local.is_empty()).then_some(local))
        .set_stream_specification(stream)
        .deletion_protection_enabled(definition.deletion_protection)
        .set_tags((!tags.is_empty()).then_some(tags)))
}

fn key_schema(key: &[(&str, KeyType)]) -> Result<Vec<KeySchemaElement>> {
    key.iter()
        .map(|(name, key_type)| {
            KeySchemaElement::builder()
                .attribute_name(*name)
                .key_type(key_type.clone())
                .build()
                .map_err(|err| build_error("CreateTable", err))
        })
        .collect()
}

fn projection(index: &IndexDefinition) -> Projection {
    match &index.projection {
        None => Projection::builder().projection_type(ProjectionType::All),
        Some(attributes) => Projection::builder()
            .projection_type(ProjectionType::Include)
            .set_non_key_attributes(Some(attributes.iter().map(|a| (*a).to_owned()).collect())),
    }
    .build()
}

fn throughput(throughput: Throughput) -> Result<ProvisionedThroughput> {
    ProvisionedThroughput::builder()
        .read_capacity_units(throughput.read)
        .write_capacity_units(throughput.write)
        .build()
        .map_err(|err| build_error("CreateTable", err))
}
