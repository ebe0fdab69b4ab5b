//! Attribute values as the model shows them: DynamoDB JSON (`{"S": "..."}`, what NoSQL
//! Workbench's sample data holds), their type letter, and short text for the HTML page.

use base64::Engine as _;
use serde_json::{Map, Value, json};

use crate::codec::AttributeValue;

/// The value in DynamoDB JSON.
pub(crate) fn dynamodb_json(value: &AttributeValue) -> Value {
    let b64 = |b: &aws_smithy_types::Blob| base64::engine::general_purpose::STANDARD.encode(b);
    match value {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n }),
        AttributeValue::B(b) => json!({ "B": b64(b) }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null(_) => json!({ "NULL": true }),
        AttributeValue::Ss(v) => json!({ "SS": v }),
        AttributeValue::Ns(v) => json!({ "NS": v }),
        AttributeValue::Bs(v) => json!({ "BS": v.iter().map(b64).collect::<Vec<_>>() }),
        AttributeValue::L(v) => json!({ "L": v.iter().map(dynamodb_json).collect::<Vec<_>>() }),
        AttributeValue::M(m) => {
            let mut keys: Vec<_> = m.keys().collect();
            keys.sort();
            let map: Map<String, Value> = keys
                .into_iter()
                .map(|k| (k.clone(), dynamodb_json(&m[k])))
                .collect();
            json!({ "M": map })
        }
        _ => json!({ "NULL": true }),
    }
}

/// The value's DynamoDB type: `S`, `N`, `B`, `BOOL`, `NULL`, `SS`, `NS`, `BS`, `L`, `M`.
pub(crate) fn type_of(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        _ => "NULL",
    }
}

/// The value as a cell shows it: strings and numbers as they are, the rest as compact
/// DynamoDB JSON (binaries in base64), cut after 80 characters.
pub(crate) fn text(value: &AttributeValue) -> String {
    let full = match value {
        AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        other => {
            let json = dynamodb_json(other);
            json.as_object()
                .and_then(|o| o.values().next())
                .map_or_else(|| json.to_string(), Value::to_string)
        }
    };
    match full.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &full[..at]),
        None => full,
    }
}

/// The DynamoDB type a field of Rust type `ty` is most likely stored as, for a model
/// without sample items of it: `S` unless the type plainly says otherwise.
pub(crate) fn type_of_rust(ty: &str) -> &'static str {
    let ty = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty);
    let last = ty.rsplit("::").next().unwrap_or(ty);
    let head = last.split('<').next().unwrap_or(last);
    match head {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" | "f32" | "f64" => "N",
        "bool" => "BOOL",
        "Binary" | "Bytes" => "B",
        "Vec" if last.contains("<u8>") => "B",
        "Vec" | "VecDeque" => "L",
        "HashMap" | "BTreeMap" => "M",
        "HashSet" | "BTreeSet" if NUMBERS.iter().any(|n| last.contains(&format!("<{n}>"))) => "NS",
        "HashSet" | "BTreeSet" => "SS",
        _ => "S",
    }
}

const NUMBERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64",
];
