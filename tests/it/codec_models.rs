//! Entities with compressed and TTL fields, shared by the codec and TTL tests.

use dynamap::codec::Columnar;
use dynamap::{Entity, Table};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", ttl = "expires_at")]
pub(crate) struct SleepApp;

/// One sensor event of a night.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Event {
    pub(crate) minute: u32,
    pub(crate) kind: String,
    pub(crate) level: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Summary {
    pub(crate) score: u8,
    pub(crate) notes: Vec<String>,
}

/// A night as the first release wrote it: events with BZip2 (as the seed did), the
/// summary as JSON with GZip.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Night", pk = "ACCOUNT#{account_id}", sk = "NIGHT#{night}")]
pub(crate) struct NightV1 {
    pub(crate) account_id: String,
    pub(crate) night: String,
    #[dynamap(compress(codec = "bzip2", format = "columnar"))]
    pub(crate) events: Vec<Event>,
    #[dynamap(compress(codec = "gzip", format = "json"))]
    pub(crate) summary: Option<Summary>,
}

/// The same items after the default codec changed.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Night", pk = "ACCOUNT#{account_id}", sk = "NIGHT#{night}")]
pub(crate) struct Night {
    pub(crate) account_id: String,
    pub(crate) night: String,
    // Through serde on purpose (the format said, so no note): the path `Event` takes.
    #[dynamap(compress(format = "columnar"))]
    pub(crate) events: Vec<Event>,
    #[dynamap(compress(codec = "snappy", format = "row"))]
    pub(crate) summary: Option<Summary>,
}

/// The same event once it derives `Columnar`: a list of them is written column by column
/// by generated code.
#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ColumnEvent {
    pub(crate) minute: u32,
    pub(crate) kind: String,
    pub(crate) level: f64,
}

/// The night after its events derive `Columnar`. `highlights` asks for JSON, so it is
/// written through serde.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Night", pk = "ACCOUNT#{account_id}", sk = "NIGHT#{night}")]
pub(crate) struct NightColumns {
    pub(crate) account_id: String,
    pub(crate) night: String,
    #[dynamap(compress)]
    pub(crate) events: Vec<ColumnEvent>,
    #[dynamap(compress(format = "json"))]
    pub(crate) highlights: Option<Vec<ColumnEvent>>,
}

/// A tight budget, to see it enforced.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Tight", pk = "TIGHT#{id}", sk = "TIGHT")]
pub(crate) struct Tight {
    pub(crate) id: String,
    #[dynamap(compress(budget = 64))]
    pub(crate) values: Vec<u64>,
}

/// Two large compressed fields: each under its budget, together over the item limit.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Wide", pk = "WIDE#{id}", sk = "WIDE")]
pub(crate) struct Wide {
    pub(crate) id: String,
    #[dynamap(compress(codec = "none", budget = 300000))]
    pub(crate) left: Vec<u64>,
    #[dynamap(compress(codec = "none", budget = 300000))]
    pub(crate) right: Vec<u64>,
}

/// A timeline entry that expires, as in the fan-out seed.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Entry", pk = "FEED#{user}", sk = "ENTRY#{seq}")]
pub(crate) struct Entry {
    pub(crate) user: String,
    pub(crate) seq: u32,
    #[dynamap(ttl)]
    pub(crate) expires_at: OffsetDateTime,
}

/// An optional TTL: entries without one never expire.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = SleepApp, entity = "Draft", pk = "DRAFT#{id}", sk = "DRAFT")]
pub(crate) struct Draft {
    pub(crate) id: String,
    #[dynamap(ttl)]
    pub(crate) expires_at: Option<OffsetDateTime>,
}
