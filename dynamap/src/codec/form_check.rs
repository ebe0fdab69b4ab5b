//! The compile-time check generated code makes for a field type the derive recognizes by
//! its path as one whose serde form must not reach the table by accident: a `time` or
//! `uuid` type while dynamap's feature for it is off, or a date-time, decimal or URL type
//! of a crate dynamap has no form for (chrono, rust_decimal, url). The check passes when
//! the type implements [`Attribute`] (a form dynamap or the user chose) and otherwise fails
//! with a message saying what to do. It costs nothing at run time.

use std::marker::PhantomData;

use super::attribute::Attribute;

/// The type checked: `(&FormProbe::<T>::NEW).needs_time_feature()` resolves to
/// [`FormChosen`] when `T: Attribute`, and to [`FormRefused`] otherwise, whose bound fails.
pub struct FormProbe<T: ?Sized>(PhantomData<fn(&T)>);

impl<T: ?Sized> FormProbe<T> {
    /// The probe (a constant).
    pub const NEW: Self = FormProbe(PhantomData);
}

/// The type has a stored form of its own: nothing to refuse.
pub trait FormChosen {
    /// Passes.
    #[inline(always)]
    fn needs_time_feature(&self) {}
    /// Passes.
    #[inline(always)]
    fn needs_uuid_feature(&self) {}
    /// Passes.
    #[inline(always)]
    fn needs_chosen_form(&self) {}
}

impl<T: Attribute> FormChosen for FormProbe<T> {}

/// The type has no stored form of its own: each method's bound names what to do.
pub trait FormRefused<T: ?Sized> {
    /// Fails: a `time` type while the feature is off.
    #[inline(always)]
    fn needs_time_feature(&self)
    where
        T: TimeFeature,
    {
    }
    /// Fails: a `uuid` type while the feature is off.
    #[inline(always)]
    fn needs_uuid_feature(&self)
    where
        T: UuidFeature,
    {
    }
    /// Fails: a type of a crate dynamap has no form for.
    #[inline(always)]
    fn needs_chosen_form(&self)
    where
        T: ChosenForm,
    {
    }
}

impl<T: ?Sized> FormRefused<T> for &FormProbe<T> {}

/// Implemented by no type: the message of a `time` field while the feature is off.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is stored by dynamap's cargo feature `time`, which is not enabled",
    label = "without the feature this field would be stored in serde's form, which does not sort and changes with `time`'s features",
    note = "enable it: `dynamap = {{ version = \"...\", features = [\"time\"] }}` (a default feature), or choose the form with `#[dynamap(with = \"...\")]` (`dynamap::codec::as_serde` keeps serde's form)"
)]
pub trait TimeFeature {}

/// Implemented by no type: the message of a `uuid::Uuid` field while the feature is off.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is stored by dynamap's cargo feature `uuid`, which is not enabled",
    label = "without the feature this field would be stored in serde's form",
    note = "enable it: `dynamap = {{ version = \"...\", features = [\"uuid\"] }}`, or choose the form with `#[dynamap(with = \"...\")]` (`dynamap::codec::as_serde` keeps serde's form)"
)]
pub trait UuidFeature {}

/// Implemented by no type: the message of a field of a crate dynamap has no form for.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no stored form chosen by dynamap, and its serde form is not stored by accident",
    label = "a date-time, decimal or URL type of another crate: its serde form may not sort, and other crates' serde features change it",
    note = "store it with a `with` module of yours, `#[dynamap(with = \"my::module\")]` (serde-style `serialize` and `deserialize`; for a date-time, text that sorts, as `dynamap::codec::timestamp` writes), or keep serde's form on purpose with `#[dynamap(with = \"dynamap::codec::as_serde\")]`"
)]
pub trait ChosenForm {}
