//! Update expressions, typed by an entity's fields: `SET` (values, arithmetic,
//! `if_not_exists`, `list_append`), `REMOVE`, `ADD` and `DELETE`. Pure: the request is made
//! in [`ops::update`](crate::ops::update).

use serde::Serialize;

use super::Attr;
use super::placeholders::Placeholders;
use crate::codec::AttributeValue;

/// One change to one attribute.
#[derive(Debug, Clone)]
pub(crate) enum Change {
    Set(&'static str, AttributeValue),
    SetIfNotExists(&'static str, AttributeValue),
    Increment(&'static str, AttributeValue),
    Append(&'static str, AttributeValue),
    Remove(&'static str),
    Add(&'static str, AttributeValue),
    Delete(&'static str, AttributeValue),
}

impl Change {
    /// The attribute it changes.
    pub(crate) fn attribute(&self) -> &'static str {
        match self {
            Change::Set(a, _)
            | Change::SetIfNotExists(a, _)
            | Change::Increment(a, _)
            | Change::Append(a, _)
            | Change::Remove(a)
            | Change::Add(a, _)
            | Change::Delete(a, _) => a,
        }
    }

    /// True for changes that give the attribute a value (not `REMOVE`).
    pub(crate) fn writes_value(&self) -> bool {
        !matches!(self, Change::Remove(_))
    }
}

/// Encodes an update value, keeping the error for the request to report.
pub(crate) fn encode<T: Serialize + ?Sized>(
    attribute: &str,
    value: &T,
) -> Result<AttributeValue, String> {
    serde_dynamo::to_attribute_value(value)
        .map_err(|err| format!("cannot encode a value for `{attribute}`: {err}"))
}

/// Renders changes as one update expression: `SET a = :v, b = b + :n REMOVE c ADD d :x`.
pub(crate) fn render(changes: &[Change], p: &mut Placeholders) -> String {
    let (mut set, mut remove, mut add, mut delete) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        let name = p.name(change.attribute());
        match change {
            Change::Set(_, v) => set.push(format!("{name} = {}", p.value(v.clone()))),
            Change::SetIfNotExists(_, v) => set.push(format!(
                "{name} = if_not_exists({name}, {})",
                p.value(v.clone())
            )),
            Change::Increment(_, v) => {
                let zero = p.value(AttributeValue::N("0".into()));
                set.push(format!(
                    "{name} = if_not_exists({name}, {zero}) + {}",
                    p.value(v.clone())
                ));
            }
            Change::Append(_, v) => {
                let empty = p.value(AttributeValue::L(Vec::new()));
                set.push(format!(
                    "{name} = list_append(if_not_exists({name}, {empty}), {})",
                    p.value(v.clone())
                ));
            }
            Change::Remove(_) => remove.push(name),
            Change::Add(_, v) => add.push(format!("{name} {}", p.value(v.clone()))),
            Change::Delete(_, v) => delete.push(format!("{name} {}", p.value(v.clone()))),
        }
    }
    let mut clauses = Vec::new();
    for (keyword, items) in [
        ("SET", set),
        ("REMOVE", remove),
        ("ADD", add),
        ("DELETE", delete),
    ] {
        if !items.is_empty() {
            clauses.push(format!("{keyword} {}", items.join(", ")));
        }
    }
    clauses.join(" ")
}

/// Typed constructors, so a change's value has the field's type.
impl<E, T: Serialize> Attr<E, T> {
    /// `SET attribute = value`.
    pub(crate) fn set_change(self, value: &T) -> Result<Change, String> {
        encode(self.name(), value).map(|v| Change::Set(self.name(), v))
    }

    /// `SET attribute = if_not_exists(attribute, value)`.
    pub(crate) fn default_change(self, value: &T) -> Result<Change, String> {
        encode(self.name(), value).map(|v| Change::SetIfNotExists(self.name(), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter;
    const VALUE: Attr<Counter, u64> = Attr::new("value");
    const TAGS: Attr<Counter, Vec<String>> = Attr::new("tags");

    #[test]
    fn clauses_are_grouped_by_keyword() {
        let changes = vec![
            VALUE.set_change(&3).expect("encodes"),
            Change::Remove("note"),
            Change::Increment("hits", AttributeValue::N("1".into())),
            Change::Add("seen", AttributeValue::Ss(vec!["a".into()])),
            Change::Append("tags", encode("tags", &vec!["x"]).expect("encodes")),
            Change::Delete("seen2", AttributeValue::Ss(vec!["b".into()])),
            TAGS.default_change(&vec![]).expect("encodes"),
        ];
        let mut p = Placeholders::default();
        let text = render(&changes, &mut p);
        assert_eq!(
            text,
            "SET #n0 = :v0, #n2 = if_not_exists(#n2, :v1) + :v2, #n4 = list_append(if_not_exists(#n4, :v4), :v5), \
             #n4 = if_not_exists(#n4, :v7) REMOVE #n1 ADD #n3 :v3 DELETE #n5 :v6"
        );
    }
}
