//! Names of earlier releases, kept for one release so that the compiler's deprecation
//! warning names the call that replaced each.

use super::{ReadResults, Slot, Transaction};
use crate::expr::Condition;
use crate::key::Key;
use crate::table::Table;
use crate::{Db, Entity, InLayout, Result};

impl<L: Table> Transaction<L> {
    /// Writes `entity` if `condition` holds: `tx.put(db.put(&entity).condition(condition))`.
    #[deprecated(note = "use `put(db.put(&entity).condition(condition))`")]
    pub fn put_if<E: Entity + InLayout<L>>(self, entity: &E, condition: Condition<E>) -> Self {
        let put = Db::<E::Table>::from_handle(self.db.clone())
            .put(entity)
            .condition(condition);
        self.put(put)
    }

    /// Deletes the item `key` names if `condition` holds:
    /// `tx.delete(db.delete(key).condition(condition))`.
    #[deprecated(note = "use `delete(db.delete(key).condition(condition))`")]
    pub fn delete_if<E: Entity + InLayout<L>>(self, key: Key<E>, condition: Condition<E>) -> Self {
        let delete = Db::<E::Table>::from_handle(self.db.clone())
            .delete(key)
            .condition(condition);
        self.delete(delete)
    }
}

impl ReadResults {
    /// The item in `slot`, decoded as `U`: [`decode_as`](ReadResults::decode_as).
    ///
    /// # Errors
    ///
    /// As [`decode_as`](ReadResults::decode_as).
    #[deprecated(note = "use `decode_as`")]
    pub fn get_as<E: Entity, U: crate::decode::Decode<Table = E::Table>>(
        &self,
        slot: Slot<E>,
    ) -> Result<Option<U>> {
        self.decode_as(slot)
    }

    /// How many of the items were found: [`found_count`](ReadResults::found_count).
    #[deprecated(note = "use `found_count`")]
    pub fn found(&self) -> usize {
        self.found_count()
    }
}
