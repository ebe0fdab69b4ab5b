//! What a query checks before sending: a key that rendered, a sort condition DynamoDB
//! accepts, an index the table has (consistent reads only on a local one), an order that
//! `first`/`last` do not already set, and a limit of at least 1.

use super::{Decode, Edge, Query};
use crate::{Error, Result, Table};

impl<T: Decode, S> Query<T, S> {
    /// Checks what can be checked before sending.
    pub(super) fn validate(&self) -> Result<()> {
        if let Err(err) = &self.partition {
            return Err(err.clone().into());
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
        if let (Some(edge), true) = (self.edge, self.descending) {
            let (call, meaning) = match edge {
                Edge::First => ("first(n)", "the smallest sort keys, smallest first"),
                Edge::Last => ("last(n)", "the greatest sort keys, greatest first"),
            };
            return Err(Error::Unsupported {
                operation: "Query",
                reason: format!(
                    "{call} reads {meaning}, so it sets the order itself: drop `.descending()` (for the other end, use {})",
                    if edge == Edge::First {
                        "last(n)"
                    } else {
                        "first(n)"
                    }
                ),
            });
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
