//! What a batch write reports: how many items were written, and each one that was not.

use std::fmt;
use std::sync::Arc;

use super::ItemKey;
use crate::Error;

/// The progress callback's type.
pub(super) type ProgressFn<'a> = Box<dyn FnMut(Progress) + Send + 'a>;

/// Whether a batch item was a put or a delete.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// use dynamap::batch::WriteAction;
/// let report = db.batch_write().put(&Sensor { id: "S1".into(), city: "Poznań".into() }).delete(Sensor::key("S0")).await?;
/// for failed in &report.failed {
///     if failed.action == WriteAction::Delete {
///         eprintln!("not deleted: {failed}");
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WriteAction {
    /// Write the item, replacing any item with the same key.
    Put,
    /// Delete the item with the key, if there is one.
    Delete,
}

impl fmt::Display for WriteAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WriteAction::Put => "put",
            WriteAction::Delete => "delete",
        })
    }
}

/// One batch item that was not written, and why.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensors: Vec<Sensor> = Vec::new();
/// let report = db.put_all(&sensors).await?;
/// for failed in &report.failed {
///     eprintln!("item #{} ({}): {}", failed.index, failed.entity, failed.error);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FailedWrite {
    /// The position of the item in the batch's input, counting from 0 across every
    /// `put`, `put_all`, `delete` and `delete_all` in the order they were added.
    pub index: usize,
    /// The item's entity type.
    pub entity: &'static str,
    /// A put or a delete.
    pub action: WriteAction,
    /// The item's key; `None` when the key itself could not be rendered.
    pub key: Option<ItemKey>,
    /// Why it was not written: the item's own error (a bad key, an item over 400 KB, a
    /// [duplicate](Error::DuplicateKey)), the last error of the call it was in, or
    /// [`Error::Unprocessed`]. Shared by every item of a call that failed as a whole.
    pub error: Arc<Error>,
}

impl fmt::Display for FailedWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of `{}`", self.action, self.entity)?;
        if let Some(key) = &self.key {
            write!(f, " {key}")?;
        }
        write!(f, " (input #{}): {}", self.index, self.error)
    }
}

/// The outcome of a batch write: `written + failed.len()` is the number of items given.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> Result<(), Box<dyn std::error::Error>> {
/// let sensors: Vec<Sensor> = Vec::new();
/// let report = db.put_all(&sensors).await?;
/// println!("{} written in {} calls ({} retried, {} throttled)", report.written, report.calls, report.retries, report.throttled);
/// if !report.is_complete() {
///     return Err(report.to_string().into());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
#[must_use = "a batch write returns Ok with the items it could not store in `failed`: check `is_complete()`"]
pub struct BatchWriteReport {
    /// How many puts and deletes DynamoDB applied.
    pub written: usize,
    /// Every item that was not written, in no particular order (each knows its
    /// [`index`](FailedWrite::index)).
    pub failed: Vec<FailedWrite>,
    /// The write capacity units the calls consumed, when asked for with
    /// [`track_capacity`](super::BatchWrite::track_capacity).
    pub consumed_capacity: Option<f64>,
    /// How many `BatchWriteItem` calls were made, retries included.
    pub calls: usize,
    /// How many of those calls resent items: after unprocessed items or a retryable error.
    pub retries: usize,
    /// How many calls DynamoDB throttled as a whole (each then retried with backoff, or
    /// reported in `failed` when the retry policy gave up).
    pub throttled: usize,
}

impl BatchWriteReport {
    /// True when every item was written.
    pub fn is_complete(&self) -> bool {
        self.failed.is_empty()
    }

    /// The number of items the batch was given.
    pub fn total(&self) -> usize {
        self.written + self.failed.len()
    }

    /// `Ok(written)` when every item was written, else the report itself as the error, for
    /// callers that treat any failure as fatal. In a function returning
    /// [`dynamap::Result`](crate::Result), `?` turns the report into
    /// [`Error::BatchWrite`] (the counts and the failure that decides what to do); match
    /// `Err(report)` instead to handle each failed item.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String, city: String }
    /// async fn store(db: &dynamap::Db<App>, sensors: &[Sensor]) -> dynamap::Result<usize> {
    ///     let written = db.put_all(sensors).await?.into_result()?;
    ///     Ok(written)
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// Returns the report itself when any item failed ([`is_complete`](Self::is_complete) is
    /// false).
    pub fn into_result(self) -> Result<usize, Self> {
        if self.is_complete() {
            Ok(self.written)
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for BatchWriteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} written, {} failed", self.written, self.failed.len())?;
        if let Some(first) = self.failed.first() {
            write!(f, "; first failure: {first}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BatchWriteReport {}

/// `?` on [`BatchWriteReport::into_result`] in a function returning [`crate::Result`].
impl From<BatchWriteReport> for Error {
    fn from(report: BatchWriteReport) -> Self {
        let failed = report.failed.len();
        let deciding = report
            .failed
            .iter()
            .find(|f| !f.error.is_retryable())
            .or(report.failed.first());
        let first = match deciding {
            Some(failure) => Error::clone(&failure.error),
            // A complete report: nothing failed, and nothing to retry.
            None => Error::InvalidSetting {
                setting: "into_result",
                reason: "a complete batch write report is not an error".to_owned(),
            },
        };
        Error::BatchWrite {
            written: report.written,
            failed,
            first: Box::new(first),
        }
    }
}

/// How far a batch write has got, passed to the [progress callback](super::BatchWrite::on_progress)
/// after each call's items are settled.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensors: Vec<Sensor> = Vec::new();
/// db.batch_write()
///     .put_all(&sensors)
///     .on_progress(|p| eprintln!("{} of {:?} ({} failed)", p.done(), p.total, p.failed))
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// Items written so far.
    pub written: usize,
    /// Items given up so far (invalid, duplicate, or failed after retries).
    pub failed: usize,
    /// How many items the batch holds: known from the start when every input reports an
    /// exact length (vectors, ranges, and maps over them do), otherwise once the input has
    /// been read to its end.
    pub total: Option<usize>,
}

impl Progress {
    /// Items settled so far, written or failed.
    pub fn done(&self) -> usize {
        self.written + self.failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn failure(index: usize, error: Error) -> FailedWrite {
        FailedWrite {
            index,
            entity: "Sensor",
            action: WriteAction::Put,
            key: None,
            error: Arc::new(error),
        }
    }

    fn question_mark(report: BatchWriteReport) -> crate::Result<usize> {
        Ok(report.into_result()?)
    }

    #[test]
    fn question_mark_turns_a_report_into_an_error_deciding_by_what_retrying_cannot_cure() {
        let unprocessed = Error::Unprocessed {
            operation: "BatchWriteItem",
            attempts: 10,
        };
        let duplicate = Error::DuplicateKey {
            entity: "Sensor",
            pk: "SENSOR#1".into(),
            sk: None,
        };
        let report = BatchWriteReport {
            written: 5,
            failed: vec![failure(0, unprocessed.clone()), failure(3, duplicate)],
            ..BatchWriteReport::default()
        };
        let err = question_mark(report).expect_err("two failed");
        assert!(
            matches!(&err, Error::BatchWrite { written: 5, failed: 2, first }
            if matches!(**first, Error::DuplicateKey { .. })),
            "{err:?}"
        );
        assert_eq!(err.kind(), ErrorKind::Limit);
        assert!(!err.is_retryable());
        assert_eq!(err.to_string(), "batch write left 2 of 7 items unwritten");

        let only_throttled = BatchWriteReport {
            written: 1,
            failed: vec![failure(0, unprocessed)],
            ..BatchWriteReport::default()
        };
        let err = question_mark(only_throttled).expect_err("one failed");
        assert!(err.is_throttled() && err.is_retryable(), "{err:?}");

        let complete = BatchWriteReport {
            written: 4,
            ..BatchWriteReport::default()
        };
        assert_eq!(question_mark(complete).expect("complete"), 4);
    }
}
