//! Running a batch write: chunks in flight, each retried until done or given up.

use std::sync::Arc;

use aws_sdk_dynamodb::operation::batch_write_item::builders::BatchWriteItemFluentBuilder;
use aws_sdk_dynamodb::types::WriteRequest;
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use tracing::Instrument;

use super::call::{Ctx, Settings, classify, span_entity};
use super::chunk::Input;
use super::driver::{Chunk, drive};
use super::pending::PendingWrite;
use super::write_report::ProgressFn;
use super::{BatchWriteReport, FailedWrite, MAX_WRITE_CHUNK, Progress};
use crate::preview::{Preview, Request as PreviewRequest, input_of};
use crate::retry::SplitMix64;
use crate::span::Call;
use crate::{Error, Handle, Result};

const OPERATION: &str = "BatchWriteItem";

/// Reads the input a chunk at a time, keeping up to `concurrency` chunks in flight.
pub(super) async fn run(
    db: &Handle,
    mut input: Input<'_>,
    settings: Settings,
    mut progress: Option<ProgressFn<'_>>,
) -> Result<BatchWriteReport> {
    let ctx = Ctx::new(db, settings)?;
    let known_total = input.exact_len();
    let mut report = BatchWriteReport::default();
    let mut capacity = 0.0;
    let mut seeds = SplitMix64::from_entropy();
    let mut in_flight = FuturesUnordered::new();
    let mut last_reported = None;
    loop {
        while in_flight.len() < settings.concurrency {
            match input.next_chunk(MAX_WRITE_CHUNK, &mut report.failed) {
                Some(chunk) => in_flight.push(write_chunk(&ctx, chunk, seeds.next_u64())),
                None => break,
            }
        }
        let Some(outcome) = in_flight.next().await else {
            break;
        };
        report.written += outcome.written;
        report.failed.extend(outcome.failed);
        report.calls += outcome.calls;
        report.retries += outcome.calls.saturating_sub(1);
        report.throttled += outcome.throttled;
        capacity += outcome.capacity;
        if let Some(callback) = progress.as_mut() {
            let now = snapshot(&report, &input, known_total);
            callback(now);
            last_reported = Some(now);
        }
    }
    // Items that failed validation after the last call have not been reported yet.
    if let Some(callback) = progress.as_mut() {
        let now = snapshot(&report, &input, known_total);
        if last_reported != Some(now) {
            callback(now);
        }
    }
    report.consumed_capacity = settings.capacity.then_some(capacity);
    Ok(report)
}

fn snapshot(report: &BatchWriteReport, input: &Input<'_>, known_total: Option<usize>) -> Progress {
    Progress {
        written: report.written,
        failed: report.failed.len(),
        total: known_total.or_else(|| input.is_exhausted().then(|| input.pulled())),
    }
}

/// What became of one chunk's items.
pub(super) struct ChunkOutcome {
    written: usize,
    pub(super) failed: Vec<FailedWrite>,
    pub(super) capacity: f64,
    /// Calls made for the chunk, and how many of them were throttled.
    calls: usize,
    throttled: usize,
}

/// One chunk's writes on their way: those still pending, and what became of the others.
struct WriteChunk {
    pending: Vec<PendingWrite>,
    outcome: ChunkOutcome,
}

impl Chunk for WriteChunk {
    /// The writes left unprocessed, and the capacity consumed.
    type Answer = (Vec<WriteRequest>, f64);
    const OPERATION: &'static str = OPERATION;

    fn pending(&self) -> usize {
        self.pending.len()
    }

    async fn call<'c>(&'c mut self, ctx: &'c Ctx<'c>) -> Result<Self::Answer, (Error, bool)> {
        self.outcome.calls += 1;
        let result = call(ctx, &self.pending).await;
        if matches!(&result, Err((error, _)) if error.is_throttled()) {
            self.outcome.throttled += 1;
        }
        result
    }

    fn absorb(&mut self, (unprocessed, capacity): Self::Answer) {
        let before = self.pending.len();
        self.pending
            .retain(|write| unprocessed.iter().any(|u| write.is(u)));
        self.outcome.written += before - self.pending.len();
        self.outcome.capacity += capacity;
    }

    fn fail_pending(&mut self, error: Arc<Error>) {
        let failed = self.pending.drain(..).map(|w| w.fail(Arc::clone(&error)));
        self.outcome.failed.extend(failed);
    }
}

/// Sends one chunk until every item is written, or until the policy gives up on it; then
/// the rest fail with the last error, or as unprocessed.
pub(super) async fn write_chunk(
    ctx: &Ctx<'_>,
    pending: Vec<PendingWrite>,
    seed: u64,
) -> ChunkOutcome {
    let outcome = ChunkOutcome {
        written: 0,
        failed: Vec::new(),
        capacity: 0.0,
        calls: 0,
        throttled: 0,
    };
    let mut chunk = WriteChunk { pending, outcome };
    drive(ctx, &mut chunk, seed).await;
    chunk.outcome
}

/// One `BatchWriteItem` call: the writes DynamoDB left unprocessed and the capacity it
/// consumed, or the error and whether it is worth retrying.
async fn call(
    ctx: &Ctx<'_>,
    pending: &[PendingWrite],
) -> std::result::Result<(Vec<WriteRequest>, f64), (Error, bool)> {
    let table = ctx.db.table_name();
    let entity = span_entity(pending.iter().map(|w| w.entity));
    let types = pending.iter().map(|w| w.entity);
    let call = Call::several(ctx.db, OPERATION, entity, types, None);
    let span = call.span();
    let result = request(ctx.db, pending)
        .set_return_consumed_capacity(call.capacity_if(ctx.capacity))
        .send()
        .instrument(span.clone())
        .await;
    let output = match result {
        Ok(output) => output,
        Err(err) => {
            call.failed();
            return Err(classify(OPERATION, err));
        }
    };
    let unprocessed = output
        .unprocessed_items
        .and_then(|mut tables| tables.remove(table))
        .unwrap_or_default();
    let capacity = call.done(output.consumed_capacity.iter().flatten());
    span.in_scope(|| {
        tracing::debug!(
            items = pending.len(),
            unprocessed = unprocessed.len(),
            "batch write call"
        );
    });
    Ok((unprocessed, capacity))
}

/// The `BatchWriteItem` of `pending`, as sent and previewed. The requests are cloned, not
/// moved: a throttled call gives nothing back to resend.
pub(super) fn request(db: &Handle, pending: &[PendingWrite]) -> BatchWriteItemFluentBuilder {
    let requests = pending.iter().map(|write| write.request.clone()).collect();
    db.client()
        .batch_write_item()
        .request_items(db.table_name(), requests)
}

/// The calls [`run`] would make first for `input`, not sent: a chunk of up to 25 writes
/// each; the error of the first input item that would fail (it would be in the report).
pub(super) fn preview(db: &Handle, mut input: Input<'_>, settings: Settings) -> Result<Preview> {
    Ctx::new(db, settings)?;
    let mut failed = Vec::new();
    let mut requests = Vec::new();
    loop {
        let chunk = input.next_chunk(MAX_WRITE_CHUNK, &mut failed);
        if let Some(first) = failed.first() {
            return Err(Error::clone(&first.error));
        }
        let Some(chunk) = chunk else {
            return Ok(Preview::new(requests));
        };
        let input = input_of!(request(db, &chunk), "BatchWriteItem")?;
        requests.push(PreviewRequest::BatchWriteItem(input));
    }
}
