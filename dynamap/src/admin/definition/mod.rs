//! Infrastructure as code: everything [`Db::create_table`](crate::Db::create_table) would
//! create, written down as a CreateTable request, a CloudFormation resource or a Terraform
//! resource.
//!
//! [`TableDefinition`] is the one description of a table that both `create_table` (which
//! turns it into the SDK's request) and the renderers read, so a template cannot drift from
//! what the application itself would create.

mod cloudformation;
mod create_json;
mod terraform;
mod yaml;

use aws_sdk_dynamodb::types::KeyType;

use super::TableOptions;
use super::schema::{included, index_key, key_attribute_types, table_key};
use super::{StreamView, Throughput};
use crate::Result;
use crate::table::{ScalarType, Table, TableSchema};

/// Everything creating a table makes, from its [`Table`] layout and its [`TableOptions`]:
/// key and attribute definitions, global and local secondary indexes with their projections
/// and capacity, billing mode, stream, deletion protection, tags, time to live and
/// point-in-time recovery.
///
/// Made by [`TableDefinition::new`] or [`CreateTable::definition`](super::CreateTable::definition),
/// and rendered as:
/// - [`create_table_json`](Self::create_table_json): the CreateTable request, as
///   `aws dynamodb create-table --cli-input-json` takes it. Time to live and point-in-time
///   recovery are not part of CreateTable: they are the follow-up requests
///   [`update_time_to_live_json`](Self::update_time_to_live_json) and
///   [`update_continuous_backups_json`](Self::update_continuous_backups_json);
/// - [`cloudformation_template`](Self::cloudformation_template) and
///   [`cloudformation_yaml`](Self::cloudformation_yaml): an `AWS::DynamoDB::Table` resource;
/// - [`terraform_json`](Self::terraform_json): an `aws_dynamodb_table` resource in
///   Terraform's JSON syntax (`*.tf.json`).
///
/// Like `create_table`, every index's projection holds the entity-type attribute that typed
/// reads decode by, so a table made from any of these passes [`Db::verify_table`](crate::Db::verify_table).
///
/// # Examples
///
/// ```
/// use dynamap::Table;
/// use dynamap::admin::{StreamView, TableDefinition, TableOptions};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK", ttl = "expires_at",
///           index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
/// struct App;
///
/// let options = TableOptions::new().provisioned(10, 5).stream(StreamView::NewImage);
/// let definition = TableDefinition::new::<App>("app-prod", &options)?;
///
/// let request = definition.create_table_json();
/// assert_eq!(request["TableName"], "app-prod");
/// assert_eq!(request["BillingMode"], "PROVISIONED");
/// // Time to live is a request of its own.
/// let ttl = definition.update_time_to_live_json().expect("the layout names a TTL attribute");
/// assert_eq!(ttl["TimeToLiveSpecification"]["AttributeName"], "expires_at");
///
/// let template = definition.cloudformation_template();
/// assert_eq!(template["Resources"]["App"]["Type"], "AWS::DynamoDB::Table");
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDefinition {
    pub(super) table_name: String,
    pub(super) layout: &'static str,
    pub(super) attributes: Vec<(&'static str, ScalarType)>,
    pub(super) key: Vec<(&'static str, KeyType)>,
    pub(super) global_indexes: Vec<IndexDefinition>,
    pub(super) local_indexes: Vec<IndexDefinition>,
    /// `None`: on-demand.
    pub(super) throughput: Option<Throughput>,
    pub(super) stream: Option<StreamView>,
    pub(super) deletion_protection: bool,
    pub(super) tags: Vec<(String, String)>,
    pub(super) ttl: Option<&'static str>,
    pub(super) point_in_time_recovery: bool,
}

/// One secondary index as it is created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct IndexDefinition {
    pub(super) name: &'static str,
    /// Every partition key attribute (`HASH`), then every sort key attribute (`RANGE`).
    pub(super) key: Vec<(&'static str, KeyType)>,
    /// The non-key attributes the index holds; `None` for all of them.
    pub(super) projection: Option<Vec<&'static str>>,
    /// A global index's capacity on a provisioned table; `None` for a local index or an
    /// on-demand table.
    pub(super) throughput: Option<Throughput>,
}

impl IndexDefinition {
    /// The attributes of one part of the key, in key order.
    pub(super) fn attributes(&self, role: KeyType) -> impl Iterator<Item = &'static str> + '_ {
        self.key
            .iter()
            .filter(move |(_, r)| *r == role)
            .map(|(name, _)| *name)
    }

    pub(super) fn is_multi_attribute(&self) -> bool {
        self.attributes(KeyType::Hash).count() > 1 || self.attributes(KeyType::Range).count() > 1
    }
}

impl TableDefinition {
    /// The definition of table `table_name` with layout `T` and `options`: what
    /// `db.create_table()` with the same options would create, without a connection.
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// use dynamap::admin::{TableDefinition, TableOptions};
    ///
    /// let definition = TableDefinition::new::<App>("app", &TableOptions::new())?;
    /// assert_eq!(definition.table_name(), "app");
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The checks [`CreateTable::send`](super::CreateTable::send) makes before sending:
    /// [`Error::InvalidSetting`](crate::Error::InvalidSetting) when an option breaks a limit
    /// or does not fit the layout (capacity, tags, an attribute given two key types), and
    /// [`Error::UnknownIndex`](crate::Error::UnknownIndex) when capacity is given to an index
    /// the layout does not have.
    pub fn new<T: Table>(table_name: impl Into<String>, options: &TableOptions) -> Result<Self> {
        Self::from_schema(&T::SCHEMA, table_name.into(), options)
    }

    pub(super) fn from_schema(
        schema: &TableSchema,
        table_name: String,
        options: &TableOptions,
    ) -> Result<Self> {
        options.check(schema)?;
        let attributes = key_attribute_types(schema)?.into_iter().collect();
        let index = |index: &crate::table::IndexSchema| IndexDefinition {
            name: index.name,
            key: index_key(index),
            projection: included(schema, index.projection),
            throughput: match index.local {
                true => None,
                false => options
                    .indexes
                    .iter()
                    .find(|(name, _)| name == index.name)
                    .map(|(_, t)| *t)
                    .or(options.table),
            },
        };
        Ok(Self {
            table_name,
            layout: schema.type_name,
            attributes,
            key: table_key(schema),
            global_indexes: schema
                .indexes
                .iter()
                .filter(|i| !i.local)
                .map(index)
                .collect(),
            local_indexes: schema
                .indexes
                .iter()
                .filter(|i| i.local)
                .map(index)
                .collect(),
            throughput: options.table,
            stream: options.stream,
            deletion_protection: options.deletion_protection,
            tags: options.tags.clone(),
            ttl: schema.ttl,
            point_in_time_recovery: options.point_in_time_recovery,
        })
    }

    /// The table's name.
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK")] struct App;
    /// # use dynamap::admin::{TableDefinition, TableOptions};
    /// let definition = TableDefinition::new::<App>("app", &TableOptions::new())?;
    /// assert_eq!(definition.table_name(), "app");
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn table_name(&self) -> &str {
        &self.table_name
    }

    /// The name of the Rust type that declared the layout (`App`), which the CloudFormation
    /// and Terraform renderings derive their resource names from.
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK")] struct App;
    /// # use dynamap::admin::{TableDefinition, TableOptions};
    /// let definition = TableDefinition::new::<App>("app", &TableOptions::new())?;
    /// assert_eq!(definition.layout(), "App");
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn layout(&self) -> &str {
        self.layout
    }
}

impl StreamView {
    /// DynamoDB's name for the view (`NEW_AND_OLD_IMAGES`), the same in every format.
    pub(super) fn code(self) -> &'static str {
        match self {
            Self::KeysOnly => "KEYS_ONLY",
            Self::NewImage => "NEW_IMAGE",
            Self::OldImage => "OLD_IMAGE",
            Self::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }
}

#[cfg(test)]
mod tests;
