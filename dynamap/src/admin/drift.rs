//! The drift check: a live table compared with its layout.

use std::collections::BTreeSet;
use std::fmt;
use std::future::Future;

use aws_sdk_dynamodb::types::{
    KeySchemaElement, KeyType, Projection as SdkProjection, ProjectionType, TimeToLiveStatus,
};

use super::schema::{included, index_key, key_attribute_types, table_key};
use crate::table::{Projection, TableSchema};
use crate::{Error, Result};

/// One way a live table differs from its layout, as [`Db::verify_table`](crate::Db::verify_table) reports it.
/// Each displays as one line a deploy log can show.
///
/// # Examples
///
/// ```
/// use dynamap::admin::Drift;
///
/// let drift = Drift::MissingIndex { index: "GSI2".into() };
/// assert_eq!(drift.to_string(), "index \"GSI2\" of the layout is missing");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Drift {
    /// The key schema of the table (`index: None`) or of an index differs: attribute
    /// names, order, or which are partition and sort keys. Keys are shown as
    /// `PK HASH, SK RANGE`.
    KeySchema {
        /// The index, or `None` for the table's own key.
        index: Option<String>,
        /// The layout's key.
        expected: String,
        /// The live key.
        found: String,
    },
    /// A key attribute is defined with another type than the layout's (`S`, `N`, `B`).
    AttributeType {
        /// The attribute.
        attribute: String,
        /// The layout's type.
        expected: String,
        /// The live type.
        found: String,
    },
    /// A secondary index of the layout is not on the live table.
    MissingIndex {
        /// The index name.
        index: String,
    },
    /// An index is global on one side and local on the other.
    IndexKind {
        /// The index name.
        index: String,
        /// True when the layout declares it local.
        expected_local: bool,
    },
    /// The live table has a secondary index the layout does not declare.
    UnexpectedIndex {
        /// The index name.
        index: String,
    },
    /// An index projects other attributes than the layout says (`ALL`, `KEYS_ONLY`, or
    /// `INCLUDE a, b`).
    Projection {
        /// The index name.
        index: String,
        /// The layout's projection.
        expected: String,
        /// The live projection.
        found: String,
    },
    /// Time to live is off, or on for another attribute, than the layout says.
    Ttl {
        /// The layout's TTL attribute, if any.
        expected: Option<String>,
        /// The attribute live TTL reads, if TTL is on (or being turned on).
        found: Option<String>,
    },
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::KeySchema {
                index: None,
                expected,
                found,
            } => {
                write!(f, "table key is {found}, the layout's is {expected}")
            }
            Drift::KeySchema {
                index: Some(index),
                expected,
                found,
            } => {
                write!(
                    f,
                    "index {index:?} key is {found}, the layout's is {expected}"
                )
            }
            Drift::AttributeType {
                attribute,
                expected,
                found,
            } => {
                write!(
                    f,
                    "key attribute `{attribute}` has type {found}, the layout's is {expected}"
                )
            }
            Drift::MissingIndex { index } => write!(f, "index {index:?} of the layout is missing"),
            Drift::IndexKind {
                index,
                expected_local,
            } => {
                let kind = |local: bool| if local { "local" } else { "global" };
                write!(
                    f,
                    "index {index:?} is {}, the layout's is {}",
                    kind(!expected_local),
                    kind(*expected_local)
                )
            }
            Drift::UnexpectedIndex { index } => {
                write!(f, "index {index:?} is not in the layout")
            }
            Drift::Projection {
                index,
                expected,
                found,
            } => {
                write!(
                    f,
                    "index {index:?} projects {found}, the layout's projects {expected}"
                )
            }
            Drift::Ttl { expected, found } => {
                let show = |ttl: &Option<String>| {
                    ttl.as_ref()
                        .map_or("off".to_owned(), |a| format!("on `{a}`"))
                };
                write!(
                    f,
                    "time to live is {}, the layout's is {}",
                    show(found),
                    show(expected)
                )
            }
        }
    }
}

impl<L: crate::table::Table> crate::Db<L> {
    /// Compares the live table with its layout `L` and lists every difference: the table's key
    /// schema, the types of key attributes, each secondary index, global or local (missing,
    /// unexpected, of the other kind, its key schema and projection) and time to live. An empty list means the
    /// table matches; a table that does not exist is an error (`ResourceNotFoundException`).
    ///
    /// This is the check to run before deploying code with a changed layout: DynamoDB
    /// cannot change a table's key schema, and an index added to the layout is not on the
    /// table until it is created (UpdateTable).
    ///
    /// ```no_run
    /// # use dynamap::Table;
    /// # #[derive(Table)]
    /// # #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
    /// # struct App;
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let drift = db.verify_table().await?;
    /// for difference in &drift {
    ///     eprintln!("{}: {difference}", db.table_name());
    /// }
    /// assert!(drift.is_empty());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Fails with [`Error::Service`] when the table does not exist or DynamoDB refuses a describe
    /// call or cannot be reached; with [`Error::InvalidSetting`] when layout `L` gives one
    /// attribute two key types.
    pub fn verify_table(&self) -> impl Future<Output = Result<Vec<Drift>>> + Send + use<L> {
        let this = self.clone();
        async move {
            let schema = L::SCHEMA;
            let live = this.describe_table().await?;
            let mut drift = Vec::new();

            let expected = show_key(&table_key(&schema));
            let found = show_live_key(live.key_schema());
            if expected != found {
                drift.push(Drift::KeySchema {
                    index: None,
                    expected,
                    found,
                });
            }

            for (attribute, kind) in key_attribute_types(&schema)? {
                let live_type = live
                    .attribute_definitions()
                    .iter()
                    .find(|d| d.attribute_name() == attribute)
                    .map(|d| d.attribute_type().as_str().to_owned());
                if let Some(found) = live_type
                    && found != kind.code()
                {
                    drift.push(Drift::AttributeType {
                        attribute: attribute.to_owned(),
                        expected: kind.code().to_owned(),
                        found,
                    });
                }
            }

            // Each live index: its name, whether it is local, its key and its projection.
            type LiveIndex<'a> = (
                &'a str,
                bool,
                &'a [KeySchemaElement],
                Option<&'a SdkProjection>,
            );
            let global = live
                .global_secondary_indexes()
                .iter()
                .filter_map(|i| Some((i.index_name()?, false, i.key_schema(), i.projection())));
            let local = live
                .local_secondary_indexes()
                .iter()
                .filter_map(|i| Some((i.index_name()?, true, i.key_schema(), i.projection())));
            let live_indexes: Vec<LiveIndex<'_>> = global.chain(local).collect();
            for index in schema.indexes {
                let Some(&(_, local, key, projection)) =
                    live_indexes.iter().find(|(name, ..)| *name == index.name)
                else {
                    drift.push(Drift::MissingIndex {
                        index: index.name.to_owned(),
                    });
                    continue;
                };
                if local != index.local {
                    drift.push(Drift::IndexKind {
                        index: index.name.to_owned(),
                        expected_local: index.local,
                    });
                    continue;
                }
                let expected = show_key(&index_key(index));
                let found_key = show_live_key(key);
                if expected != found_key {
                    drift.push(Drift::KeySchema {
                        index: Some(index.name.to_owned()),
                        expected,
                        found: found_key,
                    });
                }
                let expected = show_projection(&schema, index.projection);
                let found_projection = show_live_projection(projection);
                if expected != found_projection {
                    drift.push(Drift::Projection {
                        index: index.name.to_owned(),
                        expected,
                        found: found_projection,
                    });
                }
            }
            for &(name, ..) in &live_indexes {
                if schema.index(name).is_none() {
                    drift.push(Drift::UnexpectedIndex {
                        index: name.to_owned(),
                    });
                }
            }

            let found = this.live_ttl().await?;
            let expected = schema.ttl.map(str::to_owned);
            if found != expected {
                drift.push(Drift::Ttl { expected, found });
            }
            Ok(drift)
        }
    }

    /// The attribute time to live reads, when it is on or being turned on.
    async fn live_ttl(&self) -> Result<Option<String>> {
        let ttl = self
            .client()
            .describe_time_to_live()
            .table_name(self.table_name())
            .send()
            .await
            .map_err(|err| Error::service("DescribeTimeToLive", err))?;
        Ok(ttl.time_to_live_description().and_then(|d| {
            matches!(
                d.time_to_live_status(),
                Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
            )
            .then(|| d.attribute_name().map(str::to_owned))
            .flatten()
        }))
    }
}

fn show_key(key: &[(&str, KeyType)]) -> String {
    key.iter()
        .map(|(name, key_type)| format!("{name} {}", key_type.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn show_live_key(key: &[KeySchemaElement]) -> String {
    key.iter()
        .map(|k| format!("{} {}", k.attribute_name(), k.key_type().as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn show_projection(schema: &TableSchema, projection: Projection) -> String {
    match included(schema, projection) {
        None => "ALL".to_owned(),
        Some(attributes) => show_include(attributes.into_iter()),
    }
}

fn show_live_projection(projection: Option<&SdkProjection>) -> String {
    match projection.and_then(|p| p.projection_type()) {
        Some(ProjectionType::Include) => show_include(
            projection
                .map(|p| p.non_key_attributes())
                .unwrap_or_default()
                .iter()
                .map(String::as_str),
        ),
        Some(other) => other.as_str().to_owned(),
        None => "ALL".to_owned(),
    }
}

/// `INCLUDE a, b`, attributes sorted: their order means nothing to DynamoDB.
fn show_include<'a>(attributes: impl Iterator<Item = &'a str>) -> String {
    let sorted: BTreeSet<&str> = attributes.collect();
    format!(
        "INCLUDE {}",
        sorted.into_iter().collect::<Vec<_>>().join(", ")
    )
}
