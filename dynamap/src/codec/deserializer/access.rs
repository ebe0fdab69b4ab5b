//! The parts of a list, a map and a tagged enum, handed to serde one by one.

use std::collections::HashMap;
use std::collections::hash_map;

use serde::de::{self, DeserializeSeed, Deserializer as _, Visitor};

use super::scalar::{Key, expected};
use super::{AttributeError, AttributeValue, Deserializer, Result};

/// The members of an `L`, `SS`, `NS` or `BS`, each deserialized by the deserializer
/// `member` makes of it.
pub(super) struct Values<T, F> {
    members: std::vec::IntoIter<T>,
    member: F,
}

impl<T, F> Values<T, F> {
    pub(super) fn new(members: Vec<T>, member: F) -> Self {
        Values {
            members: members.into_iter(),
            member,
        }
    }
}

impl<'de, T, F, D> de::SeqAccess<'de> for Values<T, F>
where
    F: FnMut(T) -> D,
    D: de::Deserializer<'de, Error = AttributeError>,
{
    type Error = AttributeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        match self.members.next() {
            Some(value) => seed.deserialize((self.member)(value)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.members.len())
    }
}

/// The entries of an `M`.
pub(super) struct Entries {
    entries: hash_map::IntoIter<String, AttributeValue>,
    value: Option<AttributeValue>,
}

impl Entries {
    pub(super) fn new(entries: HashMap<String, AttributeValue>) -> Self {
        Entries {
            entries: entries.into_iter(),
            value: None,
        }
    }
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = AttributeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(Key(key)).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        // Serde asks for a value only after its key; a value asked for twice is an error
        // rather than a panic.
        match self.value.take() {
            Some(value) => seed.deserialize(Deserializer(value)),
            None => Err(de::Error::custom("map value asked for before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An enum stored as `{variant: value}`.
pub(super) struct Tagged {
    variant: String,
    value: AttributeValue,
}

impl Tagged {
    /// The one entry of `entries`; any other number of entries is an error.
    pub(super) fn new(entries: HashMap<String, AttributeValue>) -> Result<Self> {
        let mut entries = entries.into_iter();
        match (entries.next(), entries.next()) {
            (Some((variant, value)), None) => Ok(Tagged { variant, value }),
            _ => Err(expected("an item with a single key")),
        }
    }
}

impl<'de> de::EnumAccess<'de> for Tagged {
    type Error = AttributeError;
    type Variant = Deserializer;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Deserializer)> {
        let variant = seed.deserialize(
            de::IntoDeserializer::<AttributeError>::into_deserializer(self.variant),
        )?;
        Ok((variant, Deserializer(self.value)))
    }
}

impl<'de> de::VariantAccess<'de> for Deserializer {
    type Error = AttributeError;

    /// A unit variant's value is not looked at.
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }
}
