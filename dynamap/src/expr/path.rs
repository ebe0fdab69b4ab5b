//! Document paths: an attribute, or a value nested inside a map, struct or list attribute
//! (`address.city`, `reactions.Heart`, `lines[2]`), for updates and conditions.

use crate::sealed::{Sealed, TargetSeal};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;

use super::Attr;
use super::encoder::{Encoder, path_encoder};
use super::placeholders::Placeholders;

/// One step below an attribute.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Step {
    /// A map key or struct field.
    Key(String),
    /// A list element.
    Index(usize),
}

/// A path to a value of an item, untyped: the attribute and the steps below it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct DocPath {
    attribute: Cow<'static, str>,
    steps: Vec<Step>,
}

impl DocPath {
    pub(crate) fn attribute(name: &'static str) -> Self {
        DocPath {
            attribute: Cow::Borrowed(name),
            steps: Vec::new(),
        }
    }

    /// An attribute whose name is only known at run time (lookup bookkeeping).
    pub(crate) fn owned(name: String) -> Self {
        DocPath {
            attribute: Cow::Owned(name),
            steps: Vec::new(),
        }
    }

    /// The top-level attribute the path starts at.
    pub(crate) fn root(&self) -> &str {
        &self.attribute
    }

    /// True when the path is a whole attribute, not a value inside one.
    pub(crate) fn is_attribute(&self) -> bool {
        self.steps.is_empty()
    }

    /// What holds the value the path names (`a.b` for `a.b[2]`); `None` for a whole
    /// attribute.
    pub(crate) fn parent(&self) -> Option<String> {
        let (_, steps) = self.steps.split_last()?;
        let parent = DocPath {
            attribute: self.attribute.clone(),
            steps: steps.to_vec(),
        };
        Some(parent.to_string())
    }

    fn then(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

    /// `#n0.#n1[2]`: every name through a placeholder.
    pub(crate) fn render(&self, p: &mut Placeholders) -> String {
        let mut out = p.name(&self.attribute);
        for step in &self.steps {
            match step {
                Step::Key(key) => {
                    out.push('.');
                    out.push_str(&p.name(key));
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

impl fmt::Display for DocPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.attribute)?;
        for step in &self.steps {
            match step {
                Step::Key(key) => write!(f, ".{key}")?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// A value nested inside an attribute of entity `E`, holding values of type `T`: made from
/// a field constant with [`Attr::key`] (maps), [`Attr::index`] (lists) or [`Attr::at`]
/// (structs and maps whose value type you name). Updates and conditions take it wherever
/// they take an [`Attr`].
///
/// ```
/// use std::collections::HashMap;
/// use dynamap::{Entity, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Address { city: String, zip: String }
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "ORDER")]
/// struct Order { id: String, address: Address, reactions: HashMap<String, u32>, lines: Vec<String> }
///
/// let hearts = Order::REACTIONS.key("Heart");          // Path<Order, u32>
/// let city = Order::ADDRESS.at::<String>("city");      // Path<Order, String>
/// let first = Order::LINES.index(0);                    // Path<Order, String>
/// let rendered = city.eq("Poznań").and(hearts.gt(10u32)).render().unwrap();
/// assert_eq!(rendered.expression, "(#n0.#n1 = :v0 AND #n2.#n3 > :v1)");
/// ```
pub struct Path<E, T> {
    pub(crate) path: DocPath,
    /// How values at the path are stored.
    pub(crate) encode: Encoder<T>,
    /// A set field kept as a list (`#[dynamap(list)]`).
    pub(crate) list: bool,
    marker: PhantomData<fn() -> (E, T)>,
}

impl<E, T> Clone for Path<E, T> {
    fn clone(&self) -> Self {
        Path {
            path: self.path.clone(),
            encode: self.encode,
            list: self.list,
            marker: PhantomData,
        }
    }
}

impl<E, T> fmt::Debug for Path<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({})", self.path)
    }
}

impl<E, T> Path<E, T> {
    fn step<U: Serialize + 'static>(self, step: Step) -> Path<E, U> {
        Path {
            path: self.path.then(step),
            encode: path_encoder::<U>,
            list: false,
            marker: PhantomData,
        }
    }

    /// The value under `field` of this struct or map, of a type you name.
    pub fn at<U: Serialize + 'static>(self, field: impl Into<String>) -> Path<E, U> {
        self.step(Step::Key(field.into()))
    }

    /// The stored form of `value` at this path.
    pub(crate) fn encode(&self, value: &T) -> Result<crate::codec::AttributeValue, String> {
        (self.encode)(value)
    }
}

impl<E, V: Serialize + 'static> Path<E, HashMap<String, V>> {
    /// The value under `key` of this map.
    pub fn key(self, key: impl Into<String>) -> Path<E, V> {
        self.step(Step::Key(key.into()))
    }
}

impl<E, V: Serialize + 'static> Path<E, BTreeMap<String, V>> {
    /// The value under `key` of this map.
    pub fn key(self, key: impl Into<String>) -> Path<E, V> {
        self.step(Step::Key(key.into()))
    }
}

impl<E, V: Serialize + 'static> Path<E, Vec<V>> {
    /// Element `index` of this list.
    pub fn index(self, index: usize) -> Path<E, V> {
        self.step(Step::Index(index))
    }
}

impl<E, T> From<Attr<E, T>> for Path<E, T> {
    fn from(attr: Attr<E, T>) -> Self {
        attr.path()
    }
}

impl<E, T> Attr<E, T> {
    /// The whole attribute, as a path.
    pub fn path(self) -> Path<E, T> {
        Path {
            path: DocPath::attribute(self.name()),
            encode: self.encoder(),
            list: self.is_list(),
            marker: PhantomData,
        }
    }

    /// The value under `field` of this struct or map attribute, of a type you name.
    pub fn at<U: Serialize + 'static>(self, field: impl Into<String>) -> Path<E, U> {
        self.path().at(field)
    }
}

impl<E, V: Serialize + 'static> Attr<E, HashMap<String, V>> {
    /// The value under `key` of this map attribute.
    pub fn key(self, key: impl Into<String>) -> Path<E, V> {
        self.path().key(key)
    }
}

impl<E, V: Serialize + 'static> Attr<E, BTreeMap<String, V>> {
    /// The value under `key` of this map attribute.
    pub fn key(self, key: impl Into<String>) -> Path<E, V> {
        self.path().key(key)
    }
}

impl<E, V: Serialize + 'static> Attr<E, Vec<V>> {
    /// Element `index` of this list attribute.
    pub fn index(self, index: usize) -> Path<E, V> {
        self.path().index(index)
    }
}

/// What updates and conditions address: an [`Attr`] (a whole attribute) or a [`Path`] (a
/// value inside one), holding values of type `T`.
pub trait Target<E, T>: Sealed<(TargetSeal, E, T)> {
    /// The typed path.
    fn into_path(self) -> Path<E, T>;
}

impl<E, T> Sealed<(TargetSeal, E, T)> for Attr<E, T> {}
impl<E, T> Sealed<(TargetSeal, E, T)> for Path<E, T> {}
impl<E, T> Sealed<(TargetSeal, E, T)> for &Path<E, T> {}

impl<E, T> Target<E, T> for Attr<E, T> {
    fn into_path(self) -> Path<E, T> {
        self.path()
    }
}

impl<E, T> Target<E, T> for Path<E, T> {
    fn into_path(self) -> Path<E, T> {
        self
    }
}

impl<E, T> Target<E, T> for &Path<E, T> {
    fn into_path(self) -> Path<E, T> {
        self.clone()
    }
}

/// A value an update writes to a target holding `T`: anything that converts `Into<T>`. A
/// trait of its own so that a mistake reads as one line: an `Option` set on an `Option`
/// field (whose target holds the inner type) points to `set_option`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written to a field holding `{T}`",
    label = "expected a value that converts into `{T}`",
    note = "on an `Option` field, `set` takes the value itself (`set(field, value)`); for a value that is itself an `Option`, use `set_option(field, value)`, which removes the attribute for `None`"
)]
pub trait SetValue<T> {
    /// The value, converted.
    fn into_value(self) -> T;
}

#[diagnostic::do_not_recommend]
impl<T, V: Into<T>> SetValue<T> for V {
    fn into_value(self) -> T {
        self.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Order;
    const REACTIONS: Attr<Order, HashMap<String, u32>> = Attr::new("reactions");
    const LINES: Attr<Order, Vec<Vec<String>>> = Attr::new("lines");

    #[test]
    fn paths_render_every_name_through_a_placeholder() {
        let mut p = Placeholders::default();
        assert_eq!(REACTIONS.key("Heart").path.render(&mut p), "#n0.#n1");
        assert_eq!(LINES.index(2).index(0).path.render(&mut p), "#n2[2][0]");
        assert_eq!(
            REACTIONS.key("a.b").path.to_string(),
            "reactions.a.b",
            "display joins steps; rendering keeps `a.b` one name"
        );
        let mut p = Placeholders::default();
        assert_eq!(REACTIONS.key("a.b").path.render(&mut p), "#n0.#n1");
    }
}
