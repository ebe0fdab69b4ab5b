//! Hiding items whose time to live has passed. DynamoDB deletes expired items in the
//! background, typically within a few days of expiry, and returns them until then; reads
//! hide them so an expired session or timeline entry is gone the moment it expires.
//!
//! An item is expired when its table declares a TTL attribute and the item holds a number
//! there that is not after now, the same rule DynamoDB's deletion follows. Items without
//! the attribute, or with a non-number in it, never expire.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::codec::{AttributeValue, Item};
use crate::expr::Placeholders;
use crate::table::TableSchema;

/// Seconds since the Unix epoch, now.
pub(crate) fn now_epoch_seconds() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(elapsed) => i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX),
        // A clock before 1970: nothing is expired yet.
        Err(_) => 0,
    }
}

/// True when `item` has expired at `now` (epoch seconds).
pub(crate) fn is_expired(schema: &TableSchema, item: &Item, now: i64) -> bool {
    let Some(attribute) = schema.ttl else {
        return false;
    };
    match item.get(attribute) {
        Some(AttributeValue::N(n)) => n.parse::<f64>().is_ok_and(|at| at <= now as f64),
        _ => false,
    }
}

/// A filter expression keeping only unexpired items, when the table has a TTL attribute.
pub(crate) fn unexpired_filter(schema: &TableSchema, p: &mut Placeholders) -> Option<String> {
    let attribute = p.name(schema.ttl?);
    let number = p.value(AttributeValue::S("N".to_owned()));
    let now = p.value(AttributeValue::N(now_epoch_seconds().to_string()));
    Some(format!(
        "(attribute_not_exists({attribute}) OR NOT attribute_type({attribute}, {number}) OR {attribute} > {now})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ScalarType;

    const SCHEMA: TableSchema = TableSchema {
        type_name: "App",
        pk: "PK",
        sk: None,
        pk_type: ScalarType::String,
        sk_type: ScalarType::String,
        entity_type: "_type",
        ttl: Some("expires_at"),
        indexes: &[],
    };

    fn item(ttl: Option<AttributeValue>) -> Item {
        ttl.map(|v| ("expires_at".to_owned(), v))
            .into_iter()
            .collect()
    }

    #[test]
    fn only_numbers_not_after_now_are_expired() {
        let n = |s: &str| Some(AttributeValue::N(s.to_owned()));
        assert!(is_expired(&SCHEMA, &item(n("99")), 100));
        assert!(is_expired(&SCHEMA, &item(n("100")), 100));
        assert!(!is_expired(&SCHEMA, &item(n("101")), 100));
        assert!(!is_expired(&SCHEMA, &item(None), 100));
        assert!(!is_expired(
            &SCHEMA,
            &item(Some(AttributeValue::S("1".into()))),
            100
        ));
        let no_ttl = TableSchema {
            ttl: None,
            ..SCHEMA
        };
        assert!(!is_expired(&no_ttl, &item(n("1")), 100));
    }

    #[test]
    fn the_filter_keeps_items_without_a_numeric_ttl() {
        let mut p = Placeholders::default();
        let filter = unexpired_filter(&SCHEMA, &mut p).expect("a filter");
        assert!(filter.starts_with("(attribute_not_exists(#"), "{filter}");
        assert!(filter.contains("NOT attribute_type("), "{filter}");
        let no_ttl = TableSchema {
            ttl: None,
            ..SCHEMA
        };
        assert!(unexpired_filter(&no_ttl, &mut p).is_none());
    }
}
