//! The note a compressed list of a type without `#[derive(Columnar)]` gets at compile time.
//!
//! Such a list is stored through serde, which decodes several times slower than the
//! generated column-by-column code (`docs/performance/compression.md`). Generated code calls
//! `(&Via::<Vec<T>>::NEW).list_codec()` for each compressed `Vec` field: for a `Columnar`
//! element type method resolution finds [`ColumnarList`]'s method; for any other it takes one
//! more autoref and finds [`SerdeList`]'s, which is deprecated only so that the build shows
//! its note, at the field's type. A field that names its format gets no call. Neither does
//! anything at run time.

use crate::codec::{Columnar, Via};

/// A compressed list whose element type derives `Columnar`: nothing to say.
pub trait ColumnarList {
    /// Nothing.
    fn list_codec(&self) {}
}

impl<E: Columnar> ColumnarList for Via<Vec<E>> {}

/// A compressed list stored through serde: the build says how to make it fast.
pub trait SerdeList {
    /// Nothing; the note is in the deprecation.
    #[deprecated(
        note = "this compressed list is stored through serde, which decodes several times slower than column by column: add `#[derive(dynamap::Columnar)]` to its element type, or name the format (`compress(format = \"columnar\")`) to keep serde on purpose"
    )]
    fn list_codec(&self) {}
}

impl<T> SerdeList for &Via<Vec<T>> {}
