//! Making some of a batch call's items unprocessed, the way DynamoDB reports them.

use aws_smithy_runtime_api::client::http::{HttpConnector, SharedHttpConnector};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::byte_stream::ByteStream;
use serde_json::{Map, Value};

use super::Faults;
use super::response::json_response;
use crate::rng::SplitMix64;

/// Forwards `request` with some items removed, then adds those to the response as
/// unprocessed. Requests it cannot read pass through unchanged.
pub(super) async fn call(
    inner: &SharedHttpConnector,
    mut request: HttpRequest,
    operation: &str,
    mut rng: SplitMix64,
    faults: &Faults,
) -> Result<HttpResponse, ConnectorError> {
    let writes = operation == "BatchWriteItem";
    let parsed = request
        .body()
        .bytes()
        .and_then(|body| serde_json::from_slice::<Value>(body).ok());
    let Some(mut body) = parsed else {
        return inner.call(request).await;
    };
    let Some(requested) = body.get_mut("RequestItems").and_then(Value::as_object_mut) else {
        return inner.call(request).await;
    };
    let removed = remove_some(requested, writes, &mut rng);
    if removed.count == 0 {
        return inner.call(request).await;
    }
    faults.count_unprocessed(removed.count);
    let unprocessed_field = if writes {
        "UnprocessedItems"
    } else {
        "UnprocessedKeys"
    };

    if requested.is_empty() {
        // DynamoDB rejects an empty request: answer for it, having done nothing.
        let mut answer = Map::new();
        if !writes {
            answer.insert("Responses".to_owned(), Value::Object(Map::new()));
        }
        answer.insert(unprocessed_field.to_owned(), Value::Object(removed.tables));
        return json_response(200, Value::Object(answer).to_string().into_bytes());
    }

    let bytes = body.to_string().into_bytes();
    set_header(request.headers_mut(), "content-length", bytes.len())?;
    *request.body_mut() = SdkBody::from(bytes);
    let mut response = inner.call(request).await?;
    if !response.status().is_success() {
        // The call failed as a whole; the removed items failed with it.
        return Ok(response);
    }
    let raw = ByteStream::new(response.take_body())
        .collect()
        .await
        .map_err(|e| ConnectorError::io(e.into()))?
        .into_bytes();
    let Ok(Value::Object(mut answer)) = serde_json::from_slice::<Value>(&raw) else {
        *response.body_mut() = SdkBody::from(raw);
        return Ok(response);
    };
    let unprocessed = answer
        .entry(unprocessed_field)
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(unprocessed) = unprocessed {
        merge(unprocessed, removed.tables, writes);
    }
    let bytes = Value::Object(answer).to_string().into_bytes();
    let headers = response.headers_mut();
    set_header(headers, "content-length", bytes.len())?;
    // The checksum DynamoDB sent was for the original body.
    headers.remove("x-amz-crc32");
    *response.body_mut() = SdkBody::from(bytes);
    Ok(response)
}

fn set_header(
    headers: &mut aws_smithy_runtime_api::http::Headers,
    name: &'static str,
    value: usize,
) -> Result<(), ConnectorError> {
    headers
        .try_insert(name, value.to_string())
        .map(drop)
        .map_err(|e| ConnectorError::other(e.into(), None))
}

/// What was taken out of a request: table name to its removed entries, shaped as the
/// response's unprocessed field wants them.
struct Removed {
    tables: Map<String, Value>,
    count: usize,
}

/// Removes each item (or key) with probability ½, and at least one, from `requested`;
/// tables left with nothing are removed too, as DynamoDB rejects empty lists.
///
/// `BatchWriteItem` has `{table: [request, …]}`; `BatchGetItem` has
/// `{table: {"Keys": [key, …], …options}}`, and its unprocessed keys keep the options.
fn remove_some(requested: &mut Map<String, Value>, writes: bool, rng: &mut SplitMix64) -> Removed {
    let total: usize = requested
        .values_mut()
        .filter_map(|table| entries(table, writes))
        .map(|list| list.len())
        .sum();
    if total == 0 {
        return Removed {
            tables: Map::new(),
            count: 0,
        };
    }
    let mut chosen: Vec<bool> = (0..total).map(|_| rng.next_u64() & 1 == 1).collect();
    if !chosen.contains(&true) {
        let at = usize::try_from(rng.next_u64() % total as u64).unwrap_or(0);
        chosen[at] = true;
    }
    let mut chosen = chosen.into_iter();
    let mut tables = Map::new();
    let mut count = 0;
    for (name, table) in requested.iter_mut() {
        // Gets' unprocessed keys repeat the table's options (consistency, projection).
        let options = (!writes).then(|| table.clone());
        let Some(list) = entries(table, writes) else {
            continue;
        };
        let (taken, kept): (Vec<Value>, Vec<Value>) = std::mem::take(list)
            .into_iter()
            .partition(|_| chosen.next().unwrap_or(false));
        *list = kept;
        if taken.is_empty() {
            continue;
        }
        count += taken.len();
        let entry = match options {
            Some(Value::Object(mut options)) => {
                options.insert("Keys".to_owned(), Value::Array(taken));
                Value::Object(options)
            }
            _ => Value::Array(taken),
        };
        tables.insert(name.clone(), entry);
    }
    requested.retain(|_, table| entries(table, writes).is_some_and(|list| !list.is_empty()));
    Removed { tables, count }
}

/// The list of requests (writes) or keys (gets) of one table's entry.
fn entries(table: &mut Value, writes: bool) -> Option<&mut Vec<Value>> {
    if writes {
        table.as_array_mut()
    } else {
        table.get_mut("Keys").and_then(Value::as_array_mut)
    }
}

/// Adds the removed entries to what DynamoDB itself left unprocessed.
fn merge(unprocessed: &mut Map<String, Value>, removed: Map<String, Value>, writes: bool) {
    for (name, mut entry) in removed {
        match unprocessed.get_mut(&name) {
            Some(existing) => {
                let (Some(into), Some(from)) =
                    (entries(existing, writes), entries(&mut entry, writes))
                else {
                    continue;
                };
                into.append(from);
            }
            None => {
                unprocessed.insert(name, entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn write_requests_split_between_request_and_unprocessed() {
        for seed in 0..50 {
            let mut body = json!({"t": [{"PutRequest": {"Item": {"PK": {"S": "1"}}}}, {"DeleteRequest": {"Key": {"PK": {"S": "2"}}}}, {"PutRequest": {"Item": {"PK": {"S": "3"}}}}]});
            let requested = body.as_object_mut().expect("object");
            let removed = remove_some(requested, true, &mut SplitMix64::seeded(seed));
            let kept = requested
                .get("t")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let taken = removed
                .tables
                .get("t")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            assert!(removed.count >= 1);
            assert_eq!((kept + taken, taken), (3, removed.count));
            assert_eq!(
                requested.contains_key("t"),
                kept > 0,
                "empty lists are dropped"
            );
        }
    }

    #[test]
    fn unprocessed_keys_keep_their_options_and_merge() {
        let mut body = json!({"t": {"Keys": [{"PK": {"S": "1"}}], "ConsistentRead": true}});
        let requested = body.as_object_mut().expect("object");
        let removed = remove_some(requested, false, &mut SplitMix64::seeded(1));
        assert!(requested.is_empty());
        assert_eq!(removed.tables["t"]["ConsistentRead"], json!(true));
        let mut unprocessed = json!({"t": {"Keys": [{"PK": {"S": "0"}}], "ConsistentRead": true}});
        let unprocessed_map = unprocessed.as_object_mut().expect("object");
        merge(unprocessed_map, removed.tables, false);
        assert_eq!(unprocessed["t"]["Keys"].as_array().map(Vec::len), Some(2));
    }
}
