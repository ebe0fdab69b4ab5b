//! Queries on lookup items: the keys of the entities that own them, and the owners.

use std::fmt;

use crate::codec::{AttributeValue, Item};
use crate::entity::{OWNER_PK, OWNER_SK};
use crate::key::Key;
use crate::query::{Decode, Query, UnknownEntity};
use crate::{Entity, Error, Result};

/// What a query on lookup items returns for each: the key of the entity that owns it.
/// `LOOKUP` is the lookup's position among the entity's `lookup(...)` declarations.
///
/// `#[derive(Entity)]` makes, for each `lookup(name = "location", ...)`, a builder
/// `by_location(...)` taking the lookup's partition key fields; the query takes typed sort
/// conditions on the lookup's sort key template as index queries do, and
/// [`owners`](Query::owners) reads the owners themselves.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity, Debug)]
/// #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO",
///           lookup(name = "location", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{id}"))]
/// struct Sensor { id: String, city: String, building: String, floor: String }
///
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// // The keys of the sensors on floor 2 of building A (not 20), from their lookup items.
/// let keys = db.query(Sensor::by_location("Poznań")).sk_prefix(("A", "2")).all().await?;
/// // The sensors themselves: the lookup query, then one batch get.
/// let sensors: Vec<Sensor> = db.query(Sensor::by_location("Poznań")).sk_prefix(("A",)).owners().await?;
/// # Ok(()) }
/// ```
pub struct OwnerKey<E, const LOOKUP: usize> {
    key: Key<E>,
}

impl<E, const LOOKUP: usize> OwnerKey<E, LOOKUP> {
    /// The owner's key, to read it with [`Db::get`](crate::Db::get) or to update it.
    pub fn key(&self) -> &Key<E> {
        &self.key
    }

    /// The owner's key.
    pub fn into_key(self) -> Key<E> {
        self.key
    }
}

impl<E, const LOOKUP: usize> fmt::Debug for OwnerKey<E, LOOKUP> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.key.attribute_values() {
            Ok((pk, sk)) => f
                .debug_struct("OwnerKey")
                .field("pk", &pk)
                .field("sk", &sk)
                .finish(),
            Err(err) => f.debug_struct("OwnerKey").field("error", &err).finish(),
        }
    }
}

impl<E: Entity, const LOOKUP: usize> Decode for OwnerKey<E, LOOKUP> {
    type Table = E::Table;
    const SINGLE_ENTITY: Option<&'static str> = Some(E::LOOKUP_TYPES[LOOKUP]);
    const ENTITY_TYPES: &'static [&'static str] = &[E::LOOKUP_TYPES[LOOKUP]];

    fn decode(mut item: Item, _: UnknownEntity) -> Result<Option<Self>> {
        let entity = E::LOOKUP_TYPES[LOOKUP];
        let mut text = |attribute: &'static str| match item.remove(attribute) {
            Some(AttributeValue::S(value)) => Ok(Some(value)),
            None => Ok(None),
            Some(_) => Err(Error::MissingAttribute {
                entity,
                attribute,
                item: None,
            }),
        };
        let pk = text(OWNER_PK)?.ok_or(Error::MissingAttribute {
            entity,
            attribute: OWNER_PK,
            item: None,
        })?;
        let sk = text(OWNER_SK)?;
        Ok(Some(Self {
            key: Key::from_rendered(Ok(pk), sk.map(Ok)),
        }))
    }
}

impl<E, const LOOKUP: usize, S> Query<OwnerKey<E, LOOKUP>, S>
where
    E: Entity + Send,
{
    /// The entities that own the lookup items this query finds, in the query's order: the
    /// query (every page), then one batch get of the owners. An owner deleted between the
    /// two reads is left out; an owner that cannot be read fails the call with that error.
    ///
    /// # Errors
    ///
    /// Fails as the query does ([`all`](Query::all)), then with the first error of the batch get:
    /// [`Error::Service`] when DynamoDB refuses the request or cannot be reached,
    /// [`Error::Unprocessed`] when DynamoDB kept a key unprocessed, or a decode error for an owner.
    pub async fn owners(self) -> Result<Vec<E>> {
        let db = self.db.clone();
        let keys = self.all().await?.into_iter().map(OwnerKey::into_key);
        let mut report = crate::batch::BatchGet::on(&db, keys).await?;
        let mut failed = std::mem::take(&mut report.failed).into_iter();
        if let Some(first) = failed.next() {
            // The others may share the error; dropped, they let it be taken back.
            drop(failed);
            return Err(
                std::sync::Arc::try_unwrap(first.error).unwrap_or_else(|shared| (*shared).clone())
            );
        }
        Ok(report.into_found().collect())
    }
}
