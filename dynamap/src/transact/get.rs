//! TransactGetItems: up to 100 items of any entity types, read as of one moment.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::operation::transact_get_items::builders::TransactGetItemsFluentBuilder;
use aws_sdk_dynamodb::types::{Get, TransactGetItem};

use super::MAX_ACTIONS;
use crate::codec::Item;
use crate::decode::{Decode, UnknownEntity};
use crate::error::ServiceError;
use crate::expiry;
use crate::key::Key;
use crate::preview::{Preview, Request, input_of};
use crate::span::Call;
use crate::span::send_in;
use crate::table::{Table, TableSchema};
use crate::write::key_item;
use crate::{Entity, Error, Handle, InLayout, Result};

/// Tells one read transaction's slots from another's.
static NEXT_READ: AtomicU64 = AtomicU64::new(0);

/// A pending read transaction: up to 100 items of any entity types, read together as of
/// one moment (no write lands between two of them). Made by [`Db::transact_get`](crate::Db::transact_get).
///
/// Each [`get`](Self::get) returns a typed [`Slot`]; after [`send`](Self::send), the
/// [`ReadResults`] give each slot's item as its own type, or `None` when it is absent.
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
/// # struct Account { id: String, balance: i64 }
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Limit", pk = "ACCOUNT#{id}", sk = "LIMIT")]
/// # struct Limit { id: String, daily: i64 }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let mut read = db.transact_get();
/// let from = read.get(Account::key("alice"));
/// let to = read.get(Account::key("bob"));
/// let limit = read.get(Limit::key("alice"));
/// let results = read.send().await?;
/// let (from, to): (Option<Account>, Option<Account>) = (results.get(from)?, results.get(to)?);
/// let limit: Option<Limit> = results.get(limit)?;
/// # Ok(()) }
/// ```
///
/// Checked before sending: at most 100 items, none named twice (DynamoDB rejects both).
///
/// Not `Clone`: a [`Slot`] belongs to the read transaction that made it, and two copies
/// adding different reads would give equal slots different meanings.
#[must_use = "a read transaction does nothing until it is sent"]
pub struct TransactGet<L> {
    db: Handle,
    layout: PhantomData<fn() -> L>,
    id: u64,
    reads: Vec<Read>,
    error: Option<Error>,
}

impl<L> std::fmt::Debug for TransactGet<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransactGet")
            .field("table", &self.db.table_name())
            .field("reads", &self.reads.len())
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// One item to read, with what decoding and checks need.
struct Read {
    entity: &'static str,
    schema: TableSchema,
    key: Item,
}

/// Where one item of a read transaction lands in its [`ReadResults`], typed by the entity
/// whose key named it. Made by [`TransactGet::get`].
#[derive(Debug)]
pub struct Slot<E> {
    read: u64,
    index: usize,
    entity: PhantomData<fn() -> E>,
}

impl<E> Clone for Slot<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Slot<E> {}

impl<L: crate::table::Table> crate::Db<L> {
    /// A new, empty read transaction on this table; see [`TransactGet`].
    pub fn transact_get(&self) -> TransactGet<L> {
        TransactGet {
            db: self.handle().clone(),
            layout: PhantomData,
            id: NEXT_READ.fetch_add(1, Ordering::Relaxed),
            reads: Vec::new(),
            error: None,
        }
    }
}

impl<L: Table> TransactGet<L> {
    /// Adds the item `key` names, and returns the slot its result will be in.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let mut read = db.transact_get();
    /// let slots: Vec<_> = ["S1", "S2", "S3"].iter().map(|id| read.get(Sensor::key(*id))).collect();
    /// let results = read.send().await?;
    /// for slot in slots {
    ///     println!("{:?}", results.get(slot)?.map(|s: Sensor| s.id));
    /// }
    /// # Ok(()) }
    /// ```
    pub fn get<E: Entity + InLayout<L>>(&mut self, key: Key<E>) -> Slot<E> {
        let index = self.reads.len();
        match key_item(key) {
            Ok(key) => self.reads.push(Read {
                entity: E::ENTITY_TYPE,
                schema: <E::Table as Table>::SCHEMA,
                key,
            }),
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
        Slot {
            read: self.id,
            index,
            entity: PhantomData,
        }
    }

    /// How many items the transaction reads.
    pub fn len(&self) -> usize {
        self.reads.len()
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.reads.is_empty()
    }

    /// The request [`send`](TransactGet::send) would make, not sent (see
    /// [`crate::preview`]); none when nothing was added.
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Account", pk = "ACCOUNT#{id}", sk = "ACCOUNT")]
    /// # struct Account { id: String, balance: i64 }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let mut tx = db.transact_get();
    /// tx.get(Account::key("alice"));
    /// println!("{}", tx.preview()?);
    /// # Ok(()) }
    /// ```
    pub fn preview(&self) -> Result<Preview> {
        if let Some(err) = &self.error {
            return Err(err.clone());
        }
        validate(&self.reads)?;
        if self.reads.is_empty() {
            return Ok(Preview::new(Vec::new()));
        }
        let input = input_of!(self.request()?, "TransactGetItems")?;
        Ok(Preview::one(Request::TransactGetItems(input)))
    }

    /// The TransactGetItems of every read, as sent and previewed.
    fn request(&self) -> Result<TransactGetItemsFluentBuilder> {
        let gets = self
            .reads
            .iter()
            .map(|read| {
                let get = Get::builder()
                    .table_name(self.db.table_name())
                    .set_key(Some(read.key.clone()))
                    .build()
                    .map_err(|err| Error::RequestBuild {
                        operation: "TransactGetItems",
                        message: err.to_string(),
                    })?;
                Ok(TransactGetItem::builder().get(get).build())
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(self
            .db
            .client()
            .transact_get_items()
            .set_transact_items(Some(gets)))
    }

    /// Reads every item in one TransactGetItems call. An empty transaction reads nothing
    /// and sends nothing.
    ///
    /// # Errors
    ///
    /// Fails before sending with [`Error::Key`] when a key does not render,
    /// [`Error::TooManyActions`] or [`Error::DuplicateTransactionItem`]; with [`Error::Service`]
    /// when DynamoDB refuses the request or cannot be reached (a canceled read included).
    pub async fn send(self) -> Result<ReadResults> {
        if let Some(err) = self.error {
            return Err(err);
        }
        validate(&self.reads)?;
        let mut results = ReadResults {
            read: self.id,
            include_expired: self.db.includes_expired(),
            schemas: self.reads.iter().map(|r| r.schema).collect(),
            items: Vec::new(),
        };
        if self.reads.is_empty() {
            return Ok(results);
        }
        let types = self.reads.iter().map(|read| read.entity);
        let call = Call::several(&self.db, "TransactGetItems", "", types, None);
        let result = send_in!(call, self.request()?);
        let output = match result {
            Ok(output) => {
                // One entry per table read.
                call.done(output.consumed_capacity());
                output
            }
            Err(err) => {
                call.failed();
                return Err(Error::service("TransactGetItems", err));
            }
        };
        results.items = output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(|response| response.item)
            .collect();
        if results.items.len() != results.schemas.len() {
            return Err(Error::Service(ServiceError::other(
                "TransactGetItems",
                format!(
                    "{} items asked for, {} answers",
                    results.schemas.len(),
                    results.items.len()
                ),
                None,
            )));
        }
        Ok(results)
    }
}

/// At most 100 items, none twice.
fn validate(reads: &[Read]) -> Result<()> {
    if reads.len() > MAX_ACTIONS {
        return Err(Error::TooManyActions {
            actions: reads.len(),
            limit: MAX_ACTIONS,
        });
    }
    if let Some((first, second)) = crate::write::first_repeat(reads.iter().map(|r| &r.key)) {
        return Err(Error::DuplicateTransactionItem {
            first_entity: reads[first].entity,
            entity: reads[second].entity,
            first,
            second,
        });
    }
    Ok(())
}

/// What a read transaction found, slot by slot. Made by [`TransactGet::send`].
#[derive(Debug)]
pub struct ReadResults {
    read: u64,
    include_expired: bool,
    schemas: Vec<TableSchema>,
    items: Vec<Option<Item>>,
}

impl ReadResults {
    /// The item in `slot`, decoded as the entity whose key named it: `None` when there is
    /// no such item (or its time to live has passed, unless the [`Db`](crate::Db) includes expired
    /// items). An item of another entity type under that key is an error, as for
    /// [`Db::get`](crate::Db::get).
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Unsupported`] when `slot` is from another read transaction, and with
    /// a decode error when the item is not a valid `E`.
    pub fn get<E: Entity>(&self, slot: Slot<E>) -> Result<Option<E>> {
        self.item(slot)?.map(E::from_item).transpose()
    }

    /// The item in `slot`, decoded into `U`, an enum deriving `EntityEnum`, by its entity
    /// type: for a key that may hold any of several entities. An item of a type `U` does not
    /// know is an [`Error::UnknownEntityType`].
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Unsupported`] when `slot` is from another read transaction, with
    /// [`Error::UnknownEntityType`] when the item's entity type is none of `U`'s, and with a decode
    /// error when it does not decode as its variant.
    pub fn decode_as<E: Entity, U: Decode<Table = E::Table>>(
        &self,
        slot: Slot<E>,
    ) -> Result<Option<U>> {
        match self.item(slot)? {
            Some(item) => U::decode(item, UnknownEntity::Error),
            None => Ok(None),
        }
    }

    /// How many of the items were found (present and, by default, unexpired).
    pub fn found_count(&self) -> usize {
        (0..self.items.len())
            .filter(|&i| self.visible(i).is_some())
            .count()
    }

    /// The raw item in `slot`, after the checks every reader shares.
    fn item<E: Entity>(&self, slot: Slot<E>) -> Result<Option<Item>> {
        if slot.read != self.read || slot.index >= self.items.len() {
            return Err(Error::Unsupported {
                operation: "TransactGetItems",
                reason: format!(
                    "a slot of entity `{}` from another read transaction was used on these results",
                    E::ENTITY_TYPE
                ),
            });
        }
        Ok(self.visible(slot.index).cloned())
    }

    fn visible(&self, index: usize) -> Option<&Item> {
        let item = self.items[index].as_ref()?;
        let expired = !self.include_expired
            && expiry::is_expired(&self.schemas[index], item, expiry::now_epoch_seconds());
        (!expired).then_some(item)
    }
}

/// `reads.await` is [`reads.send()`](TransactGet::send).
impl<L: Table> std::future::IntoFuture for TransactGet<L> {
    type Output = Result<ReadResults>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Self::Output> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
