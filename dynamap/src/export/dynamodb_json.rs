//! DynamoDB JSON, the format of exports and of the service's own API: every value a
//! one-key object naming its type (`{"S": "text"}`, `{"N": "1.5"}`, `{"M": {...}}`).

use aws_sdk_dynamodb::primitives::Blob;
use base64::Engine as _;
use serde_json::Value;

use crate::codec::{AttributeValue, Item};

/// The item a DynamoDB JSON object holds.
pub(super) fn item(value: Value) -> Result<Item, String> {
    let Value::Object(map) = value else {
        return Err("an item is a JSON object of attributes".to_owned());
    };
    map.into_iter()
        .map(|(name, value)| {
            let value =
                attribute(value).map_err(|reason| format!("attribute `{name}`: {reason}"))?;
            Ok((name, value))
        })
        .collect()
}

/// One attribute value.
pub(super) fn attribute(value: Value) -> Result<AttributeValue, String> {
    let Value::Object(map) = value else {
        return Err("a value is an object naming its type, like {\"S\": \"text\"}".to_owned());
    };
    let mut entries = map.into_iter();
    let (Some((tag, inner)), None) = (entries.next(), entries.next()) else {
        return Err("a value is an object with exactly one type key".to_owned());
    };
    Ok(match (tag.as_str(), inner) {
        ("S", Value::String(s)) => AttributeValue::S(s),
        ("N", Value::String(n)) => AttributeValue::N(n),
        ("B", Value::String(b)) => AttributeValue::B(blob(&b)?),
        ("BOOL", Value::Bool(b)) => AttributeValue::Bool(b),
        ("NULL", Value::Bool(true)) => AttributeValue::Null(true),
        ("M", value @ Value::Object(_)) => AttributeValue::M(item(value)?),
        ("L", Value::Array(values)) => AttributeValue::L(
            values
                .into_iter()
                .map(attribute)
                .collect::<Result<_, _>>()?,
        ),
        ("SS", Value::Array(values)) => AttributeValue::Ss(strings(values)?),
        ("NS", Value::Array(values)) => AttributeValue::Ns(strings(values)?),
        ("BS", Value::Array(values)) => AttributeValue::Bs(
            strings(values)?
                .iter()
                .map(|b| blob(b))
                .collect::<Result<_, _>>()?,
        ),
        (tag, _) => {
            return Err(format!(
                "`{tag}` with a value of the wrong shape, or an unknown type"
            ));
        }
    })
}

fn strings(values: Vec<Value>) -> Result<Vec<String>, String> {
    values
        .into_iter()
        .map(|value| match value {
            Value::String(s) => Ok(s),
            _ => Err("a set holds strings".to_owned()),
        })
        .collect()
}

fn blob(text: &str) -> Result<Blob, String> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map(Blob::new)
        .map_err(|err| format!("binary value is not base64: {err}"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_type_reads() {
        let read = item(json!({
            "s": {"S": "text"}, "n": {"N": "-1.5"}, "b": {"B": "AAEC"},
            "t": {"BOOL": true}, "z": {"NULL": true},
            "m": {"M": {"inner": {"N": "1"}}}, "l": {"L": [{"S": "a"}, {"N": "2"}]},
            "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AA=="]}
        }))
        .expect("an item");
        assert_eq!(read["s"], AttributeValue::S("text".into()));
        assert_eq!(read["n"], AttributeValue::N("-1.5".into()));
        assert_eq!(read["b"], AttributeValue::B(Blob::new(vec![0, 1, 2])));
        assert_eq!(read["t"], AttributeValue::Bool(true));
        assert_eq!(read["z"], AttributeValue::Null(true));
        assert_eq!(
            read["m"],
            AttributeValue::M([("inner".to_owned(), AttributeValue::N("1".into()))].into())
        );
        assert_eq!(
            read["l"],
            AttributeValue::L(vec![
                AttributeValue::S("a".into()),
                AttributeValue::N("2".into())
            ])
        );
        assert_eq!(read["ss"], AttributeValue::Ss(vec!["a".into(), "b".into()]));
        assert_eq!(read["ns"], AttributeValue::Ns(vec!["1".into(), "2".into()]));
        assert_eq!(read["bs"], AttributeValue::Bs(vec![Blob::new(vec![0])]));
    }

    #[test]
    fn malformed_values_name_the_attribute() {
        let err = item(json!({"n": {"N": 1}})).expect_err("a number as JSON number");
        assert!(err.starts_with("attribute `n`"), "{err}");
        assert!(item(json!({"x": {"S": "a", "N": "1"}})).is_err());
        assert!(item(json!({"x": {"Q": "a"}})).is_err());
        assert!(item(json!({"b": {"B": "not base64!"}})).is_err());
        assert!(item(json!([1, 2])).is_err());
    }
}
