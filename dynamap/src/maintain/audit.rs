//! The key audit: a read-only walk of a whole table that reports every item that is not
//! what its entity renders now, or that no entity reads.

use std::fmt;
use std::marker::PhantomData;

use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::audit_report::{AuditReport, Finding, FindingKind};
use super::checkpoint::CHECKPOINT_TYPE;
use super::lookups::record_attributes;
use super::plan::{item_key, key_attributes};
use crate::Entity;
use crate::codec::{AttributeValue, Item};
use crate::entity::{OWNER_PK, OWNER_SK};
use crate::span::send_in;
use crate::table::{Table, TableSchema};
use crate::write::lookup_items::record;
use crate::{Error, Handle, Result};

/// A read-only audit of a table's items; made by [`Db::audit`](crate::Db::audit), run by
/// [`send`](Audit::send) or by awaiting it. Register every entity the table holds with
/// [`entity`](Audit::entity): an item of a type none of them knows is a finding.
#[must_use = "an audit does nothing until it is sent or awaited"]
pub struct Audit<L> {
    db: Handle,
    layout: PhantomData<fn() -> L>,
    schema: Option<TableSchema>,
    entities: Vec<Registered>,
    segments: u32,
    concurrency: usize,
    error: Option<Error>,
}

impl<L> Clone for Audit<L> {
    fn clone(&self) -> Self {
        Self {
            db: self.db.clone(),
            layout: PhantomData,
            schema: self.schema,
            entities: self.entities.clone(),
            segments: self.segments,
            concurrency: self.concurrency,
            error: self.error.clone(),
        }
    }
}

impl<L> fmt::Debug for Audit<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Audit")
            .field("table", &self.db.table_name())
            .field(
                "entities",
                &self.entities.iter().map(|e| e.names[0]).collect::<Vec<_>>(),
            )
            .field("segments", &self.segments)
            .finish_non_exhaustive()
    }
}

/// One entity the audit knows: its names, its lookup item types, and its check.
#[derive(Clone)]
struct Registered {
    names: Vec<&'static str>,
    lookup_types: &'static [&'static str],
    check: fn(&TableSchema, Item) -> Option<FindingKind>,
}

impl<L: crate::table::Table> crate::Db<L> {
    /// A read-only audit of every item of the table: keys that differ from what the
    /// templates render, entity types no registered entity knows, lookup items whose owner
    /// is missing or records another key, items at older schema versions, items at newer
    /// schema versions than the entity knows, and items that do not decode.
    ///
    /// ```no_run
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER")]
    /// # struct User { id: String }
    /// # #[derive(Entity)] #[dynamap(table = App, entity = "Order", pk = "USER#{user}", sk = "ORDER#{id}")]
    /// # struct Order { user: String, id: String }
    /// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    /// let report = db.audit().entity::<User>().entity::<Order>().segments(4).send().await?;
    /// println!("{report}");
    /// assert!(report.is_clean(), "the table has drifted");
    /// # Ok(()) }
    /// ```
    pub fn audit(&self) -> Audit<L> {
        Audit {
            db: self.handle().clone(),
            layout: PhantomData,
            schema: None,
            entities: Vec::new(),
            segments: 1,
            concurrency: 16,
            error: None,
        }
    }
}

impl<L: Table> Audit<L> {
    /// Registers entity `E` (with its aliases and lookup items). Every entity must be of
    /// the same table.
    pub fn entity<E: Entity + crate::InLayout<L>>(mut self) -> Self {
        let schema = <E::Table as Table>::SCHEMA;
        match &self.schema {
            Some(known) if known.type_name != schema.type_name => {
                self.error.get_or_insert(Error::InvalidSetting {
                    setting: "entity",
                    reason: format!(
                        "entity `{}` is of table `{}`, the audit's is `{}`",
                        E::ENTITY_TYPE,
                        schema.type_name,
                        known.type_name
                    ),
                });
            }
            _ => self.schema = Some(schema),
        }
        let names = std::iter::once(E::ENTITY_TYPE)
            .chain(E::ALIASES.iter().copied())
            .collect();
        self.entities.push(Registered {
            names,
            lookup_types: E::LOOKUP_TYPES,
            check: check_entity::<E>,
        });
        self
    }

    /// Splits the scan into `n` segments read in parallel (1 by default).
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n;
        self
    }

    /// Reads at most `n` segments at once (16 by default).
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n.max(1);
        self
    }

    /// Reads every item of the table and reports what it found.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidSetting`] when no entity is registered, when entities of
    /// several tables are, or for segments out of range; with [`Error::Service`] when a scan
    /// or an owner's read fails. Items that do not decode are findings, not errors.
    #[doc(alias = "run")]
    pub async fn send(self) -> Result<AuditReport> {
        if let Some(error) = self.error.clone() {
            return Err(error);
        }
        let Some(schema) = self.schema else {
            return Err(Error::InvalidSetting {
                setting: "entity",
                reason: "an audit needs the table's entities: register them with `entity::<E>()`"
                    .to_owned(),
            });
        };
        if self.segments == 0 || self.segments > 1_000_000 {
            return Err(Error::InvalidSetting {
                setting: "segments",
                reason: format!(
                    "an audit takes 1 to 1000000 segments, not {}",
                    self.segments
                ),
            });
        }
        let this = &self;
        stream::iter(0..self.segments)
            .map(|segment| this.segment(&schema, segment))
            .buffer_unordered(self.concurrency)
            .try_fold(AuditReport::default(), |mut total, report| async move {
                total.add(report);
                Ok(total)
            })
            .await
    }

    async fn segment(&self, schema: &TableSchema, segment: u32) -> Result<AuditReport> {
        let mut report = AuditReport::default();
        let mut start = None;
        loop {
            let parallel = self.segments > 1;
            // Every item of the table is read (lookups included): no one entity type.
            let call = crate::span::Call::new(&self.db, "Scan", "", None);
            let out = send_in!(
                call,
                self.db
                    .client()
                    .scan()
                    .table_name(self.db.table_name())
                    .set_segment(parallel.then_some(segment as i32))
                    .set_total_segments(parallel.then_some(self.segments as i32))
                    .set_exclusive_start_key(start.take())
            );
            let out = call
                .end(out, |o| o.consumed_capacity())
                .map_err(|e| Error::service("Scan", e))?;
            for item in out.items.unwrap_or_default() {
                let key = item_key(schema, &item);
                match self.check(schema, item).await? {
                    Checked::Skipped => {}
                    Checked::Fine => report.scanned += 1,
                    Checked::Found(kind) => {
                        report.scanned += 1;
                        report.found(Finding { key, kind });
                    }
                }
            }
            match out.last_evaluated_key {
                Some(next) => start = Some(next),
                None => return Ok(report),
            }
        }
    }

    async fn check(&self, schema: &TableSchema, item: Item) -> Result<Checked> {
        let found = match item.get(schema.entity_type) {
            Some(AttributeValue::S(found)) => Some(found.clone()),
            _ => None,
        };
        let Some(found) = found else {
            return Ok(Checked::Found(FindingKind::UnknownType { found: None }));
        };
        if found == CHECKPOINT_TYPE {
            return Ok(Checked::Skipped);
        }
        if let Some(entity) = self
            .entities
            .iter()
            .find(|e| e.names.contains(&found.as_str()))
        {
            return Ok(match (entity.check)(schema, item) {
                Some(kind) => Checked::Found(kind),
                None => Checked::Fine,
            });
        }
        if self
            .entities
            .iter()
            .any(|e| e.lookup_types.contains(&found.as_str()))
        {
            return self.check_lookup(schema, &found, &item).await;
        }
        Ok(Checked::Found(FindingKind::UnknownType {
            found: Some(found),
        }))
    }

    /// A lookup item: its owner exists and records this item's key for the lookup.
    async fn check_lookup(
        &self,
        schema: &TableSchema,
        found: &str,
        item: &Item,
    ) -> Result<Checked> {
        let lookup = found
            .split_once('.')
            .map_or(found, |(_, name)| name)
            .to_owned();
        let orphan = |reason: &str| {
            Ok(Checked::Found(FindingKind::OrphanLookup {
                lookup: found.to_owned(),
                reason: reason.to_owned(),
            }))
        };
        let mut owner_key = Item::new();
        match item.get(OWNER_PK) {
            Some(pk) => owner_key.insert(schema.pk.to_owned(), pk.clone()),
            None => return orphan("it records no owner"),
        };
        if let (Some(sk), Some(value)) = (schema.sk, item.get(OWNER_SK)) {
            owner_key.insert(sk.to_owned(), value.clone());
        }
        let Some(owner) = self.db.consistent_item(owner_key).await? else {
            return orphan("its owner does not exist");
        };
        let recorded = |part: &str| owner.get(&format!("_lookup_{lookup}_{part}"));
        let own = |attribute: Option<&str>| attribute.and_then(|a| item.get(a));
        if recorded("pk") != own(Some(schema.pk)) || recorded("sk") != own(schema.sk) {
            return orphan("its owner records another key for this lookup");
        }
        Ok(Checked::Fine)
    }
}

enum Checked {
    /// Not an item of the application (a job's checkpoint).
    Skipped,
    Fine,
    Found(FindingKind),
}

/// One entity's check of one of its items.
fn check_entity<E: Entity>(schema: &TableSchema, item: Item) -> Option<FindingKind> {
    let entity = match E::from_item(item.clone()) {
        Ok(entity) => entity,
        Err(Error::NewerSchemaVersion { found, known, .. }) => {
            return Some(FindingKind::NewerVersion {
                entity: E::ENTITY_TYPE,
                version: found,
                current: known,
            });
        }
        Err(error) => {
            return Some(FindingKind::Undecodable {
                entity: E::ENTITY_TYPE,
                error,
            });
        }
    };
    // What it renders now, with the keys of its lookups as it records them.
    let rendered = entity.to_item().and_then(|mut rendered| {
        record(&mut rendered, &entity.lookup_keys()?);
        Ok(rendered)
    });
    let rendered = match rendered {
        Ok(rendered) => rendered,
        Err(error) => {
            return Some(FindingKind::Undecodable {
                entity: E::ENTITY_TYPE,
                error,
            });
        }
    };
    let mut names: Vec<String> = key_attributes(schema)
        .into_iter()
        .chain([schema.entity_type])
        .map(str::to_owned)
        .chain(record_attributes::<E>())
        .collect();
    names.sort_unstable();
    let drifted: Vec<String> = names
        .into_iter()
        .filter(|name| item.get(name) != rendered.get(name))
        .collect();
    if !drifted.is_empty() {
        return Some(FindingKind::KeyDrift {
            entity: E::ENTITY_TYPE,
            attributes: drifted,
        });
    }
    let current = E::WRITE.schema_version?;
    let version =
        crate::schema_version::stored_version(&item, E::ENTITY_TYPE, current, schema).ok()?;
    (version < current).then_some(FindingKind::OlderVersion {
        entity: E::ENTITY_TYPE,
        version,
        current,
    })
}

impl<L: Table> std::future::IntoFuture for Audit<L> {
    type Output = Result<AuditReport>;
    type IntoFuture =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<AuditReport>> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
