//! The retry loop every batch chunk runs, for gets and writes alike: send what is pending,
//! keep what comes back unprocessed, back off while calls make no progress, and give up
//! after the policy's number of calls in a row without progress.

use std::future::Future;
use std::sync::Arc;

use super::call::Ctx;
use crate::Error;
use crate::retry::SplitMix64;

/// A chunk of keys or writes, sent in one call at a time until none is pending.
pub(super) trait Chunk: Send {
    /// What one successful call answers.
    type Answer;
    /// The operation's name, for [`Error::Unprocessed`].
    const OPERATION: &'static str;

    /// How many keys or writes have not been done yet.
    fn pending(&self) -> usize;

    /// One call with everything pending: its answer, or the error and whether retrying it
    /// may succeed.
    fn call<'c>(
        &'c mut self,
        ctx: &'c Ctx<'c>,
    ) -> impl Future<Output = Result<Self::Answer, (Error, bool)>> + Send + 'c;

    /// Takes in a call's answer: what it did is no longer pending.
    fn absorb(&mut self, answer: Self::Answer);

    /// Gives up on everything still pending, which fails with `error`.
    fn fail_pending(&mut self, error: Arc<Error>);
}

/// Sends `chunk` until nothing is pending, or fails what is left with an error retrying
/// cannot fix, the last retryable error once the policy's number of calls in a row made no
/// progress, or [`Error::Unprocessed`].
pub(super) async fn drive<C: Chunk>(ctx: &Ctx<'_>, chunk: &mut C, seed: u64) {
    if let Some(error) = give_up_reason(ctx, chunk, seed).await {
        chunk.fail_pending(Arc::new(error));
    }
}

/// The retry loop of [`drive`]: `None` when nothing is left pending.
async fn give_up_reason<C: Chunk>(ctx: &Ctx<'_>, chunk: &mut C, seed: u64) -> Option<Error> {
    let mut rng = SplitMix64::seeded(seed);
    let (mut calls, mut stalls) = (0, 0);
    loop {
        let before = chunk.pending();
        let last_error = match chunk.call(ctx).await {
            Ok(answer) => {
                chunk.absorb(answer);
                None
            }
            Err((error, true)) => Some(error),
            Err((error, false)) => return Some(error),
        };
        let left = chunk.pending();
        if left == 0 {
            return None;
        }
        calls += 1;
        stalls = if left < before { 0 } else { stalls + 1 };
        if stalls >= ctx.retry.attempts() {
            return Some(last_error.unwrap_or(Error::Unprocessed {
                operation: C::OPERATION,
                attempts: calls,
            }));
        }
        ctx.back_off(stalls, &mut rng).await;
    }
}
