//! [`EventRows`]: the handle writes and reads of one event type go through.

use std::future::Future;
use std::marker::PhantomData;
use std::time::SystemTime;

use futures_util::stream::{self, Stream, StreamExt};

use super::adaptive::RowsSeen;
use super::layout::{check_supported, decode_row, split};
use super::read::{RowQuery, is_row_of, last_row_sk};
use super::request::{add_request, create_request};
use super::write::Writer;
use super::{EventId, EventRow, WriteOutcome, WritePath};
use crate::codec::AttributeValue;
use crate::key::{Key, KeyError, KeyErrorKind, PartitionKey, Segment, SortArgs, SortBound};
use crate::preview::{Request, input_of};
use crate::table::Table;
use crate::{Error, Handle, Result};

/// Writes and reads events of type `E` as multi-event rows. Made by [`Db::event_rows`](crate::Db::event_rows);
/// cheap to clone, and `'static`, so it can move into spawned tasks.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # use dynamap::timeseries::rows::{EventRow, WritePath};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity, Clone)] #[dynamap(table = Iot, entity = "CarEvent", pk = "CAR#{car}", sk = "{at}")]
/// # struct CarEvent { car: String, at: i64, speed: f64 }
/// # impl EventRow for CarEvent {}
/// use futures_util::TryStreamExt;
///
/// # async fn example(db: dynamap::Db<Iot>, events: Vec<CarEvent>) -> dynamap::Result<()> {
/// let rows = db.event_rows::<CarEvent>().write_path(WritePath::CreateFirst).cap(100);
/// for outcome in rows.write_all(&events, 8).await {
///     outcome?;
/// }
/// let first_second: Vec<CarEvent> =
///     rows.range(CarEvent::partition("car7"), (0i64,), (999i64,)).try_collect().await?;
/// # Ok(()) }
/// ```
pub struct EventRows<E> {
    db: Handle,
    path: WritePath,
    cap: usize,
    consistent: bool,
    /// What this handle's writes found, for [`WritePath::Adaptive`]; shared by clones.
    seen: RowsSeen,
    marker: PhantomData<fn() -> E>,
}

impl<E> Clone for EventRows<E> {
    fn clone(&self) -> Self {
        Self {
            db: self.db.clone(),
            path: self.path,
            cap: self.cap,
            consistent: self.consistent,
            seen: self.seen.clone(),
            marker: PhantomData,
        }
    }
}

impl<E> std::fmt::Debug for EventRows<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventRows")
            .field("entity", &std::any::type_name::<E>())
            .field("table", &self.db.table_name())
            .field("path", &self.path)
            .field("cap", &self.cap)
            .field("consistent", &self.consistent)
            .finish()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Multi-event rows of `E` in this table, with [`WritePath::default`] and a cap of
    /// [`EventRow::ROW_CAP`]; see [`timeseries::rows`](crate::timeseries::rows). Each of its
    /// requests (`write`, `write_all`, `at`) is a future to await, `range` a stream.
    pub fn event_rows<E: EventRow + crate::InLayout<L>>(&self) -> EventRows<E> {
        EventRows::on(self.handle())
    }
}

impl<E: EventRow> EventRows<E> {
    /// Multi-event rows of `E` on a handle whose layout is already checked.
    pub(crate) fn on(db: &Handle) -> Self {
        Self {
            db: db.clone(),
            path: WritePath::default(),
            cap: E::ROW_CAP,
            consistent: false,
            seen: RowsSeen::default(),
            marker: PhantomData,
        }
    }
}

impl<E: EventRow> EventRows<E> {
    /// Multi-event rows of `E` in `db`'s table; every handle starts from the `Db` now.
    #[deprecated(note = "use `db.event_rows::<E>()`")]
    pub fn new<L: crate::table::Table>(db: &crate::Db<L>) -> Self
    where
        E: crate::InLayout<L>,
    {
        db.event_rows()
    }

    /// Which request writes try first.
    pub fn write_path(mut self, path: WritePath) -> Self {
        self.path = path;
        self
    }

    /// How many events a row created from now on holds (rows already stored keep theirs).
    /// A cap of 0 makes writes fail with [`Error::InvalidSetting`].
    pub fn cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// Reads with strong consistency.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// The id `event` is stored under.
    ///
    /// # Errors
    ///
    /// Fails when `event` does not encode (a key, encoding or compression error), as for a put.
    pub fn id_of(event: &E) -> Result<EventId> {
        Ok(EventId::of_item(&event.to_item()?))
    }

    fn check(&self) -> Result<()> {
        check_supported::<E>()?;
        if self.cap == 0 {
            return Err(Error::InvalidSetting {
                setting: "cap",
                reason: "an event row cap must be at least 1".to_owned(),
            });
        }
        Ok(())
    }

    /// Stores `event` in the row of its timestamp, once: writing an event that is already
    /// stored changes nothing and reports [`WriteStatus::AlreadyStored`](super::WriteStatus).
    ///
    /// The event is encoded before this returns, so the future borrows nothing and can be
    /// spawned.
    ///
    /// # Errors
    ///
    /// Fails before sending with [`Error::EventRowUnsupported`] for an entity rows cannot hold,
    /// [`Error::InvalidSetting`] for a cap of 0, an encoding or [`Error::ItemTooLarge`] error; then
    /// with [`Error::EventRowsFull`], [`Error::Contention`] when concurrent writers keep winning,
    /// or [`Error::Service`] when DynamoDB refuses the request or cannot be reached.
    pub fn write(&self, event: &E) -> impl Future<Output = Result<WriteOutcome>> + Send + use<E> {
        let prepared = self.check().and_then(|()| split(event));
        let adaptive = (self.path == WritePath::Adaptive).then(|| self.seen.clone());
        let create_first = self.creates_first(event);
        let db = self.db.clone();
        let cap = self.cap;
        async move {
            let event = prepared?;
            let writer = Writer {
                db: &db,
                cap,
                create_first,
            };
            let outcome = writer.write::<E>(&event).await?;
            if let Some(seen) = adaptive {
                seen.record(outcome.started_with_create, outcome.requests);
            }
            Ok(outcome)
        }
    }

    /// Whether a write of `event` starts by creating its row rather than adding to it: the
    /// write path's choice.
    fn creates_first(&self, event: &E) -> bool {
        match self.path {
            WritePath::Adaptive => self.seen.prefers_create(),
            path => path.create_first(event.event_time(), SystemTime::now()),
        }
    }

    /// The first request [`write`](Self::write) sends for `event`, not sent: what a preview
    /// of an ingest into rows shows. Which requests follow depends on its answer.
    pub(crate) fn first_request(&self, event: &E) -> Result<Request> {
        self.check()?;
        let event_split = split(event)?;
        Ok(if self.creates_first(event) {
            let request = create_request::<E>(&self.db, &event_split, 0, self.cap)?;
            Request::PutItem(input_of!(request, "PutItem")?)
        } else {
            let request = add_request::<E>(&self.db, &event_split, 0);
            Request::UpdateItem(input_of!(request, "UpdateItem")?)
        })
    }

    /// Writes every event, up to `concurrency` at a time (at least 1), and reports each
    /// one's outcome in the order given. One event's failure does not stop the others.
    pub fn write_all<'e, I>(
        &self,
        events: I,
        concurrency: usize,
    ) -> impl Future<Output = Vec<Result<WriteOutcome>>> + Send + use<'e, E, I>
    where
        I: IntoIterator<Item = &'e E>,
        I::IntoIter: Send,
        E: 'e,
    {
        let rows = self.clone();
        stream::iter(events)
            .map(move |event| rows.write(event))
            .buffered(concurrency.max(1))
            .collect()
    }

    /// The events at the timestamp `key` names (the key an event at that timestamp has,
    /// `E::key(...)`), overflow rows included, each row in arrival order.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::EventRowUnsupported`] for an entity rows cannot hold, [`Error::Key`]
    /// when the key does not render, [`Error::Service`] when DynamoDB refuses the request or cannot
    /// be reached, and [`Error::MalformedEventRow`] or a decode error when a stored row does not
    /// read.
    pub fn at(&self, key: Key<E>) -> impl Future<Output = Result<Vec<E>>> + Send + use<E> {
        let this = self.clone();
        async move {
            check_supported::<E>()?;
            let (pk, sk) = key.into_values()?;
            let sk = sk.unwrap_or_default();
            let query = RowQuery {
                pk,
                high: last_row_sk(&sk),
                low: sk.clone(),
                consistent: this.consistent,
            };
            let rows = query.all::<E>(&this.db).await?;
            let mut events = Vec::new();
            for row in rows {
                if is_row_of::<E>(&row, &sk) {
                    events.extend(decode_row::<E>(row)?);
                }
            }
            Ok(events)
        }
    }

    /// The events of `partition` (`E::partition(...)`) whose timestamps lie between `from`
    /// and `to`, both inclusive, in time order, overflow rows included; events of one
    /// timestamp come in arrival order. `from` and `to` are the sort key's leading parts, as
    /// in [`Query::sk_between`](crate::query::Query::sk_between). Pages are read as the
    /// stream is consumed.
    pub fn range<S, L, H>(
        &self,
        partition: PartitionKey<E, S>,
        from: L,
        to: H,
    ) -> impl Stream<Item = Result<E>> + Send + use<E, S, L, H>
    where
        L: SortArgs<S>,
        H: SortArgs<S>,
        E: Send,
    {
        match self.range_query(partition, &from, &to) {
            Ok(Some(query)) => query.stream::<E>(self.db.clone()).left_stream(),
            Ok(None) => stream::empty().right_stream().right_stream(),
            Err(err) => stream::once(async move { Err(err) })
                .left_stream()
                .right_stream(),
        }
    }

    /// The query for a range, or `None` when the range is empty.
    fn range_query<S, L: SortArgs<S>, H: SortArgs<S>>(
        &self,
        partition: PartitionKey<E, S>,
        from: &L,
        to: &H,
    ) -> Result<Option<RowQuery>> {
        check_supported::<E>()?;
        if let Some(index) = partition.index() {
            return Err(Error::Unsupported {
                operation: "EventRows",
                reason: format!("event rows are read from the table, not from index `{index}`"),
            });
        }
        let template = partition.sort_template();
        let pk = match partition.into_attribute_value()? {
            AttributeValue::S(pk) => pk,
            _ => return Err(template_keys_only()),
        };
        let low = match bound::<E, S, L>(template, from)? {
            SortBound::Whole(key) => key,
            SortBound::Prefix { prefix, .. } => prefix,
            SortBound::Value(_) | SortBound::Values(_) => return Err(template_keys_only()),
        };
        let high = match bound::<E, S, H>(template, to)? {
            SortBound::Whole(key) => last_row_sk(&key),
            SortBound::Prefix { after, .. } => after,
            SortBound::Value(_) | SortBound::Values(_) => return Err(template_keys_only()),
        };
        Ok((low <= high).then_some(RowQuery {
            pk,
            low,
            high,
            consistent: self.consistent,
        }))
    }
}

/// Event rows live in the table, whose keys are rendered templates.
fn template_keys_only() -> Error {
    Error::Unsupported {
        operation: "EventRows",
        reason: "event rows are keyed by templates, not by attribute keys".to_owned(),
    }
}

/// Renders the leading sort key parts `args`.
fn bound<E: EventRow, S, A: SortArgs<S>>(template: &[Segment], args: &A) -> Result<SortBound> {
    Ok(args.bound(template).map_err(|(index, err)| KeyError {
        entity: E::ENTITY_TYPE,
        attribute: <E::Table as Table>::SCHEMA.sk.unwrap_or(""),
        field: template.iter().filter_map(Segment::hole_name).nth(index),
        kind: KeyErrorKind::Part(err),
    })?)
}
