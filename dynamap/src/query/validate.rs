//! What a query checks before sending: a key that rendered, a sort condition DynamoDB
//! accepts, an index the table has (consistent reads only on a local one), a filter that
//! leaves the queried key attributes to the key condition, one of `limit`/`first`/`last` at
//! most, an order that `first`/`last` do not already set, and a page size of at least 1.

use super::{Decode, Query};
use crate::{Error, Result, Table};

impl<T: Decode, S> Query<T, S> {
    /// Checks what can be checked before sending.
    pub(super) fn validate(&self) -> Result<()> {
        if let Err(err) = &self.partition {
            return Err(err.clone().into());
        }
        if let Some(Err(err)) = &self.groups {
            return Err(err.clone().into());
        }
        if self.fan_out == 0 {
            return Err(Error::InvalidSetting {
                setting: "fan_out",
                reason: "a query needs at least 1 request at a time (fan_out(n), n >= 1)"
                    .to_owned(),
            });
        }
        match &self.sort {
            Some(Err(err)) => return Err(err.clone().into()),
            Some(Ok(sort)) => sort.check().map_err(|reason| Error::Unsupported {
                operation: "Query",
                reason: reason.to_owned(),
            })?,
            None => {}
        }
        if let Some(name) = self.index_name {
            let Some(index) = self.index() else {
                return Err(Error::UnknownIndex {
                    table: <T::Table as Table>::SCHEMA.type_name,
                    index: name.to_owned(),
                });
            };
            if self.consistent && !index.local {
                return Err(Error::Unsupported {
                    operation: "Query",
                    reason: format!(
                        "consistent reads are not available on global secondary index `{name}`"
                    ),
                });
            }
        }
        self.check_filter()?;
        self.check_size_and_order()
    }

    /// DynamoDB refuses a query filter that names a key attribute of the table or index the
    /// query reads (a `ValidationException`): those belong in the key condition.
    fn check_filter(&self) -> Result<()> {
        let Some(filter) = &self.filter else {
            return Ok(());
        };
        let schema = <T::Table as Table>::SCHEMA;
        let (pk, sk, of): (Vec<&str>, Vec<&str>, String) = match self.index() {
            Some(index) => (
                index.pk_attributes().map(|(name, _)| name).collect(),
                index.sk_attributes().map(|(name, _)| name).collect(),
                format!("index `{}`", index.name),
            ),
            None => (
                vec![schema.pk],
                schema.sk.into_iter().collect(),
                "the table".to_owned(),
            ),
        };
        let attributes = filter.attributes();
        let (key, part, fix) = if let Some(key) = attributes.iter().find(|a| pk.contains(a)) {
            (
                key,
                "the partition key",
                "the partition the query is built from gives it",
            )
        } else if let Some(key) = attributes.iter().find(|a| sk.contains(a)) {
            (
                key,
                "the sort key",
                "a sort condition such as `sk_eq`, `sk_gt`, `sk_between` or `sk_prefix`",
            )
        } else {
            return Ok(());
        };
        Err(Error::InvalidExpression {
            part: crate::error::ExpressionPart::Filter,
            reason: format!(
                "a query filter cannot name `{key}`, part of {part} of {of}, which this query reads (DynamoDB filters only other attributes): use a key condition instead ({fix})"
            ),
        })
    }

    /// `first(n)` and `last(n)` each set the page size and the order, so neither combines
    /// with the other, with `limit(n)` or with `descending()`: whichever call came last would
    /// otherwise decide silently.
    fn check_size_and_order(&self) -> Result<()> {
        let refuse = |reason: String| {
            Err(Error::Unsupported {
                operation: "Query",
                reason,
            })
        };
        let edge = match (self.first, self.last) {
            (Some(_), Some(_)) => {
                return refuse(
                    "first(n) reads the smallest sort keys and last(n) the greatest: keep one of them"
                        .to_owned(),
                );
            }
            (Some(n), None) => Some(("first", n, "the smallest sort keys, smallest first", "last")),
            (None, Some(n)) => Some(("last", n, "the greatest sort keys, greatest first", "first")),
            (None, None) => None,
        };
        if let Some((call, n, meaning, other)) = edge {
            if let Some(limit) = self.limit {
                return refuse(format!(
                    "{call}({n}) sets the page size itself, so it does not combine with limit({limit}): drop `.limit({limit})` (or use `.{call}({limit})`)"
                ));
            }
            if self.descending {
                return refuse(format!(
                    "{call}(n) reads {meaning}, so it sets the order itself: drop `.descending()` (for the other end, use {other}(n))"
                ));
            }
            if n == 0 {
                return Err(Error::InvalidSetting {
                    setting: call,
                    reason: format!("{call}(n) needs n of at least 1"),
                });
            }
        }
        if self.limit == Some(0) {
            return Err(Error::InvalidSetting {
                setting: "limit",
                reason: "a query limit must be at least 1".to_owned(),
            });
        }
        Ok(())
    }
}
