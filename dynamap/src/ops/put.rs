//! PutItem: plain, create-only and replace-only.

use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use tracing::Instrument;

use super::{call_span, item_for_write};
use crate::codec::Item;
use crate::table::Table;
use crate::{Db, Entity, Error, Result};

/// What a put requires of the item already stored under the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PutMode {
    /// Write whether or not an item is there, replacing it whole.
    Upsert,
    /// Write only if no item is there; otherwise fail with a conditional-check error.
    Create,
    /// Write only if an item is there; otherwise fail with a conditional-check error.
    Replace,
}

impl PutMode {
    fn operation(self) -> &'static str {
        match self {
            PutMode::Upsert => "put",
            PutMode::Create => "create",
            PutMode::Replace => "replace",
        }
    }
}

/// A pending PutItem, sent when awaited. Made by [`Db::put`], [`Db::create`] and
/// [`Db::replace`].
#[must_use = "a put does nothing until it is awaited"]
pub struct Put<'a, E> {
    db: &'a Db,
    item: Result<Item>,
    mode: PutMode,
    entity: PhantomData<fn() -> E>,
}

impl Db {
    /// Writes `entity`, replacing any item with the same key.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
    /// db.put(&Sensor { id: "S1".into() }).await?;
    /// # Ok(()) }
    /// ```
    pub fn put<'a, E: Entity>(&'a self, entity: &E) -> Put<'a, E> {
        Put::new(self, entity, PutMode::Upsert)
    }

    /// Writes `entity` only if no item has its key; otherwise the error answers
    /// [`is_conditional_check_failed`](Error::is_conditional_check_failed).
    pub fn create<'a, E: Entity>(&'a self, entity: &E) -> Put<'a, E> {
        Put::new(self, entity, PutMode::Create)
    }

    /// Writes `entity` only if an item with its key exists; otherwise the error answers
    /// [`is_conditional_check_failed`](Error::is_conditional_check_failed).
    pub fn replace<'a, E: Entity>(&'a self, entity: &E) -> Put<'a, E> {
        Put::new(self, entity, PutMode::Replace)
    }
}

impl<'a, E: Entity> Put<'a, E> {
    fn new(db: &'a Db, entity: &E, mode: PutMode) -> Self {
        Self {
            db,
            item: item_for_write(entity),
            mode,
            entity: PhantomData,
        }
    }

    /// Sends the request.
    pub async fn send(self) -> Result<()> {
        let schema = <E::Table as Table>::SCHEMA;
        let item = self.item?;
        let request = self
            .db
            .client()
            .put_item()
            .table_name(self.db.table_name())
            .set_item(Some(item));
        let request = match self.mode {
            PutMode::Upsert => request,
            PutMode::Create => request.condition_expression("attribute_not_exists(#pk)"),
            PutMode::Replace => request.condition_expression("attribute_exists(#pk)"),
        };
        let request = match self.mode {
            PutMode::Upsert => request,
            PutMode::Create | PutMode::Replace => {
                request.expression_attribute_names("#pk", schema.pk)
            }
        };
        let span = call_span("PutItem", self.db.table_name(), E::ENTITY_TYPE);
        match request.send().instrument(span).await {
            Ok(_) => Ok(()),
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Err(Error::ConditionalCheckFailed {
                    entity: E::ENTITY_TYPE,
                    operation: self.mode.operation(),
                })
            }
            Err(err) => Err(Error::service("PutItem", err)),
        }
    }
}

impl<'a, E: Entity + 'a> IntoFuture for Put<'a, E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
