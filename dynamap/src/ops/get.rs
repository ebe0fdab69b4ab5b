//! GetItem.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder;

use crate::clone_builder::clone_builder;
use crate::expiry;
use crate::key::Key;
use crate::preview::{Preview, Request, input_of};
use crate::span::Call;
use crate::span::send_in;
use crate::table::Table;
use crate::write::key_item;
use crate::{Entity, Error, Handle, Result};

/// A pending GetItem, sent when awaited. Made by [`Db::get`](crate::Db::get).
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensor: Option<Sensor> = db.get(Sensor::key("S1")).consistent().await?;
/// # Ok(()) }
/// ```
#[must_use = "a get does nothing until it is awaited"]
pub struct Get<E> {
    db: Handle,
    key: Key<E>,
    consistent: bool,
    include_expired: bool,
    write_back: bool,
}

clone_builder!(Get<E> { db, key, consistent, include_expired, write_back });

impl<E: Entity> std::fmt::Debug for Get<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Get")
            .field("table", &self.db.table_name())
            .field("key", &self.key)
            .field("consistent", &self.consistent)
            .field("include_expired", &self.include_expired)
            .field("write_back", &self.write_back)
            .finish()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Reads the item `key` names: `None` when there is none.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let sensor: Option<Sensor> = db.get(Sensor::key("S1")).consistent().await?;
    /// # Ok(()) }
    /// ```
    pub fn get<E: Entity + crate::InLayout<L>>(&self, key: Key<E>) -> Get<E> {
        Get {
            db: self.handle().clone(),
            key,
            consistent: false,
            include_expired: self.includes_expired(),
            write_back: false,
        }
    }
}

impl<E: Entity> Get<E> {
    /// Reads with strong consistency: the result reflects every write that succeeded
    /// before the read. Costs twice the read capacity.
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Returns the item even when its time to live has passed (DynamoDB deletes expired
    /// items some time after they expire; by default a get hides them).
    pub fn include_expired(mut self) -> Self {
        self.include_expired = true;
        self
    }

    /// Writes an item stored at an older schema version back in the current shape, once
    /// read and upgraded (an entity with `#[dynamap(schema_version = N)]`): only the
    /// attributes that differ, on condition that the item is still what was read, so a
    /// concurrent writer always wins and the item is simply left for a later read. An item
    /// in the current shape costs nothing more.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Customer", pk = "CUSTOMER#{id}", sk = "PROFILE",
    /// #     schema_version = 2, upgrade(from = 1, via = CustomerV1))]
    /// # struct Customer { id: String, name: String }
    /// # #[derive(serde::Deserialize)] struct CustomerV1 { id: String, name: String }
    /// # impl From<CustomerV1> for Customer { fn from(v: CustomerV1) -> Self { Customer { id: v.id, name: v.name } } }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let customer = db.get(Customer::key("c1")).write_back().await?;
    /// # Ok(()) }
    /// ```
    pub fn write_back(mut self) -> Self {
        self.write_back = true;
        self
    }

    /// Sends the request.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Key`] when the key does not render, [`Error::Service`] when DynamoDB
    /// refuses the request or cannot be reached (reading, or writing an upgraded item back),
    /// and with a decode error ([`ErrorKind::Decode`](crate::ErrorKind::Decode)) when the
    /// stored item is not a valid `E`.
    pub async fn send(self) -> Result<Option<E>> {
        let (db, write_back) = (self.db.clone(), self.write_back);
        let Some(item) = self.fetch().await? else {
            return Ok(None);
        };
        if !write_back {
            return E::from_item(item).map(Some);
        }
        // The entity is not held across the write (it need not be `Send`): decoded again
        // after it, only when there was something to write back.
        let decision = {
            let entity = E::from_item(item.clone())?;
            match crate::maintain::write_back_decision(&item, &entity)? {
                Some(decision) => decision,
                None => return Ok(Some(entity)),
            }
        };
        crate::maintain::write_back::<E>(&db, &item, decision).await?;
        E::from_item(item).map(Some)
    }

    /// Sends the request and decodes the item into `U`, an enum deriving `EntityEnum`, by
    /// its entity type: for a key that may hold any of several entities (an account name
    /// that is a user or an organization). The key may be built by any variant's entity.
    /// An item of a type `U` does not know is an [`Error::UnknownEntityType`].
    ///
    /// ```no_run
    /// # use dynamap::{Entity, EntityEnum, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct User { name: String }
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Org", pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Org { name: String, members: u32 }
    /// #[derive(EntityEnum)]
    /// enum Account { User(User), Org(Org) }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// match db.get(User::key("rust-lang")).decode_as::<Account>().await? {
    ///     Some(Account::Org(org)) => println!("an organization of {}", org.members),
    ///     Some(Account::User(user)) => println!("a user"),
    ///     None => println!("no such account"),
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails as [`send`](Get::send) does, and with [`Error::UnknownEntityType`] when the item's
    /// entity type is none of `U`'s.
    pub async fn decode_as<U: crate::decode::Decode<Table = E::Table>>(self) -> Result<Option<U>> {
        match self.fetch().await? {
            Some(item) => U::decode(item, crate::decode::UnknownEntity::Error),
            None => Ok(None),
        }
    }

    /// The request [`send`](Get::send) would make, not sent (see [`crate::preview`]).
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
    /// # struct Sensor { id: String }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// println!("{}", db.get(Sensor::key("S1")).consistent().preview()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Key`] when the key does not render, as `send` does.
    pub fn preview(&self) -> Result<Preview> {
        let request = self.request(key_item(self.key.clone())?);
        Ok(Preview::one(Request::GetItem(input_of!(
            request, "GetItem"
        )?)))
    }

    /// The request, as sent and previewed.
    fn request(&self, key: crate::codec::Item) -> GetItemFluentBuilder {
        self.db
            .client()
            .get_item()
            .table_name(self.db.table_name())
            .set_key(Some(key))
            .consistent_read(self.consistent)
    }

    /// The item, unless it is missing or (by default) expired.
    async fn fetch(self) -> Result<Option<crate::codec::Item>> {
        let request = self.request(key_item(self.key.clone())?);
        let call = Call::new(&self.db, "GetItem", E::ENTITY_TYPE, None);
        call.read(crate::span::Read {
            consistent: Some(self.consistent),
            ..Default::default()
        });
        let result = send_in!(call, request);
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|err| Error::service("GetItem", err))?;
        let schema = <E::Table as Table>::SCHEMA;
        Ok(output.item.filter(|item| {
            self.include_expired || !expiry::is_expired(&schema, item, expiry::now_epoch_seconds())
        }))
    }
}

impl<E: Entity> IntoFuture for Get<E> {
    type Output = Result<Option<E>>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<Option<E>>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
