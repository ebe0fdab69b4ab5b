//! An entity seen as a table row: one column per stored field, typed from the field's Rust
//! type, for writers of columnar files (the `dynamap-parquet` crate, which re-exports these
//! types; the core names them only in `__private`). The derive describes each entity's
//! columns through `Entity::columns` (hidden); the values come from the entity's own item
//! (see `entity_row`), so a column holds exactly what DynamoDB stores.

/// The type of a column, from the type of the field it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColumnKind {
    /// Text: `String`, `&str`, `uuid::Uuid`.
    Text,
    /// A signed integer of up to 64 bits (`i8` to `i64`, `u8` to `u32`).
    Int,
    /// An unsigned 64-bit integer (`u64`, `usize`), such as a version.
    UInt,
    /// A floating-point number (`f32`, `f64`).
    Float,
    /// `bool`.
    Bool,
    /// A point in time (`time::OffsetDateTime` or `std::time::SystemTime`, stored as UTC
    /// text, or `with` `epoch_seconds`, or any codec storing RFC 3339 text or epoch seconds), in
    /// microseconds since the Unix epoch, UTC.
    Timestamp,
    /// The stored bytes of a binary attribute: a `#[dynamap(compress)]` field's compressed
    /// form.
    Binary,
    /// Anything else (structs, enums, lists, maps, sets, fields stored `with` a codec of
    /// their own), as a JSON document of the stored attribute.
    Json,
}

/// One column of an entity type's rows: the attribute it holds and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The attribute's name, which is also the column's.
    pub name: &'static str,
    /// The column's type.
    pub kind: ColumnKind,
}

impl Column {
    /// A column of attribute `name`.
    pub const fn new(name: &'static str, kind: ColumnKind) -> Column {
        Column { name, kind }
    }
}

/// The column kind of a field type, found by autoref specialization in generated code:
/// `(&&ColumnProbe::<T>::new()).column_kind()` is `T`'s kind when `T: KnownColumn`, and
/// [`ColumnKind::Json`] otherwise.
pub mod probe {
    use std::marker::PhantomData;

    use super::ColumnKind;

    /// A field type to find the column kind of.
    pub struct ColumnProbe<T: ?Sized>(PhantomData<T>);

    impl<T: ?Sized> ColumnProbe<T> {
        /// The probe of `T`.
        pub const fn new() -> Self {
            ColumnProbe(PhantomData)
        }
    }

    impl<T: ?Sized> Default for ColumnProbe<T> {
        fn default() -> Self {
            Self::new()
        }
    }

    /// A field type with a column kind of its own.
    pub trait KnownColumn {
        /// The kind.
        const KIND: ColumnKind;
    }

    /// Chosen when the field type is a [`KnownColumn`].
    pub trait Known {
        /// The field type's column kind.
        fn column_kind(&self) -> ColumnKind;
    }

    impl<T: KnownColumn + ?Sized> Known for &ColumnProbe<T> {
        fn column_kind(&self) -> ColumnKind {
            T::KIND
        }
    }

    /// Chosen otherwise: a JSON document.
    pub trait Other {
        /// [`ColumnKind::Json`].
        fn column_kind(&self) -> ColumnKind;
    }

    impl<T: ?Sized> Other for ColumnProbe<T> {
        fn column_kind(&self) -> ColumnKind {
            ColumnKind::Json
        }
    }

    macro_rules! known {
        ($kind:ident: $($ty:ty),*) => {
            $(impl KnownColumn for $ty { const KIND: ColumnKind = ColumnKind::$kind; })*
        };
    }

    known!(Text: String, str, std::borrow::Cow<'_, str>);
    known!(Int: i8, i16, i32, i64, isize, u8, u16, u32);
    known!(UInt: u64, usize);
    known!(Float: f32, f64);
    known!(Bool: bool);
    #[cfg(feature = "uuid")]
    known!(Text: uuid::Uuid);
    #[cfg(feature = "time")]
    known!(Timestamp: time::OffsetDateTime);
    known!(Timestamp: std::time::SystemTime);

    impl<T: KnownColumn + ?Sized> KnownColumn for &T {
        const KIND: ColumnKind = T::KIND;
    }

    /// The kind of a field stored `with` a codec of its own: a timestamp stays one (the
    /// column reads RFC 3339 text and epoch seconds alike); anything else may be stored in
    /// any form, so it is a JSON document.
    pub const fn stored_with(kind: ColumnKind) -> ColumnKind {
        match kind {
            ColumnKind::Timestamp => ColumnKind::Timestamp,
            _ => ColumnKind::Json,
        }
    }

    /// The kind of a field stored in its type's own form: every known kind is kept, a
    /// timestamp included (stored as its UTC text, see `codec::Attribute`).
    pub const fn stored_plain(kind: ColumnKind) -> ColumnKind {
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::ColumnKind;
    use super::probe::{ColumnProbe, Known as _, Other as _};

    #[test]
    // The double borrow is what chooses between the probe's two traits.
    #[expect(clippy::needless_borrow)]
    fn field_types_find_their_column_kinds() {
        struct Address;
        assert_eq!(
            (&&ColumnProbe::<String>::new()).column_kind(),
            ColumnKind::Text
        );
        assert_eq!((&&ColumnProbe::<u32>::new()).column_kind(), ColumnKind::Int);
        assert_eq!(
            (&&ColumnProbe::<u64>::new()).column_kind(),
            ColumnKind::UInt
        );
        assert_eq!(
            (&&ColumnProbe::<f32>::new()).column_kind(),
            ColumnKind::Float
        );
        assert_eq!(
            (&&ColumnProbe::<bool>::new()).column_kind(),
            ColumnKind::Bool
        );
        assert_eq!(
            (&&ColumnProbe::<Address>::new()).column_kind(),
            ColumnKind::Json
        );
        assert_eq!(
            (&&ColumnProbe::<Vec<u8>>::new()).column_kind(),
            ColumnKind::Json
        );
        #[cfg(feature = "time")]
        assert_eq!(
            (&&ColumnProbe::<time::OffsetDateTime>::new()).column_kind(),
            ColumnKind::Timestamp
        );
    }
}
