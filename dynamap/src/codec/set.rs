//! DynamoDB's native sets: a `HashSet`/`BTreeSet` of strings, numbers or binaries is stored
//! as `SS`, `NS` or `BS`, as every other DynamoDB mapper stores it, so that `ADD` and
//! `DELETE` (dynamap's, or another service's) work on it. DynamoDB has no empty set: an
//! empty one is left out of the item, and a missing attribute reads as an empty set.

use super::AttributeValue;
use super::attribute_error::{AttributeError, mismatch};

/// The DynamoDB set type a set of an element type is stored as.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    /// `SS`, of `S` elements.
    String,
    /// `NS`, of `N` elements.
    Number,
    /// `BS`, of `B` elements.
    Binary,
}

/// The `SS`, `NS` or `BS` value holding the elements' stored `values`, each the scalar
/// `kind` names. Empty when there are none: a value DynamoDB refuses, which writers leave out
/// ([`is_empty_set`]).
///
/// # Errors
///
/// Fails when an element cannot be stored (a float that is not finite), or is stored as
/// another type than `kind` (an `Attribute` implementation that claims a set kind it does not
/// store).
pub(crate) fn set_value(
    kind: SetKind,
    values: impl Iterator<Item = Result<AttributeValue, AttributeError>>,
) -> Result<AttributeValue, AttributeError> {
    Ok(match kind {
        SetKind::String => AttributeValue::Ss(
            values
                .map(|value| match value? {
                    AttributeValue::S(text) => Ok(text),
                    other => Err(mismatch("a string (S) for a string set", &other)),
                })
                .collect::<Result<_, _>>()?,
        ),
        SetKind::Number => AttributeValue::Ns(
            values
                .map(|value| match value? {
                    AttributeValue::N(number) => Ok(number),
                    other => Err(mismatch("a number (N) for a number set", &other)),
                })
                .collect::<Result<_, _>>()?,
        ),
        SetKind::Binary => AttributeValue::Bs(
            values
                .map(|value| match value? {
                    AttributeValue::B(blob) => Ok(blob),
                    other => Err(mismatch("binary (B) for a binary set", &other)),
                })
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// True for an `SS`, `NS` or `BS` with no elements: what an empty native set encodes to, and
/// what DynamoDB refuses. An update that sets it removes the attribute instead.
pub(crate) fn is_empty_set(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::Ss(set) | AttributeValue::Ns(set) => set.is_empty(),
        AttributeValue::Bs(set) => set.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashMap, HashSet};

    use super::*;
    use crate::codec::Attribute;

    #[test]
    fn sets_of_scalars_are_native_sets() {
        let tags = BTreeSet::from(["b".to_owned(), "a".to_owned(), String::new()]);
        assert_eq!(
            tags.to_attribute().expect("encodes"),
            AttributeValue::Ss(vec![String::new(), "a".into(), "b".into()])
        );
        let numbers = BTreeSet::from([3_u64, u64::MAX]);
        assert_eq!(
            numbers.to_attribute().expect("encodes"),
            AttributeValue::Ns(vec!["3".into(), u64::MAX.to_string()])
        );
        let signed = HashSet::from([-7_i8]);
        assert_eq!(
            signed.to_attribute().expect("encodes"),
            AttributeValue::Ns(vec!["-7".into()])
        );
    }

    #[test]
    fn native_sets_read_back_from_sets_and_from_the_lists_of_earlier_versions() {
        let stored = AttributeValue::Ns(vec!["1".into(), "20".into()]);
        assert_eq!(
            HashSet::<u16>::from_attribute(stored).expect("decodes"),
            HashSet::from([1, 20])
        );
        let old = AttributeValue::L(vec![AttributeValue::S("x".into())]);
        assert_eq!(
            BTreeSet::<String>::from_attribute(old).expect("decodes"),
            BTreeSet::from(["x".to_owned()])
        );
    }

    #[test]
    fn garbage_in_a_set_attribute_is_an_error() {
        let error = HashSet::<u8>::from_attribute(AttributeValue::Ns(vec!["300".into()]))
            .expect_err("refused");
        assert!(error.to_string().contains("is not a u8"), "{error}");
        let error = BTreeSet::<u32>::from_attribute(AttributeValue::Ss(vec!["x".into()]))
            .expect_err("refused");
        assert!(error.to_string().contains("found a string (S)"), "{error}");
        let error =
            BTreeSet::<String>::from_attribute(AttributeValue::S("x".into())).expect_err("refused");
        assert!(error.to_string().contains("a list (L) or a set"), "{error}");
    }

    #[test]
    fn an_empty_set_is_left_out_of_a_map_and_is_an_empty_list_inside_a_list() {
        let mut item = HashMap::new();
        BTreeSet::<String>::new()
            .insert_into(&mut item, "tags".into())
            .expect("encodes");
        assert!(item.is_empty());
        let mut list = Vec::new();
        BTreeSet::<u8>::new().push_into(&mut list).expect("encodes");
        assert_eq!(list, [AttributeValue::L(Vec::new())]);
        let empty = BTreeSet::<u8>::new().to_attribute().expect("encodes");
        assert!(is_empty_set(&empty));
        assert!(!is_empty_set(&AttributeValue::L(Vec::new())));
        assert_eq!(BTreeSet::<u8>::when_missing(), Some(BTreeSet::new()));
    }

    #[test]
    fn sets_of_other_types_stay_lists() {
        let nested = BTreeSet::from([vec![1_u8]]);
        assert_eq!(
            nested.to_attribute().expect("encodes"),
            AttributeValue::L(vec![AttributeValue::L(vec![AttributeValue::N("1".into())])])
        );
        assert_eq!(BTreeSet::<Vec<u8>>::when_missing(), None);
        let mut item = HashMap::new();
        BTreeSet::<Vec<u8>>::new()
            .insert_into(&mut item, "x".into())
            .expect("encodes");
        assert_eq!(item["x"], AttributeValue::L(Vec::new()));
    }
}
