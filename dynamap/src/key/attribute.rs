//! Index keys that are a field's own attribute (`sk = field(score)`), not a rendered
//! template: a number, a string or a binary value stored as it is, so that an atomic `ADD`
//! or `SET` of the field moves the item in the index.

use crate::sealed::{KeyAttributeArgSeal, Sealed};
use std::marker::PhantomData;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::KeyPartError;
use crate::codec::AttributeValue;
use crate::table::ScalarType;

/// A field type that can be an index key attribute of its own, and the DynamoDB type it is
/// stored as. Implemented for `String` (`S`), every integer type and `f32`/`f64` (`N`),
/// [`Binary`] (`B`), and fieldless enums deriving [`KeyPart`](crate::KeyPart) (`S`, the
/// name serde stores the variant under).
///
/// # Examples
///
/// ```
/// use dynamap::ScalarType;
/// use dynamap::key::{Binary, KeyAttribute};
///
/// assert!(<u32 as KeyAttribute>::TYPE.is(ScalarType::Number));
/// assert!(<Binary as KeyAttribute>::TYPE.is(ScalarType::Binary));
/// assert_eq!(42u32.to_key_value().unwrap().as_n().unwrap(), "42");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an index key attribute",
    label = "this field is mapped to an index key with `field(...)` or `fields(...)`",
    note = "attribute keys are `String` (S), integers and floats (N), `dynamap::key::Binary` (B), and fieldless enums with `#[derive(KeyPart)]` (S)"
)]
pub trait KeyAttribute {
    /// The DynamoDB type of the attribute.
    const TYPE: ScalarType;

    /// The value as the item stores it, before the key checks of [`check_key_value`].
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyPartError`] when the value has no form as a key attribute.
    fn to_key_value(&self) -> Result<AttributeValue, KeyPartError>;
}

macro_rules! key_attribute {
    ($kind:ident: $($ty:ty),*) => {$(
        impl KeyAttribute for $ty {
            const TYPE: ScalarType = ScalarType::$kind;

            fn to_key_value(&self) -> Result<AttributeValue, KeyPartError> {
                serde_value(self)
            }
        }
    )*};
}

key_attribute!(String: String);
key_attribute!(Number: u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);
key_attribute!(Binary: Binary);

/// The sort-key shape of an index whose sort key is a field's own attribute of type `T`:
/// queries on it take values of `T` (`sk_ge(1_000u64)`) instead of template parts.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)]
/// # #[dynamap(pk = "PK", sk = "SK", index(name = "Leaderboard", pk = "LB_PK", sk = "score", sk_type = "N"))]
/// # struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Score", pk = "USER#{user}", sk = "GAME#{game}",
///           index(name = "Leaderboard", pk = "GAME#{game}", sk = field(score)))]
/// struct Score { user: String, game: String, score: u64 }
///
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// // `Score::leaderboard` is a `PartitionKey<Score, AttributeKey<u64>>`: conditions take u64s.
/// let top = db.query(Score::leaderboard("tetris")).sk_ge(1_000u64).last(3).all().await?;
/// # Ok(()) }
/// ```
pub struct AttributeKey<T>(PhantomData<fn() -> T>);

/// A value a generated builder or a sort condition accepts for an attribute key of type
/// `T`: the value itself, a reference to it, and `&str` for `String`.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)]
/// # #[dynamap(pk = "PK", sk = "SK", index(name = "ByOwner", pk = "owner", sk = "GSI1SK"))]
/// # struct App;
/// # #[derive(Entity)]
/// # #[dynamap(table = App, entity = "Repo", pk = "REPO#{name}", sk = "REPO",
/// #           index(name = "ByOwner", pk = field(owner), sk = "REPO#{name}"))]
/// # struct Repo { name: String, owner: String }
/// // `&str` is accepted for a `String` attribute, as are `String` and `&String`.
/// let by_owner = Repo::by_owner("alice");
/// let by_owner = Repo::by_owner(String::from("alice"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value of the key attribute type `{T}`",
    label = "expected a `{T}` here",
    note = "an attribute key takes a value of its field's type, a reference to one, `&str` for a `String` or `&[u8]` for a `Binary`"
)]
pub trait KeyAttributeArg<T: KeyAttribute>: Sealed<(KeyAttributeArgSeal, T)> {
    /// The attribute value, checked as a key value (see [`check_key_value`]).
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyPartError`] of a value that is empty, longer than `limit` bytes,
    /// or not a valid number.
    fn key_value(&self, limit: usize) -> Result<AttributeValue, KeyPartError>;
}

impl<T: KeyAttribute> Sealed<(KeyAttributeArgSeal, T)> for T {}
impl<T: KeyAttribute> Sealed<(KeyAttributeArgSeal, T)> for &T {}
impl Sealed<(KeyAttributeArgSeal, String)> for &str {}
impl Sealed<(KeyAttributeArgSeal, Binary)> for &[u8] {}

impl<T: KeyAttribute> KeyAttributeArg<T> for T {
    fn key_value(&self, limit: usize) -> Result<AttributeValue, KeyPartError> {
        check_key_value(self.to_key_value()?, limit)
    }
}

impl<T: KeyAttribute> KeyAttributeArg<T> for &T {
    fn key_value(&self, limit: usize) -> Result<AttributeValue, KeyPartError> {
        check_key_value((*self).to_key_value()?, limit)
    }
}

impl KeyAttributeArg<String> for &str {
    fn key_value(&self, limit: usize) -> Result<AttributeValue, KeyPartError> {
        check_key_value(AttributeValue::S((*self).to_owned()), limit)
    }
}

fn serde_value<T: Serialize + ?Sized>(value: &T) -> Result<AttributeValue, KeyPartError> {
    crate::codec::serialized(value).map_err(|err| KeyPartError::OutOfRange {
        value: err.to_string(),
        supported: "a string, number or binary value",
    })
}

/// Checks a value DynamoDB will store as a key attribute: strings and binaries are not empty
/// and at most `limit` bytes (2,048 for a partition key, 1,024 for a sort key); numbers are
/// finite numbers with at most 38 significant digits.
///
/// # Errors
///
/// Fails with [`KeyPartError::Empty`] for an empty string or binary, and with
/// [`KeyPartError::OutOfRange`] for one over `limit` bytes, a number DynamoDB cannot store,
/// or a value of another type.
///
/// # Examples
///
/// ```
/// use dynamap::codec::AttributeValue;
/// use dynamap::key::check_key_value;
///
/// assert!(check_key_value(AttributeValue::S("ok".into()), 1024).is_ok());
/// assert!(check_key_value(AttributeValue::S(String::new()), 1024).is_err()); // empty
/// assert!(check_key_value(AttributeValue::S("x".repeat(1025)), 1024).is_err()); // too long
/// ```
pub fn check_key_value(
    value: AttributeValue,
    limit: usize,
) -> Result<AttributeValue, KeyPartError> {
    let len = match &value {
        AttributeValue::S(text) => text.len(),
        AttributeValue::B(bytes) => bytes.as_ref().len(),
        AttributeValue::N(number) => {
            check_number(number)?;
            return Ok(value);
        }
        other => {
            return Err(KeyPartError::OutOfRange {
                value: format!("{other:?}"),
                supported: "a string, number or binary value",
            });
        }
    };
    if len == 0 {
        return Err(KeyPartError::Empty);
    }
    if len > limit {
        return Err(KeyPartError::OutOfRange {
            value: format!("{len} bytes"),
            supported: "at most the key size limit",
        });
    }
    Ok(value)
}

/// DynamoDB numbers: finite, at most 38 significant digits.
fn check_number(number: &str) -> Result<(), KeyPartError> {
    let mantissa = number.split(['e', 'E']).next().unwrap_or_default();
    let digits = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .skip_while(|d| *d == b'0')
        .collect::<Vec<_>>();
    let significant = digits.len() - digits.iter().rev().take_while(|d| **d == b'0').count();
    let finite = !number.is_empty()
        && number
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if !finite {
        return Err(KeyPartError::OutOfRange {
            value: number.to_owned(),
            supported: "finite numbers",
        });
    }
    if significant > 38 {
        return Err(KeyPartError::OutOfRange {
            value: number.to_owned(),
            supported: "numbers of at most 38 significant digits",
        });
    }
    Ok(())
}

/// Bytes stored as a DynamoDB binary (`B`) attribute. A `Vec<u8>` field is stored as a list
/// of numbers by serde; wrap it in `Binary` to store, compare and index it as binary.
///
/// ```
/// use dynamap::key::Binary;
/// let b = Binary::from(vec![1u8, 2, 3]);
/// assert_eq!(b.as_ref(), &[1, 2, 3]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Binary(pub Vec<u8>);

impl From<Vec<u8>> for Binary {
    fn from(bytes: Vec<u8>) -> Self {
        Binary(bytes)
    }
}

impl From<&[u8]> for Binary {
    fn from(bytes: &[u8]) -> Self {
        Binary(bytes.to_vec())
    }
}

/// Stored as `B` (what its serde implementation writes too), and a set of them as `BS`.
impl crate::codec::Attribute for Binary {
    const SET_KIND: Option<crate::codec::SetKind> = Some(crate::codec::SetKind::Binary);

    fn to_attribute(&self) -> Result<AttributeValue, crate::codec::AttributeError> {
        Ok(AttributeValue::B(self.0.clone().into()))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, crate::codec::AttributeError> {
        match value {
            AttributeValue::B(blob) => Ok(Binary(blob.into_inner())),
            // serde reads a list of bytes too
            other => crate::codec::deserialized(other),
        }
    }
}

impl AsRef<[u8]> for Binary {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Serialize for Binary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Binary {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Binary;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("binary data")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Binary, E> {
                Ok(Binary(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Binary, E> {
                Ok(Binary(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Binary, A::Error> {
                let mut out = Vec::new();
                while let Some(byte) = seq.next_element()? {
                    out.push(byte);
                }
                Ok(Binary(out))
            }
        }
        deserializer.deserialize_byte_buf(Visitor)
    }
}

impl KeyAttributeArg<Binary> for &[u8] {
    fn key_value(&self, limit: usize) -> Result<AttributeValue, KeyPartError> {
        check_key_value(AttributeValue::B(self.to_vec().into()), limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_strings_and_binaries_become_key_values() {
        assert_eq!(
            KeyAttributeArg::<u64>::key_value(&1_000u64, 1024),
            Ok(AttributeValue::N("1000".into()))
        );
        assert_eq!(
            KeyAttributeArg::<String>::key_value(&"g1", 1024),
            Ok(AttributeValue::S("g1".into()))
        );
        assert_eq!(
            KeyAttributeArg::<Binary>::key_value(&Binary(vec![7]), 1024),
            Ok(AttributeValue::B(vec![7].into()))
        );
    }

    #[test]
    fn bad_key_values_are_refused() {
        assert_eq!(
            KeyAttributeArg::<String>::key_value(&"", 1024),
            Err(KeyPartError::Empty)
        );
        assert!(KeyAttributeArg::<String>::key_value(&"x".repeat(1025).as_str(), 1024).is_err());
        assert!(KeyAttributeArg::<f64>::key_value(&f64::NAN, 1024).is_err());
        assert!(KeyAttributeArg::<f64>::key_value(&f64::INFINITY, 1024).is_err());
        assert!(KeyAttributeArg::<u64>::key_value(&u64::MAX, 1024).is_ok());
        assert!(KeyAttributeArg::<i64>::key_value(&i64::MIN, 1024).is_ok());
        assert!(check_key_value(AttributeValue::N("1".repeat(39)), 1024).is_err());
        assert!(check_key_value(AttributeValue::N(format!("{}e5", "1".repeat(38))), 1024).is_ok());
    }

    #[test]
    fn binary_round_trips_as_a_binary_attribute() {
        let value: AttributeValue =
            serde_dynamo::to_attribute_value(Binary(vec![1, 2])).expect("encodes");
        assert_eq!(value, AttributeValue::B(vec![1, 2].into()));
        let back: Binary = serde_dynamo::from_attribute_value(value).expect("decodes");
        assert_eq!(back, Binary(vec![1, 2]));
    }
}
