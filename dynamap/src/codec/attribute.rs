//! [`Attribute`]: field types dynamap converts to and from attribute values directly, with
//! no serde walk and no intermediate tree.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use serde::de::Error as _;

use super::attribute_error::mismatch;
use super::set::{SetKind, set_value};
use super::{AttributeValue, number_text};

pub use super::attribute_error::AttributeError;

/// A type dynamap stores as one attribute value by direct code.
///
/// Generated `to_item`/`from_item` use it for every field whose type implements it, and
/// fall back to the type's serde implementation (in `serde_dynamo`'s form) for every other.
/// Both paths store the same form, so items written by either read by either: strings as
/// `S`; integers and floats as `N`; `bool` as `BOOL`; `Vec` as `L`; `HashMap` and
/// `BTreeMap` with `String` keys as `M`; `None` as `NULL` (an `Option` field that is `None`
/// is left out of the item).
///
/// Well-known types of other crates and of std are stored in a form dynamap chooses, not
/// the one their serde implementation writes (which may be a list of numbers, and change
/// with a serde feature turned on anywhere in the build): `time::OffsetDateTime` and
/// `std::time::SystemTime` as sortable UTC text (`2020-03-01T12:30:00.000000000Z`),
/// `time::PrimitiveDateTime`, `Date` and `Time` as fixed-width text, durations as a number
/// of seconds, `uuid::Uuid` and IP addresses as their text. They read the forms serde
/// stored before too. The guide's evolving-models chapter lists every form.
///
/// One exception: a `HashSet` or `BTreeSet` of strings, numbers or
/// [`Binary`](crate::key::Binary) (the [`SetElement`](crate::expr::SetElement) types) is a
/// native DynamoDB set, `SS`, `NS` or `BS`, where serde would write a list; an empty one is
/// left out of the item (or of its map; inside a list it is an empty `L`), as DynamoDB has no
/// empty set, and a missing one reads as empty. Sets of other types are lists. Sets are read
/// from `L` as well, as earlier versions stored them. A type that is stored through serde
/// (no `Attribute`) stores the sets inside it as lists.
///
/// Implement it for nested structs and fieldless enums with `#[derive(dynamap::Attribute)]`,
/// next to serde's derives: a struct is stored as the same map serde writes, an enum as the
/// same string. The derive follows `#[serde(rename = "..")]`, `#[serde(rename_all = "..")]`
/// (on enums), `#[serde(default)]` and `#[serde(skip)]`, and refuses any other serde
/// attribute, generics and enums with data at compile time: leave `Attribute` off such a
/// type and it is stored through serde. A missing `Option` field reads as `None`, as with
/// serde.
///
/// # Examples
///
/// ```
/// use dynamap::Attribute;
/// use dynamap::codec::AttributeValue;
///
/// let stored = vec![3_u32, 4].to_attribute()?;
/// assert_eq!(
///     stored,
///     AttributeValue::L(vec![AttributeValue::N("3".into()), AttributeValue::N("4".into())])
/// );
/// assert_eq!(Vec::<u32>::from_attribute(stored)?, [3, 4]);
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
///
/// A nested struct, stored as serde stores it:
///
/// ```
/// use dynamap::Attribute;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Attribute, Serialize, Deserialize, Debug, PartialEq)]
/// struct Dimensions {
///     #[serde(rename = "w")]
///     width_mm: u32,
///     #[serde(rename = "h")]
///     height_mm: u32,
///     label: Option<String>,
/// }
///
/// let value = Dimensions { width_mm: 210, height_mm: 297, label: None };
/// let stored = value.to_attribute()?;
/// let through_serde: dynamap::codec::AttributeValue =
///     serde_dynamo::to_attribute_value(&value).expect("serde stores it");
/// assert_eq!(stored, through_serde);
/// assert_eq!(Dimensions::from_attribute(stored)?, value);
/// # Ok::<(), dynamap::codec::AttributeError>(())
/// ```
pub trait Attribute: Sized {
    /// The attribute value that stores `self`.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when the value cannot be stored, such as a float that is
    /// not finite, or a serde implementation that reports an error.
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError>;

    /// Reads a value back from its attribute value.
    ///
    /// # Errors
    ///
    /// Fails with an [`AttributeError`] when `value` is of the wrong type or shape, or out of
    /// range, for `Self`.
    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError>;

    /// Inserts `self` into `item` as attribute `name`, as generated `to_item` does. Types
    /// that cannot fail override it to build the value in place, without a `Result` around
    /// it to move through.
    #[doc(hidden)]
    #[inline]
    fn insert_into(&self, item: &mut Item, name: String) -> Result<(), AttributeError> {
        item.insert(name, self.to_attribute()?);
        Ok(())
    }

    /// Pushes `self` onto a list attribute's elements; see [`Attribute::insert_into`].
    #[doc(hidden)]
    #[inline]
    fn push_into(&self, list: &mut Vec<AttributeValue>) -> Result<(), AttributeError> {
        list.push(self.to_attribute()?);
        Ok(())
    }

    /// The kind of DynamoDB set a `HashSet`/`BTreeSet` of this type is stored as (`SS`,
    /// `NS`, `BS`); `None` for types whose sets are stored as lists.
    #[doc(hidden)]
    const SET_KIND: Option<SetKind> = None;

    /// The value a field of this type reads as when its attribute is missing: an empty set
    /// for sets, which are left out of the item when empty; `None` for every other type.
    #[doc(hidden)]
    #[inline]
    fn when_missing() -> Option<Self> {
        None
    }
}

/// The conversions to an attribute value of a type converted by one expression, after an
/// optional check (`check` returns a `Result<(), AttributeError>`): the in-place ones build
/// the value where it is stored, with no `Result` around it to move through.
macro_rules! in_place {
    ($self:ident => $value:expr $(, check $check:expr)?) => {
        #[inline]
        fn to_attribute(&$self) -> Result<AttributeValue, AttributeError> {
            $($check?;)?
            Ok($value)
        }

        #[inline]
        fn insert_into(&$self, item: &mut Item, name: String) -> Result<(), AttributeError> {
            $($check?;)?
            item.insert(name, $value);
            Ok(())
        }

        #[inline]
        fn push_into(&$self, list: &mut Vec<AttributeValue>) -> Result<(), AttributeError> {
            $($check?;)?
            list.push($value);
            Ok(())
        }
    };
}

type Item = HashMap<String, AttributeValue>;

/// The entries of a map attribute, for a derived nested struct.
#[doc(hidden)]
pub fn attribute_map(
    value: AttributeValue,
) -> Result<HashMap<String, AttributeValue>, AttributeError> {
    match value {
        AttributeValue::M(map) => Ok(map),
        other => Err(mismatch("a map (M)", &other)),
    }
}

/// The text of a string attribute, for a derived fieldless enum.
#[doc(hidden)]
pub fn attribute_string(value: AttributeValue) -> Result<String, AttributeError> {
    String::from_attribute(value)
}

/// A derived nested struct's missing field, as serde reports it.
#[doc(hidden)]
pub fn missing_field(message: &'static str) -> AttributeError {
    AttributeError::custom(message)
}

/// A derived fieldless enum's unknown variant name.
#[doc(hidden)]
pub fn unknown_variant(name: &str, expected: &str) -> AttributeError {
    AttributeError::custom(format!("unknown variant {name:?}, expected {expected}"))
}

impl Attribute for String {
    in_place!(self => AttributeValue::S(self.clone()));
    const SET_KIND: Option<SetKind> = Some(SetKind::String);

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::S(text) => Ok(text),
            other => Err(mismatch("a string (S)", &other)),
        }
    }
}

impl Attribute for bool {
    in_place!(self => AttributeValue::Bool(*self));

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::Bool(flag) => Ok(flag),
            other => Err(mismatch("a boolean (BOOL)", &other)),
        }
    }
}

/// The error for a number that `type_name` cannot hold.
#[cold]
fn out_of_range(text: &str, type_name: &str) -> AttributeError {
    AttributeError::custom(format!("number {text:?} is not a {type_name}"))
}

/// The text of a number attribute.
fn stored_number(value: &AttributeValue) -> Result<&str, AttributeError> {
    match value {
        AttributeValue::N(text) => Ok(text),
        other => Err(mismatch("a number (N)", other)),
    }
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl Attribute for $ty {
            in_place!(self => AttributeValue::N(number_text::integer(*self)));
            const SET_KIND: Option<SetKind> = Some(SetKind::Number);

            #[inline]
            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                let text = stored_number(&value)?;
                text.parse().map_err(|_| out_of_range(text, stringify!($ty)))
            }
        }
    )*};
}

// Not `i128`/`u128`: their extremes have more digits than a DynamoDB number holds (38).
integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Refuses NaN and the infinities, which DynamoDB cannot store.
#[inline]
pub(super) fn finite<F: Into<f64>>(value: F) -> Result<(), AttributeError> {
    let value = value.into();
    if value.is_finite() {
        Ok(())
    } else {
        Err(not_finite(value))
    }
}

#[cold]
fn not_finite(value: f64) -> AttributeError {
    AttributeError::custom(format!(
        "{value} cannot be stored: DynamoDB numbers are finite"
    ))
}

macro_rules! floats {
    ($($ty:ty),*) => {$(
        impl Attribute for $ty {
            in_place!(self => AttributeValue::N(number_text::float(*self)), check finite(*self));
            const SET_KIND: Option<SetKind> = Some(SetKind::Number);

            #[inline]
            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                let text = stored_number(&value)?;
                text.parse().map_err(|_| out_of_range(text, stringify!($ty)))
            }
        }
    )*};
}

floats!(f32, f64);

impl<T: Attribute> Attribute for Option<T> {
    #[inline]
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        match self {
            Some(value) => value.to_attribute(),
            None => Ok(AttributeValue::Null(true)),
        }
    }

    #[inline]
    fn insert_into(&self, item: &mut Item, name: String) -> Result<(), AttributeError> {
        match self {
            Some(value) => value.insert_into(item, name),
            None => {
                item.insert(name, AttributeValue::Null(true));
                Ok(())
            }
        }
    }

    #[inline]
    fn push_into(&self, list: &mut Vec<AttributeValue>) -> Result<(), AttributeError> {
        match self {
            Some(value) => value.push_into(list),
            None => {
                list.push(AttributeValue::Null(true));
                Ok(())
            }
        }
    }

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::Null(_) => Ok(None),
            other => T::from_attribute(other).map(Some),
        }
    }
}

/// The elements of a list, or of a set (each as the scalar attribute it holds).
fn elements(value: AttributeValue) -> Result<Vec<AttributeValue>, AttributeError> {
    Ok(match value {
        AttributeValue::L(list) => list,
        AttributeValue::Ss(set) => set.into_iter().map(AttributeValue::S).collect(),
        AttributeValue::Ns(set) => set.into_iter().map(AttributeValue::N).collect(),
        AttributeValue::Bs(set) => set.into_iter().map(AttributeValue::B).collect(),
        other => return Err(mismatch("a list (L) or a set", &other)),
    })
}

fn to_list<'a, T: Attribute + 'a>(
    values: impl ExactSizeIterator<Item = &'a T>,
) -> Result<AttributeValue, AttributeError> {
    let mut list = Vec::with_capacity(values.len());
    for value in values {
        value.push_into(&mut list)?;
    }
    Ok(AttributeValue::L(list))
}

fn from_list<T: Attribute, C: FromIterator<T>>(value: AttributeValue) -> Result<C, AttributeError> {
    elements(value)?
        .into_iter()
        .map(T::from_attribute)
        .collect()
}

impl<T: Attribute> Attribute for Vec<T> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        to_list(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        from_list(value)
    }
}

/// A set of strings, numbers or binaries is stored as `SS`, `NS` or `BS` and left out of
/// the item (or map) when empty, since DynamoDB has no empty set; any other set as a list.
macro_rules! sets {
    ($($set:ty where [$($bound:tt)*]),*) => {$(
        impl<$($bound)*> Attribute for $set {
            fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
                match T::SET_KIND {
                    Some(kind) => set_value(kind, self.iter().map(Attribute::to_attribute)),
                    None => to_list(self.iter()),
                }
            }

            fn insert_into(&self, item: &mut Item, name: String) -> Result<(), AttributeError> {
                if T::SET_KIND.is_some() && self.is_empty() {
                    return Ok(());
                }
                item.insert(name, self.to_attribute()?);
                Ok(())
            }

            fn push_into(&self, list: &mut Vec<AttributeValue>) -> Result<(), AttributeError> {
                // An element of a list cannot be left out: an empty set is an empty list.
                if self.is_empty() {
                    list.push(AttributeValue::L(Vec::new()));
                    return Ok(());
                }
                list.push(self.to_attribute()?);
                Ok(())
            }

            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                from_list(value)
            }

            fn when_missing() -> Option<Self> {
                T::SET_KIND.map(|_| Self::default())
            }
        }
    )*};
}

sets!(
    HashSet<T, S> where [T: Attribute + Eq + Hash, S: BuildHasher + Default],
    BTreeSet<T> where [T: Attribute + Ord]
);

fn to_map<'a, T: Attribute + 'a>(
    entries: impl ExactSizeIterator<Item = (&'a String, &'a T)>,
) -> Result<AttributeValue, AttributeError> {
    let mut map = HashMap::with_capacity(entries.len());
    for (key, value) in entries {
        value.insert_into(&mut map, key.clone())?;
    }
    Ok(AttributeValue::M(map))
}

fn from_map<T: Attribute, C: FromIterator<(String, T)>>(
    value: AttributeValue,
) -> Result<C, AttributeError> {
    match value {
        AttributeValue::M(map) => map
            .into_iter()
            .map(|(key, value)| Ok((key, T::from_attribute(value)?)))
            .collect(),
        other => Err(mismatch("a map (M)", &other)),
    }
}

impl<T: Attribute, S: BuildHasher + Default> Attribute for HashMap<String, T, S> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        to_map(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        from_map(value)
    }
}

impl<T: Attribute> Attribute for BTreeMap<String, T> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        to_map(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        from_map(value)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
    use std::fmt::Debug;

    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use super::*;

    /// The direct form is serde_dynamo's, both ways.
    fn same_as_serde<T>(value: T)
    where
        T: Attribute + Serialize + DeserializeOwned + PartialEq + Debug,
    {
        let direct = value.to_attribute().expect("encodes");
        let serde: AttributeValue =
            serde_dynamo::to_attribute_value(&value).expect("serde encodes");
        assert_eq!(direct, serde, "{value:?}");
        assert_eq!(T::from_attribute(serde.clone()).expect("decodes"), value);
        assert_eq!(
            serde_dynamo::from_attribute_value::<_, T>(direct).expect("decodes"),
            value
        );
    }

    /// The in-place conversions store what `to_attribute` returns, and refuse what it refuses.
    fn in_place_as_returned<T: Attribute + Debug>(value: T) {
        let returned = value.to_attribute();
        let mut item = Item::new();
        let inserted = value.insert_into(&mut item, "a".to_owned());
        let mut list = Vec::new();
        let pushed = value.push_into(&mut list);
        match returned {
            Ok(returned) => {
                assert!(inserted.is_ok() && pushed.is_ok(), "{value:?}");
                assert_eq!(item.get("a"), Some(&returned), "{value:?}");
                assert_eq!(list, [returned], "{value:?}");
            }
            Err(_) => {
                assert!(inserted.is_err() && pushed.is_err(), "{value:?}");
                assert!(item.is_empty() && list.is_empty(), "{value:?}");
            }
        }
    }

    #[test]
    fn in_place_conversions_store_what_to_attribute_returns() {
        in_place_as_returned(String::from("x"));
        in_place_as_returned(false);
        in_place_as_returned(-12_i32);
        in_place_as_returned(u64::MAX);
        in_place_as_returned(0.25_f64);
        in_place_as_returned(f64::NAN);
        in_place_as_returned(f32::NEG_INFINITY);
        in_place_as_returned(Some(1.5_f32));
        in_place_as_returned(Some(f64::INFINITY));
        in_place_as_returned(None::<String>);
        in_place_as_returned(vec![Some(1_u8), None]);
        in_place_as_returned(BTreeMap::from([(String::from("k"), vec![f64::NAN])]));
    }

    #[test]
    fn every_type_stores_what_serde_stores() {
        same_as_serde(String::from("héllo"));
        same_as_serde(true);
        same_as_serde(-7_i8);
        same_as_serde(i64::MIN);
        same_as_serde(u64::MAX);
        same_as_serde(-2.5_f64);
        same_as_serde(0.1_f32);
        same_as_serde(1e300_f64);
        same_as_serde(5e-324_f64);
        same_as_serde(Some(3_u16));
        same_as_serde(None::<u16>);
        same_as_serde(vec![String::from("a"), String::from("b")]);
        same_as_serde(Vec::<u8>::new());
        same_as_serde(vec![vec![1_i32], vec![]]);
        // Sets of strings, numbers and binaries are native sets (see `set.rs`); others lists.
        same_as_serde(HashSet::from([vec![1_u8]]));
        same_as_serde(BTreeSet::from([true, false]));
        same_as_serde(HashMap::from([(String::from("k"), 1.5_f64)]));
        same_as_serde(BTreeMap::from([(String::from("k"), vec![true])]));
    }

    #[test]
    fn sets_read_as_lists() {
        let stored = AttributeValue::Ss(vec!["x".into(), "y".into()]);
        assert_eq!(
            BTreeSet::<String>::from_attribute(stored).expect("decodes"),
            BTreeSet::from(["x".to_owned(), "y".to_owned()])
        );
        let stored = AttributeValue::Ns(vec!["1".into(), "2".into()]);
        assert_eq!(Vec::<u8>::from_attribute(stored).expect("decodes"), [1, 2]);
    }

    #[test]
    fn wrong_values_are_errors_that_say_what_was_found() {
        let error = u8::from_attribute(AttributeValue::N("300".into())).expect_err("refused");
        assert!(error.to_string().contains("\"300\" is not a u8"), "{error}");
        let error = String::from_attribute(AttributeValue::Bool(true)).expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("expected a string (S), found a boolean (BOOL)"),
            "{error}"
        );
        let error = Vec::<u8>::from_attribute(AttributeValue::S("x".into())).expect_err("refused");
        assert!(error.to_string().contains("found a string (S)"), "{error}");
        let error = f64::NAN.to_attribute().expect_err("refused");
        assert!(error.to_string().contains("finite"), "{error}");
        assert!(f32::INFINITY.to_attribute().is_err());
    }
}
