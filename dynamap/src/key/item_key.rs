//! [`ItemKey`]: which stored item, for reports and errors.

use std::fmt;

use base64::Engine as _;

use crate::codec::{AttributeValue, Item};
use crate::table::ScalarType;

/// The primary key of one stored item, as stored: the key values as text, with their
/// DynamoDB types. Names the item in batch reports, a job's failures and errors of items
/// that do not decode.
///
/// A string key is its text, a number key its decimal text as DynamoDB stores it, a binary
/// key its bytes in base64 (as DynamoDB JSON writes them); `pk_type` and `sk_type` say
/// which, and [`attribute_values`](ItemKey::attribute_values) gives the values back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ItemKey {
    /// The partition key value.
    pub pk: String,
    /// The sort key value, if the table has a sort key.
    pub sk: Option<String>,
    /// The partition key value's type.
    pub pk_type: ScalarType,
    /// The sort key value's type (`S` without a sort key).
    pub sk_type: ScalarType,
}

impl fmt::Display for ItemKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.sk {
            Some(sk) => write!(f, "({}, {})", self.pk, sk),
            None => write!(f, "({})", self.pk),
        }
    }
}

impl ItemKey {
    /// The key of string values `pk` and `sk`.
    #[cfg(test)]
    pub(crate) fn strings(pk: String, sk: Option<String>) -> ItemKey {
        ItemKey {
            pk,
            sk,
            pk_type: ScalarType::String,
            sk_type: ScalarType::String,
        }
    }

    /// The key of `item` in a table whose key attributes are `pk` and `sk` (a value that is
    /// not a string, number or binary is shown as DynamoDB's type and value).
    pub(crate) fn of(item: &Item, pk: &str, sk: Option<&str>) -> ItemKey {
        Self::from_values(item.get(pk), sk.and_then(|sk| item.get(sk)))
    }

    /// The key of the item whose key attributes hold `pk` and `sk`.
    pub(crate) fn from_values(pk: Option<&AttributeValue>, sk: Option<&AttributeValue>) -> ItemKey {
        let (pk, pk_type) = text(pk).unwrap_or_default();
        let (sk, sk_type) = match text(sk) {
            Some((sk, kind)) => (Some(sk), kind),
            None => (None, ScalarType::String),
        };
        ItemKey {
            pk,
            sk,
            pk_type,
            sk_type,
        }
    }

    /// The key values as DynamoDB stores them, partition key first.
    ///
    /// # Examples
    ///
    /// ```
    /// use dynamap::batch::ItemKey;
    /// use dynamap::codec::AttributeValue;
    ///
    /// # fn show(key: &ItemKey) {
    /// let (pk, sk) = key.attribute_values();
    /// println!("{pk:?} {sk:?}");
    /// # }
    /// ```
    pub fn attribute_values(&self) -> (AttributeValue, Option<AttributeValue>) {
        (
            value(&self.pk, self.pk_type),
            self.sk.as_deref().map(|sk| value(sk, self.sk_type)),
        )
    }
}

/// A key value from its text form.
fn value(text: &str, kind: ScalarType) -> AttributeValue {
    match kind {
        ScalarType::String => AttributeValue::S(text.to_owned()),
        ScalarType::Number => AttributeValue::N(text.to_owned()),
        ScalarType::Binary => AttributeValue::B(
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .unwrap_or_default()
                .into(),
        ),
    }
}

/// A key attribute's value as text, with its type.
fn text(value: Option<&AttributeValue>) -> Option<(String, ScalarType)> {
    Some(match value? {
        AttributeValue::S(s) => (s.clone(), ScalarType::String),
        AttributeValue::N(n) => (n.clone(), ScalarType::Number),
        AttributeValue::B(b) => (
            base64::engine::general_purpose::STANDARD.encode(b.as_ref()),
            ScalarType::Binary,
        ),
        other => (format!("{other:?}"), ScalarType::String),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_key_type_round_trip_through_the_text_form() {
        let b = AttributeValue::B(vec![0u8, 255, 7].into());
        let n = AttributeValue::N("-12.5".into());
        let key = ItemKey::from_values(Some(&n), Some(&b));
        assert_eq!(
            (key.pk.as_str(), key.sk.as_deref()),
            ("-12.5", Some("AP8H"))
        );
        assert_eq!(key.attribute_values(), (n, Some(b)));
        let s = ItemKey::from_values(Some(&AttributeValue::S("A".into())), None);
        assert_eq!(s, ItemKey::strings("A".into(), None));
    }
}
