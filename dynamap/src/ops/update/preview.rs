//! The preview of an update: the UpdateItem `send` would make, built by the same code (see
//! [`crate::preview`]).

use super::Update;
use crate::{Entity, Result};

impl<E: Entity> Update<E> {
    /// The request [`send`](Update::send) would make, not sent (see [`crate::preview`]):
    /// the update expression and the conditions it carries (existence, version, yours),
    /// with their names and values. An update that moves lookup items first reads the
    /// lookups the stored item records: its preview is that read (see [`crate::preview`]).
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
