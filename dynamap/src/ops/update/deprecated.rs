//! The update verbs of earlier releases, kept for one release so that the compiler's
//! deprecation warning names the verb that replaced each.

use super::Update;
use crate::Entity;
use crate::expr::Target;

impl<E: Entity> Update<E> {
    /// `ADD path value`: adds to a number, or adds a whole set to a set.
    ///
    /// Replaced by one verb per meaning: [`increment`](Update::increment) for numbers and
    /// [`add_to_set`](Update::add_to_set) for set elements.
    #[deprecated(note = "use `increment` for numbers and `add_to_set` for set elements")]
    pub fn add<T, A: Target<E, T>>(self, path: A, value: impl Into<T>) -> Self {
        let change = path.into_path().add_change(&value.into());
        self.change(change)
    }

    /// `DELETE path elements`: removes a whole set's elements from a set.
    ///
    /// Replaced by [`remove_from_set`](Update::remove_from_set), which takes the elements.
    #[deprecated(note = "use `remove_from_set`")]
    pub fn delete_elements<T, A: Target<E, T>>(self, path: A, elements: impl Into<T>) -> Self {
        let change = path.into_path().delete_change(&elements.into());
        self.change(change)
    }
}
