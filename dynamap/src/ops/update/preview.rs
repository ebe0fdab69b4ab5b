//! The preview of an update: the UpdateItem `send` would make, built by the same code (see
//! [`crate::preview`]).

use super::Update;
use crate::{Entity, Result};

impl<E: Entity> Update<E> {
    /// The request [`send`](Update::send) would make, not sent (see [`crate::preview`]):
    /// the update expression and the conditions it carries (existence, version, yours),
    /// with their names and values.
    ///
    /// # Errors
    ///
    /// Those `send` fails with before sending, and [`Error::Unsupported`](crate::Error::Unsupported) for an update
    /// that moves lookup items (a transaction whose actions depend on what is stored).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
    /// # struct Device { id: String, status: String, alarms: u32 }
    /// # fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let update = db.update(Device::key("d1")).set(Device::STATUS, "active");
    /// println!("{}", update.preview()?);
    /// # Ok(()) }
    /// ```
    pub fn preview(&self) -> Result<crate::preview::Preview> {
        let (db, plan) = self.clone().plan()?;
        plan.preview(&db, false)
    }
}
