//! Attributes a write derives from an entity's fields rather than storing them as given:
//! index keys rendered from the fields an update sets, and automatic timestamps. The derive
//! generates the entity-specific half ([`Entity::derived_key_changes`],
//! [`Entity::timestamps`]); this module holds what it works on.

use serde::de::DeserializeOwned;

use crate::codec::AttributeValue;
use crate::error::IncompleteKey;
use crate::{Entity, Error, Result};

/// What an update sets, by attribute: a value, or `None` for an attribute it removes (an
/// `Option` field set to `None`). Attributes changed any other way (increments, appends)
/// are not here: the update refuses them before asking for derived keys.
#[derive(Debug, Default)]
pub struct UpdatedValues<'a> {
    entries: Vec<(&'static str, Option<&'a AttributeValue>)>,
    /// The update may create its item (`create_if_missing`).
    creates: bool,
}

impl<'a> UpdatedValues<'a> {
    /// The values of an update that may create its item: every lookup is rendered then,
    /// since the item it creates must hold them all.
    pub(crate) fn creating(creates: bool) -> Self {
        UpdatedValues {
            entries: Vec::new(),
            creates,
        }
    }

    /// True when the update may create its item (`create_if_missing`), so it must write
    /// every lookup item with it.
    pub fn creates(&self) -> bool {
        self.creates
    }

    pub(crate) fn push(&mut self, attribute: &'static str, value: Option<&'a AttributeValue>) {
        self.entries.push((attribute, value));
    }

    /// True when the update sets or removes `attribute`.
    pub fn touches(&self, attribute: &str) -> bool {
        self.entries.iter().any(|(a, _)| *a == attribute)
    }

    /// True when the update sets or removes any of `fields` (`(attribute, field)` pairs).
    pub fn touches_any(&self, fields: &[(&'static str, &'static str)]) -> bool {
        fields.iter().any(|(attribute, _)| self.touches(attribute))
    }

    /// True when the update removes any of `fields` (sets it to `None`).
    pub fn removes_any(&self, fields: &[(&'static str, &'static str)]) -> bool {
        self.entries.iter().any(|(attribute, value)| {
            value.is_none_or(|v| matches!(v, AttributeValue::Null(_)))
                && fields.iter().any(|(a, _)| a == attribute)
        })
    }

    /// True when the update sets or removes every one of `fields`.
    pub fn touches_all(&self, fields: &[(&'static str, &'static str)]) -> bool {
        fields.iter().all(|(attribute, _)| self.touches(attribute))
    }

    /// The value the update gives `attribute`: `Ok(None)` when it removes it (or does not
    /// touch it), decoded as `T` through serde.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidAttribute`] when the value does not decode as `T`.
    pub fn decode<T: DeserializeOwned>(
        &self,
        entity: &'static str,
        attribute: &'static str,
    ) -> Result<Option<T>> {
        self.decode_with(entity, attribute, crate::codec::deserialized)
    }

    /// The value the update gives `attribute`, as [`decode`](Self::decode) reads it, but
    /// decoded by `decode`: generated code passes the field's own conversion, so a value
    /// reads back in the form the field stores (a timestamp's text, not serde's form).
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidAttribute`] when `decode` fails.
    #[doc(hidden)]
    pub fn decode_with<T>(
        &self,
        entity: &'static str,
        attribute: &'static str,
        decode: impl FnOnce(AttributeValue) -> std::result::Result<T, crate::codec::AttributeError>,
    ) -> Result<Option<T>> {
        let value = self
            .entries
            .iter()
            .rev()
            .find(|(a, _)| *a == attribute)
            .and_then(|(_, v)| *v)
            .filter(|v| !matches!(v, AttributeValue::Null(_)));
        value
            .map(|v| {
                decode(v.clone()).map_err(|source| Error::InvalidAttribute {
                    entity,
                    attribute,
                    source,
                    item: None,
                })
            })
            .transpose()
    }

    /// A key `values` sets some, not all, of the `fields` of.
    pub fn gap(
        key: String,
        template: &'static str,
        fields: &[(&'static str, &'static str)],
        values: &UpdatedValues<'_>,
    ) -> IncompleteKey {
        let missing = fields
            .iter()
            .filter(|(attribute, _)| !values.touches(attribute))
            .map(|(_, field)| *field)
            .collect();
        IncompleteKey::new(key, template, missing)
    }

    /// `Ok` when the update leaves no key half-set; otherwise the error naming every key
    /// in `gaps` and every field they miss, so the caller fixes the update in one pass.
    ///
    /// # Errors
    ///
    /// [`Error::IncompleteKeyUpdate`] when `gaps` is not empty.
    pub fn incomplete(entity: &'static str, gaps: Vec<IncompleteKey>) -> Result<()> {
        if gaps.is_empty() {
            Ok(())
        } else {
            Err(Error::incomplete_keys(entity, gaps))
        }
    }
}

/// A key attribute an update also changes because it sets the fields the key is made of.
#[derive(Debug, Clone, PartialEq)]
pub enum DerivedChange {
    /// `SET attribute = value`: the key rendered from the new field values.
    Set(&'static str, AttributeValue),
    /// `REMOVE attribute`: an optional field of a sparse index became `None`.
    Remove(&'static str),
}

/// The stored values of an entity's automatic timestamps at one instant.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timestamps {
    /// `(attribute, value)` of the `#[dynamap(created_at)]` field.
    pub created_at: Option<(&'static str, AttributeValue)>,
    /// `(attribute, value)` of the `#[dynamap(updated_at)]` field.
    pub updated_at: Option<(&'static str, AttributeValue)>,
}

impl Timestamps {
    /// The timestamps of `E` now.
    pub(crate) fn now<E: Entity>() -> Result<Timestamps> {
        if E::WRITE.created_at.is_none() && E::WRITE.updated_at.is_none() {
            return Ok(Timestamps::default());
        }
        E::timestamps(std::time::SystemTime::now())
    }

    /// Stamps an item about to be put: `updated_at` always, `created_at` when the item
    /// does not carry one already.
    pub(crate) fn stamp(self, item: &mut crate::codec::Item) {
        if let Some((attribute, value)) = self.updated_at {
            item.insert(attribute.to_owned(), value);
        }
        if let Some((attribute, value)) = self.created_at {
            item.entry(attribute.to_owned()).or_insert(value);
        }
    }
}

/// Field types `#[dynamap(created_at)]` and `#[dynamap(updated_at)]` accept.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an automatic timestamp",
    label = "a `created_at` or `updated_at` field",
    note = "automatic timestamps are `time::OffsetDateTime` or `Option<time::OffsetDateTime>`"
)]
pub trait AutoTimestamp: Sized {
    /// The value for the instant `now`.
    fn at(now: std::time::SystemTime) -> Self;
}

#[cfg(feature = "time")]
impl AutoTimestamp for time::OffsetDateTime {
    fn at(now: std::time::SystemTime) -> Self {
        time::OffsetDateTime::from(now)
    }
}

#[cfg(feature = "time")]
impl AutoTimestamp for Option<time::OffsetDateTime> {
    fn at(now: std::time::SystemTime) -> Self {
        Some(time::OffsetDateTime::from(now))
    }
}
