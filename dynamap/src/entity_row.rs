//! An entity, or an `EntityEnum`, as one row of its entity type's table: the entity type,
//! the columns (see `columns`) and the stored item the values are read from.

use crate::Result;
use crate::codec::Item;
use crate::columns::Column;
use crate::entity::Entity;
use crate::table::Table;

/// A value written as one row of its entity type's table: an entity, or an `EntityEnum`
/// (`#[derive(EntityEnum)]` implements it), which writes each variant to its own type's
/// table.
pub trait EntityRow {
    /// The entity type of this value's row: its table.
    fn entity_type(&self) -> &'static str;
    /// The table's primary key attributes: the first columns.
    fn key_attributes(&self) -> (&'static str, Option<&'static str>);
    /// The columns of this value's entity type, after its primary key attributes.
    fn columns(&self) -> Vec<Column>;
    /// The stored item, which the row's values are read from.
    ///
    /// # Errors
    ///
    /// The entity's own, when it cannot render its item (`Entity::to_item`).
    fn item(&self) -> Result<Item>;
}

impl<E: Entity> EntityRow for E {
    fn entity_type(&self) -> &'static str {
        E::ENTITY_TYPE
    }

    fn key_attributes(&self) -> (&'static str, Option<&'static str>) {
        let schema = <E::Table as Table>::SCHEMA;
        (schema.pk, schema.sk)
    }

    fn columns(&self) -> Vec<Column> {
        E::columns()
    }

    fn item(&self) -> Result<Item> {
        self.to_item()
    }
}
