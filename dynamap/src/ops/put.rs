//! PutItem: plain, create-only and replace-only.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::put_item::{PutItemError, PutItemOutput};
use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;
use tracing::Instrument;

use super::sync;
use crate::clone_builder::clone_builder;
use crate::expr::{Condition, Placeholders};
use crate::preview::{Preview, Request, input_of};
use crate::span::Call;
use crate::write::{
    AfterLoss, PreparedPut, PutMode, RenderedCondition, conditional_answer, finish, one_attempt,
    prepare_put, put_condition, put_failed, same_item, send_exactly,
};
use crate::{Entity, Handle, Result};

/// A pending PutItem, sent when awaited. Made by [`Db::put`](crate::Db::put), [`Db::create`](crate::Db::create) and
/// [`Db::replace`](crate::Db::replace).
///
/// For an entity with a `#[dynamap(version)]` field, the write conditions on the stored
/// version being the one the value holds (no item, for version 0) and stores the next
/// version; a mismatch is [`Error::VersionConflict`](crate::Error::VersionConflict). [`Db::save`](crate::Db::save) also updates the value's
/// version field. For an entity with `lookup(...)` items, the put is a transaction that keeps
/// them in sync.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensor = Sensor { id: "S1".into(), city: "Poznań".into() };
/// db.put(&sensor).condition(Sensor::CITY.ne("Berlin")).await?;
/// # Ok(()) }
/// ```
#[must_use = "a put does nothing until it is awaited"]
pub struct Put<E> {
    db: Handle,
    prepared: Result<PreparedPut>,
    mode: PutMode,
    condition: Option<Condition<E>>,
}

clone_builder!(Put<E> { db, prepared, mode, condition });

impl<E: Entity> std::fmt::Debug for Put<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Put")
            .field("table", &self.db.table_name())
            .field("entity", &E::ENTITY_TYPE)
            .field("mode", &self.mode)
            .field("condition", &self.condition)
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Writes `entity`, replacing any item with the same key.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.put(&Sensor { id: "S1".into() }).await?;
    /// # Ok(()) }
    /// ```
    pub fn put<E: Entity + crate::InLayout<L>>(&self, entity: &E) -> Put<E> {
        Put::new(self.handle().clone(), entity, PutMode::Overwrite)
    }

    /// Writes `entity` only if no item has its key; otherwise the error answers
    /// [`is_conditional_check_failed`](crate::Error::is_conditional_check_failed).
    pub fn create<E: Entity + crate::InLayout<L>>(&self, entity: &E) -> Put<E> {
        Put::new(self.handle().clone(), entity, PutMode::Create)
    }

    /// Writes `entity` only if an item with its key exists; otherwise the error answers
    /// [`is_conditional_check_failed`](crate::Error::is_conditional_check_failed).
    pub fn replace<E: Entity + crate::InLayout<L>>(&self, entity: &E) -> Put<E> {
        Put::new(self.handle().clone(), entity, PutMode::Replace)
    }

    /// Puts a versioned entity and, once stored, sets its version field to the stored
    /// version, so the value can be changed and saved again.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Counter", pk = "COUNTER#{id}", sk = "COUNTER")]
    /// # struct Counter { id: String, value: u64, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let mut counter = db.get(Counter::key("visits")).consistent().await?.unwrap_or(Counter { id: "visits".into(), value: 0, version: 0 });
    /// counter.value += 1;
    /// match db.save(&mut counter).await {
    ///     Ok(()) => {}
    ///     Err(err @ dynamap::Error::VersionConflict { .. }) => { /* read again and retry */ return Err(err) }
    ///     Err(err) => return Err(err),
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Put::send`](crate::ops::Put::send), notably
    /// [`Error::VersionConflict`](crate::Error::VersionConflict) when the stored version is not the
    /// one the value holds; the version field changes only on success.
    pub fn save<'e, E: Entity + crate::InLayout<L> + Send>(
        &self,
        entity: &'e mut E,
    ) -> impl Future<Output = Result<()>> + Send + use<'e, L, E> {
        let this = self.clone();
        async move {
            this.put(&*entity).await?;
            if E::WRITE.version.is_some() {
                entity.set_version(entity.version().saturating_add(1));
            }
            Ok(())
        }
    }
}

impl<E: Entity> Put<E> {
    pub(crate) fn new(db: Handle, entity: &E, mode: PutMode) -> Self {
        Self {
            db,
            prepared: prepare_put(entity),
            mode,
            condition: None,
        }
    }

    /// What a transaction takes of the put: the prepared item, the mode and the condition.
    pub(crate) fn into_parts(self) -> (Result<PreparedPut>, PutMode, Option<Condition<E>>) {
        (self.prepared, self.mode, self.condition)
    }

    /// Writes only if the stored item also matches `condition`.
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// Sends the request.
    ///
    /// # Errors
    ///
    /// Fails before sending when the item does not build (a key, encoding or 400 KB size error);
    /// with [`Error::ConditionalCheckFailed`](crate::Error::ConditionalCheckFailed) when `create`,
    /// `replace` or the condition does not hold,
    /// [`Error::VersionConflict`](crate::Error::VersionConflict) when the stored version moved on,
    /// [`Error::LookupTaken`](crate::Error::LookupTaken) when a lookup is another item's; with
    /// [`Error::Service`](crate::Error::Service) when DynamoDB fails or is unreachable. After a
    /// lost answer, a failed condition that finds exactly this item is success, and any other
    /// is [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown).
    pub async fn send(self) -> Result<()> {
        let Put {
            db,
            prepared,
            mode,
            condition,
        } = self;
        let prepared = prepared?;
        if !E::WRITE.lookups.is_empty() {
            let write = sync::SyncedWrite {
                item: prepared.item,
                lookups: prepared.lookups,
                expected_version: prepared.expected_version,
            };
            return sync::put_with_lookups::<E>(&db, write, mode, condition.as_ref()).await;
        }
        let condition = rendered(mode, prepared.expected_version, condition.as_ref())?;
        let (db, item) = (&db, &prepared.item);
        let failed = || put_failed::<E>(mode, prepared.expected_version);
        let attempt = |lost: bool| {
            let call = Call::new(db, "PutItem", E::ENTITY_TYPE, None);
            let request = request(db, item, &condition, lost)
                .set_return_consumed_capacity(call.capacity())
                .customize()
                .config_override(one_attempt());
            async move {
                let result = request.send().instrument(call.span()).await;
                let stored = match &result {
                    Err(err) => match err.as_service_error() {
                        Some(PutItemError::ConditionalCheckFailedException(e)) => e.item(),
                        _ => None,
                    },
                    Ok(_) => None,
                };
                // Not for a versioned put: two read-modify-writes from one version can store
                // equal items, so the equal item may be the other writer's, and this call's
                // change lost (found by tests/model's `an_equal_item_is_not_proof_of_the_write`).
                let provable = prepared.expected_version.is_none();
                if lost && provable && stored.is_some_and(|stored| same_item(stored, item)) {
                    call.failed();
                    return Ok(());
                }
                conditional_answer(
                    call,
                    "PutItem",
                    result,
                    PutItemOutput::consumed_capacity,
                    failed,
                )
                .map(drop)
            }
        };
        send_exactly(
            db,
            E::ENTITY_TYPE,
            mode.operation(),
            AfterLoss::Recheck,
            attempt,
        )
        .await
    }
}

impl<E: Entity> Put<E> {
    /// The request [`send`](Put::send) would make, not sent (see [`crate::preview`]): the
    /// item as stored and the condition, with its names and values. For an entity with
    /// lookup items, the read of the lookups its stored item records, which decides the
    /// transaction that follows.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// println!("{}", db.create(&Sensor { id: "S1".into() }).preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending (a key, encoding, size or expression error).
    pub fn preview(&self) -> Result<Preview> {
        let prepared = self.prepared.clone()?;
        if !E::WRITE.lookups.is_empty() {
            let read = sync::Owner::of::<E>(&prepared.item).read_preview::<E>(&self.db)?;
            return Ok(Preview::lookup_reads(vec![read]));
        }
        let condition = rendered(
            self.mode,
            prepared.expected_version,
            self.condition.as_ref(),
        )?;
        let request = request(&self.db, &prepared.item, &condition, false);
        Ok(Preview::one(Request::PutItem(input_of!(
            request, "PutItem"
        )?)))
    }
}

/// The condition a put carries, rendered.
fn rendered<E: Entity>(
    mode: PutMode,
    expected_version: Option<u64>,
    condition: Option<&Condition<E>>,
) -> Result<RenderedCondition> {
    let mut p = Placeholders::default();
    let parts = put_condition::<E>(mode, expected_version, condition, &mut p)?;
    Ok(finish(parts, p))
}

/// The PutItem of `item` on `condition`, as sent and previewed. After a lost answer
/// (`lost`), a failed condition shows the stored item, to tell this put's own write from
/// another's.
fn request(
    db: &Handle,
    item: &crate::codec::Item,
    condition: &RenderedCondition,
    lost: bool,
) -> PutItemFluentBuilder {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item.clone()))
        .set_condition_expression(condition.expression.clone())
        .set_expression_attribute_names(condition.names.clone())
        .set_expression_attribute_values(condition.values.clone())
        .set_return_values_on_condition_check_failure(
            lost.then_some(ReturnValuesOnConditionCheckFailure::AllOld),
        )
}

impl<E: Entity> IntoFuture for Put<E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
