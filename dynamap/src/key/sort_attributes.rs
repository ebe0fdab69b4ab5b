//! The leading attributes of a multi-attribute sort key, as the derive's generated builders
//! (`Issue::by_status_sk().status(..).number(..)`) collect them: each builder method names
//! one attribute, so a value can only go to the attribute it is given for, whatever its
//! type. The builders' types say how many are given; this holds the values.

use super::KeyPartError;
use super::attribute::{KeyAttribute, KeyAttributeArg};
use super::sort::SortBound;
use crate::codec::AttributeValue;
use crate::limits::MAX_SORT_KEY_BYTES;

/// The values given so far, in key order, or the first one that is no sort key value and
/// its position. Not public API: the state of a generated sort key builder.
#[doc(hidden)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SortValues {
    values: Vec<AttributeValue>,
    /// Kept rather than returned at once, so builder methods chain; reported by
    /// [`bound`](SortValues::bound) when the query is built.
    error: Option<(usize, KeyPartError)>,
}

impl SortValues {
    /// No attribute given yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// `arg` as the next attribute, of type `T`, checked as a sort key value.
    #[must_use]
    pub fn then<T: KeyAttribute, A: KeyAttributeArg<T>>(mut self, arg: &A) -> Self {
        if self.error.is_none() {
            match arg.key_value(MAX_SORT_KEY_BYTES) {
                Ok(value) => self.values.push(value),
                Err(err) => self.error = Some((self.values.len(), err)),
            }
        }
        self
    }

    /// The given values as a sort bound, or the first one at fault.
    ///
    /// # Errors
    ///
    /// Fails with the position of the first value that is not a sort key value, and why.
    pub fn bound(&self) -> Result<SortBound, (usize, KeyPartError)> {
        match &self.error {
            Some(err) => Err(err.clone()),
            None => Ok(SortBound::Values(self.values.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_kept_in_the_order_given() {
        let values = SortValues::new()
            .then::<String, _>(&"OPEN")
            .then::<u64, _>(&5u64);
        assert_eq!(
            values.bound(),
            Ok(SortBound::Values(vec![
                AttributeValue::S("OPEN".into()),
                AttributeValue::N("5".into())
            ]))
        );
    }

    #[test]
    fn the_first_value_at_fault_is_reported_with_its_position() {
        let values = SortValues::new()
            .then::<String, _>(&"OPEN")
            .then::<String, _>(&"")
            .then::<f64, _>(&f64::NAN);
        assert_eq!(values.bound(), Err((1, KeyPartError::Empty)));
    }
}
