//! DeleteItem.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::operation::delete_item::DeleteItemOutput;
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use tracing::Instrument;

use crate::clone_builder::clone_builder;
use crate::codec::Item;
use crate::expr::{Condition, Placeholders};
use crate::key::Key;
use crate::preview::{Preview, Request, input_of};
use crate::span::Call;
use crate::write::{
    AfterLoss, RenderedCondition, conditional_answer, delete_condition, finish, key_item,
    one_attempt, send_exactly,
};
use crate::{Entity, Error, Handle, Result};

/// A pending DeleteItem, sent when awaited. Made by [`Db::delete`](crate::Db::delete).
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// db.delete(Sensor::key("S1")).await?;             // succeeds when nothing is there
/// db.delete(Sensor::key("S2")).if_exists().await?; // fails when nothing is there
/// # Ok(()) }
/// ```
#[must_use = "a delete does nothing until it is awaited"]
pub struct Delete<E> {
    db: Handle,
    key: Key<E>,
    must_exist: bool,
    condition: Option<Condition<E>>,
}

clone_builder!(Delete<E> { db, key, must_exist, condition });

impl<E: Entity> std::fmt::Debug for Delete<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delete")
            .field("table", &self.db.table_name())
            .field("key", &self.key)
            .field("must_exist", &self.must_exist)
            .field("condition", &self.condition)
            .finish()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Deletes the item `key` names. Deleting an item that is not there succeeds, unless
    /// [`if_exists`](Delete::if_exists) asks otherwise.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.delete(Sensor::key("S1")).await?;
    /// # Ok(()) }
    /// ```
    pub fn delete<E: Entity + crate::InLayout<L>>(&self, key: Key<E>) -> Delete<E> {
        Delete {
            db: self.handle().clone(),
            key,
            must_exist: false,
            condition: None,
        }
    }
}

impl<E: Entity> Delete<E> {
    /// Fails with a conditional-check error when there is no item to delete.
    pub fn if_exists(mut self) -> Self {
        self.must_exist = true;
        self
    }

    /// Deletes only if the stored item matches `condition`; otherwise the error answers
    /// [`is_conditional_check_failed`](crate::Error::is_conditional_check_failed). A missing
    /// item matches a condition only as DynamoDB evaluates it (`not_exists()` holds, a
    /// comparison does not).
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.delete(Account::key("bob")).condition(Account::BALANCE.eq(0i64)).await?;
    /// # Ok(()) }
    /// ```
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// What a transaction takes of the delete: the key, whether the item must exist, and
    /// the condition.
    pub(crate) fn into_parts(self) -> (Key<E>, bool, Option<Condition<E>>) {
        (self.key, self.must_exist, self.condition)
    }

    /// Sends the request. For an entity with lookup items, deletes them with it in one
    /// transaction.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Key`] when the key does not render, [`Error::InvalidExpression`] when
    /// the condition does not render, [`Error::ConditionalCheckFailed`] when
    /// [`if_exists`](Delete::if_exists) finds no item or the condition does not hold, and [`Error::Service`] when DynamoDB
    /// refuses the request or cannot be reached. After a lost answer a failed condition is
    /// never the answer (it may be this delete's own): [`Error::OutcomeUnknown`] instead.
    pub async fn send(self) -> Result<()> {
        let key = key_item(self.key.clone())?;
        if !E::WRITE.lookups.is_empty() {
            let condition = self.condition.as_ref();
            return super::sync::delete_with_lookups::<E>(
                &self.db,
                key,
                self.must_exist,
                condition,
            )
            .await;
        }
        let condition = self.rendered()?;
        let db = &self.db;
        // After a lost answer, a failed condition may be this delete's own doing: it is
        // then `OutcomeUnknown`, never `ConditionalCheckFailed` (see `write/exact.rs`).
        let attempt = |_lost| {
            let call = Call::new(db, "DeleteItem", E::ENTITY_TYPE, None);
            let request = request(db, &key, &condition)
                .set_return_consumed_capacity(call.capacity())
                .customize()
                .config_override(one_attempt());
            async move {
                let result = request.send().instrument(call.span()).await;
                conditional_answer(
                    call,
                    "DeleteItem",
                    result,
                    DeleteItemOutput::consumed_capacity,
                    || Error::ConditionalCheckFailed {
                        entity: E::ENTITY_TYPE,
                        operation: "delete",
                    },
                )
                .map(drop)
            }
        };
        send_exactly(db, E::ENTITY_TYPE, "delete", AfterLoss::Recheck, attempt).await
    }
}

impl<E: Entity> Delete<E> {
    /// The request [`send`](Delete::send) would make, not sent (see [`crate::preview`]); for
    /// an entity with lookup items, the read of the lookups its stored item records.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// println!("{}", db.delete(Sensor::key("S1")).if_exists().preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending ([`Error::Key`], [`Error::InvalidExpression`]).
    pub fn preview(&self) -> Result<Preview> {
        let key = key_item(self.key.clone())?;
        if !E::WRITE.lookups.is_empty() {
            let read = super::sync::Owner { key }.read_preview::<E>(&self.db)?;
            return Ok(Preview::lookup_reads(vec![read]));
        }
        let request = request(&self.db, &key, &self.rendered()?);
        Ok(Preview::one(Request::DeleteItem(input_of!(
            request,
            "DeleteItem"
        )?)))
    }

    fn rendered(&self) -> Result<RenderedCondition> {
        let mut p = Placeholders::default();
        let parts = delete_condition(self.must_exist, self.condition.as_ref(), &mut p)?;
        Ok(finish(parts, p))
    }
}

/// The DeleteItem of `key` on `condition`, as sent and previewed.
fn request(db: &Handle, key: &Item, condition: &RenderedCondition) -> DeleteItemFluentBuilder {
    db.client()
        .delete_item()
        .table_name(db.table_name())
        .set_key(Some(key.clone()))
        .set_condition_expression(condition.expression.clone())
        .set_expression_attribute_names(condition.names.clone())
        .set_expression_attribute_values(condition.values.clone())
}

impl<E: Entity> IntoFuture for Delete<E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
