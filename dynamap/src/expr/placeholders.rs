//! Placeholder allocation for expression attribute names and values.

use std::collections::HashMap;

use crate::codec::AttributeValue;

/// Placeholder to attribute name.
pub type NameMap = HashMap<String, String>;
/// Placeholder to value.
pub type ValueMap = HashMap<String, AttributeValue>;

/// Names (`#n0`) and values (`:v0`) used by one request's expressions. One instance is
/// shared by every expression of a request (key condition, filter, projection), so the
/// placeholders never collide.
///
/// # Examples
///
/// ```
/// use dynamap::codec::AttributeValue;
/// use dynamap::expr::Placeholders;
///
/// let mut p = Placeholders::default();
/// let name = p.name("status");
/// let value = p.value(AttributeValue::S("open".into()));
/// assert_eq!(format!("{name} = {value}"), "#n0 = :v0");
/// ```
#[derive(Debug, Default, Clone)]
pub struct Placeholders {
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
    by_attribute: HashMap<String, String>,
}

impl Placeholders {
    /// The placeholder for attribute `name`; the same attribute always gets the same one.
    pub fn name(&mut self, name: &str) -> String {
        if let Some(existing) = self.by_attribute.get(name) {
            return existing.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), name.to_owned());
        self.by_attribute
            .insert(name.to_owned(), placeholder.clone());
        placeholder
    }

    /// A new placeholder holding `value`.
    pub fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The name and value maps, each `None` when empty (DynamoDB rejects empty maps).
    pub fn into_parts(self) -> (Option<NameMap>, Option<ValueMap>) {
        let names = (!self.names.is_empty()).then_some(self.names);
        let values = (!self.values.is_empty()).then_some(self.values);
        (names, values)
    }
}

/// An expression with its placeholders, ready for a request.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// let rendered = Sensor::CITY.ne("Berlin").render()?;
/// // What a raw SDK request takes: the expression and its two placeholder maps.
/// assert_eq!(rendered.names["#n0"], "city");
/// assert!(rendered.values.contains_key(":v0"));
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The expression text.
    pub expression: String,
    /// Placeholder to attribute name.
    pub names: HashMap<String, String>,
    /// Placeholder to value.
    pub values: HashMap<String, AttributeValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_reused_and_values_are_not() {
        let mut p = Placeholders::default();
        assert_eq!(p.name("type"), "#n0");
        assert_eq!(p.name("city"), "#n1");
        assert_eq!(p.name("type"), "#n0");
        assert_eq!(p.value(AttributeValue::S("a".into())), ":v0");
        assert_eq!(p.value(AttributeValue::S("a".into())), ":v1");
        let (names, values) = p.into_parts();
        assert_eq!(names.map(|n| n.len()), Some(2));
        assert_eq!(values.map(|v| v.len()), Some(2));
    }

    #[test]
    fn empty_maps_are_left_out() {
        let (names, values) = Placeholders::default().into_parts();
        assert!(names.is_none() && values.is_none());
    }
}
