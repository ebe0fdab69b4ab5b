//! What an audit reports: counts, the findings with their keys, and a summary for CI.

use std::fmt;

use crate::Error;
use crate::batch::ItemKey;

/// Findings kept with their keys; the rest are counted.
const MAX_FINDINGS: usize = 1_000;

/// What an audit found.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct AuditReport {
    /// Items read (a job's checkpoints aside).
    pub scanned: u64,
    /// Items whose key attributes or entity type differ from what their entity renders.
    pub key_drift: u64,
    /// Items whose entity type no registered entity (or alias, or lookup) knows.
    pub unknown_type: u64,
    /// Lookup items whose owner is missing or records another key.
    pub orphan_lookups: u64,
    /// Items stored at an older schema version.
    pub older_versions: u64,
    /// Items stored at a newer schema version than the registered entity knows (written
    /// by newer code); counted apart from `undecodable`, as nothing is wrong with them.
    pub newer_versions: u64,
    /// Items that do not decode as their entity.
    pub undecodable: u64,
    /// The findings with their keys (the first 1,000).
    pub findings: Vec<Finding>,
}

impl AuditReport {
    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.key_drift
            + self.unknown_type
            + self.orphan_lookups
            + self.older_versions
            + self.newer_versions
            + self.undecodable
            == 0
    }

    pub(super) fn found(&mut self, finding: Finding) {
        match finding.kind {
            FindingKind::KeyDrift { .. } => self.key_drift += 1,
            FindingKind::UnknownType { .. } => self.unknown_type += 1,
            FindingKind::OrphanLookup { .. } => self.orphan_lookups += 1,
            FindingKind::OlderVersion { .. } => self.older_versions += 1,
            FindingKind::NewerVersion { .. } => self.newer_versions += 1,
            FindingKind::Undecodable { .. } => self.undecodable += 1,
        }
        if self.findings.len() < MAX_FINDINGS {
            self.findings.push(finding);
        }
    }

    pub(super) fn add(&mut self, other: AuditReport) {
        self.scanned += other.scanned;
        self.key_drift += other.key_drift;
        self.unknown_type += other.unknown_type;
        self.orphan_lookups += other.orphan_lookups;
        self.older_versions += other.older_versions;
        self.newer_versions += other.newer_versions;
        self.undecodable += other.undecodable;
        let room = MAX_FINDINGS.saturating_sub(self.findings.len());
        self.findings.extend(other.findings.into_iter().take(room));
    }
}

/// A summary for logs and CI: one line of counts, then one line per finding kept.
impl fmt::Display for AuditReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} items: {} key drift, {} unknown type, {} orphan lookups, {} older versions, {} newer versions, {} undecodable",
            self.scanned,
            self.key_drift,
            self.unknown_type,
            self.orphan_lookups,
            self.older_versions,
            self.newer_versions,
            self.undecodable
        )?;
        for finding in &self.findings {
            write!(f, "\n  {}: {}", finding.key, finding.kind)?;
        }
        Ok(())
    }
}

/// One item the audit reports.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Finding {
    /// The item's key as stored.
    pub key: ItemKey,
    /// What is wrong with it.
    pub kind: FindingKind,
}

/// What an audit found about an item.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum FindingKind {
    /// Its key attributes, the lookup keys it records, or its entity type (for an item
    /// stored under an alias) differ from what the entity renders: a maintenance job's
    /// `rekey()` rewrites it.
    KeyDrift {
        /// The entity.
        entity: &'static str,
        /// The attributes that differ.
        attributes: Vec<String>,
    },
    /// No registered entity knows its entity type (`None`: it has none).
    UnknownType {
        /// The entity type it holds.
        found: Option<String>,
    },
    /// A lookup item whose owner is missing or records another key for the lookup.
    OrphanLookup {
        /// The lookup item's type (`Entity.lookup`).
        lookup: String,
        /// What is wrong.
        reason: String,
    },
    /// Stored at an older schema version: reads upgrade it; `upgrade()` rewrites it.
    OlderVersion {
        /// The entity.
        entity: &'static str,
        /// The stored version.
        version: u32,
        /// The entity's current version.
        current: u32,
    },
    /// Stored at a newer schema version than the registered entity knows: written by newer
    /// code (a deploy rolled back, or an audit run by an older build). Reads refuse it with
    /// [`Error::NewerSchemaVersion`] rather than drop what the newer code stored; audit
    /// with the build that writes that version.
    NewerVersion {
        /// The entity.
        entity: &'static str,
        /// The stored version.
        version: u32,
        /// The newest version this build of the entity knows.
        current: u32,
    },
    /// It does not decode as its entity.
    Undecodable {
        /// The entity.
        entity: &'static str,
        /// Why.
        error: Error,
    },
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingKind::KeyDrift { entity, attributes } => {
                let verb = if attributes.len() == 1 {
                    "differs"
                } else {
                    "differ"
                };
                write!(
                    f,
                    "{entity}: {} {verb} from the templates",
                    attributes.join(", ")
                )
            }
            FindingKind::UnknownType { found: Some(found) } => {
                write!(f, "entity type {found:?} is not known")
            }
            FindingKind::UnknownType { found: None } => write!(f, "no entity type"),
            FindingKind::OrphanLookup { lookup, reason } => write!(f, "{lookup}: {reason}"),
            FindingKind::OlderVersion {
                entity,
                version,
                current,
            } => write!(f, "{entity}: schema version {version} (current {current})"),
            FindingKind::NewerVersion {
                entity,
                version,
                current,
            } => write!(
                f,
                "{entity}: schema version {version}, newer than version {current} this code knows"
            ),
            FindingKind::Undecodable { entity, error } => write!(f, "{entity}: {error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FindingKind;

    fn drift(attributes: &[&str]) -> String {
        FindingKind::KeyDrift {
            entity: "Sensor",
            attributes: attributes.iter().map(|a| (*a).to_owned()).collect(),
        }
        .to_string()
    }

    #[test]
    fn one_attribute_differs_and_several_differ() {
        assert_eq!(drift(&["pk"]), "Sensor: pk differs from the templates");
        assert_eq!(
            drift(&["pk", "gsi1sk"]),
            "Sensor: pk, gsi1sk differ from the templates"
        );
    }

    #[test]
    fn older_and_newer_versions_read_apart() {
        let older = FindingKind::OlderVersion {
            entity: "Sensor",
            version: 1,
            current: 2,
        };
        let newer = FindingKind::NewerVersion {
            entity: "Sensor",
            version: 3,
            current: 2,
        };
        assert_eq!(older.to_string(), "Sensor: schema version 1 (current 2)");
        assert_eq!(
            newer.to_string(),
            "Sensor: schema version 3, newer than version 2 this code knows"
        );
    }
}
