//! What a query decodes its items into: one entity, or an enum of several.

use crate::codec::Item;
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

    fn decode(item: Item, _: UnknownEntity) -> Result<Option<Self>> {
        E::from_item(item).map(Some)
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
