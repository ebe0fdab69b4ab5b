//! [`ItemKey`]: which stored item, for reports and errors.

use std::fmt;

use crate::codec::{AttributeValue, Item};

/// The primary key of one stored item, as stored: the rendered key values. Names the item
/// in batch reports, a job's failures and errors of items that do not decode.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ItemKey {
    /// The partition key value.
    pub pk: String,
    /// The sort key value, if the table has a sort key.
    pub sk: Option<String>,
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
    /// The key of `item` in a table whose key attributes are `pk` and `sk` (a value that is
    /// not a string or number is shown as DynamoDB's type and value).
    pub(crate) fn of(item: &Item, pk: &str, sk: Option<&str>) -> ItemKey {
        Self::from_values(item.get(pk), sk.and_then(|sk| item.get(sk)))
    }

    /// The key of the item whose key attributes hold `pk` and `sk`.
    pub(crate) fn from_values(pk: Option<&AttributeValue>, sk: Option<&AttributeValue>) -> ItemKey {
        ItemKey {
            pk: text(pk).unwrap_or_default(),
            sk: text(sk),
        }
    }
}

/// A key attribute's value as text.
fn text(value: Option<&AttributeValue>) -> Option<String> {
    match value? {
        AttributeValue::S(s) => Some(s.clone()),
        AttributeValue::N(n) => Some(n.clone()),
        other => Some(format!("{other:?}")),
    }
}
