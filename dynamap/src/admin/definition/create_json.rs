//! The CreateTable request and its follow-ups as JSON, in the API's own PascalCase names:
//! the input `aws dynamodb create-table --cli-input-json` (and every SDK's JSON form) takes.

use aws_sdk_dynamodb::types::KeyType;
use serde_json::{Map, Value, json};

use super::{IndexDefinition, TableDefinition};
use crate::admin::Throughput;

impl TableDefinition {
    /// The CreateTable request: `TableName`, `AttributeDefinitions`, `KeySchema`,
    /// `GlobalSecondaryIndexes` and `LocalSecondaryIndexes` (when the layout has them),
    /// `BillingMode`, `ProvisionedThroughput` (when provisioned), `StreamSpecification`,
    /// `DeletionProtectionEnabled` and `Tags` (when given).
    ///
    /// Save it to a file and run `aws dynamodb create-table --cli-input-json file://table.json`.
    /// CreateTable cannot turn on time to live or point-in-time recovery: send
    /// [`update_time_to_live_json`](Self::update_time_to_live_json) and
    /// [`update_continuous_backups_json`](Self::update_continuous_backups_json) once the table
    /// is active, as [`CreateTable`](crate::admin::CreateTable) itself does.
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// use dynamap::admin::{TableDefinition, TableOptions};
    ///
    /// let definition = TableDefinition::new::<App>("app", &TableOptions::new())?;
    /// let request = definition.create_table_json();
    /// assert_eq!(request["BillingMode"], "PAY_PER_REQUEST");
    /// assert_eq!(request["KeySchema"][1], serde_json::json!({"AttributeName": "SK", "KeyType": "RANGE"}));
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn create_table_json(&self) -> Value {
        let mut request = Map::new();
        request.insert("TableName".into(), json!(self.table_name));
        request.insert(
            "AttributeDefinitions".into(),
            self.attributes
                .iter()
                .map(|(name, kind)| json!({"AttributeName": name, "AttributeType": kind.code()}))
                .collect(),
        );
        request.insert("KeySchema".into(), key_schema(&self.key));
        if !self.global_indexes.is_empty() {
            request.insert(
                "GlobalSecondaryIndexes".into(),
                self.global_indexes.iter().map(index).collect(),
            );
        }
        if !self.local_indexes.is_empty() {
            request.insert(
                "LocalSecondaryIndexes".into(),
                self.local_indexes.iter().map(index).collect(),
            );
        }
        request.insert("BillingMode".into(), json!(self.billing_mode()));
        if let Some(throughput) = self.throughput {
            request.insert("ProvisionedThroughput".into(), provisioned(throughput));
        }
        if let Some(view) = self.stream {
            request.insert(
                "StreamSpecification".into(),
                json!({"StreamEnabled": true, "StreamViewType": view.code()}),
            );
        }
        request.insert(
            "DeletionProtectionEnabled".into(),
            json!(self.deletion_protection),
        );
        if !self.tags.is_empty() {
            request.insert("Tags".into(), tags(&self.tags));
        }
        Value::Object(request)
    }

    /// The UpdateTimeToLive request that turns on time to live for the layout's TTL
    /// attribute, or `None` when the layout names none. Send it after CreateTable
    /// (`aws dynamodb update-time-to-live --cli-input-json`).
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK", ttl = "expires_at")] struct App;
    /// # use dynamap::admin::{TableDefinition, TableOptions};
    /// let definition = TableDefinition::new::<App>("app", &TableOptions::new())?;
    /// let ttl = definition.update_time_to_live_json().unwrap();
    /// assert_eq!(ttl["TimeToLiveSpecification"]["Enabled"], true);
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn update_time_to_live_json(&self) -> Option<Value> {
        self.ttl.map(|attribute| {
            json!({
                "TableName": self.table_name,
                "TimeToLiveSpecification": {"AttributeName": attribute, "Enabled": true},
            })
        })
    }

    /// The UpdateContinuousBackups request that turns on point-in-time recovery, or `None`
    /// when it was not asked for. Send it once the table is active
    /// (`aws dynamodb update-continuous-backups --cli-input-json`).
    ///
    /// ```
    /// # use dynamap::Table;
    /// # #[derive(Table)] #[dynamap(pk = "PK")] struct App;
    /// # use dynamap::admin::{TableDefinition, TableOptions};
    /// let options = TableOptions::new().point_in_time_recovery(true);
    /// let definition = TableDefinition::new::<App>("app", &options)?;
    /// let backups = definition.update_continuous_backups_json().unwrap();
    /// assert_eq!(
    ///     backups["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"],
    ///     true
    /// );
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn update_continuous_backups_json(&self) -> Option<Value> {
        self.point_in_time_recovery.then(|| {
            json!({
                "TableName": self.table_name,
                "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true},
            })
        })
    }

    /// `PROVISIONED` or `PAY_PER_REQUEST`, DynamoDB's names in every format.
    pub(super) fn billing_mode(&self) -> &'static str {
        match self.throughput {
            Some(_) => "PROVISIONED",
            None => "PAY_PER_REQUEST",
        }
    }
}

/// `KeySchema` in CreateTable's and CloudFormation's shape (the two agree).
pub(super) fn key_schema(key: &[(&str, KeyType)]) -> Value {
    key.iter()
        .map(|(name, role)| json!({"AttributeName": name, "KeyType": role.as_str()}))
        .collect()
}

/// `Projection` in CreateTable's and CloudFormation's shape.
pub(super) fn projection(index: &IndexDefinition) -> Value {
    match &index.projection {
        None => json!({"ProjectionType": "ALL"}),
        Some(attributes) => json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": attributes}),
    }
}

/// `ProvisionedThroughput` in CreateTable's and CloudFormation's shape.
pub(super) fn provisioned(throughput: Throughput) -> Value {
    json!({
        "ReadCapacityUnits": throughput.read,
        "WriteCapacityUnits": throughput.write,
    })
}

/// `Tags` in CreateTable's and CloudFormation's shape.
pub(super) fn tags(tags: &[(String, String)]) -> Value {
    tags.iter()
        .map(|(key, value)| json!({"Key": key, "Value": value}))
        .collect()
}

/// A secondary index in CreateTable's and CloudFormation's shape.
pub(super) fn index(index: &IndexDefinition) -> Value {
    let mut out = Map::new();
    out.insert("IndexName".into(), json!(index.name));
    out.insert("KeySchema".into(), key_schema(&index.key));
    out.insert("Projection".into(), projection(index));
    if let Some(throughput) = index.throughput {
        out.insert("ProvisionedThroughput".into(), provisioned(throughput));
    }
    Value::Object(out)
}
