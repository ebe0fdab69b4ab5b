//! One entity type's Parquet file: its schema from the entity's columns, rows buffered by
//! column and written a row group at a time, so memory is bounded by the row group.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, TimeUnit, Type as PhysicalType};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::Type;

use dynamap::__private::{item_key, parquet_error};
use dynamap::codec::{AttributeValue, Item};
use dynamap::{Error, Result};

use crate::cells::{Cell, cell};
use crate::{Column, ColumnKind};

/// An entity type's file being written.
pub(crate) struct TableFile {
    path: PathBuf,
    writer: SerializedFileWriter<BufWriter<File>>,
    /// The primary key's columns first, then the entity's.
    columns: Vec<ColumnBuffer>,
    keys: (&'static str, Option<&'static str>),
    row_group_rows: usize,
    buffered: usize,
    rows: u64,
}

impl TableFile {
    pub(crate) fn create(
        path: PathBuf,
        keys: (&'static str, Option<&'static str>),
        entity_columns: Vec<Column>,
        row_group_rows: usize,
    ) -> Result<TableFile> {
        let key_columns = std::iter::once(keys.0)
            .chain(keys.1)
            .map(|name| (Column::new(name, ColumnKind::Text), Repetition::REQUIRED));
        let columns: Vec<ColumnBuffer> = key_columns
            .chain(
                entity_columns
                    .into_iter()
                    .map(|column| (column, Repetition::OPTIONAL)),
            )
            .map(|(column, repetition)| ColumnBuffer::new(column, repetition))
            .collect();
        let fields = columns
            .iter()
            .map(|column| column.schema().map(Arc::new))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|err| failed(&path, err))?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()
            .map_err(|err| failed(&path, err))?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_size(row_group_rows)
            .build();
        let file = File::create(&path).map_err(|err| failed(&path, err))?;
        let writer =
            SerializedFileWriter::new(BufWriter::new(file), Arc::new(schema), Arc::new(properties))
                .map_err(|err| failed(&path, err))?;
        Ok(TableFile {
            path,
            writer,
            columns,
            keys,
            row_group_rows,
            buffered: 0,
            rows: 0,
        })
    }

    /// Adds the row of `item`: every column's cell is read before any is kept, so an item
    /// that does not fit leaves the file as it was.
    pub(crate) fn push(&mut self, mut item: Item) -> Result<()> {
        let mut cells = Vec::with_capacity(self.columns.len());
        for column in &self.columns {
            let Column { name, kind } = column.column;
            let value = item.remove(name);
            let read = if value.is_none() && column.repetition == Repetition::REQUIRED {
                Err(format!("the key attribute `{name}` is missing"))
            } else {
                cell(kind, value).map_err(|reason| format!("attribute `{name}`: {reason}"))
            };
            match read {
                Ok(cell) => cells.push(cell),
                Err(reason) => return Err(self.unfit(&cells, &reason)),
            }
        }
        for (column, cell) in self.columns.iter_mut().zip(cells) {
            column.push(cell);
        }
        self.buffered += 1;
        self.rows += 1;
        if self.buffered >= self.row_group_rows {
            self.flush()?;
        }
        Ok(())
    }

    /// The error for an item that does not fit, named by its key: the first cells read.
    #[cold]
    fn unfit(&self, cells: &[Cell], reason: &str) -> Error {
        let key_value = |at: usize| match cells.get(at) {
            Some(Cell::Bytes(text)) => Some(AttributeValue::S(
                String::from_utf8_lossy(text).into_owned(),
            )),
            _ => None,
        };
        let (pk, sk) = (key_value(0), self.keys.1.and_then(|_| key_value(1)));
        let key = item_key(pk.as_ref(), sk.as_ref());
        parquet_error(
            self.path.display().to_string(),
            format!("item {key}: {reason}"),
            None,
        )
    }

    /// Writes the buffered rows as a row group.
    fn flush(&mut self) -> Result<()> {
        if self.buffered == 0 {
            return Ok(());
        }
        let path = &self.path;
        let mut group = self
            .writer
            .next_row_group()
            .map_err(|err| failed(path, err))?;
        for column in &mut self.columns {
            let Some(mut writer) = group.next_column().map_err(|err| failed(path, err))? else {
                return Err(parquet_error(
                    path.display().to_string(),
                    "fewer columns than the schema".to_owned(),
                    None,
                ));
            };
            column
                .drain_into(&mut writer)
                .map_err(|err| failed(path, err))?;
            writer.close().map_err(|err| failed(path, err))?;
        }
        group.close().map_err(|err| failed(path, err))?;
        self.buffered = 0;
        Ok(())
    }

    /// Writes what is buffered and the file's footer; returns the path and the row count.
    pub(crate) fn finish(mut self) -> Result<(PathBuf, u64)> {
        self.flush()?;
        self.writer.close().map_err(|err| failed(&self.path, err))?;
        Ok((self.path, self.rows))
    }
}

/// Writing `path` failed with `err`, kept as the error's source.
fn failed(path: &Path, err: impl std::error::Error + Send + Sync + 'static) -> Error {
    parquet_error(
        path.display().to_string(),
        "cannot be written".to_owned(),
        Some(Arc::new(err)),
    )
}

/// One column's buffered values (nulls left out) and definition levels.
struct ColumnBuffer {
    column: Column,
    repetition: Repetition,
    values: Values,
    /// 1 for a value, 0 for a null; only for optional columns.
    levels: Vec<i16>,
}

enum Values {
    Bytes(Vec<ByteArray>),
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
}

impl ColumnBuffer {
    fn new(column: Column, repetition: Repetition) -> ColumnBuffer {
        // `ColumnKind` is non-exhaustive. A kind this writer does not know (none reaches it:
        // the crate pins dynamap's exact version) is written as the JSON document every
        // stored attribute has.
        let kind = match column.kind {
            kind @ (ColumnKind::Text
            | ColumnKind::Int
            | ColumnKind::UInt
            | ColumnKind::Float
            | ColumnKind::Bool
            | ColumnKind::Timestamp
            | ColumnKind::Binary
            | ColumnKind::Json) => kind,
            _ => ColumnKind::Json,
        };
        let column = Column::new(column.name, kind);
        let values = match column.kind {
            ColumnKind::Int | ColumnKind::UInt | ColumnKind::Timestamp => Values::Int(Vec::new()),
            ColumnKind::Float => Values::Float(Vec::new()),
            ColumnKind::Bool => Values::Bool(Vec::new()),
            _ => Values::Bytes(Vec::new()),
        };
        ColumnBuffer {
            column,
            repetition,
            values,
            levels: Vec::new(),
        }
    }

    fn schema(&self) -> parquet::errors::Result<Type> {
        let (physical, logical) = match self.column.kind {
            ColumnKind::Text => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
            ColumnKind::Binary => (PhysicalType::BYTE_ARRAY, None),
            ColumnKind::Int => (PhysicalType::INT64, None),
            ColumnKind::UInt => (
                PhysicalType::INT64,
                Some(LogicalType::Integer {
                    bit_width: 64,
                    is_signed: false,
                }),
            ),
            ColumnKind::Timestamp => (
                PhysicalType::INT64,
                Some(LogicalType::Timestamp {
                    is_adjusted_to_u_t_c: true,
                    unit: TimeUnit::MICROS,
                }),
            ),
            ColumnKind::Float => (PhysicalType::DOUBLE, None),
            ColumnKind::Bool => (PhysicalType::BOOLEAN, None),
            // `Json`, and no other kind: `new` made every kind it does not know `Json`.
            _ => (PhysicalType::BYTE_ARRAY, Some(LogicalType::Json)),
        };
        Type::primitive_type_builder(self.column.name, physical)
            .with_logical_type(logical)
            .with_repetition(self.repetition)
            .build()
    }

    /// Keeps `cell`, which [`cell`] made for this column's kind.
    fn push(&mut self, cell: Cell) {
        if self.repetition == Repetition::OPTIONAL {
            self.levels.push(i16::from(cell != Cell::Null));
        }
        match (&mut self.values, cell) {
            (Values::Bytes(values), Cell::Bytes(bytes)) => values.push(bytes.into()),
            (Values::Int(values), Cell::Int(n)) => values.push(n),
            (Values::Float(values), Cell::Float(x)) => values.push(x),
            (Values::Bool(values), Cell::Bool(b)) => values.push(b),
            // A null is its level alone; `cell` gives no other pairing.
            _ => {}
        }
    }

    /// Writes the buffered values to the row group's column and empties the buffer.
    fn drain_into(
        &mut self,
        writer: &mut SerializedColumnWriter<'_>,
    ) -> parquet::errors::Result<()> {
        let levels = (self.repetition == Repetition::OPTIONAL).then_some(self.levels.as_slice());
        match &mut self.values {
            Values::Bytes(values) => {
                writer
                    .typed::<ByteArrayType>()
                    .write_batch(values, levels, None)?;
                values.clear();
            }
            Values::Int(values) => {
                writer
                    .typed::<Int64Type>()
                    .write_batch(values, levels, None)?;
                values.clear();
            }
            Values::Float(values) => {
                writer
                    .typed::<DoubleType>()
                    .write_batch(values, levels, None)?;
                values.clear();
            }
            Values::Bool(values) => {
                writer
                    .typed::<BoolType>()
                    .write_batch(values, levels, None)?;
                values.clear();
            }
        }
        self.levels.clear();
        Ok(())
    }
}
