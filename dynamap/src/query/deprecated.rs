//! Names of earlier releases, kept for one release so that the compiler's deprecation
//! warning names the call that replaced each.

use super::{Decode, Query};

impl<T: Decode, S> Query<T, S> {
    /// The query, its items decoded as `U`: [`decode_as`](Query::decode_as).
    #[deprecated(note = "use `decode_as`")]
    pub fn mixed<U: Decode<Table = T::Table>>(self) -> Query<U, S> {
        self.decode_as()
    }
}
