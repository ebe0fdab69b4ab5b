//! The model as a NoSQL Workbench data model, in the shape of the sample models AWS
//! publishes (`ModelName`, `ModelMetadata`, `DataModel` with `KeyAttributes`,
//! `NonKeyAttributes`, `TableFacets`, `GlobalSecondaryIndexes`). The table part is made
//! from the CreateTable request `create_table` sends, so the two cannot disagree.

use serde_json::{Map, Value, json};

use super::Model;
use super::json::{dynamodb_json, type_of, type_of_rust};
use crate::Result;
use crate::admin::{TableDefinition, TableOptions};
use crate::codec::Item;
use crate::description::KeyDescription;
use crate::entity::{OWNER_PK, OWNER_SK};
use crate::table::Table;

pub(crate) fn render<L: Table>(model: &Model<L>) -> Result<Value> {
    let request = TableDefinition::new::<L>(&model.name, &TableOptions::new())?.create_table_json();
    let types: Vec<(String, String)> = request["AttributeDefinitions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let name = d["AttributeName"].as_str().unwrap_or_default().to_owned();
            (name, d["AttributeType"].as_str().unwrap_or("S").to_owned())
        })
        .collect();
    let key_attributes = |schema: &Value| -> Option<Value> {
        let mut out = Map::new();
        for (role, name) in [("HASH", "PartitionKey"), ("RANGE", "SortKey")] {
            let mut of_role = schema
                .as_array()?
                .iter()
                .filter(|k| k["KeyType"] == role)
                .map(|k| k["AttributeName"].as_str().unwrap_or_default());
            if let Some(attribute) = of_role.next() {
                // A multi-attribute key: not in NoSQL Workbench's format.
                if of_role.next().is_some() {
                    return None;
                }
                let kind = types
                    .iter()
                    .find(|(n, _)| n == attribute)
                    .map_or("S", |(_, t)| t);
                out.insert(
                    name.into(),
                    json!({"AttributeName": attribute, "AttributeType": kind}),
                );
            }
        }
        Some(Value::Object(out))
    };
    let schema = L::SCHEMA;
    let table_keys: Vec<&str> = std::iter::once(schema.pk).chain(schema.sk).collect();
    let mut attributes = Attributes::default();
    let mut facets = Vec::new();
    for entry in &model.entries {
        let d = entry.description;
        let mut names = vec![schema.entity_type.to_owned()];
        for key in d.keys.iter().filter(|k| !k.index.is_empty()) {
            if let Some(index) = schema.index(key.index) {
                let attrs = index
                    .pk_attributes()
                    .filter(|_| !index.local)
                    .chain(index.sk_attributes());
                for (attribute, kind) in attrs {
                    attributes.note(attribute, kind.code());
                    names.push(attribute.to_owned());
                }
            }
        }
        for (_, attribute, ty) in d.fields {
            if !table_keys.contains(attribute) {
                attributes.note(attribute, type_of_rust(ty));
                names.push((*attribute).to_owned());
            }
        }
        facets.push(facet(
            d.entity,
            &d.keys[..1.min(d.keys.len())],
            names,
            &entry.items,
            &table_keys,
            &mut attributes,
        ));
        for lookup in d.lookups {
            let names = [schema.entity_type, OWNER_PK]
                .into_iter()
                .chain(schema.sk.map(|_| OWNER_SK))
                .map(str::to_owned)
                .collect();
            let items: Vec<&Item> = entry
                .lookup_items
                .iter()
                .filter(|i| {
                    i.get(schema.entity_type).and_then(|v| v.as_s().ok())
                        == Some(&format!("{}.{}", d.entity, lookup.index))
                })
                .collect();
            let name = format!("{}.{}", d.entity, lookup.index);
            facets.push(facet(
                &name,
                std::slice::from_ref(lookup),
                names,
                items,
                &table_keys,
                &mut attributes,
            ));
        }
    }
    attributes.note(schema.entity_type, "S");
    let mut table = Map::new();
    table.insert("TableName".into(), json!(model.name));
    table.insert(
        "KeyAttributes".into(),
        key_attributes(&request["KeySchema"]).unwrap_or_default(),
    );
    table.insert("NonKeyAttributes".into(), attributes.json());
    table.insert("TableFacets".into(), Value::Array(facets));
    let indexes: Vec<Value> = request["GlobalSecondaryIndexes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|index| {
            Some(json!({
                "IndexName": index["IndexName"],
                "KeyAttributes": key_attributes(&index["KeySchema"])?,
                "Projection": index["Projection"],
            }))
        })
        .collect();
    if !indexes.is_empty() {
        table.insert("GlobalSecondaryIndexes".into(), Value::Array(indexes));
    }
    table.insert("DataAccess".into(), json!({"MySql": {}}));
    table.insert("BillingMode".into(), request["BillingMode"].clone());
    Ok(json!({
        "ModelName": model.name,
        "ModelMetadata": {
            "Author": "dynamap",
            "Description": format!("The {} layout and its entities, drawn from the code by dynamap", schema.type_name),
            "Version": "1.0",
        },
        "DataModel": [Value::Object(table)],
    }))
}

/// One facet: the entity type's table key as aliases, its attributes and sample items.
fn facet<'i>(
    name: &str,
    key: &[KeyDescription],
    mut names: Vec<String>,
    items: impl IntoIterator<Item = &'i Item>,
    table_keys: &[&str],
    attributes: &mut Attributes,
) -> Value {
    let mut data = Vec::new();
    for item in items {
        let mut sorted: Vec<_> = item.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(b.0));
        for (attribute, value) in &sorted {
            if !table_keys.contains(&attribute.as_str()) {
                attributes.note_found(attribute, type_of(value));
                if !names.contains(attribute) {
                    names.push((*attribute).clone());
                }
            }
        }
        let map: Map<String, Value> = sorted
            .into_iter()
            .map(|(k, v)| (k.clone(), dynamodb_json(v)))
            .collect();
        data.push(Value::Object(map));
    }
    let mut alias = Map::new();
    if let Some(key) = key.first() {
        alias.insert("PartitionKeyAlias".into(), json!(key.pk.join(", ")));
        if !key.sk.is_empty() {
            alias.insert("SortKeyAlias".into(), json!(key.sk.join(", ")));
        }
    }
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    json!({
        "FacetName": name,
        "KeyAttributeAlias": alias,
        "TableData": data,
        "NonKeyAttributes": unique,
        "DataAccess": {"MySql": {}},
    })
}

/// The table's non-key attributes with their types, in the order first seen. A type read
/// from a sample item wins over one guessed from a Rust type.
#[derive(Default)]
struct Attributes(Vec<(String, &'static str, bool)>);

impl Attributes {
    fn note(&mut self, name: &str, kind: &'static str) {
        if !self.0.iter().any(|(n, _, _)| n == name) {
            self.0.push((name.to_owned(), kind, false));
        }
    }

    fn note_found(&mut self, name: &str, kind: &'static str) {
        match self.0.iter_mut().find(|(n, _, _)| n == name) {
            Some(entry) if !entry.2 => *entry = (name.to_owned(), kind, true),
            Some(_) => {}
            None => self.0.push((name.to_owned(), kind, true)),
        }
    }

    fn json(&self) -> Value {
        self.0
            .iter()
            .map(|(name, kind, _)| json!({"AttributeName": name, "AttributeType": kind}))
            .collect()
    }
}
