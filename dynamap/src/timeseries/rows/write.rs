//! The write state machine: for each row of the event's timestamp, add to it or create it,
//! until a row stores the event or shows it already stored. Row 0 first; when it is full,
//! one query of the overflow rows ([`overflow`](super::overflow)) finds the event or the
//! row to go on at, so the cost does not grow with the number of rows.
//!
//! Why no event is lost or stored twice, even with concurrent writers and replays:
//! - Every request is one conditional write of one item, which DynamoDB applies atomically:
//!   an add appends the id only if the row does not list it and has room; a create succeeds
//!   only if the row does not exist. Concurrent writers of one row are serialized by
//!   DynamoDB, and the loser of a race sees the row as the winner left it.
//! - Rows only fill. A row's cap is fixed when it is created and only ever drops to 0 (a
//!   row closed because it reached the item size limit); ids are never removed. A writer
//!   moves past row `i` only after seeing it full without the event's id, so no writer can
//!   later add the event to row `i`, and if the event were already in row `i` the writer
//!   would have seen it. So every writer of one event settles on the same row.
//! - Every loop is bounded: at most [`MAX_STEPS`] requests per row (each repeat means
//!   another writer changed the row meanwhile), and at most [`MAX_ROWS`] rows.

use super::layout::{MAX_ROWS, RowState, SplitEvent, row_sk, row_state, with_event};
use super::overflow::{self, Resume};
use super::request::{self, Attempt};
use super::{WriteOutcome, WriteStatus};
use crate::limits::{MAX_ITEM_BYTES, item_size};
use crate::{Entity, Error, Handle, Result};

/// Requests per row before a write gives up with [`Error::Contention`]. A write needs at
/// most five requests per row on its own (add, create, add again, add maps, add again);
/// the rest absorbs concurrent writers changing the row in between.
pub(crate) const MAX_STEPS: u32 = 16;

/// What a row did with the event.
enum InRow {
    Stored,
    Holds,
    Full,
}

/// The next request for one row.
enum Step {
    Add,
    Create,
    AddMaps(Vec<String>),
    /// Read the row to see why DynamoDB found the add invalid.
    Inspect(Error),
    Close,
}

/// What a write in progress needs to know.
pub(crate) struct Writer<'a> {
    pub(crate) db: &'a Handle,
    pub(crate) cap: usize,
    pub(crate) create_first: bool,
}

impl Writer<'_> {
    /// Writes `event` into the first row of its timestamp that stores it or holds it.
    ///
    /// When row 0 is full, one query of the overflow rows finds the event (a replay) or the
    /// last row, so the cost does not grow with the number of overflow rows (see
    /// [`overflow`](super::overflow)).
    pub(crate) async fn write<E: Entity>(&self, event: &SplitEvent) -> Result<WriteOutcome> {
        let mut requests = 0;
        let outcome = |row, status, requests| WriteOutcome {
            id: event.id.clone(),
            row,
            status,
            started_with_create: self.create_first,
            requests,
        };
        let mut row = 0;
        while row < MAX_ROWS {
            let status = match self.write_in_row::<E>(event, row, &mut requests).await? {
                InRow::Stored => WriteStatus::Stored,
                InRow::Holds => WriteStatus::AlreadyStored,
                InRow::Full if row == 0 => {
                    let (resume, spent) = overflow::find::<E>(self.db, event).await?;
                    requests += spent;
                    match resume {
                        Resume::Holds(at) => {
                            return Ok(outcome(at, WriteStatus::AlreadyStored, requests));
                        }
                        Resume::At(last) => row = last,
                    }
                    continue;
                }
                InRow::Full => {
                    row += 1;
                    continue;
                }
            };
            return Ok(outcome(row, status, requests));
        }
        Err(Error::EventRowsFull {
            entity: E::ENTITY_TYPE,
            sk: event.sk.clone(),
            rows: MAX_ROWS,
        })
    }

    async fn write_in_row<E: Entity>(
        &self,
        event: &SplitEvent,
        row: u32,
        requests: &mut u32,
    ) -> Result<InRow> {
        let mut step = if self.create_first {
            Step::Create
        } else {
            Step::Add
        };
        for _ in 0..MAX_STEPS {
            *requests += 1;
            step = match step {
                Step::Add => match request::add::<E>(self.db, event, row).await? {
                    Attempt::Done => return Ok(InRow::Stored),
                    Attempt::Refused(None) => Step::Create,
                    Attempt::Refused(Some(stored)) => match next_for(&stored, event) {
                        Ok(done) => return Ok(done),
                        Err(step) => step,
                    },
                    Attempt::Invalid(err) => Step::Inspect(err),
                },
                Step::Create => match request::create::<E>(self.db, event, row, self.cap).await? {
                    Attempt::Done => return Ok(InRow::Stored),
                    // Refused with no row to show: it was deleted meanwhile; look again.
                    Attempt::Refused(None) => Step::Add,
                    Attempt::Refused(Some(stored)) => match next_for(&stored, event) {
                        Ok(done) => return Ok(done),
                        Err(step) => step,
                    },
                    Attempt::Invalid(err) => return Err(err),
                },
                Step::AddMaps(fields) => {
                    match request::add_maps::<E>(self.db, event, row, &fields).await? {
                        Attempt::Done => Step::Add,
                        Attempt::Refused(_) => Step::Create,
                        Attempt::Invalid(err) => return Err(err),
                    }
                }
                Step::Inspect(err) => match request::get::<E>(self.db, event, row).await? {
                    None => Step::Create,
                    Some(stored) => match next_for(&stored, event) {
                        Ok(done) => return Ok(done),
                        Err(Step::Add)
                            if item_size(&with_event(&stored, event)) > MAX_ITEM_BYTES =>
                        {
                            Step::Close
                        }
                        // The row takes the event and has its maps: the add was invalid for
                        // another reason, which the error tells.
                        Err(Step::Add) => return Err(err),
                        Err(step) => step,
                    },
                },
                Step::Close => match request::close::<E>(self.db, event, row).await? {
                    Attempt::Done => {
                        tracing::debug!(
                            target: "dynamap",
                            entity = E::ENTITY_TYPE,
                            sk = %row_sk(&event.sk, row),
                            "closed an event row at the item size limit"
                        );
                        return Ok(InRow::Full);
                    }
                    Attempt::Refused(None) => Step::Create,
                    Attempt::Refused(Some(stored)) => match next_for(&stored, event) {
                        Ok(done) => return Ok(done),
                        Err(step) => step,
                    },
                    Attempt::Invalid(err) => return Err(err),
                },
            };
        }
        Err(Error::Contention {
            entity: E::ENTITY_TYPE,
            rounds: MAX_STEPS,
        })
    }
}

/// What to do about a stored row: finish (`Ok`) or take another step (`Err`).
fn next_for(stored: &crate::codec::Item, event: &SplitEvent) -> std::result::Result<InRow, Step> {
    match row_state(stored, event) {
        RowState::Holds => Ok(InRow::Holds),
        RowState::Full => Ok(InRow::Full),
        RowState::MissingMaps(fields) => Err(Step::AddMaps(fields)),
        RowState::Open => Err(Step::Add),
    }
}
