//! A k-way merge of sorted streams into one sorted stream.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::Stream;

use crate::Result;

/// One input: its stream, the item waiting at its head with that item's key, and whether it
/// has ended.
struct Input<S, E, K> {
    stream: S,
    head: Option<(K, E)>,
    done: bool,
}

/// Merges streams that are each sorted by `key` into one stream sorted by `key`.
///
/// It holds one item per input, so it reads each input only as far as the merge has got.
/// Equal keys come out in input order. An error is passed on at once and ends its input;
/// the others go on.
///
/// A linear scan picks the next item: the inputs are the tables of one range query, a
/// handful, where a heap would cost more than it saves.
pub(super) struct MergeSorted<S, E, K, F> {
    inputs: Vec<Input<S, E, K>>,
    key: F,
    descending: bool,
}

// Nothing is ever pinned through the struct: inputs are `Unpin` and polled through
// `Pin::new`, and the key function is only called.
impl<S, E, K, F> Unpin for MergeSorted<S, E, K, F> {}

impl<S, E, K, F> MergeSorted<S, E, K, F> {
    /// Merges `streams`, each in `key` order (greatest first when `descending`).
    pub(super) fn new(streams: impl IntoIterator<Item = S>, key: F, descending: bool) -> Self {
        let inputs = streams
            .into_iter()
            .map(|stream| Input {
                stream,
                head: None,
                done: false,
            })
            .collect();
        Self {
            inputs,
            key,
            descending,
        }
    }
}

impl<S, E, K, F> Stream for MergeSorted<S, E, K, F>
where
    S: Stream<Item = Result<E>> + Unpin,
    F: Fn(&E) -> K,
    K: Ord,
{
    type Item = Result<E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        // Every live input needs a head before the smallest can be known.
        let mut waiting = false;
        for input in &mut this.inputs {
            if input.head.is_some() || input.done {
                continue;
            }
            match Pin::new(&mut input.stream).poll_next(cx) {
                Poll::Ready(Some(Ok(item))) => input.head = Some(((this.key)(&item), item)),
                Poll::Ready(Some(Err(err))) => {
                    input.done = true;
                    return Poll::Ready(Some(Err(err)));
                }
                Poll::Ready(None) => input.done = true,
                Poll::Pending => waiting = true,
            }
        }
        if waiting {
            return Poll::Pending;
        }
        let mut best: Option<(usize, &K)> = None;
        for (i, input) in this.inputs.iter().enumerate() {
            let Some((key, _)) = &input.head else {
                continue;
            };
            let better = match best {
                None => true,
                Some((_, best_key)) if this.descending => key > best_key,
                Some((_, best_key)) => key < best_key,
            };
            if better {
                best = Some((i, key));
            }
        }
        let next = best
            .map(|(i, _)| i)
            .and_then(|i| this.inputs.get_mut(i))
            .and_then(|input| input.head.take())
            .map(|(_, item)| Ok(item));
        Poll::Ready(next)
    }
}

#[cfg(test)]
mod tests {
    use futures_util::stream::{self, StreamExt, TryStreamExt};

    use super::*;
    use crate::Error;

    fn sorted(items: &[i32]) -> impl Stream<Item = Result<i32>> + Unpin + use<> {
        stream::iter(items.iter().copied().map(Ok).collect::<Vec<_>>())
    }

    async fn merge(inputs: &[&[i32]], descending: bool) -> Vec<i32> {
        let merged = MergeSorted::new(inputs.iter().map(|s| sorted(s)), |x: &i32| *x, descending);
        merged.try_collect().await.expect("no errors")
    }

    #[tokio::test]
    async fn merges_in_order() {
        assert_eq!(
            merge(&[&[1, 4, 9], &[2, 3, 10], &[], &[0, 5]], false).await,
            [0, 1, 2, 3, 4, 5, 9, 10]
        );
        assert_eq!(
            merge(&[&[9, 4, 1], &[10, 3], &[5]], true).await,
            [10, 9, 5, 4, 3, 1]
        );
        assert_eq!(merge(&[], false).await, Vec::<i32>::new());
    }

    #[tokio::test]
    async fn equal_keys_keep_input_order() {
        let a = stream::iter([Ok((1, 'a')), Ok((2, 'a'))]);
        let b = stream::iter([Ok((1, 'b')), Ok((2, 'b'))]);
        let merged = MergeSorted::new([a, b], |x: &(i32, char)| x.0, false);
        let out: Vec<_> = merged.try_collect().await.expect("no errors");
        assert_eq!(out, [(1, 'a'), (1, 'b'), (2, 'a'), (2, 'b')]);
    }

    #[tokio::test]
    async fn passes_errors_on_and_goes_on_with_the_rest() {
        let failing = stream::iter(vec![
            Ok(1),
            Err(Error::Clock {
                millis: None,
                reason: "boom".to_owned(),
            }),
        ]);
        let merged = MergeSorted::new(
            [failing.boxed(), sorted(&[0, 2]).boxed()],
            |x: &i32| *x,
            false,
        );
        let out: Vec<_> = merged.collect().await;
        let shown: Vec<String> = out
            .iter()
            .map(|r| match r {
                Ok(x) => x.to_string(),
                Err(_) => "err".to_owned(),
            })
            .collect();
        assert_eq!(shown, ["0", "1", "err", "2"]);
    }
}
