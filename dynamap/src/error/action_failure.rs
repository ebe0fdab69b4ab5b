//! One failed action of a canceled transaction: the payload of
//! [`Error::TransactionCanceled`](super::Error::TransactionCanceled).

use std::fmt::Write;

/// One action of a canceled transaction that failed.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// match db.transaction().create(&Sensor { id: "S1".into(), city: "Poznań".into() }).send().await {
///     Err(dynamap::Error::TransactionCanceled { reasons, .. }) => {
///         for failure in &reasons {
///             if failure.is_conditional_check_failed() {
///                 eprintln!("action {} ({} of {}) found the item there", failure.index, failure.operation, failure.entity);
///             }
///         }
///     }
///     other => other?,
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ActionFailure {
    /// The action's position in the transaction, from 0, in the order it was added.
    pub index: usize,
    /// The entity the action wrote or checked.
    pub entity: &'static str,
    /// `put`, `create`, `replace`, `update`, `delete` or `check`.
    pub operation: &'static str,
    /// DynamoDB's reason code: `ConditionalCheckFailed`, `TransactionConflict`,
    /// `ItemCollectionSizeLimitExceeded`, `ThrottlingError`, `ValidationError`, ...
    pub code: Option<String>,
    /// DynamoDB's message, if it gave one.
    pub message: Option<String>,
    /// The action's only condition was its entity's version (a `put` of a versioned entity
    /// read earlier): a `ConditionalCheckFailed` then means the item was written since.
    pub version_only: bool,
}

impl ActionFailure {
    /// True when the action's condition did not hold.
    pub fn is_conditional_check_failed(&self) -> bool {
        self.code.as_deref() == Some("ConditionalCheckFailed")
    }

    /// True when another transaction or write won the item: it was busy
    /// (`TransactionConflict`), or it was written since it was read (the version condition
    /// of a versioned `put` failed). Read again, rebuild and retry, as
    /// [`Db::transact_retry`](crate::Db::transact_retry) does.
    pub fn is_conflict(&self) -> bool {
        self.is_busy() || (self.version_only && self.is_conditional_check_failed())
    }

    /// True when another transaction was working on the item (`TransactionConflict`):
    /// sending the same request again later may succeed.
    pub fn is_busy(&self) -> bool {
        self.code.as_deref() == Some("TransactionConflict")
    }
}

/// `action 1 (create of Sensor): ConditionalCheckFailed; ...`, for the error message.
pub(crate) fn describe(reasons: &[ActionFailure]) -> String {
    let mut out = String::new();
    for (i, r) in reasons.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        // Writing to a String cannot fail.
        let _ = write!(
            out,
            "action {} ({} of `{}`): {}",
            r.index,
            r.operation,
            r.entity,
            r.code.as_deref().unwrap_or("unknown")
        );
        if let Some(message) = &r.message {
            let _ = write!(out, " ({message})");
        }
    }
    if out.is_empty() {
        out.push_str("no reason given");
    }
    out
}
