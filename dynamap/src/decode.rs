//! What a query decodes its items into: one entity, or an enum of several.

use crate::codec::{AttributeValue, Item};
use crate::description::EntityDescription;
use crate::key::ItemKey;
use crate::table::Table;
use crate::{Entity, Result};

/// What a mixed query does with an item whose entity type its enum does not know.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{id}", sk = "READ#{at}")]
/// # struct Reading { id: String, at: i64 }
/// # #[derive(dynamap::EntityEnum, Debug)] enum SensorItem { Sensor(Sensor), Reading(Reading) }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// use dynamap::query::UnknownEntity;
/// // Fail instead of skipping items of entity types `SensorItem` does not list.
/// let items = db
///     .query(Sensor::partition("S1"))
///     .decode_as::<SensorItem>()
///     .on_unknown(UnknownEntity::Error)
///     .all()
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownEntity {
    /// Leave the item out and emit a `tracing` event at debug level (the default): a
    /// partition may hold entity types added after this code was written.
    #[default]
    Skip,
    /// Fail with [`Error::UnknownEntityType`](crate::Error::UnknownEntityType).
    Error,
    /// As [`Skip`](UnknownEntity::Skip), and also leave out an item of a known entity type
    /// whose `const_attr(...)` attributes are missing or hold other values: an item another
    /// mapper's model version wrote (ElectroDB's `__edb_v__ = "2"` beside this entity's
    /// `"1"`), which ElectroDB leaves out the same way. Each is counted on the page
    /// ([`Page::skipped`](crate::query::Page::skipped)) and is a `tracing` debug event
    /// naming the item. Without it, such an item fails the read, naming the attribute and
    /// the item.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "pk", sk = "sk", entity_type = "__edb_e__")] struct Peer;
    /// #[derive(Entity, Debug)]
    /// #[dynamap(table = Peer, entity = "task", pk = "$app#task_{id}", sk = "$task",
    ///           const_attr(name = "__edb_v__", value = "1"))]
    /// struct Task { id: String, title: String }
    ///
    /// # async fn example(db: dynamap::Db<Peer>) -> dynamap::Result<()> {
    /// use dynamap::query::UnknownEntity;
    /// let page = db
    ///     .scan::<Task>()
    ///     .on_unknown(UnknownEntity::SkipMismatched)
    ///     .send()
    ///     .await?;
    /// println!("{} tasks, {} of another model version left out", page.len(), page.skipped);
    /// # Ok(()) }
    /// ```
    SkipMismatched,
}

impl UnknownEntity {
    /// Whether a single entity's items may be left out too (their constants differ).
    pub(crate) fn skips_mismatched(self) -> bool {
        self == UnknownEntity::SkipMismatched
    }
}

/// A type query results decode into: every [`Entity`], and enums deriving
/// `EntityEnum` that gather several entities of one table.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// use dynamap::query::Decode;
///
/// // Every entity decodes as itself; `#[derive(EntityEnum)]` makes enums decode by entity type.
/// assert_eq!(<Sensor as Decode>::SINGLE_ENTITY, Some("Sensor"));
/// ```
pub trait Decode: Sized {
    /// The table layout the items come from.
    type Table: Table;

    /// True for a single entity type: its queries read only items of that type (by sort
    /// key prefix and an entity-type filter). False for enums, which read whatever the
    /// partition holds and decode it by entity type.
    const SINGLE_ENTITY: Option<&'static str>;

    /// Earlier names of the single entity type, read as it too.
    const ALIASES: &'static [&'static str] = &[];

    /// The entity types items decode from: the one type, or an enum's variants' (what
    /// metrics name as the `entity` of a mixed query).
    const ENTITY_TYPES: &'static [&'static str] = &[];

    /// The descriptions of the entity types items decode from, for the model charts.
    #[doc(hidden)]
    const DESCRIPTIONS: &'static [&'static EntityDescription] = &[];

    /// Decodes one item; `Ok(None)` when `unknown` says to skip it.
    ///
    /// # Errors
    ///
    /// Fails when the item does not decode: another entity type
    /// ([`Error::WrongEntityType`](crate::Error::WrongEntityType)), a missing or malformed
    /// attribute, or, when `unknown` is [`UnknownEntity::Error`], an entity type the enum does not
    /// know ([`Error::UnknownEntityType`](crate::Error::UnknownEntityType)).
    fn decode(item: Item, unknown: UnknownEntity) -> Result<Option<Self>>;
}

impl<E: Entity> Decode for E {
    type Table = E::Table;
    const SINGLE_ENTITY: Option<&'static str> = Some(E::ENTITY_TYPE);
    const ALIASES: &'static [&'static str] = E::ALIASES;
    const ENTITY_TYPES: &'static [&'static str] = &[E::ENTITY_TYPE];
    const DESCRIPTIONS: &'static [&'static EntityDescription] = &[&E::DESCRIPTION];

    fn decode(item: Item, unknown: UnknownEntity) -> Result<Option<Self>> {
        if unknown.skips_mismatched() && has_other_constants::<E>(&item) {
            return Ok(None);
        }
        E::from_item(item).map(Some)
    }
}

/// True when `item` is of `E`'s entity type and one of `E`'s `const_attr` attributes is
/// missing or holds another value: an item of another model version, left out by
/// [`UnknownEntity::SkipMismatched`]. An item of another type is `from_item`'s to report.
fn has_other_constants<E: Entity>(item: &Item) -> bool {
    let constants = E::WRITE.constants;
    if constants.is_empty() {
        return false;
    }
    let schema = <E::Table as Table>::SCHEMA;
    let of_entity = match item.get(schema.entity_type) {
        Some(AttributeValue::S(found)) => {
            found == E::ENTITY_TYPE || E::ALIASES.contains(&found.as_str())
        }
        _ => false,
    };
    let other = constants.iter().find(|(attribute, value)| {
        !matches!(item.get(*attribute), Some(AttributeValue::S(found)) if found == value)
    });
    match other {
        Some((attribute, expected)) if of_entity => {
            tracing::debug!(
                target: "dynamap",
                entity = E::ENTITY_TYPE,
                attribute,
                expected,
                found = ?item.get(*attribute),
                item = %ItemKey::of(item, schema.pk, schema.sk),
                "skipping an item whose constant attribute differs"
            );
            true
        }
        _ => false,
    }
}

/// One stored image as `U`, or `None` when it holds another entity type: how stream records
/// and exports, which hold every type of the table, are dispatched.
#[cfg_attr(not(any(feature = "streams", feature = "exports")), allow(dead_code))]
pub(crate) fn decode_image<U: Decode>(item: Item) -> Result<Option<U>> {
    if let Some(entity) = U::SINGLE_ENTITY {
        let attribute = <U::Table as Table>::SCHEMA.entity_type;
        let found = item.get(attribute).and_then(|v| v.as_s().ok());
        let ours = found.is_some_and(|f| f == entity || U::ALIASES.contains(&f.as_str()));
        if !ours {
            return Ok(None);
        }
    }
    U::decode(item, UnknownEntity::Skip)
}
