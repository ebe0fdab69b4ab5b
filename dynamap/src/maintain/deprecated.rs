//! `run`, the name jobs and audits were sent by in earlier releases, kept for one release:
//! every request now ends in `send()` or `.await`.

use super::{Audit, AuditReport, Maintain, Report};
use crate::{Entity, Result};

impl<E: Entity + Send + Sync> Maintain<E> {
    /// Runs the job; see [`send`](Maintain::send).
    ///
    /// # Errors
    ///
    /// As [`send`](Maintain::send).
    #[deprecated(note = "use `send` (or `.await` the job)")]
    pub async fn run(self) -> Result<Report> {
        self.send().await
    }
}

impl<L: crate::table::Table> Audit<L> {
    /// Runs the audit; see [`send`](Audit::send).
    ///
    /// # Errors
    ///
    /// As [`send`](Audit::send).
    #[deprecated(note = "use `send` (or `.await` the audit)")]
    pub async fn run(self) -> Result<AuditReport> {
        self.send().await
    }
}
