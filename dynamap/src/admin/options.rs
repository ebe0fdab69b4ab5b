//! The options of a table beyond its layout: capacity, stream, protection, tags, recovery.
//!
//! One value holds them for both ends: [`CreateTable`](super::CreateTable) sends them, and
//! [`TableDefinition`](super::TableDefinition) writes them down for infrastructure as code,
//! so the two cannot disagree.

use super::tag_limits::{MAX_KEY_CHARS, MAX_TAGS, MAX_VALUE_CHARS};
use super::{StreamView, Throughput};
use crate::table::TableSchema;
use crate::{Error, Result};

/// How a table is created, apart from its layout: on-demand or provisioned capacity (for
/// the table and each global index), a stream, deletion protection, tags and point-in-time
/// recovery. The default is an on-demand table with none of the others.
///
/// The builder methods of [`CreateTable`](super::CreateTable) set the same options; this value
/// is for [`TableDefinition::new`](super::TableDefinition::new), which needs no connection.
///
/// # Examples
///
/// ```
/// use dynamap::admin::{StreamView, TableOptions};
///
/// let options = TableOptions::new()
///     .provisioned(10, 5)
///     .stream(StreamView::NewAndOldImages)
///     .tag("team", "sensors");
/// assert_ne!(options, TableOptions::default());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableOptions {
    pub(super) table: Option<Throughput>,
    pub(super) indexes: Vec<(String, Throughput)>,
    pub(super) stream: Option<StreamView>,
    pub(super) deletion_protection: bool,
    pub(super) tags: Vec<(String, String)>,
    pub(super) point_in_time_recovery: bool,
}

impl TableOptions {
    /// The defaults: on-demand, no stream, no deletion protection, no tags, no point-in-time
    /// recovery.
    ///
    /// ```
    /// assert_eq!(dynamap::admin::TableOptions::new(), Default::default());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Provisioned capacity instead of on-demand: `read` and `write` capacity units for the
    /// table, and for each global index not given its own with
    /// [`index_provisioned`](Self::index_provisioned).
    ///
    /// ```
    /// let options = dynamap::admin::TableOptions::new().provisioned(10, 5);
    /// # let _ = options;
    /// ```
    pub fn provisioned(mut self, read: i64, write: i64) -> Self {
        self.table = Some(Throughput { read, write });
        self
    }

    /// The capacity of one global secondary index of a provisioned table.
    ///
    /// ```
    /// let options = dynamap::admin::TableOptions::new()
    ///     .provisioned(10, 5)
    ///     .index_provisioned("GSI1", 20, 5);
    /// # let _ = options;
    /// ```
    pub fn index_provisioned(mut self, index: &str, read: i64, write: i64) -> Self {
        self.indexes.retain(|(name, _)| name != index);
        self.indexes
            .push((index.to_owned(), Throughput { read, write }));
        self
    }

    /// Turns on the table's DynamoDB stream, each record carrying `view` of the item.
    ///
    /// ```
    /// use dynamap::admin::{StreamView, TableOptions};
    /// let options = TableOptions::new().stream(StreamView::NewImage);
    /// # let _ = options;
    /// ```
    pub fn stream(mut self, view: StreamView) -> Self {
        self.stream = Some(view);
        self
    }

    /// Protects the table against deletion.
    ///
    /// ```
    /// let options = dynamap::admin::TableOptions::new().deletion_protection(true);
    /// # let _ = options;
    /// ```
    pub fn deletion_protection(mut self, on: bool) -> Self {
        self.deletion_protection = on;
        self
    }

    /// Adds a tag (at most 50; keys 1 to 128 characters, values up to 256).
    ///
    /// ```
    /// let options = dynamap::admin::TableOptions::new().tag("team", "sensors");
    /// # let _ = options;
    /// ```
    pub fn tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.push((key.into(), value.into()));
        self
    }

    /// Turns on point-in-time recovery (continuous backups).
    ///
    /// ```
    /// let options = dynamap::admin::TableOptions::new().point_in_time_recovery(true);
    /// # let _ = options;
    /// ```
    pub fn point_in_time_recovery(mut self, on: bool) -> Self {
        self.point_in_time_recovery = on;
        self
    }

    /// Every option against the layout and DynamoDB's limits, before anything is sent or
    /// written down.
    pub(super) fn check(&self, schema: &TableSchema) -> Result<()> {
        let invalid =
            |setting: &'static str, reason: String| Err(Error::InvalidSetting { setting, reason });
        for (setting, name, throughput) in self
            .table
            .iter()
            .map(|t| ("provisioned", "the table", t))
            .chain(
                self.indexes
                    .iter()
                    .map(|(name, t)| ("index_provisioned", name.as_str(), t)),
            )
        {
            if throughput.read < 1 || throughput.write < 1 {
                return invalid(
                    setting,
                    format!(
                        "provisioned capacity of {name} must be at least 1 read and 1 write unit, not {} and {}",
                        throughput.read, throughput.write
                    ),
                );
            }
        }
        if let Some((name, _)) = self.indexes.first()
            && self.table.is_none()
        {
            return invalid(
                "index_provisioned",
                format!(
                    "index {name:?} is given provisioned capacity, but the table is on-demand; call provisioned(read, write) for the table too"
                ),
            );
        }
        if let Some((name, _)) = self
            .indexes
            .iter()
            .find(|(name, _)| schema.index(name).is_none())
        {
            return Err(Error::UnknownIndex {
                table: schema.type_name,
                index: name.clone(),
            });
        }
        if let Some((name, _)) = self
            .indexes
            .iter()
            .find(|(name, _)| schema.index(name).is_some_and(|i| i.local))
        {
            return invalid(
                "index_provisioned",
                format!(
                    "index {name:?} is local: it shares the table's capacity and has none of its own"
                ),
            );
        }
        self.check_tags()
    }

    fn check_tags(&self) -> Result<()> {
        let invalid = |reason: String| {
            Err(Error::InvalidSetting {
                setting: "tag",
                reason,
            })
        };
        if self.tags.len() > MAX_TAGS {
            return invalid(format!(
                "{} tags given; a table has at most {MAX_TAGS}",
                self.tags.len()
            ));
        }
        for (i, (key, value)) in self.tags.iter().enumerate() {
            let key_chars = key.chars().count();
            if key_chars == 0 || key_chars > MAX_KEY_CHARS {
                return invalid(format!(
                    "tag key {key:?} is {key_chars} characters; tag keys are 1 to {MAX_KEY_CHARS}"
                ));
            }
            let value_chars = value.chars().count();
            if value_chars > MAX_VALUE_CHARS {
                return invalid(format!(
                    "the value of tag {key:?} is {value_chars} characters; tag values are at most {MAX_VALUE_CHARS}"
                ));
            }
            if self.tags[..i].iter().any(|(earlier, _)| earlier == key) {
                return invalid(format!("tag {key:?} is given twice"));
            }
        }
        Ok(())
    }
}
