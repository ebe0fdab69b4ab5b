//! What updates and conditions know of DynamoDB's native sets: which field types are one
//! ([`NativeSet`]), their element types ([`SetElement`]), and `contains` on them.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use serde::Serialize;

use super::condition::{Attr, Condition, Node};
use super::encoder::serde_encoder;
use super::path::Path;
use crate::codec::{Attribute, AttributeValue};
use crate::key::Binary;
use crate::sealed::{NativeSetSeal, Sealed, SetElementSeal};

/// A type whose `HashSet`/`BTreeSet` dynamap stores as a native DynamoDB set: `String`
/// (`SS`), the integer and float types (`NS`) and [`Binary`] (`BS`). Implemented by
/// dynamap only.
///
/// ```
/// fn element<T: dynamap::expr::SetElement>() {}
/// element::<String>();
/// element::<u64>();
/// element::<dynamap::key::Binary>();
/// ```
pub trait SetElement: Attribute + Sealed<SetElementSeal> {}

macro_rules! set_elements {
    ($($ty:ty),*) => {$(
        impl Sealed<SetElementSeal> for $ty {}
        impl SetElement for $ty {}
    )*};
}

set_elements!(
    String, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64, Binary
);

/// A field type stored as a native DynamoDB set: a `HashSet` or `BTreeSet` of a
/// [`SetElement`]. [`Update::add_to_set`](crate::ops::Update::add_to_set),
/// [`Update::remove_from_set`](crate::ops::Update::remove_from_set) and
/// [`Attr::contains`] take field constants of these types.
///
/// ```
/// use std::collections::{BTreeSet, HashSet};
/// fn set<S: dynamap::expr::NativeSet>() {}
/// set::<HashSet<String>>();
/// set::<BTreeSet<u32>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not stored as a DynamoDB set",
    label = "not a set of strings, numbers or binaries",
    note = "`add_to_set`, `remove_from_set` and set `contains` work on fields of type `HashSet<T>` or `BTreeSet<T>` where `T` is `String`, a number type or `dynamap::key::Binary`"
)]
pub trait NativeSet: Attribute + Sealed<NativeSetSeal> {
    /// The type of the set's elements.
    type Element: SetElement;
}

impl<T: SetElement + Eq + Hash, S: BuildHasher + Default> Sealed<NativeSetSeal> for HashSet<T, S> {}
impl<T: SetElement + Eq + Hash, S: BuildHasher + Default> NativeSet for HashSet<T, S> {
    type Element = T;
}
impl<T: SetElement + Ord> Sealed<NativeSetSeal> for BTreeSet<T> {}
impl<T: SetElement + Ord> NativeSet for BTreeSet<T> {
    type Element = T;
}

/// The elements of an `ADD` or `DELETE`, as the set value of the path's set type; `None`
/// when there are none (the change is a no-op: DynamoDB has no empty set).
///
/// # Errors
///
/// Fails when an element cannot be stored, or when the field is not stored as a native set
/// (`#[dynamap(list)]`), naming the path.
pub(crate) fn elements_value<E, S: NativeSet>(
    path: &Path<E, S>,
    elements: Vec<S::Element>,
) -> Result<Option<AttributeValue>, String> {
    if path.list {
        return Err(format!(
            "`{}` is stored as a list (`#[dynamap(list)]`), not as a DynamoDB set; set it whole, or store it as a set",
            path.path
        ));
    }
    if elements.is_empty() {
        return Ok(None);
    }
    let Some(kind) = S::Element::SET_KIND else {
        return Err(format!("`{}` has no DynamoDB set type", path.path));
    };
    crate::codec::set_value(
        kind,
        elements.iter().map(crate::codec::Attribute::to_attribute),
    )
    .map(Some)
    .map_err(|err| format!("cannot encode an element for `{}`: {err}", path.path))
}

impl<E, S: NativeSet> Path<E, S> {
    /// The set holds `element`.
    pub fn contains(self, element: impl Into<S::Element>) -> Condition<E> {
        match element.into().to_attribute() {
            Ok(value) => Condition::new(Node::Contains(self.path, value)),
            Err(err) => Condition::invalid(format!("cannot encode a condition value: {err}")),
        }
    }
}

impl<E, S: NativeSet> Attr<E, S> {
    /// The set attribute holds `element`.
    ///
    /// ```
    /// use std::collections::BTreeSet;
    /// use dynamap::{Entity, Table};
    ///
    /// #[derive(Table)]
    /// #[dynamap(pk = "PK", sk = "SK")]
    /// struct App;
    ///
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
    /// struct Post { id: String, tags: BTreeSet<String> }
    ///
    /// let rendered = Post::TAGS.contains("rust").render()?;
    /// assert_eq!(rendered.expression, "contains(#n0, :v0)");
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn contains(self, element: impl Into<S::Element>) -> Condition<E> {
        self.path().contains(element)
    }
}

impl<E, V: Serialize> Path<E, Vec<V>> {
    /// The list holds an element equal to `element`.
    pub fn contains(self, element: impl Into<V>) -> Condition<E> {
        match serde_encoder(&element.into()) {
            Ok(value) => Condition::new(Node::Contains(self.path, value)),
            Err(err) => Condition::invalid(format!("cannot encode a condition value: {err}")),
        }
    }
}

impl<E, V: Serialize> Attr<E, Vec<V>> {
    /// The list attribute holds an element equal to `element`.
    ///
    /// ```
    /// use dynamap::{Entity, Table};
    ///
    /// #[derive(Table)]
    /// #[dynamap(pk = "PK", sk = "SK")]
    /// struct App;
    ///
    /// #[derive(Entity)]
    /// #[dynamap(table = App, entity = "Post", pk = "POST#{id}", sk = "POST")]
    /// struct Post { id: String, authors: Vec<String> }
    ///
    /// let rendered = Post::AUTHORS.contains("ada").render()?;
    /// assert_eq!(rendered.expression, "contains(#n0, :v0)");
    /// # Ok::<(), dynamap::Error>(())
    /// ```
    pub fn contains(self, element: impl Into<V>) -> Condition<E> {
        self.path().contains(element)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Post;
    const TAGS: Attr<Post, BTreeSet<String>> = Attr::new("tags");
    const SCORES: Attr<Post, HashSet<u32>> = Attr::new("scores");

    #[test]
    fn elements_become_the_set_type_of_the_field() {
        let value = elements_value(&TAGS.path(), vec!["a".into()]).expect("encodes");
        assert_eq!(value, Some(AttributeValue::Ss(vec!["a".into()])));
        let value = elements_value(&SCORES.path(), vec![7]).expect("encodes");
        assert_eq!(value, Some(AttributeValue::Ns(vec!["7".into()])));
        assert_eq!(elements_value(&SCORES.path(), vec![]), Ok(None));
    }

    #[test]
    fn a_field_stored_as_a_list_is_refused() {
        const LEGACY: Attr<Post, BTreeSet<String>> = Attr::new("legacy").stored_as_list();
        let error = elements_value(&LEGACY.path(), vec!["a".into()]).expect_err("refused");
        assert!(error.contains("`legacy` is stored as a list"), "{error}");
    }

    #[test]
    fn contains_takes_an_element() {
        let rendered = SCORES.contains(3u32).render().expect("renders");
        assert_eq!(rendered.expression, "contains(#n0, :v0)");
        assert_eq!(rendered.values[":v0"], AttributeValue::N("3".into()));
    }
}
