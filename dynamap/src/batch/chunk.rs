//! A batch write's input: read lazily, de-duplicated, cut into chunks.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use super::pending::{PendingWrite, Prepared};
use super::{FailedWrite, ItemKey};
use crate::Error;

/// Items already converted (`put`, `delete`), or an iterator converted as it is read.
pub(super) enum Source<'a> {
    Ready(VecDeque<Prepared>),
    Lazy(Box<dyn Iterator<Item = Prepared> + Send + 'a>),
}

impl Source<'_> {
    fn next(&mut self) -> Option<Prepared> {
        match self {
            Source::Ready(items) => items.pop_front(),
            Source::Lazy(iter) => iter.next(),
        }
    }

    fn exact_len(&self) -> Option<usize> {
        match self {
            Source::Ready(items) => Some(items.len()),
            Source::Lazy(iter) => match iter.size_hint() {
                (lower, Some(upper)) if lower == upper => Some(lower),
                _ => None,
            },
        }
    }
}

/// Everything a batch write was given, read in order.
#[derive(Default)]
pub(super) struct Input<'a> {
    sources: VecDeque<Source<'a>>,
    /// Items handed out so far: the next item's index.
    pulled: usize,
    seen: Fingerprints,
}

impl<'a> Input<'a> {
    /// Adds one converted item, appending to the last ready source to save allocations.
    pub(super) fn push_ready(&mut self, item: Prepared) {
        if let Some(Source::Ready(items)) = self.sources.back_mut() {
            items.push_back(item);
        } else {
            self.sources
                .push_back(Source::Ready(VecDeque::from([item])));
        }
    }

    pub(super) fn push_lazy(&mut self, iter: impl Iterator<Item = Prepared> + Send + 'a) {
        self.sources.push_back(Source::Lazy(Box::new(iter)));
    }

    /// The number of items not yet read, if every source knows its length.
    pub(super) fn exact_len(&self) -> Option<usize> {
        self.sources.iter().map(Source::exact_len).sum()
    }

    /// How many items have been read so far.
    pub(super) fn pulled(&self) -> usize {
        self.pulled
    }

    /// True once every source has been read to its end.
    pub(super) fn is_exhausted(&self) -> bool {
        self.sources.is_empty()
    }

    /// Up to `size` valid writes; items that are invalid or repeat a key seen before go to
    /// `failed`. `None` once the input is exhausted.
    pub(super) fn next_chunk(
        &mut self,
        size: usize,
        failed: &mut Vec<FailedWrite>,
    ) -> Option<Vec<PendingWrite>> {
        let mut chunk = Vec::with_capacity(size);
        while chunk.len() < size {
            let Some(source) = self.sources.front_mut() else {
                break;
            };
            let Some(item) = source.next() else {
                self.sources.pop_front();
                continue;
            };
            let index = self.pulled;
            self.pulled += 1;
            match item {
                Ok(mut write) => {
                    write.index = index;
                    if self.seen.insert(&write.key) {
                        chunk.push(write);
                    } else {
                        let error = Error::DuplicateKey {
                            entity: write.entity,
                            pk: write.key.pk.clone(),
                            sk: write.key.sk.clone(),
                        };
                        failed.push(write.fail(Arc::new(error)));
                    }
                }
                Err(mut invalid) => {
                    invalid.index = index;
                    failed.push(invalid);
                }
            }
        }
        (!chunk.is_empty()).then_some(chunk)
    }
}

/// The keys seen so far, as 128-bit fingerprints from two independently keyed hashers:
/// an eighth of the memory of the keys themselves, and a false match is as likely as
/// guessing a random 128-bit number.
#[derive(Default)]
struct Fingerprints {
    hashers: (RandomState, RandomState),
    seen: HashSet<u128>,
}

impl Fingerprints {
    /// False when `key` was seen before.
    fn insert(&mut self, key: &ItemKey) -> bool {
        let high = u128::from(self.hashers.0.hash_one(key));
        let low = u128::from(self.hashers.1.hash_one(key));
        self.seen.insert(high << 64 | low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::WriteAction;
    use aws_sdk_dynamodb::types::WriteRequest;

    fn write(pk: &str) -> Prepared {
        let key = ItemKey::strings(pk.to_owned(), Some("SK".to_owned()));
        Ok(PendingWrite {
            index: 99,
            entity: "Test",
            action: WriteAction::Put,
            key,
            key_names: ("PK", Some("SK")),
            request: WriteRequest::builder().build(),
        })
    }

    fn chunk_sizes(input: &mut Input<'_>, failed: &mut Vec<FailedWrite>) -> Vec<usize> {
        std::iter::from_fn(|| input.next_chunk(25, failed).map(|c| c.len())).collect()
    }

    #[test]
    fn cuts_chunks_of_25_across_sources() {
        for (n, expected) in [
            (0, vec![]),
            (1, vec![1]),
            (25, vec![25]),
            (26, vec![25, 1]),
            (101, vec![25, 25, 25, 25, 1]),
        ] {
            let mut input = Input::default();
            input.push_lazy((0..n / 2).map(|i| write(&format!("a{i}"))));
            for i in n / 2..n {
                input.push_ready(write(&format!("b{i}")));
            }
            assert_eq!(input.exact_len(), Some(n));
            let mut failed = Vec::new();
            assert_eq!(chunk_sizes(&mut input, &mut failed), expected, "{n} items");
            assert!(failed.is_empty() && input.is_exhausted());
            assert_eq!(input.pulled(), n);
        }
    }

    #[test]
    fn indexes_follow_input_order() {
        let mut input = Input::default();
        input.push_ready(write("x"));
        input.push_lazy((0..30).map(|i| write(&i.to_string())));
        let mut failed = Vec::new();
        let first = input.next_chunk(25, &mut failed).unwrap_or_default();
        let second = input.next_chunk(25, &mut failed).unwrap_or_default();
        let indexes: Vec<_> = first.iter().chain(&second).map(|w| w.index).collect();
        assert_eq!(indexes, (0..31).collect::<Vec<_>>());
    }

    #[test]
    fn later_duplicates_fail_and_first_is_kept() {
        let mut input = Input::default();
        input.push_lazy(["a", "b", "a", "c", "b"].into_iter().map(write));
        let mut failed = Vec::new();
        let chunk = input.next_chunk(25, &mut failed).unwrap_or_default();
        let kept: Vec<_> = chunk.iter().map(|w| (w.index, w.key.pk.as_str())).collect();
        assert_eq!(kept, [(0, "a"), (1, "b"), (3, "c")]);
        let dropped: Vec<_> = failed.iter().map(|f| f.index).collect();
        assert_eq!(dropped, [2, 4]);
        assert!(matches!(*failed[0].error, Error::DuplicateKey { ref pk, .. } if pk == "a"));
    }

    #[test]
    fn unknown_length_is_none() {
        let mut input = Input::default();
        input.push_lazy(
            (0..10)
                .filter(|i| i % 2 == 0)
                .map(|i| write(&i.to_string())),
        );
        assert_eq!(input.exact_len(), None);
    }
}
