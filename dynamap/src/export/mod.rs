//! DynamoDB's exports to S3 read as typed entities (feature `exports`).
//!
//! An export (`aws dynamodb export-table-to-point-in-time`, full or incremental, in the
//! `DYNAMODB_JSON` format) is a folder: `manifest-summary.json`, `manifest-files.json` and
//! `data/*.json.gz`, one record per line. Copy it from S3 with any tool (fetching it is
//! the caller's concern), then [`Export::open`] the folder and read its
//! [`records`](Export::records) as an entity, or as an `EntityEnum` for a single table of
//! several types: items are dispatched by their entity type, as stream records are, and
//! items of other types are passed over. Memory stays flat: one file is open and one record
//! decoded at a time.
//!
//! Every record that cannot be read is an error of its own, and reading goes on: a line that
//! is not a record ([`Error::InvalidExport`](crate::Error::InvalidExport), naming the file
//! and line), or an item that does not decode (its error naming the item's key,
//! [`Error::item_key`](crate::Error::item_key)).
//!
//! ```no_run
//! use dynamap::export::{Export, Exported};
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity, Debug)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
//! struct Sensor { id: String, city: String }
//!
//! # fn example() -> dynamap::Result<()> {
//! let export = Export::open("exports/AWSDynamoDB/01234567890123-abcdefgh")?;
//! for record in export.records::<Sensor>() {
//!     match record {
//!         Ok(Exported::Item(sensor)) => println!("{sensor:?}"),
//!         Ok(Exported::Change { key, new, .. }) => println!("{key}: now {new:?}"),
//!         Ok(_) => {}
//!         Err(err) => eprintln!("skipped: {err}"),
//!     }
//! }
//! # Ok(()) }
//! ```

mod dynamodb_json;
mod manifest;
mod records;

use std::path::{Path, PathBuf};

pub use records::Records;

use crate::Result;
use crate::decode::Decode;
use crate::key::ItemKey;

/// Whether an export holds every item or the changes of a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportKind {
    /// Every item at a point in time: records are [`Exported::Item`].
    Full,
    /// The changes of a period: records are [`Exported::Change`].
    Incremental,
}

/// One record of an export, decoded.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Exported<T> {
    /// An item of a full export.
    Item(T),
    /// A change of an incremental export: the item's key, its image before the period
    /// (exports with old images) and after it (`None` when it was deleted), and when it was
    /// last written, in microseconds since the Unix epoch. A deletion exported without its
    /// old image cannot be told apart by entity type, so every reader gets it, with neither
    /// image.
    Change {
        /// The item's primary key.
        key: ItemKey,
        /// The item before the changes of the period.
        old: Option<T>,
        /// The item after them; `None` when deleted.
        new: Option<T>,
        /// When the item was last written, in microseconds since the Unix epoch.
        written_at_micros: Option<u64>,
    },
}

/// An export folder, its manifests read.
#[derive(Debug, Clone)]
pub struct Export {
    manifest: manifest::Manifest,
}

impl Export {
    /// Reads the manifests of the export in `dir`: the folder holding
    /// `manifest-summary.json`, `manifest-files.json` and `data/`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidExport`](crate::Error::InvalidExport) when a manifest is missing or
    /// malformed, or the export is not in the `DYNAMODB_JSON` format.
    pub fn open(dir: impl AsRef<Path>) -> Result<Export> {
        Ok(Export {
            manifest: manifest::read(dir.as_ref())?,
        })
    }

    /// Full or incremental.
    pub fn kind(&self) -> ExportKind {
        self.manifest.kind
    }

    /// The number of records the manifests announce, when they do.
    pub fn item_count(&self) -> Option<u64> {
        self.manifest.item_count
    }

    /// The data files, in the manifest's order.
    pub fn files(&self) -> &[PathBuf] {
        &self.manifest.files
    }

    /// The records of `U`'s entity types, read one at a time (see the [module](self)).
    pub fn records<U: Decode>(&self) -> Records<U> {
        Records::new(self.manifest.kind, self.manifest.files.clone())
    }
}
