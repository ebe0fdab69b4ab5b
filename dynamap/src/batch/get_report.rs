//! What a batch get reports: the item each key names, and each key that could not be read.

use std::fmt;
use std::sync::Arc;

use super::ItemKey;
use crate::Error;

/// What a batch get found: one entry per key given, in the same order.
#[derive(Debug)]
#[non_exhaustive]
pub struct BatchGetReport<E> {
    /// `items[i]` is the item the `i`-th key names: `None` when there is no such item, or
    /// when reading it failed (then `failed` says so).
    pub items: Vec<Option<E>>,
    /// Every key that could not be read or decoded, by position.
    pub failed: Vec<FailedGet>,
    /// The read capacity units the calls consumed, when asked for with
    /// [`track_capacity`](super::BatchGet::track_capacity).
    pub consumed_capacity: Option<f64>,
}

impl<E> BatchGetReport<E> {
    /// True when every key was read: each `None` in [`items`](Self::items) means "no item".
    pub fn is_complete(&self) -> bool {
        self.failed.is_empty()
    }

    /// The items found, in key order, without the gaps.
    pub fn into_found(self) -> impl Iterator<Item = E> {
        self.items.into_iter().flatten()
    }

    /// The items found: [`into_found`](Self::into_found), kept one release.
    #[deprecated(note = "use `into_found`")]
    pub fn found(self) -> impl Iterator<Item = E> {
        self.into_found()
    }
}

/// One key of a batch get that could not be read or decoded.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FailedGet {
    /// The key's position in the input.
    pub index: usize,
    /// The key; `None` when it could not be rendered.
    pub key: Option<ItemKey>,
    /// Why: the key's own error, the last error of the call it was in,
    /// [`Error::Unprocessed`], or the error decoding the item.
    pub error: Arc<Error>,
}

impl fmt::Display for FailedGet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "key #{}", self.index)?;
        if let Some(key) = &self.key {
            write!(f, " {key}")?;
        }
        write!(f, ": {}", self.error)
    }
}
