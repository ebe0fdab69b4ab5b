//! A preview as readable text: each request's operation and table, then its parameters one
//! a line, placeholders listed with their names and values, values in DynamoDB JSON.

use std::collections::HashMap;
use std::fmt::{self, Display, Formatter, Write as _};

use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes, TransactWriteItem, WriteRequest};
use base64::Engine as _;

use super::{Preview, Request};

impl Display for Preview {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.requests.as_slice() {
            [] => f.write_str("no request")?,
            [one] => one.fmt(f)?,
            many => {
                for (i, request) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_char('\n')?;
                    }
                    writeln!(f, "request {} of {}:", i + 1, many.len())?;
                    request.fmt(f)?;
                }
            }
        }
        match self.then {
            Some(then) => write!(f, "\nthen: {then}"),
            None => Ok(()),
        }
    }
}

type Names = Option<HashMap<String, String>>;
type Values = Option<HashMap<String, AttributeValue>>;

/// Writes lines at one indentation.
struct Lines<'f, 'a> {
    f: &'f mut Formatter<'a>,
    indent: usize,
}

impl Lines<'_, '_> {
    fn head(&mut self, text: impl Display) -> fmt::Result {
        write!(self.f, "{:w$}{text}", "", w = self.indent.saturating_sub(2))
    }

    fn opt(&mut self, label: &str, value: Option<impl Display>) -> fmt::Result {
        match value {
            Some(value) => write!(self.f, "\n{:w$}{label}: {value}", "", w = self.indent),
            None => Ok(()),
        }
    }

    fn item(&mut self, label: &str, item: Option<&HashMap<String, AttributeValue>>) -> fmt::Result {
        self.opt(label, item.map(item_json))
    }

    /// The placeholders, sorted, with their names and values.
    fn placeholders(&mut self, names: &Names, values: &Values) -> fmt::Result {
        let w = self.indent;
        if let Some(names) = names.as_ref().filter(|n| !n.is_empty()) {
            write!(self.f, "\n{:w$}ExpressionAttributeNames:", "")?;
            let mut sorted: Vec<_> = names.iter().collect();
            sorted.sort();
            for (placeholder, name) in sorted {
                write!(self.f, "\n{:w$}  {placeholder} = {name}", "")?;
            }
        }
        if let Some(values) = values.as_ref().filter(|v| !v.is_empty()) {
            write!(self.f, "\n{:w$}ExpressionAttributeValues:", "")?;
            let mut sorted: Vec<_> = values.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(b.0));
            for (placeholder, value) in sorted {
                write!(self.f, "\n{:w$}  {placeholder} = {}", "", json(value))?;
            }
        }
        Ok(())
    }
}

impl Display for Request {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut l = Lines { f, indent: 2 };
        match self {
            Request::GetItem(r) => {
                l.head(format_args!("GetItem on {}", table(r.table_name())))?;
                l.item("Key", r.key.as_ref())?;
                l.opt("ProjectionExpression", r.projection_expression())?;
                l.opt("ConsistentRead", r.consistent_read())?;
                l.placeholders(&r.expression_attribute_names, &None)
            }
            Request::PutItem(r) => {
                l.head(format_args!("PutItem on {}", table(r.table_name())))?;
                l.item("Item", r.item.as_ref())?;
                l.opt("ConditionExpression", r.condition_expression())?;
                l.placeholders(
                    &r.expression_attribute_names,
                    &r.expression_attribute_values,
                )
            }
            Request::UpdateItem(r) => {
                l.head(format_args!("UpdateItem on {}", table(r.table_name())))?;
                l.item("Key", r.key.as_ref())?;
                l.opt("UpdateExpression", r.update_expression())?;
                l.opt("ConditionExpression", r.condition_expression())?;
                l.opt("ReturnValues", r.return_values().map(|v| v.as_str()))?;
                l.placeholders(
                    &r.expression_attribute_names,
                    &r.expression_attribute_values,
                )
            }
            Request::DeleteItem(r) => {
                l.head(format_args!("DeleteItem on {}", table(r.table_name())))?;
                l.item("Key", r.key.as_ref())?;
                l.opt("ConditionExpression", r.condition_expression())?;
                l.placeholders(
                    &r.expression_attribute_names,
                    &r.expression_attribute_values,
                )
            }
            Request::Query(r) => {
                l.head(format_args!("Query on {}", table(r.table_name())))?;
                l.opt("IndexName", r.index_name())?;
                l.opt("KeyConditionExpression", r.key_condition_expression())?;
                l.opt("FilterExpression", r.filter_expression())?;
                l.opt("ProjectionExpression", r.projection_expression())?;
                l.opt("Select", r.select().map(|s| s.as_str()))?;
                l.opt("Limit", r.limit())?;
                l.opt("ScanIndexForward", r.scan_index_forward())?;
                l.opt("ConsistentRead", r.consistent_read())?;
                l.item("ExclusiveStartKey", r.exclusive_start_key.as_ref())?;
                l.placeholders(
                    &r.expression_attribute_names,
                    &r.expression_attribute_values,
                )
            }
            Request::Scan(r) => {
                l.head(format_args!("Scan on {}", table(r.table_name())))?;
                l.opt("IndexName", r.index_name())?;
                l.opt("FilterExpression", r.filter_expression())?;
                l.opt("ProjectionExpression", r.projection_expression())?;
                l.opt("Select", r.select().map(|s| s.as_str()))?;
                l.opt("Limit", r.limit())?;
                l.opt("Segment", r.segment())?;
                l.opt("TotalSegments", r.total_segments())?;
                l.opt("ConsistentRead", r.consistent_read())?;
                l.item("ExclusiveStartKey", r.exclusive_start_key.as_ref())?;
                l.placeholders(
                    &r.expression_attribute_names,
                    &r.expression_attribute_values,
                )
            }
            Request::BatchWriteItem(r) => {
                l.head("BatchWriteItem")?;
                for (name, writes) in sorted(r.request_items.as_ref()) {
                    write!(l.f, "\n  {} ({} writes)", table(Some(name)), writes.len())?;
                    for write in writes {
                        batch_write(&mut l, write)?;
                    }
                }
                Ok(())
            }
            Request::BatchGetItem(r) => {
                l.head("BatchGetItem")?;
                for (name, keys) in sorted(r.request_items.as_ref()) {
                    batch_get(&mut l, name, keys)?;
                }
                Ok(())
            }
            Request::TransactWriteItems(r) => {
                l.head("TransactWriteItems")?;
                l.opt("ClientRequestToken", r.client_request_token())?;
                for (i, action) in r.transact_items().iter().enumerate() {
                    transact_write(&mut l, i, action)?;
                }
                Ok(())
            }
            Request::TransactGetItems(r) => {
                l.head("TransactGetItems")?;
                for (i, get) in r.transact_items().iter().enumerate() {
                    if let Some(get) = get.get() {
                        write!(
                            l.f,
                            "\n  action {i}: Get on {}",
                            table(Some(get.table_name()))
                        )?;
                        let mut inner = Lines { f: l.f, indent: 4 };
                        inner.item("Key", Some(get.key()))?;
                        inner.opt("ProjectionExpression", get.projection_expression())?;
                        inner.placeholders(&get.expression_attribute_names, &None)?;
                    }
                }
                Ok(())
            }
        }
    }
}

fn batch_write(l: &mut Lines<'_, '_>, write: &WriteRequest) -> fmt::Result {
    if let Some(put) = write.put_request() {
        write!(l.f, "\n    Put {}", item_json(put.item()))?;
    }
    if let Some(delete) = write.delete_request() {
        write!(l.f, "\n    Delete {}", item_json(delete.key()))?;
    }
    Ok(())
}

fn batch_get(l: &mut Lines<'_, '_>, name: &str, keys: &KeysAndAttributes) -> fmt::Result {
    write!(
        l.f,
        "\n  {} ({} keys)",
        table(Some(name)),
        keys.keys().len()
    )?;
    let mut inner = Lines { f: l.f, indent: 4 };
    inner.opt("ProjectionExpression", keys.projection_expression())?;
    inner.opt("ConsistentRead", keys.consistent_read())?;
    inner.placeholders(&keys.expression_attribute_names, &None)?;
    for key in keys.keys() {
        write!(inner.f, "\n    Key {}", item_json(key))?;
    }
    Ok(())
}

fn transact_write(l: &mut Lines<'_, '_>, i: usize, action: &TransactWriteItem) -> fmt::Result {
    let f = &mut *l.f;
    let mut inner = Lines { f, indent: 4 };
    if let Some(put) = action.put() {
        write!(
            inner.f,
            "\n  action {i}: Put on {}",
            table(Some(put.table_name()))
        )?;
        inner.item("Item", Some(put.item()))?;
        inner.opt("ConditionExpression", put.condition_expression())?;
        inner.placeholders(
            &put.expression_attribute_names,
            &put.expression_attribute_values,
        )?;
    }
    if let Some(update) = action.update() {
        write!(
            inner.f,
            "\n  action {i}: Update on {}",
            table(Some(update.table_name()))
        )?;
        inner.item("Key", Some(update.key()))?;
        inner.opt("UpdateExpression", Some(update.update_expression()))?;
        inner.opt("ConditionExpression", update.condition_expression())?;
        inner.placeholders(
            &update.expression_attribute_names,
            &update.expression_attribute_values,
        )?;
    }
    if let Some(delete) = action.delete() {
        write!(
            inner.f,
            "\n  action {i}: Delete on {}",
            table(Some(delete.table_name()))
        )?;
        inner.item("Key", Some(delete.key()))?;
        inner.opt("ConditionExpression", delete.condition_expression())?;
        inner.placeholders(
            &delete.expression_attribute_names,
            &delete.expression_attribute_values,
        )?;
    }
    if let Some(check) = action.condition_check() {
        write!(
            inner.f,
            "\n  action {i}: ConditionCheck on {}",
            table(Some(check.table_name()))
        )?;
        inner.item("Key", Some(check.key()))?;
        inner.opt("ConditionExpression", Some(check.condition_expression()))?;
        inner.placeholders(
            &check.expression_attribute_names,
            &check.expression_attribute_values,
        )?;
    }
    Ok(())
}

fn table(name: Option<&str>) -> String {
    format!("table `{}`", name.unwrap_or_default())
}

fn sorted<V>(map: Option<&HashMap<String, V>>) -> Vec<(&String, &V)> {
    let mut entries: Vec<_> = map.into_iter().flatten().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

/// An item or key in DynamoDB JSON, its attributes sorted by name.
fn item_json(item: &HashMap<String, AttributeValue>) -> String {
    let object: serde_json::Map<String, serde_json::Value> = sorted(Some(item))
        .into_iter()
        .map(|(name, value)| (name.clone(), value_json(value)))
        .collect();
    serde_json::Value::Object(object).to_string()
}

/// One value in DynamoDB JSON (`{"S":"a"}`, `{"N":"1"}`, binary in base64).
pub(crate) fn json(value: &AttributeValue) -> String {
    value_json(value).to_string()
}

fn value_json(value: &AttributeValue) -> serde_json::Value {
    use serde_json::{Value, json};
    let b64 = |blob: &aws_sdk_dynamodb::primitives::Blob| {
        base64::engine::general_purpose::STANDARD.encode(blob.as_ref())
    };
    match value {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n }),
        AttributeValue::B(b) => json!({ "B": b64(b) }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null(n) => json!({ "NULL": n }),
        AttributeValue::Ss(ss) => json!({ "SS": ss }),
        AttributeValue::Ns(ns) => json!({ "NS": ns }),
        AttributeValue::Bs(bs) => json!({ "BS": bs.iter().map(b64).collect::<Vec<_>>() }),
        AttributeValue::L(list) => json!({ "L": list.iter().map(value_json).collect::<Vec<_>>() }),
        AttributeValue::M(map) => {
            let object: serde_json::Map<String, Value> = sorted(Some(map))
                .into_iter()
                .map(|(k, v)| (k.clone(), value_json(v)))
                .collect();
            json!({ "M": object })
        }
        _ => json!({ "?": format!("{value:?}") }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_dynamodb_json() {
        let map = HashMap::from([
            ("b".to_owned(), AttributeValue::N("1".into())),
            (
                "a".to_owned(),
                AttributeValue::L(vec![AttributeValue::Bool(true)]),
            ),
        ]);
        assert_eq!(
            json(&AttributeValue::M(map)),
            r#"{"M":{"a":{"L":[{"BOOL":true}]},"b":{"N":"1"}}}"#
        );
        let blob = aws_sdk_dynamodb::primitives::Blob::new(vec![0u8, 255]);
        assert_eq!(json(&AttributeValue::B(blob)), r#"{"B":"AP8="}"#);
    }
}
