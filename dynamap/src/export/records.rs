//! Reading an export's data files one line at a time: one gzip'd file open at a time and
//! one record decoded at a time, so memory does not grow with the export.

use std::fs::File;
use std::io::{BufRead, BufReader, Lines};
use std::marker::PhantomData;
use std::path::PathBuf;

use flate2::read::MultiGzDecoder;
use serde_json::Value;

use super::{ExportKind, Exported, dynamodb_json};
use crate::codec::Item;
use crate::decode::{Decode, decode_image};
use crate::key::ItemKey;
use crate::table::Table;
use crate::{Error, Result};

type DataLines = Lines<BufReader<MultiGzDecoder<File>>>;

/// The records of an export as `U`, from [`Export::records`](super::Export::records): an
/// iterator of results, one per record of `U`'s entity types, with an error for each line or
/// item that cannot be read (naming its file and line, or the item's key), after which
/// reading goes on.
pub struct Records<U> {
    kind: ExportKind,
    files: std::vec::IntoIter<PathBuf>,
    /// The file being read, its lines, and the number of the last line read.
    current: Option<(PathBuf, DataLines, u64)>,
    marker: PhantomData<fn() -> U>,
}

impl<U> std::fmt::Debug for Records<U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("kind", &self.kind)
            .field("file", &self.current.as_ref().map(|c| (&c.0, c.2)))
            .finish_non_exhaustive()
    }
}

impl<U: Decode> Records<U> {
    pub(super) fn new(kind: ExportKind, files: Vec<PathBuf>) -> Self {
        Records {
            kind,
            files: files.into_iter(),
            current: None,
            marker: PhantomData,
        }
    }

    /// One line's record: `None` when it holds another entity type.
    fn record(&self, line: &str) -> std::result::Result<Option<Exported<U>>, RecordError> {
        let value: Value =
            serde_json::from_str(line).map_err(|err| RecordError::Line(err.to_string()))?;
        let Value::Object(mut record) = value else {
            return Err(RecordError::Line("a record is a JSON object".to_owned()));
        };
        let mut image = |name: &str| {
            record
                .remove(name)
                .map(dynamodb_json::item)
                .transpose()
                .map_err(|reason| RecordError::Line(format!("{name}: {reason}")))
        };
        match self.kind {
            ExportKind::Full => {
                let item = image("Item")?.ok_or_else(|| {
                    RecordError::Line("a full export's record has no `Item`".to_owned())
                })?;
                let key = key_of::<U>(&item);
                Ok(decode_image::<U>(item)
                    .map_err(|err| RecordError::Item(err.at_item(|| key)))?
                    .map(Exported::Item))
            }
            ExportKind::Incremental => {
                let keys = image("Keys")?.ok_or_else(|| {
                    RecordError::Line("an incremental export's record has no `Keys`".to_owned())
                })?;
                let (old, new) = (image("OldImage")?, image("NewImage")?);
                let written_at_micros = record.remove("Metadata").and_then(|m| {
                    m.get("WriteTimestampMicros")?
                        .get("N")?
                        .as_str()?
                        .parse()
                        .ok()
                });
                let key = key_of::<U>(&keys);
                let imaged = old.is_some() || new.is_some();
                let decode = |image: Option<Item>| {
                    image
                        .map(decode_image::<U>)
                        .transpose()
                        .map(Option::flatten)
                        .map_err(|err| RecordError::Item(err.at_item(|| key.clone())))
                };
                let (old, new) = (decode(old)?, decode(new)?);
                // Images of another entity type: not this reader's. A deletion exported
                // without its old image has no type to tell by, so every reader gets it.
                if imaged && old.is_none() && new.is_none() {
                    return Ok(None);
                }
                Ok(Some(Exported::Change {
                    key,
                    old,
                    new,
                    written_at_micros,
                }))
            }
        }
    }
}

/// Why a line gave no record.
enum RecordError {
    /// The line is not a record of the export's kind.
    Line(String),
    /// The item does not decode (its error names its key).
    Item(Error),
}

fn key_of<U: Decode>(item: &Item) -> ItemKey {
    let schema = <U::Table as Table>::SCHEMA;
    ItemKey::of(item, schema.pk, schema.sk)
}

fn invalid(file: &std::path::Path, line: Option<u64>, reason: String) -> Error {
    Error::InvalidExport {
        file: file.display().to_string(),
        line,
        reason,
        source: None,
    }
}

/// An I/O error reading `file`, kept as the error's source.
fn unreadable(file: &std::path::Path, line: Option<u64>, err: std::io::Error) -> Error {
    Error::InvalidExport {
        file: file.display().to_string(),
        line,
        reason: "cannot be read (a missing file, or not gzip)".to_owned(),
        source: Some(std::sync::Arc::new(err)),
    }
}

impl<U: Decode> Iterator for Records<U> {
    type Item = Result<Exported<U>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.current.is_none() {
                let path = self.files.next()?;
                match File::open(&path) {
                    Ok(file) => {
                        let lines = BufReader::new(MultiGzDecoder::new(file)).lines();
                        self.current = Some((path, lines, 0));
                    }
                    Err(err) => return Some(Err(unreadable(&path, None, err))),
                }
            }
            let (path, lines, number) = self.current.as_mut()?;
            match lines.next() {
                None => self.current = None,
                Some(Err(err)) => {
                    // A damaged gzip stream ends its file: what follows cannot be found.
                    let err = unreadable(path, Some(*number + 1), err);
                    self.current = None;
                    return Some(Err(err));
                }
                Some(Ok(line)) => {
                    *number += 1;
                    if line.trim().is_empty() {
                        continue;
                    }
                    let (path, number) = (path.clone(), *number);
                    match self.record(&line) {
                        Ok(Some(record)) => return Some(Ok(record)),
                        Ok(None) => {}
                        Err(RecordError::Item(err)) => return Some(Err(err)),
                        Err(RecordError::Line(reason)) => {
                            return Some(Err(invalid(&path, Some(number), reason)));
                        }
                    }
                }
            }
        }
    }
}
