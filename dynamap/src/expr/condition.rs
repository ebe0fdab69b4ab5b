//! Typed conditions on an entity's attributes.

use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;

mod attributes;
mod compare;

use super::encoder::{Encoder, serde_encoder};
use super::path::{DocPath, Path};
use super::placeholders::{Placeholders, Rendered};
use crate::codec::AttributeValue;
use crate::{Error, Result};

/// The most operands DynamoDB accepts in one `IN`.
const MAX_IN_OPERANDS: usize = 100;

/// A stored attribute of entity `E` holding values of type `T`. The derive makes one per
/// field, as an associated constant: `Sensor::CITY`.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// // `Sensor::CITY` is an `Attr<Sensor, String>`: conditions on it take strings.
/// let in_poznan = Sensor::CITY.eq("Poznań");
/// let rendered = in_poznan.render()?;
/// assert_eq!(rendered.expression, "#n0 = :v0");
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct Attr<E, T> {
    name: &'static str,
    encode: Encoder<T>,
    /// A set kept as a list (`#[dynamap(list)]`), which `ADD` and `DELETE` cannot change.
    list: bool,
    marker: PhantomData<fn() -> (E, T)>,
}

impl<E, T> Clone for Attr<E, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, T> Copy for Attr<E, T> {}

impl<E, T> fmt::Debug for Attr<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Attr({})", self.name)
    }
}

impl<E, T: Serialize> Attr<E, T> {
    /// The attribute called `name`. Used by generated code.
    #[doc(hidden)]
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            encode: serde_encoder::<T>,
            list: false,
            marker: PhantomData,
        }
    }
}

impl<E, T> Attr<E, T> {
    /// The attribute called `name`, whose values are stored by `encode` (a field with
    /// `#[dynamap(with = "...")]`). Used by generated code.
    #[doc(hidden)]
    pub const fn with_encoder(
        name: &'static str,
        encode: fn(&T) -> std::result::Result<AttributeValue, String>,
    ) -> Self {
        Self {
            name,
            encode,
            list: false,
            marker: PhantomData,
        }
    }

    /// The same attribute, a set stored as a list (`#[dynamap(list)]`). Used by generated
    /// code.
    #[doc(hidden)]
    #[must_use]
    pub const fn stored_as_list(mut self) -> Self {
        self.list = true;
        self
    }

    /// True for a set stored as a list.
    pub(crate) fn is_list(&self) -> bool {
        self.list
    }

    /// The attribute's name in the item.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    pub(crate) fn encoder(&self) -> Encoder<T> {
        self.encode
    }

    /// The attribute's size (string length in bytes, binary length, or number of elements),
    /// to compare with a number.
    pub fn size(self) -> Size<E> {
        self.path().size()
    }
}

/// DynamoDB's attribute types, for [`Attr::has_type`].
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// use dynamap::expr::AttributeKind;
///
/// let city_is_text = Sensor::CITY.has_type(AttributeKind::String);
/// assert!(city_is_text.render()?.expression.starts_with("attribute_type("));
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributeKind {
    /// `S`
    String,
    /// `N`
    Number,
    /// `B`
    Binary,
    /// `BOOL`
    Bool,
    /// `NULL`
    Null,
    /// `L`
    List,
    /// `M`
    Map,
    /// `SS`
    StringSet,
    /// `NS`
    NumberSet,
    /// `BS`
    BinarySet,
}

impl AttributeKind {
    fn code(self) -> &'static str {
        match self {
            AttributeKind::String => "S",
            AttributeKind::Number => "N",
            AttributeKind::Binary => "B",
            AttributeKind::Bool => "BOOL",
            AttributeKind::Null => "NULL",
            AttributeKind::List => "L",
            AttributeKind::Map => "M",
            AttributeKind::StringSet => "SS",
            AttributeKind::NumberSet => "NS",
            AttributeKind::BinarySet => "BS",
        }
    }
}

/// `size(attribute)`, made by [`Attr::size`].
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// let long_names = Sensor::CITY.size().gt(20);
/// assert_eq!(long_names.render()?.expression, "size(#n0) > :v0");
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct Size<E> {
    path: DocPath,
    entity: PhantomData<fn() -> E>,
}

impl<E> Size<E> {
    fn compare(self, op: Op, n: usize) -> Condition<E> {
        Condition::new(Node::Size(self.path, op, AttributeValue::N(n.to_string())))
    }

    /// The size equals `n`.
    pub fn eq(self, n: usize) -> Condition<E> {
        self.compare(Op::Eq, n)
    }

    /// The size is less than `n`.
    pub fn lt(self, n: usize) -> Condition<E> {
        self.compare(Op::Lt, n)
    }

    /// The size is at most `n`.
    pub fn le(self, n: usize) -> Condition<E> {
        self.compare(Op::Le, n)
    }

    /// The size is greater than `n`.
    pub fn gt(self, n: usize) -> Condition<E> {
        self.compare(Op::Gt, n)
    }

    /// The size is at least `n`.
    pub fn ge(self, n: usize) -> Condition<E> {
        self.compare(Op::Ge, n)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "<>",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }
}

#[derive(Debug, Clone)]
pub(super) enum Node {
    Compare(DocPath, Op, AttributeValue),
    Between(DocPath, AttributeValue, AttributeValue),
    In(DocPath, Vec<AttributeValue>),
    BeginsWith(DocPath, AttributeValue),
    Contains(DocPath, AttributeValue),
    Exists(DocPath),
    NotExists(DocPath),
    HasType(DocPath, AttributeValue),
    Size(DocPath, Op, AttributeValue),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

/// A condition on items of entity `E`, for filters (and, later, conditional writes).
/// Combine with [`and`](Condition::and), [`or`](Condition::or) and [`not`](Condition::not).
///
/// A value that cannot be encoded is kept as an error and reported by the request that
/// uses the condition, before anything is sent.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// let busy = Sensor::CITY.eq("Poznań").or(Sensor::CITY.eq("Berlin")).and(!Sensor::ID.begins_with("test-"));
/// let rendered = busy.render()?;
/// assert_eq!(rendered.values.len(), 3);
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct Condition<E> {
    node: std::result::Result<Node, String>,
    entity: PhantomData<fn() -> E>,
}

impl<E> Clone for Condition<E> {
    fn clone(&self) -> Self {
        Self {
            node: self.node.clone(),
            entity: PhantomData,
        }
    }
}

impl<E> fmt::Debug for Condition<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Condition").field(&self.node).finish()
    }
}

impl<E> Condition<E> {
    /// The same condition, for a type read from the same items: a projection of `E`, an
    /// enum of its table, or its items as `Result`s.
    pub(crate) fn retype<U>(self) -> Condition<U> {
        Condition {
            node: self.node,
            entity: PhantomData,
        }
    }

    pub(super) fn new(node: Node) -> Self {
        Self {
            node: Ok(node),
            entity: PhantomData,
        }
    }

    pub(super) fn invalid(reason: String) -> Self {
        Self {
            node: Err(reason),
            entity: PhantomData,
        }
    }

    fn from_values<T>(
        values: Vec<T>,
        encode: Encoder<T>,
        build: impl FnOnce(Vec<AttributeValue>) -> Node,
    ) -> Self {
        let encoded: std::result::Result<Vec<AttributeValue>, _> =
            values.iter().map(encode).collect();
        match encoded {
            Ok(values) => Self::new(build(values)),
            Err(err) => Self::invalid(format!("cannot encode a condition value: {err}")),
        }
    }

    fn combine(self, other: Self, build: impl FnOnce(Box<Node>, Box<Node>) -> Node) -> Self {
        match (self.node, other.node) {
            (Ok(a), Ok(b)) => Self::new(build(Box::new(a), Box::new(b))),
            (Err(e), _) | (_, Err(e)) => Self::invalid(e),
        }
    }

    /// Both conditions hold.
    pub fn and(self, other: Self) -> Self {
        self.combine(other, Node::And)
    }

    /// Either condition holds.
    pub fn or(self, other: Self) -> Self {
        self.combine(other, Node::Or)
    }

    /// The condition does not hold.
    #[allow(clippy::should_implement_trait)] // also offered as `!condition`
    pub fn not(self) -> Self {
        match self.node {
            Ok(node) => Self::new(Node::Not(Box::new(node))),
            Err(e) => Self::invalid(e),
        }
    }

    /// Renders the expression into `placeholders`, returning its text.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidExpression`] when the condition was built from a value that does
    /// not encode, or an `in` with no values or more than 100.
    pub fn render_into(&self, placeholders: &mut Placeholders) -> Result<String> {
        let node = self
            .node
            .as_ref()
            .map_err(|reason| Error::InvalidExpression {
                part: crate::error::ExpressionPart::Condition,
                reason: reason.clone(),
            })?;
        let mut out = String::new();
        write_node(node, placeholders, &mut out);
        Ok(out)
    }

    /// Renders the expression on its own, with its placeholder maps.
    ///
    /// # Errors
    ///
    /// As [`render_into`](Self::render_into).
    pub fn render(&self) -> Result<Rendered> {
        let mut placeholders = Placeholders::default();
        let expression = self.render_into(&mut placeholders)?;
        let (names, values) = placeholders.into_parts();
        Ok(Rendered {
            expression,
            names: names.unwrap_or_default(),
            values: values.unwrap_or_default(),
        })
    }
}

impl<E> std::ops::Not for Condition<E> {
    type Output = Self;

    fn not(self) -> Self {
        Condition::not(self)
    }
}

fn write_node(node: &Node, p: &mut Placeholders, out: &mut String) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = match node {
        Node::Compare(name, op, value) => {
            let (n, v) = (name.render(p), p.value(value.clone()));
            write!(out, "{n} {} {v}", op.symbol())
        }
        Node::Between(name, low, high) => {
            let (n, l, h) = (name.render(p), p.value(low.clone()), p.value(high.clone()));
            write!(out, "{n} BETWEEN {l} AND {h}")
        }
        Node::In(name, values) => {
            let n = name.render(p);
            let list: Vec<String> = values.iter().map(|v| p.value(v.clone())).collect();
            write!(out, "{n} IN ({})", list.join(", "))
        }
        Node::BeginsWith(name, value) => {
            let (n, v) = (name.render(p), p.value(value.clone()));
            write!(out, "begins_with({n}, {v})")
        }
        Node::Contains(name, value) => {
            let (n, v) = (name.render(p), p.value(value.clone()));
            write!(out, "contains({n}, {v})")
        }
        Node::Exists(name) => write!(out, "attribute_exists({})", name.render(p)),
        Node::HasType(name, kind) => {
            let (n, v) = (name.render(p), p.value(kind.clone()));
            write!(out, "attribute_type({n}, {v})")
        }
        Node::Size(name, op, value) => {
            let (n, v) = (name.render(p), p.value(value.clone()));
            write!(out, "size({n}) {} {v}", op.symbol())
        }
        Node::NotExists(name) => write!(out, "attribute_not_exists({})", name.render(p)),
        Node::And(a, b) | Node::Or(a, b) => {
            let joiner = if matches!(node, Node::And(..)) {
                " AND "
            } else {
                " OR "
            };
            out.push('(');
            write_node(a, p, out);
            out.push_str(joiner);
            write_node(b, p, out);
            out.push(')');
            Ok(())
        }
        Node::Not(inner) => {
            out.push_str("(NOT ");
            write_node(inner, p, out);
            out.push(')');
            Ok(())
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Sensor;
    const CITY: Attr<Sensor, String> = Attr::new("city");
    const FLOOR: Attr<Sensor, i32> = Attr::new("floor");
    const TYPE: Attr<Sensor, String> = Attr::new("type");

    #[test]
    fn comparisons_use_placeholders_for_names_and_values() {
        let r = CITY.eq("Poznań").render().expect("renders");
        assert_eq!(r.expression, "#n0 = :v0");
        assert_eq!(r.names["#n0"], "city");
        assert_eq!(r.values[":v0"], AttributeValue::S("Poznań".into()));
        let r = FLOOR.between(-1, 3).render().expect("renders");
        assert_eq!(r.expression, "#n0 BETWEEN :v0 AND :v1");
        assert_eq!(r.values[":v1"], AttributeValue::N("3".into()));
    }

    #[test]
    fn combinators_nest_and_reuse_names() {
        let c = (CITY.eq("A").or(CITY.begins_with("B")))
            .and(!TYPE.is_in(["gas", "co2"]))
            .and(FLOOR.exists());
        let r = c.render().expect("renders");
        assert_eq!(
            r.expression,
            "(((#n0 = :v0 OR begins_with(#n0, :v1)) AND (NOT #n1 IN (:v2, :v3))) AND attribute_exists(#n2))"
        );
        assert_eq!(r.names.len(), 3);
    }

    #[test]
    fn types_and_sizes() {
        let r = CITY
            .has_type(AttributeKind::String)
            .and(CITY.size().ge(3))
            .render()
            .expect("renders");
        assert_eq!(
            r.expression,
            "(attribute_type(#n0, :v0) AND size(#n0) >= :v1)"
        );
        assert_eq!(r.values[":v0"], AttributeValue::S("S".into()));
    }

    #[test]
    fn hostile_values_stay_values() {
        let r = CITY
            .eq(") OR attribute_exists(#n0")
            .render()
            .expect("renders");
        assert_eq!(r.expression, "#n0 = :v0");
    }

    #[test]
    fn in_rejects_empty_and_oversized_lists() {
        let none: [&str; 0] = [];
        assert!(matches!(
            CITY.is_in(none).render(),
            Err(Error::InvalidExpression {
                part: crate::ExpressionPart::Condition,
                ..
            })
        ));
        let many = (0..101).map(|i| i.to_string());
        let err = CITY.is_in(many).render().expect_err("too many");
        assert!(
            err.to_string().contains("1 to 100 values, got 101"),
            "{err}"
        );
        assert!(CITY.is_in((0..100).map(|i| i.to_string())).render().is_ok());
    }

    #[test]
    fn an_invalid_part_poisons_the_whole_condition() {
        let none: [&str; 0] = [];
        assert!(CITY.eq("A").and(CITY.is_in(none)).render().is_err());
        assert!(CITY.is_in(none).not().render().is_err());
    }
}
