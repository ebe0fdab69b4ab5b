//! What the writers of columnar files (the `dynamap-parquet` crate) need of the core beyond
//! the descriptions the derive emits (`Column`, `ColumnKind`, `EntityRow`): its error,
//! whose variant is `#[non_exhaustive]`, and an item's key as errors print it.

use std::sync::Arc;

use crate::Error;
use crate::codec::AttributeValue;
use crate::key::ItemKey;

/// [`Error::Parquet`]: `file` (or folder) could not be written, or an item does not fit its
/// column, for `reason`, caused by `source` when there is one.
#[cold]
pub fn parquet_error(
    file: String,
    reason: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
) -> Error {
    Error::Parquet {
        file,
        reason,
        source,
    }
}

/// The key of an item from its key attributes' values, printed as every error names items.
pub fn item_key(pk: Option<&AttributeValue>, sk: Option<&AttributeValue>) -> ItemKey {
    ItemKey::from_values(pk, sk)
}
