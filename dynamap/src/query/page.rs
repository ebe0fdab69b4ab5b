//! One page of query results.

use super::cursor::Cursor;

/// Up to `limit` items, and where to resume.
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
