//! The NoSQL Workbench model: the shape of a model NoSQL Workbench exported (a public AWS
//! sample, `tests/workbench/`), and a table equal to what `create_table` sends.

use dynamap::Table;
use dynamap::admin::{TableDefinition, TableOptions};
use serde_json::Value;

use super::{Shop, shop_model};
use example_support::tables::App;

fn sample() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/workbench/AnOnlineShop_facets.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("the sample model")).expect("JSON")
}

/// Keys NoSQL Workbench's newer exports carry that the 2020 sample predates.
const NEWER_KEYS: &[&str] = &["BillingMode"];

/// Every key of `ours` is a key of `theirs` at the same place, holding the same kind of
/// value (arrays compared by their first element); returns the keys checked.
fn same_shape(ours: &Value, theirs: &Value, path: &str, checked: &mut Vec<String>) {
    match (ours, theirs) {
        (Value::Object(ours), Value::Object(theirs)) => {
            for (key, value) in ours {
                let here = format!("{path}.{key}");
                match theirs.get(key) {
                    Some(their) => same_shape(value, their, &here, checked),
                    None if NEWER_KEYS.contains(&key.as_str()) => {}
                    // Item attributes are the model's own.
                    None if path.ends_with("TableData[]") || path.ends_with(".M") => {}
                    None => panic!("{here} is not in NoSQL Workbench's format"),
                }
                checked.push(here);
            }
        }
        (Value::Array(ours), Value::Array(theirs)) => {
            if let (Some(ours), Some(theirs)) = (ours.first(), theirs.first()) {
                same_shape(ours, theirs, &format!("{path}[]"), checked);
            }
        }
        (ours, theirs) => assert_eq!(
            std::mem::discriminant(ours),
            std::mem::discriminant(theirs),
            "{path}: {ours} where the sample has {theirs}"
        ),
    }
}

#[test]
fn model_has_the_shape_of_a_model_nosql_workbench_exported() {
    let theirs = sample();
    for ours in [
        example_support::sensors::model()
            .expect("the model")
            .workbench_json(),
        shop_model().expect("the model").workbench_json(),
    ] {
        let ours = ours.expect("the model");
        let mut checked = Vec::new();
        same_shape(&ours, &theirs, "", &mut checked);
        // Everything a facet and a table need is there.
        for key in [
            ".ModelName",
            ".ModelMetadata",
            ".DataModel[].TableName",
            ".DataModel[].KeyAttributes.PartitionKey.AttributeName",
            ".DataModel[].KeyAttributes.SortKey.AttributeType",
            ".DataModel[].NonKeyAttributes[].AttributeName",
            ".DataModel[].TableFacets[].FacetName",
            ".DataModel[].TableFacets[].KeyAttributeAlias.PartitionKeyAlias",
            ".DataModel[].TableFacets[].KeyAttributeAlias.SortKeyAlias",
            ".DataModel[].TableFacets[].TableData",
            ".DataModel[].TableFacets[].NonKeyAttributes",
            ".DataModel[].GlobalSecondaryIndexes[].IndexName",
            ".DataModel[].GlobalSecondaryIndexes[].Projection.ProjectionType",
            ".DataModel[].BillingMode",
        ] {
            assert!(checked.iter().any(|c| c == key), "{key} missing");
        }
        // As NoSQL Workbench asks: a facet's attributes are the table's, and every attribute
        // of a sample item is a key or one of its facet's.
        let table = &ours["DataModel"][0];
        let declared: Vec<&str> = table["NonKeyAttributes"]
            .as_array()
            .expect("attributes")
            .iter()
            .map(|a| a["AttributeName"].as_str().expect("a name"))
            .collect();
        for facet in table["TableFacets"].as_array().expect("facets") {
            let names: Vec<&str> = facet["NonKeyAttributes"]
                .as_array()
                .expect("names")
                .iter()
                .map(|n| n.as_str().expect("a name"))
                .collect();
            assert!(names.iter().all(|n| declared.contains(n)), "{facet}");
            for item in facet["TableData"].as_array().expect("items") {
                for name in item.as_object().expect("an item").keys() {
                    assert!(
                        ["PK", "SK"].contains(&name.as_str()) || names.contains(&name.as_str()),
                        "{name} of {facet}"
                    );
                }
            }
        }
    }
}

/// The Workbench table against the CreateTable request of the same layout: key schema,
/// attribute types, global indexes with their projections, billing mode.
fn assert_table_is_create_table<L: Table>(name: &str, left_out: &[&str]) {
    let definition = TableDefinition::new::<L>(name, &TableOptions::new()).expect("a definition");
    let request = definition.create_table_json();
    let type_of = |attribute: &str| {
        request["AttributeDefinitions"]
            .as_array()
            .expect("definitions")
            .iter()
            .find(|d| d["AttributeName"] == attribute)
            .map(|d| d["AttributeType"].clone())
            .expect("a defined attribute")
    };
    let key = |schema: &Value| -> Value {
        let mut out = serde_json::Map::new();
        for k in schema.as_array().expect("a key schema") {
            let role = if k["KeyType"] == "HASH" {
                "PartitionKey"
            } else {
                "SortKey"
            };
            let attribute = k["AttributeName"].as_str().expect("a name");
            out.insert(
                role.into(),
                serde_json::json!({"AttributeName": attribute, "AttributeType": type_of(attribute)}),
            );
        }
        Value::Object(out)
    };
    let model = match name {
        "sensors" => example_support::sensors::model()
            .expect("the model")
            .workbench_json(),
        _ => super::shop_model().expect("the model").workbench_json(),
    }
    .expect("the model");
    let table = &model["DataModel"][0];
    assert_eq!(table["TableName"], request["TableName"]);
    assert_eq!(table["KeyAttributes"], key(&request["KeySchema"]));
    assert_eq!(table["BillingMode"], request["BillingMode"]);
    let indexes: Vec<Value> = request["GlobalSecondaryIndexes"]
        .as_array()
        .expect("indexes")
        .iter()
        .filter(|i| !left_out.iter().any(|name| i["IndexName"] == *name))
        .map(|i| {
            serde_json::json!({
                "IndexName": i["IndexName"],
                "KeyAttributes": key(&i["KeySchema"]),
                "Projection": i["Projection"],
            })
        })
        .collect();
    assert_eq!(table["GlobalSecondaryIndexes"], Value::Array(indexes));
    // CloudFormation's resource declares the same keys.
    let resource = definition.cloudformation_template();
    let properties = resource["Resources"]
        .as_object()
        .and_then(|r| r.values().next())
        .map(|r| &r["Properties"])
        .expect("a resource");
    assert_eq!(key(&properties["KeySchema"]), table["KeyAttributes"]);
}

#[test]
fn model_table_is_the_create_table_request_of_its_layout() {
    assert_table_is_create_table::<App>("sensors", &[]);
    // NoSQL Workbench's format has no multi-attribute key and no local index.
    assert_table_is_create_table::<Shop>("shop", &["ByStatus"]);
    let shop = shop_model()
        .expect("the model")
        .workbench_json()
        .expect("the model");
    assert!(shop["DataModel"][0].get("LocalSecondaryIndexes").is_none());
}

#[test]
fn facets_hold_the_items_a_put_stores_with_their_key_templates_as_aliases() {
    let model = example_support::sensors::model().expect("the model");
    let json = model.workbench_json().expect("the model");
    let facets = json["DataModel"][0]["TableFacets"]
        .as_array()
        .expect("facets");
    let names: Vec<&str> = facets
        .iter()
        .map(|f| f["FacetName"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["Sensor", "Sensor.site", "Reading"]);
    assert_eq!(
        facets[0]["KeyAttributeAlias"]["PartitionKeyAlias"],
        "SENSOR#{id}"
    );
    assert_eq!(facets[0]["KeyAttributeAlias"]["SortKeyAlias"], "SENSORINFO");
    assert_eq!(
        facets[1]["KeyAttributeAlias"]["SortKeyAlias"],
        "BUILDING#{building}#{floor}#{id}"
    );
    let sensor = &facets[0]["TableData"][0];
    assert_eq!(sensor["PK"]["S"], "SENSOR#humidity-sensor-1");
    assert_eq!(sensor["GSI1SK"]["S"], "LOC#A#3#112");
    assert_eq!(sensor["_type"]["S"], "Sensor");
    // The roof sensor has no room, so no index attributes: the index stays sparse.
    assert!(facets[0]["TableData"][1].get("GSI1PK").is_none());
    assert_eq!(
        facets[1]["TableData"][0]["_owner_pk"]["S"],
        "SENSOR#humidity-sensor-1"
    );
    assert_eq!(facets[2]["TableData"][1]["value"]["N"], "0.51");
    // Types come from the stored items: the reading's value is a number.
    let value = json["DataModel"][0]["NonKeyAttributes"]
        .as_array()
        .expect("attributes")
        .iter()
        .find(|a| a["AttributeName"] == "value")
        .cloned();
    assert_eq!(
        value,
        Some(serde_json::json!({"AttributeName": "value", "AttributeType": "N"}))
    );
}
