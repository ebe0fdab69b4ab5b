//! [dynamap]'s entities written to Parquet, one file per entity type, so an analytics engine
//! (DuckDB, Athena, Spark, pandas) sees typed tables instead of one heap of single-table
//! items.
//!
//! A crate of its own, so that following the `parquet` crate (a new major version every few
//! months) is this crate's release, not dynamap's: dynamap does not depend on `parquet`, and
//! no type of `parquet` is part of this crate's API. It writes with `parquet`'s low-level
//! writer (no Arrow).
//!
//! ```toml
//! [dependencies]
//! dynamap = { version = "0.1", features = ["exports"] }
//! dynamap-parquet = "0.1"
//! ```
//!
//! [`ParquetTables::create`] a folder, [`write`](ParquetTables::write) entities (or an
//! `EntityEnum` of a table's types) from anywhere, such as an export's
//! [records](dynamap::export::Export::records) or a parallel
//! [scan](dynamap::query::Scan::stream) of a live table, and [`finish`](ParquetTables::finish):
//! the folder then holds `<entity type>.parquet` for each type written.
//!
//! Each file's columns are the table's primary key attributes (text, never null), then one
//! per stored field, named by its attribute, in declaration order; key template fields are
//! columns of their own typed values. A column's type comes from the field's type
//! ([`ColumnKind`]): text, integers, unsigned 64-bit integers, floats, booleans, timestamps
//! (fields stored `with` [`dynamap::codec::timestamp`] or `epoch_seconds`, in microseconds,
//! UTC), the stored bytes of `#[dynamap(compress)]` fields, and a JSON document for
//! anything else (structs, enums, lists, maps, sets). Every field column may be null: an
//! `Option` that is `None`, or an attribute an older item lacks. Pages are Snappy
//! compressed.
//!
//! Memory is bounded by a row group per entity type (10,000 rows by default, see
//! [`row_group_rows`](ParquetTables::row_group_rows)), not by the number of rows. An
//! item whose stored value does not fit its column (a field changed type, say) is an
//! [`Error::Parquet`](dynamap::Error::Parquet) naming the file, the item's key and the
//! attribute; the row is left out and writing can go on.
//!
//! ```no_run
//! use dynamap::export::{Export, Exported};
//! use dynamap_parquet::ParquetTables;
//! use dynamap::{Entity, EntityEnum, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
//! struct Sensor { id: String, city: String }
//!
//! #[derive(Entity)]
//! #[dynamap(table = App, entity = "Reading", pk = "SENSOR#{sensor}", sk = "READING#{at}")]
//! struct Reading { sensor: String, at: u64, celsius: f64 }
//!
//! #[derive(EntityEnum)]
//! enum AppItem { Sensor(Sensor), Reading(Reading) }
//!
//! # fn example() -> dynamap::Result<()> {
//! let export = Export::open("exports/AWSDynamoDB/01234567890123-abcdefgh")?;
//! let mut tables = ParquetTables::create("analytics/app")?;
//! for record in export.records::<AppItem>() {
//!     match record {
//!         Ok(Exported::Item(item)) => tables.write(&item)?,
//!         Ok(_) => {}
//!         Err(err) => eprintln!("skipped: {err}"),
//!     }
//! }
//! for table in tables.finish()? {
//!     println!("{}: {} rows in {}", table.entity_type, table.rows, table.path.display());
//! }
//! # Ok(()) }
//! ```
//!
//! Scanning a live table is the same code, fed by the scan's stream:
//!
//! ```no_run
//! # use dynamap::{Entity, EntityEnum, Table};
//! # #[derive(Table)]
//! # #[dynamap(pk = "PK", sk = "SK")]
//! # struct App;
//! # #[derive(Entity)]
//! # #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
//! # struct Sensor { id: String, city: String }
//! # #[derive(EntityEnum)]
//! # enum AppItem { Sensor(Sensor) }
//! use dynamap_parquet::ParquetTables;
//! use futures_util::TryStreamExt;
//!
//! # async fn example(db: &dynamap::Db<App>) -> dynamap::Result<()> {
//! let mut tables = ParquetTables::create("analytics/app")?;
//! let mut items = std::pin::pin!(db.scan::<AppItem>().segments(4).stream());
//! while let Some(item) = items.try_next().await? {
//!     tables.write(&item)?;
//! }
//! tables.finish()?;
//! # Ok(()) }
//! ```

mod cells;
mod table_file;

/// The README's example, compiled as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dynamap::__private::parquet_error;
// Described by dynamap's derives, which generate them through `dynamap::__private`; named
// here, by the users of the writer.
#[doc(inline)]
pub use dynamap::__private::{Column, ColumnKind, EntityRow};
use dynamap::Result;
use table_file::TableFile;

/// The default number of rows per row group, which bounds the memory of each entity type's
/// file being written.
pub const DEFAULT_ROW_GROUP_ROWS: usize = 10_000;

/// A folder of Parquet files being written, one per entity type (see the
/// [crate docs](crate)).
pub struct ParquetTables {
    dir: PathBuf,
    row_group_rows: usize,
    files: BTreeMap<&'static str, TableFile>,
}

impl std::fmt::Debug for ParquetTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetTables")
            .field("dir", &self.dir)
            .field("row_group_rows", &self.row_group_rows)
            .field("entity_types", &self.files.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// One file written by [`ParquetTables::finish`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParquetTable {
    /// The entity type whose rows it holds.
    pub entity_type: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The number of rows.
    pub rows: u64,
}

impl ParquetTables {
    /// Writes into `dir`, creating it if needed. A file is created for an entity type when
    /// its first row is written, replacing any file of that name.
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`](dynamap::Error::Parquet) when the folder cannot be created.
    pub fn create(dir: impl AsRef<Path>) -> Result<ParquetTables> {
        let dir = dir.as_ref().to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|err| {
            parquet_error(
                dir.display().to_string(),
                "cannot be created".to_owned(),
                Some(std::sync::Arc::new(err)),
            )
        })?;
        Ok(ParquetTables {
            dir,
            row_group_rows: DEFAULT_ROW_GROUP_ROWS,
            files: BTreeMap::new(),
        })
    }

    /// Rows per row group ([`DEFAULT_ROW_GROUP_ROWS`] by default; at least 1): the rows
    /// each entity type's file keeps in memory before writing them.
    #[must_use]
    pub fn row_group_rows(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// Adds `row` to its entity type's file.
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`](dynamap::Error::Parquet) when a stored value does not fit its
    /// column (the row is left out and writing can go on) or the file cannot be written; the
    /// entity's own error when it cannot render its item.
    pub fn write<R: EntityRow + ?Sized>(&mut self, row: &R) -> Result<()> {
        let item = row.item()?;
        let entity_type = row.entity_type();
        let file = match self.files.entry(entity_type) {
            std::collections::btree_map::Entry::Occupied(file) => file.into_mut(),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let path = self.dir.join(file_name(entity_type));
                let file = TableFile::create(
                    path,
                    row.key_attributes(),
                    row.columns(),
                    self.row_group_rows,
                )?;
                slot.insert(file)
            }
        };
        file.push(item)
    }

    /// Writes what is buffered and every file's footer, and returns the files written, in
    /// order of entity type.
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`](dynamap::Error::Parquet) when a file cannot be written.
    pub fn finish(self) -> Result<Vec<ParquetTable>> {
        self.files
            .into_iter()
            .map(|(entity_type, file)| {
                let (path, rows) = file.finish()?;
                Ok(ParquetTable {
                    entity_type,
                    path,
                    rows,
                })
            })
            .collect()
    }
}

/// `<entity type>.parquet`, with every character but letters, digits, `-`, `_` and `.`
/// written as `%XX`, so every entity type has a file name of its own.
fn file_name(entity_type: &str) -> String {
    let mut name = String::with_capacity(entity_type.len() + 8);
    for byte in entity_type.bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'_')
            || (byte == b'.' && !name.is_empty())
        {
            name.push(char::from(byte));
        } else {
            name.push_str(&format!("%{byte:02X}"));
        }
    }
    name.push_str(".parquet");
    name
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    /// Like an export's, a folder that cannot be made keeps the I/O error behind it as its
    /// `source()` and typed through `io_error()`, so a caller can tell why without reading
    /// text.
    #[test]
    fn a_folder_that_cannot_be_made_keeps_the_io_error() {
        // A file where a folder of the path should be.
        let blocker =
            std::env::temp_dir().join(format!("dynamap-parquet-blocker-{}", std::process::id()));
        std::fs::write(&blocker, b"not a folder").expect("a file");
        let err = super::ParquetTables::create(blocker.join("out")).expect_err("blocked");
        std::fs::remove_file(&blocker).expect("cleaned up");
        let io = err
            .io_error()
            .unwrap_or_else(|| panic!("no io source: {err:?}"));
        assert_eq!(err.source().map(ToString::to_string), Some(io.to_string()));
        assert!(
            matches!(err, dynamap::Error::Parquet { ref file, .. } if file.ends_with("out")),
            "{err:?}"
        );
        assert_eq!(err.kind(), dynamap::ErrorKind::Encode);
    }

    #[test]
    fn every_entity_type_has_a_file_name_of_its_own() {
        assert_eq!(super::file_name("Sensor"), "Sensor.parquet");
        assert_eq!(
            super::file_name("Sensor.location"),
            "Sensor.location.parquet"
        );
        assert_eq!(super::file_name("a/b#c"), "a%2Fb%23c.parquet");
        assert_eq!(super::file_name(".."), "%2E..parquet");
    }
}
