//! One page of query results.

use super::cursor::Cursor;

/// Up to `limit` items, and where to resume.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db) -> dynamap::Result<()> {
/// let page = db.query(Sensor::partition("S1")).limit(10).send().await?;
/// for sensor in &page.items {
///     println!("{}", sensor.city);
/// }
/// if let Some(cursor) = page.cursor {
///     let next = db.query(Sensor::partition("S1")).limit(10).after(cursor).send().await?;
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The items, in the query's order.
    pub items: Vec<T>,
    /// Resumes after the last item of this page; `None` when the query has no more items.
    pub cursor: Option<Cursor>,
}

impl<T> Page<T> {
    /// True when the query has more items after this page.
    pub fn has_more(&self) -> bool {
        self.cursor.is_some()
    }
}

impl<T> IntoIterator for Page<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}
