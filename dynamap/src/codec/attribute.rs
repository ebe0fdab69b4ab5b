//! [`Attribute`]: field types dynamap converts to and from attribute values directly, with
//! no serde walk and no intermediate tree.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use serde::de::Error as _;

use super::AttributeValue;

/// The error of a direct conversion; the same type serde's path reports, so
/// [`Error::Encode`](crate::Error::Encode) and
/// [`Error::InvalidAttribute`](crate::Error::InvalidAttribute) carry either.
pub type AttributeError = serde_dynamo::Error;

/// A type dynamap stores as one attribute value by direct code.
///
/// Generated `to_item`/`from_item` use it for every field whose type implements it, and
/// fall back to the type's serde implementation (through `serde_dynamo`) for every other.
/// Both paths store the same form, so items written by either read by either: strings as
/// `S`; integers and floats as `N`; `bool` as `BOOL`; `Vec`, `HashSet` and `BTreeSet` as
/// `L`; `HashMap` and `BTreeMap` with `String` keys as `M`; `uuid::Uuid` (feature `uuid`)
/// as its hyphenated `S`; `None` as `NULL` (an `Option` field that is `None` is left out of
/// the item). Sets are read from `L`, and from `SS`, `NS` and `BS` too.
///
/// Implement it for nested structs with `#[derive(dynamap::Attribute)]`, next to serde's
/// derives: the struct is stored as the same map serde writes.
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
pub trait Attribute: Sized {
    /// The attribute value that stores `self`.
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError>;

    /// Reads a value back from its attribute value.
    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError>;
}

/// The error for a value of the wrong DynamoDB type.
pub(crate) fn mismatch(expected: &str, found: &AttributeValue) -> AttributeError {
    AttributeError::custom(format!("expected {expected}, found {}", type_name(found)))
}

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

fn type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a string (S)",
        AttributeValue::N(_) => "a number (N)",
        AttributeValue::B(_) => "binary (B)",
        AttributeValue::Bool(_) => "a boolean (BOOL)",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::L(_) => "a list (L)",
        AttributeValue::M(_) => "a map (M)",
        AttributeValue::Ss(_) => "a string set (SS)",
        AttributeValue::Ns(_) => "a number set (NS)",
        AttributeValue::Bs(_) => "a binary set (BS)",
        _ => "an attribute type this SDK does not know",
    }
}

impl Attribute for String {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(self.clone()))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::S(text) => Ok(text),
            other => Err(mismatch("a string (S)", &other)),
        }
    }
}

impl Attribute for bool {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::Bool(*self))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::Bool(flag) => Ok(flag),
            other => Err(mismatch("a boolean (BOOL)", &other)),
        }
    }
}

/// The text of a number attribute.
fn number_text(value: &AttributeValue) -> Result<&str, AttributeError> {
    match value {
        AttributeValue::N(text) => Ok(text),
        other => Err(mismatch("a number (N)", other)),
    }
}

macro_rules! integers {
    ($($ty:ty),*) => {$(
        impl Attribute for $ty {
            fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
                Ok(AttributeValue::N(self.to_string()))
            }

            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                let text = number_text(&value)?;
                text.parse().map_err(|_| {
                    AttributeError::custom(format!(
                        "number {text:?} is not a {}",
                        stringify!($ty)
                    ))
                })
            }
        }
    )*};
}

// Not `i128`/`u128`: their extremes have more digits than a DynamoDB number holds (38).
integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! floats {
    ($($ty:ty),*) => {$(
        impl Attribute for $ty {
            fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
                if !self.is_finite() {
                    return Err(AttributeError::custom(format!(
                        "{self} cannot be stored: DynamoDB numbers are finite"
                    )));
                }
                Ok(AttributeValue::N(self.to_string()))
            }

            fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
                let text = number_text(&value)?;
                text.parse().map_err(|_| {
                    AttributeError::custom(format!(
                        "number {text:?} is not a {}",
                        stringify!($ty)
                    ))
                })
            }
        }
    )*};
}

floats!(f32, f64);

impl<T: Attribute> Attribute for Option<T> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        match self {
            Some(value) => value.to_attribute(),
            None => Ok(AttributeValue::Null(true)),
        }
    }

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
        list.push(value.to_attribute()?);
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

impl<T: Attribute + Eq + Hash, S: BuildHasher + Default> Attribute for HashSet<T, S> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        to_list(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        from_list(value)
    }
}

impl<T: Attribute + Ord> Attribute for BTreeSet<T> {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        to_list(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        from_list(value)
    }
}

fn to_map<'a, T: Attribute + 'a>(
    entries: impl ExactSizeIterator<Item = (&'a String, &'a T)>,
) -> Result<AttributeValue, AttributeError> {
    let mut map = HashMap::with_capacity(entries.len());
    for (key, value) in entries {
        map.insert(key.clone(), value.to_attribute()?);
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

#[cfg(feature = "uuid")]
impl Attribute for uuid::Uuid {
    fn to_attribute(&self) -> Result<AttributeValue, AttributeError> {
        Ok(AttributeValue::S(self.hyphenated().to_string()))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, AttributeError> {
        match value {
            AttributeValue::S(text) => uuid::Uuid::parse_str(&text)
                .map_err(|error| AttributeError::custom(format!("{text:?}: {error}"))),
            other => Err(mismatch("a string (S)", &other)),
        }
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
        let serde: AttributeValue = serde_dynamo::to_attribute_value(&value).expect("serde encodes");
        assert_eq!(direct, serde, "{value:?}");
        assert_eq!(T::from_attribute(serde.clone()).expect("decodes"), value);
        assert_eq!(
            serde_dynamo::from_attribute_value::<_, T>(direct).expect("decodes"),
            value
        );
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
        same_as_serde(HashSet::from([1_u8]));
        same_as_serde(BTreeSet::from([1_u8, 2]));
        same_as_serde(HashMap::from([(String::from("k"), 1.5_f64)]));
        same_as_serde(BTreeMap::from([(String::from("k"), vec![true])]));
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn uuids_are_hyphenated_strings() {
        same_as_serde(uuid::Uuid::from_u128(
            0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8,
        ));
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
