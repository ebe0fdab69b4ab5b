//! Names of earlier releases, kept for one release so that the compiler's deprecation
//! warning names the call that replaced each.

use crate::key::Key;
use crate::ops::Update;
use crate::{Db, Entity, InLayout, table::Table};

impl<L: Table> Db<L> {
    /// An update of the existing item `key` names: [`Db::update`], under the name other
    /// libraries use.
    #[deprecated(note = "use `update`")]
    pub fn patch<E: Entity + InLayout<L>>(&self, key: Key<E>) -> Update<E> {
        self.update(key)
    }
}
