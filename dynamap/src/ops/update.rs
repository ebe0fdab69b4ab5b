//! UpdateItem: change some attributes of an existing item.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use serde::Serialize;

mod checks;
mod create;
mod deprecated;
mod plan;
mod preview;

use checks::{attribute_of, check_changes, derived_attribute, refuse};
pub(crate) use plan::Plan;

use crate::clone_builder::clone_builder;
use crate::codec::{Item, is_empty_set};
use crate::derived::{DerivedChange, UpdatedValues};
use crate::expr::update::{Change, encode};
use crate::expr::{Condition, DocPath, NativeSet, SetValue, Target, elements_value};
use crate::key::Key;
use crate::write::{Action, key_item};
use crate::{Entity, Error, Handle, Result};

/// A pending UpdateItem, sent when awaited (or by [`returning_new`](Update::returning_new)),
/// or added to a transaction with [`Transaction::update`](crate::transact::Transaction::update).
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "SENSORINFO")]
/// # struct Sensor { id: String, kind: String, alarms: u32, note: Option<String>, tags: Vec<String> }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensor: Sensor = db
///     .update(Sensor::key("S1"))
///     .set(Sensor::KIND, "gas")
///     .increment(Sensor::ALARMS, 1u32)
///     .append(Sensor::TAGS, ["calibrated".to_owned()])
///     .remove(Sensor::NOTE)
///     .condition(Sensor::ALARMS.lt(10u32))
///     .returning_new()
///     .await?;
/// # Ok(()) }
/// ```
///
/// Updates change existing items only (a missing item fails the condition, as `patch` does
/// in other libraries), unless [`create_if_missing`](Update::create_if_missing) says to
/// create it; [`Db::upsert`](crate::Db::upsert) creates or merges a whole entity.
/// What an update touches, it keeps consistent:
/// - **Index keys.** Setting a field an index template uses re-renders that index key in
///   the same request, provided the update sets every field of the template (every field
///   of the index, for a sparse index with `Option` fields); otherwise it is refused before
///   sending with [`Error::IncompleteKeyUpdate`], naming the missing fields. Removing an
///   optional field of an index removes the index's key attributes (the item leaves the
///   sparse index). A field that *is* an index key (`sk = field(score)`) is updated like
///   any other field, increments included, and the index follows.
/// - **Lookup items.** Setting the fields of a `lookup(...)` moves the lookup item in one
///   transaction, as [`Db::put`](crate::Db::put) does; a lookup that belongs to another item fails with
///   [`Error::LookupTaken`].
/// - **Versions and timestamps.** A versioned entity's version is incremented
///   ([`expect_version`](Update::expect_version) makes the update conditional on it);
///   `updated_at` is set to now, and `created_at` only where the item has none.
///
/// Refused before sending, with [`Error::Unsupported`]: changing a primary-key field (it
/// decides which item this is), removing a field that is not an `Option`, and changing a
/// template or lookup field other than by setting it (an increment's result is not known, so
/// its key cannot be rendered).
#[must_use = "an update does nothing until it is sent"]
pub struct Update<E> {
    db: Handle,
    key: Key<E>,
    changes: Vec<Change>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    create: bool,
    error: Option<String>,
}

clone_builder!(Update<E> { db, key, changes, condition, expected_version, create, error });

impl<E: Entity> std::fmt::Debug for Update<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Update")
            .field("table", &self.db.table_name())
            .field("key", &self.key)
            .field("changes", &self.changes.len())
            .field("condition", &self.condition)
            .field("expected_version", &self.expected_version)
            .field("create", &self.create)
            .finish_non_exhaustive()
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// An update of the existing item `key` names.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).set(Device::STATUS, "active").await?;
    /// # Ok(()) }
    /// ```
    pub fn update<E: Entity + crate::InLayout<L>>(&self, key: Key<E>) -> Update<E> {
        Update {
            db: self.handle().clone(),
            key,
            changes: Vec::new(),
            condition: None,
            expected_version: None,
            create: false,
            error: None,
        }
    }
}

impl<E: Entity> Update<E> {
    fn change(mut self, change: std::result::Result<Change, String>) -> Self {
        match change {
            Ok(change) => self.changes.push(change),
            Err(err) => {
                self.error.get_or_insert(err);
            }
        }
        self
    }

    /// `SET path = value`. `path` is a field constant (`Order::STATUS`) or a path inside
    /// one (`Order::ADDRESS.at::<String>("city")`). The value is stored as the field stores
    /// it: a set of strings, numbers or binaries as `SS`/`NS`/`BS`, and an empty one
    /// removes the attribute (DynamoDB has no empty set; a missing set reads as empty).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).set(Device::STATUS, "active").await?;
    /// # Ok(()) }
    /// ```
    pub fn set<T, A: Target<E, T>>(self, path: A, value: impl SetValue<T>) -> Self {
        let change = path.into_path().set_change(&value.into_value());
        self.change(change)
    }

    /// `SET path = value` for `Some(value)`, `REMOVE path` for `None`: for `Option` fields
    /// whose new value is itself an `Option`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let note: Option<&str> = None; // None removes the attribute
    /// db.update(Device::key("d1")).set_option(Device::NOTE, note).await?;
    /// # Ok(()) }
    /// ```
    pub fn set_option<T, A: Target<E, T>>(self, path: A, value: Option<impl Into<T>>) -> Self {
        match value {
            Some(value) => self.set(path, value),
            None => self.remove(path),
        }
    }

    /// `SET path = value` unless the item already has a value there.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).set_if_not_exists(Device::FIRMWARE, "1.0").await?;
    /// # Ok(()) }
    /// ```
    pub fn set_if_not_exists<T, A: Target<E, T>>(self, path: A, value: impl SetValue<T>) -> Self {
        let change = path.into_path().default_change(&value.into_value());
        self.change(change)
    }

    /// `SET path = path + by` (a missing value counts as 0). Use a negative `by` on a
    /// signed field to decrement.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).increment(Device::ALARMS, 1u32).await?;
    /// # Ok(()) }
    /// ```
    #[doc(alias = "add")]
    #[doc(alias = "ADD")]
    pub fn increment<T, A: Target<E, T>>(self, path: A, by: impl Into<T>) -> Self {
        let change = path.into_path().increment_change(&by.into());
        self.change(change)
    }

    /// `SET list = list_append(list, items)` (a missing list counts as empty).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).append(Device::TAGS, ["calibrated".to_owned()]).await?;
    /// # Ok(()) }
    /// ```
    pub fn append<T: Serialize, A: Target<E, Vec<T>>>(
        self,
        path: A,
        items: impl IntoIterator<Item = T>,
    ) -> Self {
        let path = path.into_path();
        let items: Vec<T> = items.into_iter().collect();
        let change = encode(&path.path, &items).map(|v| Change::Append(path.path, v));
        self.change(change)
    }

    /// `REMOVE path`: an `Option` field, or a value inside a map or list.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).remove(Device::NOTE).await?;
    /// # Ok(()) }
    /// ```
    pub fn remove<T, A: Target<E, T>>(self, path: A) -> Self {
        self.change(Ok(Change::Remove(path.into_path().path)))
    }

    /// `ADD path elements` on a native set field (`HashSet`/`BTreeSet` of strings, numbers
    /// or [`Binary`](crate::key::Binary)): adds the elements the set lacks, creating the
    /// attribute when it is missing. Elements have the set's element type. Adding no
    /// elements is a no-op (DynamoDB has no empty set), and an update left with no change is
    /// refused as any empty update is. A field kept as a list with `#[dynamap(list)]` is
    /// refused before sending ([`Error::InvalidExpression`]).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use std::collections::BTreeSet;
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
    /// struct Post { id: String, tags: BTreeSet<String>, readers: BTreeSet<u64> }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Post::key("p1"))
    ///     .add_to_set(Post::TAGS, ["rust", "dynamodb"])
    ///     .add_to_set(Post::READERS, [42u64])
    ///     .await?;
    /// # Ok(()) }
    /// ```
    #[doc(alias = "ADD")]
    pub fn add_to_set<S: NativeSet, A: Target<E, S>, V: Into<S::Element>>(
        self,
        path: A,
        elements: impl IntoIterator<Item = V>,
    ) -> Self {
        self.set_elements(path, elements, Change::Add)
    }

    /// `DELETE path elements` on a native set field: removes the elements from the set
    /// (DynamoDB removes the attribute when none are left, which reads as an empty set).
    /// Removing no elements is a no-op, as in [`add_to_set`](Update::add_to_set).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use std::collections::BTreeSet;
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)]
    /// # #[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
    /// # struct Post { id: String, tags: BTreeSet<String> }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Post::key("p1")).remove_from_set(Post::TAGS, ["draft"]).await?;
    /// # Ok(()) }
    /// ```
    #[doc(alias = "DELETE")]
    #[doc(alias = "delete_elements")]
    pub fn remove_from_set<S: NativeSet, A: Target<E, S>, V: Into<S::Element>>(
        self,
        path: A,
        elements: impl IntoIterator<Item = V>,
    ) -> Self {
        self.set_elements(path, elements, Change::Delete)
    }

    /// `change` (`ADD` or `DELETE`) of `elements` on the native set at `path`; no change
    /// for no elements.
    fn set_elements<S: NativeSet, A: Target<E, S>, V: Into<S::Element>>(
        self,
        path: A,
        elements: impl IntoIterator<Item = V>,
        change: fn(DocPath, crate::codec::AttributeValue) -> Change,
    ) -> Self {
        let path = path.into_path();
        let elements = elements.into_iter().map(Into::into).collect();
        match elements_value(&path, elements) {
            Ok(Some(value)) => self.change(Ok(change(path.path, value))),
            Ok(None) => self,
            Err(err) => self.change(Err(err)),
        }
    }

    /// Updates only if the stored item matches `condition`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1"))
    ///     .increment(Device::ALARMS, 1u32)
    ///     .condition(Device::ALARMS.lt(10u32))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Some(match self.condition.take() {
            Some(existing) => existing.and(condition),
            None => condition,
        });
        self
    }

    /// Updates only if the stored version is `version` (versioned entities).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).set(Device::STATUS, "retired").expect_version(3).await?;
    /// # Ok(()) }
    /// ```
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// Creates the item when it is missing, instead of failing: counters and aggregate
    /// items need no create-or-update loop. Increments and `add` start from zero, `append`
    /// from an empty list and `set_if_not_exists` sets; the item created also gets what a
    /// put would write (the entity type, the primary key's fields, the schema version, a
    /// version of 1, the timestamps and the index keys of the fields set), so it reads back
    /// as the entity. An existing item is updated as without it.
    ///
    /// The update must therefore set every field that is not an `Option`, defaulted, a
    /// version, a timestamp or in the primary key; otherwise it is refused before sending
    /// with [`Error::Unsupported`], naming the fields. Conditions and
    /// [`expect_version`](Update::expect_version) still apply (`expect_version(0)` means
    /// "missing, or never versioned").
    ///
    /// For an entity with `lookup(...)` items the update must also set every field of every
    /// lookup, defaulted ones included (refused with [`Error::IncompleteKeyUpdate`]
    /// otherwise): the item it creates is written with all its lookup items, those made of
    /// primary-key fields alone too, in one transaction, as a put would. Such an update
    /// cannot be part of a [`Transaction`](crate::transact::Transaction).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "BrandCount", pk = "BRANDS", sk = "COUNT#{day}")]
    /// struct BrandCount { day: String, brands: u64, names: Vec<String> }
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // Many writers at once: the first creates the item, every increment counts.
    /// db.update(BrandCount::key("2026-11-26"))
    ///     .increment(BrandCount::BRANDS, 1u64)
    ///     .append(BrandCount::NAMES, ["Acme".to_owned()])
    ///     .create_if_missing()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn create_if_missing(mut self) -> Self {
        self.create = true;
        self
    }

    /// Checks the changes against the entity's keys, indexes and lookups, and adds what
    /// they imply: re-rendered index keys, moved lookups, the version and timestamps.
    fn plan(self) -> Result<(Handle, Plan<E>)> {
        if let Some(reason) = self.error {
            return Err(Error::InvalidExpression {
                part: crate::error::ExpressionPart::Update,
                reason,
            });
        }
        let mut changes = self.changes;
        // An empty set: adding or deleting none of it changes nothing, and setting it if
        // missing leaves it missing (DynamoDB has no empty set).
        changes.retain(|change| {
            !matches!(change, Change::SetIfNotExists(_, v) | Change::Add(_, v) | Change::Delete(_, v) if is_empty_set(v))
        });
        if changes.is_empty() {
            return Err(refuse(
                "UpdateItem",
                format!(
                    "an update of `{}` needs at least one change",
                    E::ENTITY_TYPE
                ),
            ));
        }
        check_changes::<E>(&changes)?;
        let mut values = UpdatedValues::creating(self.create);
        for change in changes.iter().filter(|c| c.path().is_attribute()) {
            match (change, attribute_of::<E>(change.path())) {
                (Change::Set(_, value), Some(attribute)) => values.push(attribute, Some(value)),
                (Change::Remove(_), Some(attribute)) => values.push(attribute, None),
                _ => {}
            }
        }
        let texts = self.key.texts()?;
        let key = (texts.0.as_ref(), texts.1.as_deref());
        let created = if self.create {
            create::creation_changes::<E>(&changes, key)?
        } else {
            Vec::new()
        };
        // Every key the update leaves half-set is named at once, index or lookup.
        let (derived, lookups) = match (
            E::derived_key_changes(&values, key),
            E::updated_lookup_keys(&values, key),
        ) {
            (Ok(derived), Ok(lookups)) => (derived, lookups),
            (Err(err), lookups) => return Err(err.merge_incomplete(lookups.err())),
            (Ok(_), Err(err)) => return Err(err),
        };
        drop(values);
        for change in derived {
            changes.retain(|c| c.attribute() != derived_attribute(&change));
            changes.push(match change {
                DerivedChange::Set(attribute, value) => {
                    Change::Set(DocPath::attribute(attribute), value)
                }
                DerivedChange::Remove(attribute) => Change::Remove(DocPath::attribute(attribute)),
            });
        }
        // What a creation writes gives way to what the update sets itself.
        let created: Vec<Change> = created
            .into_iter()
            .filter(|c| !changes.iter().any(|set| set.attribute() == c.attribute()))
            .collect();
        changes.extend(created);
        // Setting an empty set removes the attribute, which reads back as an empty set.
        for change in &mut changes {
            if let Change::Set(path, value) = change
                && is_empty_set(value)
            {
                *change = Change::Remove(path.clone());
            }
        }
        let plan = Plan {
            key: key_item(self.key)?,
            changes,
            condition: self.condition,
            expected_version: self.expected_version,
            must_exist: !self.create,
            partial: true,
            lookups,
        };
        Ok((self.db, plan.with_version_and_timestamps()?))
    }

    async fn run(self, return_new: bool) -> Result<Option<Item>> {
        let (db, plan) = self.plan()?;
        plan.send(&db, return_new).await
    }

    /// Sends the update.
    ///
    /// # Errors
    ///
    /// Fails before sending when the update is refused (see [`Update`]); with
    /// [`Error::ConditionalCheckFailed`] when the item is missing or the condition fails
    /// ([`Error::VersionConflict`] after [`expect_version`](Update::expect_version)); with
    /// [`Error::LookupTaken`] when a moved lookup is another item's; [`Error::Service`] when
    /// DynamoDB refuses or is unreachable; [`Error::OutcomeUnknown`] after a lost answer.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// db.update(Device::key("d1")).set(Device::STATUS, "active").send().await?;
    /// # Ok(()) }
    /// ```
    pub async fn send(self) -> Result<()> {
        self.run(false).await.map(|_| ())
    }

    /// Sends the update and returns the item as it is afterwards.
    ///
    /// # Errors
    ///
    /// As [`send`](Update::send), and with a decode error when the updated item is not a valid `E`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32, tags: Vec<String>, labels: std::collections::BTreeSet<String>,
    /// #                 firmware: Option<String>, note: Option<String>, #[dynamap(version)] version: u64 }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let device: Device = db.update(Device::key("d1")).increment(Device::ALARMS, 1u32).returning_new().await?;
    /// println!("{} alarms", device.alarms);
    /// # Ok(()) }
    /// ```
    pub async fn returning_new(self) -> Result<E> {
        let item = self.run(true).await?;
        let item = item.ok_or(Error::MissingAttribute {
            entity: E::ENTITY_TYPE,
            attribute: "(the updated item)",
            item: None,
        })?;
        E::from_item(item)
    }

    /// The update as a transaction action.
    pub(crate) fn into_action(self) -> Result<Action> {
        let (db, plan) = self.plan()?;
        if let Some(lookup) = plan.lookups.first() {
            return Err(refuse(
                "TransactWriteItems",
                format!(
                    "this update of `{}` moves lookup `{}` (or may create the item that holds it), which takes a transaction of its own; send the update by itself",
                    E::ENTITY_TYPE,
                    lookup.name
                ),
            ));
        }
        plan.action(&db, Vec::new(), |_| Vec::new())
    }
}

impl<E: Entity> IntoFuture for Update<E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
