//! Adoption that finishes: the other writer's marker and bookkeeping attributes are dropped
//! from every adopted item, and the scan asks DynamoDB only for items still marked, so a
//! rerun reads back (and decodes) nothing it already adopted.

use std::borrow::Cow;

use super::Maintain;
use super::plan::{Decision, Write};
use crate::codec::{AttributeValue, Item};
use crate::expr::Placeholders;
use crate::{Entity, Error, Result};

/// What [`Maintain::only_marked`] and [`Maintain::dropping`] ask of an adoption.
#[derive(Debug, Clone, Default)]
pub(super) struct Finish {
    /// The marker: its attribute and the text it holds on items not yet adopted.
    marked: Option<(String, String)>,
    /// Attributes adopted items are written without (the marker's among them).
    dropping: Vec<String>,
}

impl Finish {
    /// The scan's filter: the marker's attribute holds its value.
    pub(super) fn filter(&self, p: &mut Placeholders) -> Option<String> {
        let (attribute, value) = self.marked.as_ref()?;
        Some(format!(
            "{} = {}",
            p.name(attribute),
            p.value(AttributeValue::S(value.clone()))
        ))
    }

    /// `stored` without the attributes to drop: what the job compares with what the entity
    /// renders, so that a move leaves them behind and a rewrite sets any the entity renders.
    pub(super) fn strip<'a>(&self, stored: &'a Item) -> Cow<'a, Item> {
        if !self.dropping.iter().any(|name| stored.contains_key(name)) {
            return Cow::Borrowed(stored);
        }
        let mut item = stored.clone();
        for name in &self.dropping {
            item.remove(name);
        }
        Cow::Owned(item)
    }

    /// Makes `write`, planned from the [`strip`](Self::strip)ped item, also remove from
    /// `stored` in place the attributes to drop that it holds and the entity does not write.
    /// (A move or a whole-item write is already without them.)
    pub(super) fn finish(&self, write: &mut Write, stored: &Item) {
        let held = |set: &Item| -> Vec<String> {
            self.dropping
                .iter()
                .filter(|name| stored.contains_key(*name) && !set.contains_key(*name))
                .cloned()
                .collect()
        };
        match &mut write.decision {
            Decision::Rewrite { set, remove } => {
                for name in held(set) {
                    if !remove.contains(&name) {
                        remove.push(name);
                    }
                }
            }
            Decision::Keep => {
                let remove = held(&Item::new());
                if !remove.is_empty() {
                    write.decision = Decision::Rewrite {
                        set: Item::new(),
                        remove,
                    };
                }
            }
            Decision::Replace { .. } | Decision::Move { .. } | Decision::Delete => {}
        }
    }

    /// Refuses settings for a job that adopts nothing.
    pub(super) fn check(&self, adopting: bool) -> Result<()> {
        let setting = if self.marked.is_some() {
            "only_marked"
        } else if !self.dropping.is_empty() {
            "dropping"
        } else {
            return Ok(());
        };
        if adopting {
            return Ok(());
        }
        Err(Error::InvalidSetting {
            setting,
            reason: "it applies to the items a job adopts: call `adopt` too".to_owned(),
        })
    }
}

impl<E: Entity + Send + Sync> Maintain<E> {
    /// Makes an [`adopt`](Self::adopt)ion finish: the scan asks DynamoDB only for items
    /// whose `attribute` holds the text `value` (as its `FilterExpression`; DynamoDB still
    /// reads, and charges for, every item, but sends back only those), and every adopted
    /// item is written without `attribute`. Adopted items then no longer match: a rerun
    /// reads the table and decodes none of them. `select` still decides among the items
    /// the filter lets through.
    ///
    /// `attribute` stays on an item whose entity writes that attribute itself (a table
    /// whose entity-type attribute is the other writer's, `entity_type = "__edb_e__"`),
    /// with the entity's value: give a `value` the entity does not write there, or the
    /// adopted items match again.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "PROFILE")]
    /// # struct User { id: String, name: String }
    /// # fn user(item: dynamap::codec::Item) -> Result<User, dynamap::codec::AttributeError> { todo!() }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // ElectroDB's users: `__edb_e__ = "user"`, `__edb_v__ = "1"`. Adopted, they hold
    /// // neither; run again, the job decodes no item.
    /// let report = db
    ///     .maintain::<User>("adopt-users")
    ///     .adopt(|_| true, user)
    ///     .only_marked("__edb_e__", "user")
    ///     .dropping(["__edb_v__"])
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn only_marked(mut self, attribute: impl Into<String>, value: impl Into<String>) -> Self {
        let attribute = attribute.into();
        if !self.finish.dropping.contains(&attribute) {
            self.finish.dropping.push(attribute.clone());
        }
        self.finish.marked = Some((attribute, value.into()));
        self
    }

    /// Writes each [`adopt`](Self::adopt)ed item without `attributes`: the other writer's
    /// bookkeeping, such as ElectroDB's `__edb_e__` and `__edb_v__`. A moved item is put
    /// without them; an item adopted in place has them removed. Attributes the entity
    /// writes itself (its keys, its entity type, its fields) are never dropped.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "PROFILE")]
    /// # struct User { id: String, name: String }
    /// # fn user(item: dynamap::codec::Item) -> Result<User, dynamap::codec::AttributeError> { todo!() }
    /// use dynamap::codec::AttributeValue;
    ///
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// // A script's users, marked `kind = "user"`, with its own `imported_at`: adopted
    /// // without either.
    /// db.maintain::<User>("adopt-script-users")
    ///     .adopt(|item| item.get("kind") == Some(&AttributeValue::S("user".into())), user)
    ///     .dropping(["kind", "imported_at"])
    ///     .send()
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn dropping<I>(mut self, attributes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        for attribute in attributes {
            let attribute = attribute.into();
            if !self.finish.dropping.contains(&attribute) {
                self.finish.dropping.push(attribute);
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maintain::lookups::LookupMoves;
    use crate::maintain::plan::Unchanged;

    fn item(pairs: &[(&str, &str)]) -> Item {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), AttributeValue::S((*v).to_owned())))
            .collect()
    }

    fn finish() -> Finish {
        Finish {
            marked: Some(("__edb_e__".into(), "user".into())),
            dropping: vec!["__edb_e__".into(), "__edb_v__".into()],
        }
    }

    fn write(decision: Decision) -> Write {
        Write {
            decision,
            lookups: LookupMoves::default(),
            unchanged: Unchanged::EveryAttribute,
        }
    }

    #[test]
    fn the_filter_is_the_marker() {
        let mut p = Placeholders::default();
        assert_eq!(finish().filter(&mut p).as_deref(), Some("#n0 = :v0"));
        let (names, values) = p.into_parts();
        assert_eq!(names.expect("names")["#n0"], "__edb_e__");
        assert_eq!(
            values.expect("values")[":v0"],
            AttributeValue::S("user".into())
        );
        assert_eq!(Finish::default().filter(&mut Placeholders::default()), None);
    }

    #[test]
    fn an_item_in_form_but_marked_has_its_marks_removed() {
        let stored = item(&[("PK", "U#1"), ("__edb_e__", "user"), ("__edb_v__", "1")]);
        let mut kept = write(Decision::Keep);
        finish().finish(&mut kept, &stored);
        assert_eq!(
            kept.decision,
            Decision::Rewrite {
                set: Item::new(),
                remove: vec!["__edb_e__".into(), "__edb_v__".into()]
            }
        );
    }

    #[test]
    fn an_attribute_the_entity_writes_is_set_not_removed() {
        // A table whose entity-type attribute is `__edb_e__`: the entity writes it.
        let stored = item(&[("PK", "U#1"), ("__edb_e__", "user"), ("__edb_v__", "1")]);
        let stripped = finish().strip(&stored).into_owned();
        assert_eq!(stripped, item(&[("PK", "U#1")]));
        let mut rewrite = write(Decision::Rewrite {
            set: item(&[("__edb_e__", "User")]),
            remove: vec!["GSI1PK".into()],
        });
        finish().finish(&mut rewrite, &stored);
        assert_eq!(
            rewrite.decision,
            Decision::Rewrite {
                set: item(&[("__edb_e__", "User")]),
                remove: vec!["GSI1PK".into(), "__edb_v__".into()]
            }
        );
    }

    #[test]
    fn an_item_without_the_attributes_is_left_alone() {
        let stored = item(&[("PK", "U#1")]);
        assert!(matches!(finish().strip(&stored), Cow::Borrowed(_)));
        let mut kept = write(Decision::Keep);
        finish().finish(&mut kept, &stored);
        assert_eq!(kept.decision, Decision::Keep);
    }
}
