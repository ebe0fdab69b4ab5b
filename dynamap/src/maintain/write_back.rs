//! Write-back on read: an item read at an older schema version written back in the
//! current shape, only what differs, only if it is still as read.

use super::apply::apply;
use super::plan::{Write, plan};
use crate::codec::Item;
use crate::table::Table;
use crate::{Entity, Handle, Result};

/// What writes `entity`, read from `stored`, back in the current shape when `stored` is at
/// an older schema version (`None`: it is not). What
/// [`Get::write_back`](crate::ops::Get::write_back) sends with [`write_back`].
pub(crate) fn write_back_decision<E: Entity>(stored: &Item, entity: &E) -> Result<Option<Write>> {
    let schema = <E::Table as Table>::SCHEMA;
    let Some(current) = E::WRITE.schema_version else {
        return Ok(None);
    };
    if crate::schema_version::stored_version(stored, E::ENTITY_TYPE, current, &schema)? >= current {
        return Ok(None);
    }
    Ok(Some(plan(stored, entity)?.0))
}

/// Sends a write-back: what differs, on condition that the item is as read (a lost race
/// leaves it to a later read).
pub(crate) async fn write_back<E: Entity>(db: &Handle, stored: &Item, write: Write) -> Result<()> {
    apply::<E>(db, stored, write, false).await.map(drop)
}
