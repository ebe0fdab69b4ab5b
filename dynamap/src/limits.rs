//! DynamoDB's service limits, checked before anything is sent.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::codec::Item;

/// The largest item DynamoDB stores: 400 KB.
pub const MAX_ITEM_BYTES: usize = 409_600;
/// The longest partition key value, in UTF-8 bytes.
pub const MAX_PARTITION_KEY_BYTES: usize = 2_048;
/// The longest sort key value, in UTF-8 bytes.
pub const MAX_SORT_KEY_BYTES: usize = 1_024;

/// An item's size as DynamoDB counts it: for each attribute, its name's UTF-8 length plus its
/// value's size.
///
/// # Examples
///
/// ```
/// use dynamap::codec::{AttributeValue, Item};
/// use dynamap::limits::{MAX_ITEM_BYTES, item_size};
///
/// let mut item = Item::new();
/// item.insert("PK".into(), AttributeValue::S("SENSOR#S1".into())); // 2 + 9 bytes
/// item.insert("n".into(), AttributeValue::N("42".into()));          // 1 + 2 bytes, as DynamoDB counts
/// assert!(item_size(&item) <= MAX_ITEM_BYTES);
/// ```
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

/// Refuses an item of `entity` that DynamoDB would refuse for its size.
pub(crate) fn check_item_size(entity: &'static str, item: &Item) -> crate::Result<()> {
    let size = item_size(item);
    if size > MAX_ITEM_BYTES {
        return Err(crate::Error::ItemTooLarge {
            entity,
            size,
            limit: MAX_ITEM_BYTES,
        });
    }
    Ok(())
}

/// A value's size, following DynamoDB's documented rules: strings and binaries by length,
/// numbers by about one byte per two significant digits plus one, booleans and nulls one
/// byte, lists and maps three bytes plus one byte per element plus their contents.
pub(crate) fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(v) => v.iter().map(String::len).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len()).sum(),
        AttributeValue::L(v) => 3 + v.iter().map(|e| 1 + value_size(e)).sum::<usize>(),
        AttributeValue::M(m) => {
            3 + m
                .iter()
                .map(|(k, e)| 1 + k.len() + value_size(e))
                .sum::<usize>()
        }
        // A variant added to the SDK later: count it as large as it could be, so the check
        // errs on the safe side.
        _ => MAX_ITEM_BYTES,
    }
}

fn number_size(n: &str) -> usize {
    let digits = n.trim_start_matches(['-', '+']);
    let mantissa = digits.split(['e', 'E']).next().unwrap_or(digits);
    let significant = mantissa.replace('.', "");
    let significant = significant.trim_start_matches('0').trim_end_matches('0');
    significant.len().div_ceil(2) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_names_and_values() {
        let item: Item = [
            ("PK".to_owned(), AttributeValue::S("SENSOR#S1".to_owned())),
            ("n".to_owned(), AttributeValue::N("12345".to_owned())),
            ("ok".to_owned(), AttributeValue::Bool(true)),
            (
                "l".to_owned(),
                AttributeValue::L(vec![AttributeValue::S("ab".to_owned())]),
            ),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            item_size(&item),
            (2 + 9) + (1 + 4) + (2 + 1) + (1 + 3 + 1 + 2)
        );
    }

    #[test]
    fn numbers_count_significant_digits() {
        assert_eq!(number_size("0"), 1);
        assert_eq!(number_size("100"), 2);
        assert_eq!(number_size("-0.00123"), 3);
        assert_eq!(number_size("123456"), 4);
    }
}
