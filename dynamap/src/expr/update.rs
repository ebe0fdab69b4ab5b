//! Update expressions, typed by an entity's fields: `SET` (values, arithmetic,
//! `if_not_exists`, `list_append`), `REMOVE`, `ADD` and `DELETE`. Pure: the request is made
//! in [`ops::update`](crate::ops::update).

use serde::Serialize;

use super::path::{DocPath, Path};
use super::placeholders::Placeholders;
use crate::codec::AttributeValue;

/// One change to one attribute, or to a value inside one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Change {
    Set(DocPath, AttributeValue),
    SetIfNotExists(DocPath, AttributeValue),
    Increment(DocPath, AttributeValue),
    Append(DocPath, AttributeValue),
    Remove(DocPath),
    Add(DocPath, AttributeValue),
    Delete(DocPath, AttributeValue),
}

impl Change {
    /// The path it changes.
    pub(crate) fn path(&self) -> &DocPath {
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

    /// The top-level attribute it changes.
    pub(crate) fn attribute(&self) -> &str {
        self.path().root()
    }

    /// True for changes that give the attribute a value (not `REMOVE`).
    pub(crate) fn writes_value(&self) -> bool {
        !matches!(self, Change::Remove(_))
    }
}

/// Encodes an update value, keeping the error for the request to report.
pub(crate) fn encode<T: Serialize + ?Sized>(
    attribute: &impl std::fmt::Display,
    value: &T,
) -> Result<AttributeValue, String> {
    crate::codec::serialized(value)
        .map_err(|err| format!("cannot encode a value for `{attribute}`: {err}"))
}

/// Renders changes as one update expression: `SET a = :v, b = b + :n REMOVE c ADD d :x`.
pub(crate) fn render(changes: &[Change], p: &mut Placeholders) -> String {
    let (mut set, mut remove, mut add, mut delete) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        let name = change.path().render(p);
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

/// Typed constructors, so a change's value has the field's type and is stored the way the
/// field stores it (through its `with` module, if any).
impl<E, T> Path<E, T> {
    fn encoded(&self, value: &T) -> Result<AttributeValue, String> {
        self.encode(value)
            .map_err(|err| format!("cannot encode a value for `{}`: {err}", self.path))
    }

    /// `SET path = value`.
    pub(crate) fn set_change(self, value: &T) -> Result<Change, String> {
        self.encoded(value).map(|v| Change::Set(self.path, v))
    }

    /// `SET path = if_not_exists(path, value)`.
    pub(crate) fn default_change(self, value: &T) -> Result<Change, String> {
        self.encoded(value)
            .map(|v| Change::SetIfNotExists(self.path, v))
    }

    /// `SET path = if_not_exists(path, 0) + by`.
    pub(crate) fn increment_change(self, by: &T) -> Result<Change, String> {
        self.encoded(by).map(|v| Change::Increment(self.path, v))
    }

    /// `ADD path value`.
    pub(crate) fn add_change(self, value: &T) -> Result<Change, String> {
        self.encoded(value).map(|v| Change::Add(self.path, v))
    }

    /// `DELETE path elements`.
    pub(crate) fn delete_change(self, elements: &T) -> Result<Change, String> {
        self.encoded(elements).map(|v| Change::Delete(self.path, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::expr::Attr;

    struct Counter;
    const VALUE: Attr<Counter, u64> = Attr::new("value");
    const TAGS: Attr<Counter, Vec<String>> = Attr::new("tags");

    #[test]
    fn clauses_are_grouped_by_keyword() {
        let changes = vec![
            VALUE.path().set_change(&3).expect("encodes"),
            Change::Remove(DocPath::attribute("note")),
            Change::Increment(DocPath::attribute("hits"), AttributeValue::N("1".into())),
            Change::Add(
                DocPath::attribute("seen"),
                AttributeValue::Ss(vec!["a".into()]),
            ),
            Change::Append(
                DocPath::attribute("tags"),
                encode(&"tags", &vec!["x"]).expect("encodes"),
            ),
            Change::Delete(
                DocPath::attribute("seen2"),
                AttributeValue::Ss(vec!["b".into()]),
            ),
            TAGS.path().default_change(&vec![]).expect("encodes"),
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
