//! The limits DynamoDB enforces on a transaction, checked before sending: at most 100
//! actions, at most 4 MB of payload, no two actions on one item.

use std::borrow::Cow;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::TransactWriteItem;

use super::Action;
use crate::codec::Item;
use crate::key::{key_text, primary_type_code};
use crate::limits::item_size;
use crate::{Error, Result};

/// The most actions DynamoDB accepts in one transaction.
pub const MAX_ACTIONS: usize = 100;
/// The most item bytes DynamoDB accepts in one transaction.
pub const MAX_TRANSACTION_BYTES: usize = 4 * 1024 * 1024;

/// What one action adds to the transaction's payload, as DynamoDB counts it against its
/// 4 MB: the item or key, the expressions, and their attribute names and values. Update
/// and condition values count as much as items do.
fn payload_size(write: &TransactWriteItem) -> usize {
    use crate::limits::value_size;
    type Names = Option<HashMap<String, String>>;
    type Values = Option<HashMap<String, aws_sdk_dynamodb::types::AttributeValue>>;
    let expressions = |texts: &[Option<&str>], names: &Names, values: &Values| {
        texts.iter().flatten().map(|t| t.len()).sum::<usize>()
            + names
                .iter()
                .flatten()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>()
            + values
                .iter()
                .flatten()
                .map(|(k, v)| k.len() + value_size(v))
                .sum::<usize>()
    };
    if let Some(put) = write.put() {
        item_size(put.item())
            + expressions(
                &[put.condition_expression()],
                &put.expression_attribute_names().cloned(),
                &put.expression_attribute_values().cloned(),
            )
    } else if let Some(update) = write.update() {
        item_size(update.key())
            + expressions(
                &[
                    Some(update.update_expression()),
                    update.condition_expression(),
                ],
                &update.expression_attribute_names().cloned(),
                &update.expression_attribute_values().cloned(),
            )
    } else if let Some(delete) = write.delete() {
        item_size(delete.key())
            + expressions(
                &[delete.condition_expression()],
                &delete.expression_attribute_names().cloned(),
                &delete.expression_attribute_values().cloned(),
            )
    } else if let Some(check) = write.condition_check() {
        item_size(check.key())
            + expressions(
                &[Some(check.condition_expression())],
                &check.expression_attribute_names().cloned(),
                &check.expression_attribute_values().cloned(),
            )
    } else {
        0
    }
}

/// The limits DynamoDB enforces on a transaction, checked before sending.
pub(super) fn validate(actions: &[Action]) -> Result<()> {
    if actions.len() > MAX_ACTIONS {
        return Err(Error::TooManyActions {
            actions: actions.len(),
            limit: MAX_ACTIONS,
        });
    }
    let size: usize = actions.iter().map(|a| payload_size(&a.write)).sum();
    if size > MAX_TRANSACTION_BYTES {
        return Err(Error::TransactionTooLarge {
            size,
            limit: MAX_TRANSACTION_BYTES,
        });
    }
    if let Some((first, second)) = first_repeat(actions.iter().map(|a| &a.key)) {
        return Err(Error::DuplicateTransactionItem {
            first_entity: actions[first].entity,
            entity: actions[second].entity,
            first,
            second,
        });
    }
    Ok(())
}

/// One key attribute: its name, its value's type and its value as text.
type KeyPart<'a> = (&'a String, &'static str, Cow<'a, str>);

/// The positions of the first key that comes again, and of its repeat: DynamoDB refuses a
/// transaction (write or read) naming one item twice.
pub(crate) fn first_repeat<'a>(keys: impl Iterator<Item = &'a Item>) -> Option<(usize, usize)> {
    let mut seen: HashMap<Vec<KeyPart<'_>>, usize> = HashMap::new();
    for (index, key) in keys.enumerate() {
        // Key values of every type: a number and a string of the same text differ.
        let mut parts: Vec<KeyPart<'_>> = key
            .iter()
            .map(|(name, value)| (name, primary_type_code(value), key_text(value)))
            .collect();
        parts.sort();
        if let Some(first) = seen.insert(parts, index) {
            return Some((first, index));
        }
    }
    None
}
