//! [`Key::values`] and [`Key::into_values`]: the text of a string key, which names the
//! entity and attribute when the key is a number or a binary.

use crate::codec::AttributeValue;
use crate::entity::Entity;
use crate::key::{Key, KeyError, KeyErrorKind, primary_type_code as type_code};
use crate::table::Table;

impl<E: Entity> Key<E> {
    /// The partition key value and sort key value (if the table has a sort key), for a key
    /// whose values are strings: every key rendered from templates, and every key of a table
    /// that declares no other key type. [`attribute_values`](Key::attribute_values) gives
    /// values of every type.
    ///
    /// # Errors
    ///
    /// Fails with the [`KeyError`] met while rendering the key (a bad part, or a key over
    /// DynamoDB's size limit), and with [`KeyErrorKind::WrongType`] when a value is a number
    /// or a binary.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// let key = Reading::key("S1", 7u32);
    /// let (pk, sk) = key.values()?;
    /// assert_eq!(pk, "SENSOR#S1");
    /// assert!(sk.is_some_and(|sk| sk.starts_with("READ#")));
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn values(&self) -> Result<(&str, Option<&str>), KeyError> {
        let (pk, sk) = self.attribute_values()?;
        let schema = <E::Table as Table>::SCHEMA;
        let pk = string::<E>(schema.pk, pk)?;
        let sk = match sk {
            Some(sk) => Some(string::<E>(schema.sk.unwrap_or(schema.pk), sk)?),
            None => None,
        };
        Ok((pk, sk))
    }

    /// The values of a string key, taken out of the key.
    ///
    /// # Errors
    ///
    /// As [`values`](Key::values): the [`KeyError`] met while rendering the key, or
    /// [`KeyErrorKind::WrongType`] for a number or binary value.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor_id}", sk = "READ#{seq}")]
    /// # struct Reading { sensor_id: String, seq: u32 }
    /// let (pk, sk) = Reading::key("S1", 7u32).into_values()?;
    /// assert_eq!(pk, "SENSOR#S1");
    /// # Ok::<(), dynamap::KeyError>(())
    /// ```
    pub fn into_values(self) -> Result<(String, Option<String>), KeyError> {
        let schema = <E::Table as Table>::SCHEMA;
        let (pk, sk) = self.into_attribute_values()?;
        let pk = into_string::<E>(schema.pk, pk)?;
        let sk = match sk {
            Some(sk) => Some(into_string::<E>(schema.sk.unwrap_or(schema.pk), sk)?),
            None => None,
        };
        Ok((pk, sk))
    }
}

/// The text of a string key value, taken out of it.
fn into_string<E: Entity>(
    attribute: &'static str,
    value: AttributeValue,
) -> Result<String, KeyError> {
    match value {
        AttributeValue::S(text) => Ok(text),
        other => string::<E>(attribute, &other).map(str::to_owned),
    }
}

/// The text of a string key value, or the error naming what it is instead.
fn string<'a, E: Entity>(
    attribute: &'static str,
    value: &'a AttributeValue,
) -> Result<&'a str, KeyError> {
    match value {
        AttributeValue::S(text) => Ok(text),
        other => Err(KeyError {
            entity: E::ENTITY_TYPE,
            attribute,
            field: None,
            kind: KeyErrorKind::WrongType {
                expected: "S",
                found: type_code(other),
            },
        }),
    }
}
