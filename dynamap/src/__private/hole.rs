//! The holes of key templates, as generated code renders and reads them.
//!
//! A hole whose field type is not a [`KeyPart`] is reported once, by the derive's
//! [`assert_key_part`](super::assert_key_part) at the field's type. Every other use of the
//! type goes through [`Hole`], whose methods exist only for key parts; for any other type,
//! method resolution falls back to [`HoleStandIn`]'s, which need nothing of the type, so the
//! builders, `to_item` and `parse_key` add no error of their own to that one. The stand-ins
//! never run: a build with one of them has failed already.

use std::marker::PhantomData;

use crate::key::{KeyArg, KeyError, KeyFormat, KeyPart, KeyReader, KeyWriter};

/// The hole of a key template whose field has type `T`.
pub struct Hole<T>(PhantomData<fn() -> T>);

impl<T> Hole<T> {
    /// The hole, to call [`write`](Hole::write) or [`read`](Hole::read) on.
    pub const NEW: Self = Hole(PhantomData);
}

impl<T: KeyPart> Hole<T> {
    /// Appends the hole's value to a key, as [`KeyWriter::part_as`].
    #[inline]
    pub fn write<A: KeyArg<T> + ?Sized>(
        &self,
        writer: &mut KeyWriter,
        field: &'static str,
        value: &A,
        format: KeyFormat,
    ) {
        writer.part_as::<T, A>(field, value, format);
    }

    /// About how many bytes the value's text takes in the key.
    #[inline]
    pub fn len_hint<A: KeyArg<T> + ?Sized>(&self, value: &A) -> usize {
        value.key_len_hint()
    }

    /// Reads the hole's value from a stored key, as [`KeyReader::part_as`].
    ///
    /// # Errors
    ///
    /// Fails as [`KeyReader::part_as`] does.
    #[inline]
    pub fn read(
        &self,
        reader: &mut KeyReader<'_>,
        field: &'static str,
        template: &'static str,
        format: KeyFormat,
    ) -> Result<T, KeyError> {
        reader.part_as::<T>(field, template, format)
    }

    /// The function that writes a type-erased value of the hole into a key (see
    /// [`index_updates`](super::index_updates)): one per type, shared by every entity.
    #[inline]
    pub fn update_writer(&self) -> super::WriteHole
    where
        T: 'static,
    {
        super::write_hole::<T>
    }
}

/// What [`Hole`]'s methods resolve to when `T` is not a key part, a mistake already
/// reported at the field's type. Generated code imports it as `_`.
pub trait HoleStandIn<T> {
    /// Never runs (see the module's documentation).
    fn write<A: ?Sized>(
        &self,
        _writer: &mut KeyWriter,
        _field: &'static str,
        _value: &A,
        _format: KeyFormat,
    ) {
    }

    /// Never runs (see the module's documentation).
    fn len_hint<A: ?Sized>(&self, _value: &A) -> usize {
        0
    }

    /// Never runs (see the module's documentation).
    ///
    /// # Errors
    ///
    /// None: it cannot be called in a program that compiled.
    fn read(
        &self,
        _reader: &mut KeyReader<'_>,
        _field: &'static str,
        _template: &'static str,
        _format: KeyFormat,
    ) -> Result<T, KeyError> {
        unreachable!("a key template hole whose type is not a key part does not compile")
    }

    /// Never runs (see the module's documentation).
    fn update_writer(&self) -> super::WriteHole {
        |_, _, _, _| {}
    }
}

impl<T> HoleStandIn<T> for Hole<T> {}
