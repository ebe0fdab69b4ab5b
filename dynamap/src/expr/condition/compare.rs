//! The comparisons a condition makes on a [`Path`], and the same on a whole [`Attr`].

use std::marker::PhantomData;

use serde::Serialize;

use super::{
    Attr, AttributeKind, AttributeValue, Condition, MAX_IN_OPERANDS, Node, Op, Path, Size,
};

/// Conditions on a whole attribute: the same as on its [`Path`].
macro_rules! delegate_to_path {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<E, T: Serialize> Attr<E, T> {
            $(
                $(#[$doc])*
                pub fn $name(self, $($arg: $ty),*) -> Condition<E> {
                    Path::from(self).$name($($arg),*)
                }
            )*
        }
    };
}

delegate_to_path! {
    /// True when the item has the attribute.
    fn exists();
    /// True when the item lacks the attribute.
    fn not_exists();
    /// True when the attribute holds a value of DynamoDB type `kind`.
    fn has_type(kind: AttributeKind);
}

impl<E, T> Path<E, T> {
    /// True when the item has a value at this path.
    pub fn exists(self) -> Condition<E> {
        Condition::new(Node::Exists(self.path))
    }

    /// True when the item has no value at this path.
    pub fn not_exists(self) -> Condition<E> {
        Condition::new(Node::NotExists(self.path))
    }

    /// True when the value is of DynamoDB type `kind`.
    pub fn has_type(self, kind: AttributeKind) -> Condition<E> {
        Condition::new(Node::HasType(
            self.path,
            AttributeValue::S(kind.code().to_owned()),
        ))
    }

    /// The value's size (string length in bytes, binary length, or number of elements),
    /// to compare with a number.
    pub fn size(self) -> Size<E> {
        Size {
            path: self.path,
            entity: PhantomData,
        }
    }
}

impl<E, T: Serialize> Path<E, T> {
    fn compare(self, op: Op, value: impl Into<T>) -> Condition<E> {
        let encode = self.encode;
        Condition::from_values(vec![value.into()], encode, |mut v| {
            Node::Compare(self.path, op, v.remove(0))
        })
    }

    /// The value equals `value`.
    pub fn eq(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Eq, value)
    }

    /// The value differs from `value` (or is missing).
    pub fn ne(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Ne, value)
    }

    /// The value is less than `value`.
    pub fn lt(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Lt, value)
    }

    /// The value is at most `value`.
    pub fn le(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Le, value)
    }

    /// The value is greater than `value`.
    pub fn gt(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Gt, value)
    }

    /// The value is at least `value`.
    pub fn ge(self, value: impl Into<T>) -> Condition<E> {
        self.compare(Op::Ge, value)
    }

    /// `low <= value <= high`.
    pub fn between(self, low: impl Into<T>, high: impl Into<T>) -> Condition<E> {
        let encode = self.encode;
        Condition::from_values(vec![low.into(), high.into()], encode, |mut v| {
            let high = v.remove(1);
            Node::Between(self.path, v.remove(0), high)
        })
    }

    /// The value equals one of `values` (at most 100).
    pub fn is_in<V: Into<T>>(self, values: impl IntoIterator<Item = V>) -> Condition<E> {
        let values: Vec<T> = values.into_iter().map(Into::into).collect();
        if values.is_empty() || values.len() > MAX_IN_OPERANDS {
            return Condition::invalid(format!(
                "`in` on `{}` takes 1 to {MAX_IN_OPERANDS} values, got {}",
                self.path,
                values.len()
            ));
        }
        let encode = self.encode;
        Condition::from_values(values, encode, |v| Node::In(self.path, v))
    }
}

delegate_to_path! {
    /// The attribute equals `value`.
    fn eq(value: impl Into<T>);
    /// The attribute differs from `value` (or is missing).
    fn ne(value: impl Into<T>);
    /// The attribute is less than `value`.
    fn lt(value: impl Into<T>);
    /// The attribute is at most `value`.
    fn le(value: impl Into<T>);
    /// The attribute is greater than `value`.
    fn gt(value: impl Into<T>);
    /// The attribute is at least `value`.
    fn ge(value: impl Into<T>);
    /// `low <= attribute <= high`.
    fn between(low: impl Into<T>, high: impl Into<T>);
}

impl<E, T: Serialize> Attr<E, T> {
    /// The attribute equals one of `values` (at most 100).
    pub fn is_in<V: Into<T>>(self, values: impl IntoIterator<Item = V>) -> Condition<E> {
        self.path().is_in(values)
    }
}

impl<E> Path<E, String> {
    /// The string starts with `prefix`.
    pub fn begins_with(self, prefix: impl Into<String>) -> Condition<E> {
        Condition::new(Node::BeginsWith(
            self.path,
            AttributeValue::S(prefix.into()),
        ))
    }

    /// The string contains `part`.
    pub fn contains(self, part: impl Into<String>) -> Condition<E> {
        Condition::new(Node::Contains(self.path, AttributeValue::S(part.into())))
    }
}

impl<E> Attr<E, String> {
    /// The string attribute starts with `prefix`.
    pub fn begins_with(self, prefix: impl Into<String>) -> Condition<E> {
        self.path().begins_with(prefix)
    }

    /// The string attribute contains `part`.
    pub fn contains(self, part: impl Into<String>) -> Condition<E> {
        self.path().contains(part)
    }
}
