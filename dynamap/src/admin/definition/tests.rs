//! The renderings of one rich layout, each checked whole, and the SDK request checked
//! against the CreateTable JSON, so `create_table` and the templates cannot disagree.

use aws_sdk_dynamodb::operation::create_table::builders::CreateTableInputBuilder;
use serde_json::{Value, json};

use super::TableDefinition;
use crate::admin::sdk_request::create_table_request;
use crate::admin::{StreamView, TableOptions};
use crate::table::{IndexSchema, KeyAttributeSchema, Projection, ScalarType, TableSchema};

/// Every feature at once: a global index with its own capacity, a multi-attribute global
/// index that projects keys only, a local index with an include list, and TTL.
const RICH: TableSchema = TableSchema {
    type_name: "HelpDesk",
    pk: "PK",
    sk: Some("SK"),
    pk_type: ScalarType::String,
    sk_type: ScalarType::String,
    entity_type: "_type",
    ttl: Some("expires_at"),
    indexes: &[
        IndexSchema::for_tests("GSI1", "GSI1PK", "GSI1SK"),
        IndexSchema {
            pk_more: &[KeyAttributeSchema {
                name: "owner",
                kind: ScalarType::String,
            }],
            sk_more: &[KeyAttributeSchema {
                name: "number",
                kind: ScalarType::Number,
            }],
            projection: Projection::KeysOnly,
            ..IndexSchema::for_tests("ByStatus", "repo", "status")
        },
        IndexSchema {
            projection: Projection::Include(&["title"]),
            local: true,
            ..IndexSchema::for_tests("ByDate", "PK", "LSI1SK")
        },
    ],
};

/// A layout with no options beyond the defaults and no indexes.
const PLAIN: TableSchema = TableSchema {
    type_name: "App",
    pk: "PK",
    sk: None,
    pk_type: ScalarType::String,
    sk_type: ScalarType::String,
    entity_type: "_type",
    ttl: None,
    indexes: &[],
};

fn rich_options() -> TableOptions {
    TableOptions::new()
        .provisioned(10, 5)
        .index_provisioned("GSI1", 20, 4)
        .stream(StreamView::NewAndOldImages)
        .deletion_protection(true)
        .tag("team", "support")
        .tag("stage", "prod")
        .point_in_time_recovery(true)
}

fn rich() -> TableDefinition {
    TableDefinition::from_schema(&RICH, "helpdesk-prod".into(), &rich_options())
        .expect("valid options")
}

fn plain() -> TableDefinition {
    TableDefinition::from_schema(&PLAIN, "app".into(), &TableOptions::new()).expect("defaults")
}

fn rich_attributes() -> Value {
    json!([
        {"AttributeName": "GSI1PK", "AttributeType": "S"},
        {"AttributeName": "GSI1SK", "AttributeType": "S"},
        {"AttributeName": "LSI1SK", "AttributeType": "S"},
        {"AttributeName": "PK", "AttributeType": "S"},
        {"AttributeName": "SK", "AttributeType": "S"},
        {"AttributeName": "number", "AttributeType": "N"},
        {"AttributeName": "owner", "AttributeType": "S"},
        {"AttributeName": "repo", "AttributeType": "S"},
        {"AttributeName": "status", "AttributeType": "S"},
    ])
}

fn rich_global_indexes() -> Value {
    json!([
        {
            "IndexName": "GSI1",
            "KeySchema": [
                {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 20, "WriteCapacityUnits": 4},
        },
        {
            "IndexName": "ByStatus",
            "KeySchema": [
                {"AttributeName": "repo", "KeyType": "HASH"},
                {"AttributeName": "owner", "KeyType": "HASH"},
                {"AttributeName": "status", "KeyType": "RANGE"},
                {"AttributeName": "number", "KeyType": "RANGE"},
            ],
            // Keys only, plus the entity type that typed reads decode by.
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["_type"]},
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
        },
    ])
}

fn rich_local_indexes() -> Value {
    json!([{
        "IndexName": "ByDate",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "LSI1SK", "KeyType": "RANGE"},
        ],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["_type", "title"]},
    }])
}

fn table_key() -> Value {
    json!([
        {"AttributeName": "PK", "KeyType": "HASH"},
        {"AttributeName": "SK", "KeyType": "RANGE"},
    ])
}

#[test]
fn create_table_json_holds_every_option_in_the_api_names() {
    assert_eq!(
        rich().create_table_json(),
        json!({
            "TableName": "helpdesk-prod",
            "AttributeDefinitions": rich_attributes(),
            "KeySchema": table_key(),
            "GlobalSecondaryIndexes": rich_global_indexes(),
            "LocalSecondaryIndexes": rich_local_indexes(),
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
            "DeletionProtectionEnabled": true,
            "Tags": [{"Key": "team", "Value": "support"}, {"Key": "stage", "Value": "prod"}],
        })
    );
}

#[test]
fn an_on_demand_table_without_options_leaves_them_out() {
    assert_eq!(
        plain().create_table_json(),
        json!({
            "TableName": "app",
            "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST",
            "DeletionProtectionEnabled": false,
        })
    );
    assert_eq!(plain().update_time_to_live_json(), None);
    assert_eq!(plain().update_continuous_backups_json(), None);
}

#[test]
fn ttl_and_point_in_time_recovery_are_follow_up_requests() {
    assert_eq!(
        rich().update_time_to_live_json(),
        Some(json!({
            "TableName": "helpdesk-prod",
            "TimeToLiveSpecification": {"AttributeName": "expires_at", "Enabled": true},
        }))
    );
    assert_eq!(
        rich().update_continuous_backups_json(),
        Some(json!({
            "TableName": "helpdesk-prod",
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true},
        }))
    );
}

#[test]
fn the_sdk_request_says_what_the_json_says() {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .build();
    let client = aws_sdk_dynamodb::Client::from_conf(config);
    for definition in [rich(), plain()] {
        let request = create_table_request(&definition, client.create_table()).expect("request");
        assert_eq!(
            sdk_input_as_json(request.as_input()),
            definition.create_table_json()
        );
    }
}

/// The SDK's input in the API's JSON names, written out field by field.
fn sdk_input_as_json(input: &CreateTableInputBuilder) -> Value {
    let keys = |key: &[aws_sdk_dynamodb::types::KeySchemaElement]| -> Value {
        key.iter()
            .map(|k| json!({"AttributeName": k.attribute_name(), "KeyType": k.key_type().as_str()}))
            .collect()
    };
    let projection = |p: Option<&aws_sdk_dynamodb::types::Projection>| -> Value {
        let p = p.expect("projection");
        let kind = p.projection_type().expect("type").as_str();
        match p.non_key_attributes() {
            [] => json!({"ProjectionType": kind}),
            attributes => json!({"ProjectionType": kind, "NonKeyAttributes": attributes}),
        }
    };
    let throughput = |t: &aws_sdk_dynamodb::types::ProvisionedThroughput| json!({"ReadCapacityUnits": t.read_capacity_units(), "WriteCapacityUnits": t.write_capacity_units()});
    let mut out = json!({
        "TableName": input.get_table_name(),
        "AttributeDefinitions": input.get_attribute_definitions().as_deref().unwrap_or_default().iter()
            .map(|a| json!({"AttributeName": a.attribute_name(), "AttributeType": a.attribute_type().as_str()}))
            .collect::<Value>(),
        "KeySchema": keys(input.get_key_schema().as_deref().unwrap_or_default()),
        "BillingMode": input.get_billing_mode().as_ref().map(|b| b.as_str()),
        "DeletionProtectionEnabled": input.get_deletion_protection_enabled(),
    });
    if let Some(global) = input.get_global_secondary_indexes() {
        out["GlobalSecondaryIndexes"] = global
            .iter()
            .map(|i| {
                let mut index = json!({
                    "IndexName": i.index_name(),
                    "KeySchema": keys(i.key_schema()),
                    "Projection": projection(i.projection()),
                });
                if let Some(t) = i.provisioned_throughput() {
                    index["ProvisionedThroughput"] = throughput(t);
                }
                index
            })
            .collect();
    }
    if let Some(local) = input.get_local_secondary_indexes() {
        out["LocalSecondaryIndexes"] = local
            .iter()
            .map(|i| json!({"IndexName": i.index_name(), "KeySchema": keys(i.key_schema()), "Projection": projection(i.projection())}))
            .collect();
    }
    if let Some(t) = input.get_provisioned_throughput() {
        out["ProvisionedThroughput"] = throughput(t);
    }
    if let Some(s) = input.get_stream_specification() {
        out["StreamSpecification"] = json!({
            "StreamEnabled": s.stream_enabled(),
            "StreamViewType": s.stream_view_type().map(|v| v.as_str()),
        });
    }
    if let Some(tags) = input.get_tags() {
        out["Tags"] = tags
            .iter()
            .map(|t| json!({"Key": t.key(), "Value": t.value()}))
            .collect();
    }
    out
}

#[test]
fn cloudformation_uses_its_own_property_names() {
    assert_eq!(
        rich().cloudformation_template(),
        json!({
            "AWSTemplateFormatVersion": "2010-09-09",
            "Description": "DynamoDB table helpdesk-prod of layout HelpDesk, generated by dynamap",
            "Resources": {
                "HelpDesk": {
                    "Type": "AWS::DynamoDB::Table",
                    "Properties": {
                        "TableName": "helpdesk-prod",
                        "AttributeDefinitions": rich_attributes(),
                        "KeySchema": table_key(),
                        "GlobalSecondaryIndexes": rich_global_indexes(),
                        "LocalSecondaryIndexes": rich_local_indexes(),
                        "BillingMode": "PROVISIONED",
                        "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
                        // No `StreamEnabled` in CloudFormation: the view type turns it on.
                        "StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"},
                        "TimeToLiveSpecification": {"AttributeName": "expires_at", "Enabled": true},
                        "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true},
                        "DeletionProtectionEnabled": true,
                        "Tags": [{"Key": "team", "Value": "support"}, {"Key": "stage", "Value": "prod"}],
                    },
                },
            },
        })
    );
}

#[test]
fn cloudformation_yaml_is_the_template_under_a_comment() {
    let yaml = plain().cloudformation_yaml();
    assert_eq!(
        yaml,
        "# DynamoDB table `app` of layout `App`, generated by dynamap: edit the layout, not this file.\n\
         AWSTemplateFormatVersion: \"2010-09-09\"\n\
         Description: \"DynamoDB table app of layout App, generated by dynamap\"\n\
         Resources:\n\
         \x20 App:\n\
         \x20   Properties:\n\
         \x20     AttributeDefinitions:\n\
         \x20       - AttributeName: \"PK\"\n\
         \x20         AttributeType: \"S\"\n\
         \x20     BillingMode: \"PAY_PER_REQUEST\"\n\
         \x20     DeletionProtectionEnabled: false\n\
         \x20     KeySchema:\n\
         \x20       - AttributeName: \"PK\"\n\
         \x20         KeyType: \"HASH\"\n\
         \x20     TableName: \"app\"\n\
         \x20   Type: \"AWS::DynamoDB::Table\"\n"
    );
}

/// The expected document for the rich table, in the names of the AWS provider's
/// `aws_dynamodb_table` reference (arguments `name`, `billing_mode`, `hash_key`, ...; blocks
/// `attribute`, `global_secondary_index` with `key_schema`, `local_secondary_index`, `ttl`,
/// `point_in_time_recovery`).
#[test]
fn terraform_matches_the_providers_schema() {
    assert_eq!(
        rich().terraform_json(),
        json!({
            "//": "DynamoDB table helpdesk-prod of layout HelpDesk, generated by dynamap: edit the layout, not this file. Index(es) ByStatus have multi-attribute keys, written as key_schema blocks: they need the hashicorp/aws provider 6.29.0 or later.",
            "resource": {
                "aws_dynamodb_table": {
                    "help_desk": {
                        "name": "helpdesk-prod",
                        "billing_mode": "PROVISIONED",
                        "read_capacity": 10,
                        "write_capacity": 5,
                        "hash_key": "PK",
                        "range_key": "SK",
                        "attribute": [
                            {"name": "GSI1PK", "type": "S"},
                            {"name": "GSI1SK", "type": "S"},
                            {"name": "LSI1SK", "type": "S"},
                            {"name": "PK", "type": "S"},
                            {"name": "SK", "type": "S"},
                            {"name": "number", "type": "N"},
                            {"name": "owner", "type": "S"},
                            {"name": "repo", "type": "S"},
                            {"name": "status", "type": "S"},
                        ],
                        "global_secondary_index": [
                            {
                                "name": "GSI1",
                                "hash_key": "GSI1PK",
                                "range_key": "GSI1SK",
                                "projection_type": "ALL",
                                "read_capacity": 20,
                                "write_capacity": 4,
                            },
                            {
                                "name": "ByStatus",
                                "key_schema": [
                                    {"attribute_name": "repo", "key_type": "HASH"},
                                    {"attribute_name": "owner", "key_type": "HASH"},
                                    {"attribute_name": "status", "key_type": "RANGE"},
                                    {"attribute_name": "number", "key_type": "RANGE"},
                                ],
                                "projection_type": "INCLUDE",
                                "non_key_attributes": ["_type"],
                                "read_capacity": 10,
                                "write_capacity": 5,
                            },
                        ],
                        "local_secondary_index": [{
                            "name": "ByDate",
                            "range_key": "LSI1SK",
                            "projection_type": "INCLUDE",
                            "non_key_attributes": ["_type", "title"],
                        }],
                        "stream_enabled": true,
                        "stream_view_type": "NEW_AND_OLD_IMAGES",
                        "ttl": {"attribute_name": "expires_at", "enabled": true},
                        "point_in_time_recovery": {"enabled": true},
                        "deletion_protection_enabled": true,
                        "tags": {"team": "support", "stage": "prod"},
                    },
                },
            },
        })
    );
}

#[test]
fn terraform_without_multi_attribute_keys_needs_no_provider_note() {
    let document = plain().terraform_json();
    assert_eq!(
        document["//"],
        "DynamoDB table app of layout App, generated by dynamap: edit the layout, not this file."
    );
    let table = &document["resource"]["aws_dynamodb_table"]["app"];
    assert_eq!(table["billing_mode"], "PAY_PER_REQUEST");
    assert!(table.get("read_capacity").is_none() && table.get("range_key").is_none());
    assert!(table.get("ttl").is_none() && table.get("point_in_time_recovery").is_none());
}

#[test]
fn definition_refuses_what_create_table_refuses() {
    let unknown = TableOptions::new()
        .provisioned(1, 1)
        .index_provisioned("Nope", 1, 1);
    let err = TableDefinition::from_schema(&RICH, "t".into(), &unknown).expect_err("unknown index");
    assert!(
        matches!(&err, crate::Error::UnknownIndex { index, .. } if index == "Nope"),
        "{err:?}"
    );
    let local = TableOptions::new()
        .provisioned(1, 1)
        .index_provisioned("ByDate", 1, 1);
    let err =
        TableDefinition::from_schema(&RICH, "t".into(), &local).expect_err("local index capacity");
    assert!(
        matches!(
            err,
            crate::Error::InvalidSetting {
                setting: "index_provisioned",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn resource_names_come_from_the_layout() {
    let named = |type_name: &'static str| {
        let schema = TableSchema { type_name, ..PLAIN };
        TableDefinition::from_schema(&schema, "t".into(), &TableOptions::new()).expect("valid")
    };
    for (type_name, logical_id, label) in [
        ("App", "App", "app"),
        ("HelpDesk", "HelpDesk", "help_desk"),
        ("Sensor_Data2", "SensorData2", "sensor_data2"),
    ] {
        let definition = named(type_name);
        assert_eq!(definition.logical_id(), logical_id);
        assert_eq!(definition.terraform_label(), label);
    }
}
