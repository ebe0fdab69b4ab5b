//! [`Key`]: the primary key of one item, rendered from templates or taken from fields.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use base64::Engine as _;

use super::{ItemKey, KeyError};
use crate::codec::AttributeValue;

/// The primary key of one item of entity `E`, built by the generated `E::key(...)`.
///
/// Building a key never fails on the spot: a bad part (an empty string, say) is kept and
/// returned by the operation the key is used in, or by [`Key::values`].
///
/// Key values are strings (every rendered template is one) unless the table declares a key
/// attribute a number or a binary (`pk_type = "N"`, `sk_type = "B"`) and the entity maps it
/// to one of its fields (`sk = field(timestamp)`). [`attribute_values`](Key::attribute_values)
/// gives the values of any type as DynamoDB stores them; [`values`](Key::values) gives the
/// text of a string key, and refuses a key that is not one with
/// [`KeyErrorKind::WrongType`](super::KeyErrorKind::WrongType).
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
/// struct Reading { sensor_id: String, seq: u32 }
///
/// let key = Reading::key("S1", 7u32);
/// let (pk, sk) = key.values()?;
/// assert_eq!(pk, "SENSOR#S1");
/// let (sensor_id, seq) = Reading::parse_key(pk, sk)?;
/// assert_eq!((sensor_id.as_str(), seq), ("S1", 7));
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct Key<E> {
    values: Result<(AttributeValue, Option<AttributeValue>), KeyError>,
    entity: PhantomData<fn() -> E>,
}

impl<E> Key<E> {
    /// Wraps rendered key values. Used by generated code.
    #[doc(hidden)]
    #[inline]
    pub fn from_rendered(
        pk: Result<String, KeyError>,
        sk: Option<Result<String, KeyError>>,
    ) -> Self {
        Self::from_attributes(
            pk.map(AttributeValue::S),
            sk.map(|sk| sk.map(AttributeValue::S)),
        )
    }

    /// Wraps key values of any type (a field's own attribute, `pk = field(id)`). Used by
    /// generated code.
    #[doc(hidden)]
    #[inline]
    pub fn from_attributes(
        pk: Result<AttributeValue, KeyError>,
        sk: Option<Result<AttributeValue, KeyError>>,
    ) -> Self {
        let values = match (pk, sk.transpose()) {
            (Ok(pk), Ok(sk)) => Ok((pk, sk)),
            (Err(err), _) | (_, Err(err)) => Err(err),
        };
        Self {
            values,
            entity: PhantomData,
        }
    }

    /// The partition key value and sort key value (if the table has a sort key) as DynamoDB
    /// stores them: strings, numbers or binaries, as the table declares its key attributes.
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while building the key (a bad part, or a key over
    /// DynamoDB's size limit).
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// #[derive(Table)]
    /// #[dynamap(pk = "userId", sk = "timestamp", sk_type = "N")]
    /// struct Events;
    ///
    /// #[derive(Entity)]
    /// #[dynamap(table = Events, entity = "Event", pk = field(user_id), sk = field(timestamp))]
    /// struct Event {
    ///     #[dynamap(rename = "userId")]
    ///     user_id: String,
    ///     timestamp: i64,
    /// }
    ///
    /// let key = Event::key("u1", 1_700_000_000_000i64);
    /// let (pk, sk) = key.attribute_values()?;
    /// assert_eq!(pk.as_s().unwrap(), "u1");
    /// assert_eq!(sk.unwrap().as_n().unwrap(), "1700000000000");
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn attribute_values(&self) -> Result<(&AttributeValue, Option<&AttributeValue>), KeyError> {
        match &self.values {
            Ok((pk, sk)) => Ok((pk, sk.as_ref())),
            Err(err) => Err(err.clone()),
        }
    }

    /// The key values as DynamoDB stores them, taken out of the key.
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while building the key.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// let (pk, _) = Reading::key("S1", 7u32).into_attribute_values()?;
    /// assert_eq!(pk.as_s().unwrap(), "SENSOR#S1");
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    #[inline]
    pub fn into_attribute_values(
        self,
    ) -> Result<(AttributeValue, Option<AttributeValue>), KeyError> {
        self.values
    }

    /// The key values as text, as `parse_key` and the other generated readers of keys take
    /// them: a string's text, a number's decimal text, a binary's base64.
    pub(crate) fn texts(&self) -> Result<(Cow<'_, str>, Option<Cow<'_, str>>), KeyError> {
        let (pk, sk) = self.attribute_values()?;
        Ok((key_text(pk), sk.map(key_text)))
    }

    /// The key as reports name it.
    pub(crate) fn item_key(&self) -> Result<ItemKey, KeyError> {
        let (pk, sk) = self.attribute_values()?;
        Ok(ItemKey::from_values(Some(pk), sk))
    }
}

/// A key value as text: a string's text, a number's decimal text, a binary's base64 (the
/// text form of [`ItemKey`] and of `parse_key`'s arguments).
pub(crate) fn key_text(value: &AttributeValue) -> Cow<'_, str> {
    match value {
        AttributeValue::S(text) | AttributeValue::N(text) => Cow::Borrowed(text),
        AttributeValue::B(bytes) => {
            Cow::Owned(base64::engine::general_purpose::STANDARD.encode(bytes.as_ref()))
        }
        other => Cow::Owned(format!("{other:?}")),
    }
}

/// DynamoDB's code of a value's type: `S`, `N`, `B`, `BOOL`, ...
pub(crate) fn type_code(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
        _ => "unknown",
    }
}

impl<E> Clone for Key<E> {
    fn clone(&self) -> Self {
        Self {
            values: self.values.clone(),
            entity: PhantomData,
        }
    }
}

impl<E> fmt::Debug for Key<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key")
            .field("entity", &std::any::type_name::<E>())
            .field("values", &self.values)
            .finish()
    }
}

impl<E> PartialEq for Key<E> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

// Key values are strings, numbers (as their text) and binaries: equality is an equivalence.
impl<E> Eq for Key<E> {}

impl<E> std::hash::Hash for Key<E> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let hash_value = |value: &AttributeValue, state: &mut H| {
            type_code(value).hash(state);
            match value {
                AttributeValue::S(text) | AttributeValue::N(text) => text.hash(state),
                AttributeValue::B(bytes) => bytes.as_ref().hash(state),
                other => format!("{other:?}").hash(state),
            }
        };
        match &self.values {
            Ok((pk, sk)) => {
                0u8.hash(state);
                hash_value(pk, state);
                if let Some(sk) = sk {
                    hash_value(sk, state);
                }
            }
            Err(err) => {
                1u8.hash(state);
                err.hash(state);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_with_the_same_values_are_equal_and_hash_alike() {
        let key = |pk: &str| Key::<()>::from_rendered(Ok(pk.to_owned()), Some(Ok("SK".to_owned())));
        let keys: std::collections::HashSet<_> =
            [key("A"), key("B"), key("A")].into_iter().collect();
        assert_eq!(keys.len(), 2);
        assert!(keys.contains(&key("B")));
    }

    #[test]
    fn a_number_and_a_string_of_the_same_text_are_different_keys() {
        let n = Key::<()>::from_attributes(Ok(AttributeValue::N("1".into())), None);
        let s = Key::<()>::from_attributes(Ok(AttributeValue::S("1".into())), None);
        assert_ne!(n, s);
        let keys: std::collections::HashSet<_> = [n.clone(), s, n].into_iter().collect();
        assert_eq!(keys.len(), 2);
    }
}
