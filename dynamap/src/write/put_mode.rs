//! What a put requires of the item already there.

/// What a put requires of the item already stored under the same key.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let sensor = Sensor { id: "S1".into(), city: "Poznań".into() };
/// db.put(&sensor).await?;      // PutMode::Overwrite: create, or replace whole
/// db.create(&sensor).await.ok(); // PutMode::Create: fails when the key exists
/// db.replace(&sensor).await?;  // PutMode::Replace: fails when it does not
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PutMode {
    /// Write whether or not an item is there, replacing it whole.
    #[doc(alias = "Upsert")]
    Overwrite,
    /// Write only if no item is there; otherwise fail with a conditional-check error.
    Create,
    /// Write only if an item is there; otherwise fail with a conditional-check error.
    Replace,
}

impl PutMode {
    pub(crate) fn operation(self) -> &'static str {
        match self {
            PutMode::Overwrite => "put",
            PutMode::Create => "create",
            PutMode::Replace => "replace",
        }
    }
}
