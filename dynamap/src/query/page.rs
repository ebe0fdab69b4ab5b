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
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let page = db.query(Sensor::partition("S1")).limit(10).send().await?;
/// for sensor in &page.items {
///     println!("{}", sensor.city);
/// }
/// if let Some(cursor) = page.cursor {
///     let next = db.query(Sensor::partition("S1")).limit(10).after(cursor).send().await?;
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
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

    /// The items, in the query's order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The number of items on this page.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the page holds no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl<T> IntoIterator for Page<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    /// The items, in the query's order (the cursor is dropped).
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Page<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Page<u32> {
        Page {
            items: vec![3, 1, 2],
            cursor: Some(Cursor::from("resume-here".to_owned())),
        }
    }

    #[test]
    fn a_page_iterates_over_its_items_in_order() {
        let page = page();
        assert_eq!(page.iter().copied().collect::<Vec<_>>(), [3, 1, 2]);
        assert_eq!((&page).into_iter().count(), 3);
        assert_eq!((page.len(), page.is_empty()), (3, false));
        assert_eq!(page.into_iter().collect::<Vec<_>>(), [3, 1, 2]);
    }

    #[test]
    fn a_page_and_its_cursor_go_through_serde_as_plain_json() {
        let json = serde_json::to_value(page()).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({ "items": [3, 1, 2], "cursor": "resume-here" })
        );
        let back: Page<u32> = serde_json::from_value(json).expect("deserializes");
        assert_eq!(back, page());
    }
}
