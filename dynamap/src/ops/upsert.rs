//! Upsert: write an entity's fields into its item with UpdateItem, creating the item when
//! it is missing and keeping attributes the entity does not know.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use super::update::Plan;
use crate::clone_builder::clone_builder;
use crate::codec::Item;
use crate::expr::update::Change;
use crate::expr::{Condition, DocPath};
use crate::table::Table;
use crate::write::versioned_item;
use crate::{Entity, Handle, Result};

/// A pending upsert, sent when awaited. Made by [`Db::upsert`](crate::Db::upsert).
///
/// Unlike [`Db::put`](crate::Db::put), which replaces the whole item, an upsert sets each attribute the
/// entity stores (its fields, keys, index keys and entity type) and leaves every other
/// attribute of the stored item as it is, so attributes written by a newer version of the
/// model, or by other code, survive. `None` fields are removed, and so are the keys of a
/// sparse index the entity no longer belongs to. The version (if any) is checked and
/// incremented as a put does, `updated_at` is set and `created_at` is set only when the
/// item has none. Lookup items move as they do for a put.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Customer", pk = "CUSTOMER#{id}", sk = "PROFILE")]
/// # struct Customer { id: String, name: String, email: Option<String> }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let customer = Customer { id: "c1".into(), name: "Ada".into(), email: None };
/// db.upsert(&customer).await?; // creates c1, or merges into it
/// # Ok(()) }
/// ```
#[must_use = "an upsert does nothing until it is awaited"]
pub struct Upsert<E> {
    db: Handle,
    plan: Result<Plan<E>>,
}

clone_builder!(Upsert<E> { db, plan });

impl<E: Entity> std::fmt::Debug for Upsert<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upsert")
            .field("table", &self.db.table_name())
            .field("entity", &E::ENTITY_TYPE)
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Creates the entity's item, or merges the entity's attributes into it; see [`Upsert`].
    pub fn upsert<E: Entity + crate::InLayout<L>>(&self, entity: &E) -> Upsert<E> {
        Upsert {
            db: self.handle().clone(),
            plan: plan(entity),
        }
    }
}

/// Every attribute of the entity's item as a `SET`, and a `REMOVE` of every optional
/// attribute and index key it lacks.
fn plan<E: Entity>(entity: &E) -> Result<Plan<E>> {
    let schema = <E::Table as Table>::SCHEMA;
    let versioned = versioned_item(entity)?;
    let mut item = versioned.item;
    let mut key = Item::new();
    for attribute in std::iter::once(schema.pk).chain(schema.sk) {
        if let Some(value) = item.remove(attribute) {
            key.insert(attribute.to_owned(), value);
        }
    }
    let meta = E::WRITE;
    let mut changes = Vec::with_capacity(item.len() + meta.optional_attributes.len());
    let indexes = meta
        .indexed_attributes
        .iter()
        .filter_map(|(_, index)| schema.index(index));
    let index_keys = indexes.flat_map(|index| std::iter::once(index.pk).chain(index.sk));
    for attribute in meta.optional_attributes.iter().copied().chain(index_keys) {
        let removed = DocPath::attribute(attribute);
        if !item.contains_key(attribute) && !changes.contains(&Change::Remove(removed.clone())) {
            changes.push(Change::Remove(removed));
        }
    }
    for (attribute, value) in item {
        let path = DocPath::owned(attribute);
        changes.push(match meta.created_at {
            Some(created) if created == path.root() => Change::SetIfNotExists(path, value),
            _ => Change::Set(path, value),
        });
    }
    // The item holds the next version; the plan increments the stored one instead (under
    // the version condition), so the `SET` gives way to its increment. The item's
    // timestamps are already among the changes, so the plan adds none.
    if let Some(version) = meta.version {
        changes.retain(|c| c.attribute() != version);
    }
    Plan {
        key,
        changes,
        condition: None,
        expected_version: versioned.expected_version,
        must_exist: false,
        partial: false,
        lookups: entity.lookup_keys()?,
    }
    .with_version_and_timestamps()
}

impl<E: Entity> Upsert<E> {
    /// Writes only if the stored item matches `condition` (an item that does not exist yet
    /// matches no condition on its attributes).
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        if let Ok(plan) = &mut self.plan {
            plan.condition = Some(match plan.condition.take() {
                Some(existing) => existing.and(condition),
                None => condition,
            });
        }
        self
    }

    /// The request [`send`](Upsert::send) would make, not sent (see [`crate::preview`]); for
    /// an entity with lookup items, the read of the lookups its stored item records.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String, city: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// println!("{}", db.upsert(&Sensor { id: "S1".into(), city: "Poznań".into() }).preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending.
    pub fn preview(&self) -> Result<crate::preview::Preview> {
        match &self.plan {
            Ok(plan) => plan.preview(&self.db, false),
            Err(err) => Err(err.clone()),
        }
    }

    /// Sends the request.
    ///
    /// # Errors
    ///
    /// Fails before sending when the item does not build (a key, encoding or 400 KB size error);
    /// with [`Error::ConditionalCheckFailed`](crate::Error::ConditionalCheckFailed) when the
    /// condition does not hold ([`Error::VersionConflict`](crate::Error::VersionConflict) for a
    /// versioned entity), [`Error::LookupTaken`](crate::Error::LookupTaken) when a lookup is
    /// another item's; with [`Error::Service`](crate::Error::Service) when DynamoDB fails or is
    /// unreachable.
    pub async fn send(self) -> Result<()> {
        self.plan?.send(&self.db, false).await.map(drop)
    }
}

impl<E: Entity> IntoFuture for Upsert<E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
