//! Seals for public traits that only dynamap (or its derives) implement: users call
//! functions bounded by them, with the argument types dynamap lists, but cannot add
//! implementations that later releases would have to keep working.
//!
//! A sealed trait has `Sealed<(Marker, its parameters)>` as a supertrait; dynamap implements
//! the seal next to each implementation. The seal lives in `__private` so generated code can
//! implement it for derived types (`Versioned`, `AsEntity`, the sort key builders of
//! multi-attribute indexes, which are `SortArgs`).

/// The seal. Not public API.
pub trait Sealed<M> {}

/// Marks [`KeyArg`](crate::key::KeyArg).
#[derive(Debug)]
pub enum KeyArgSeal {}
/// Marks [`KeyAttributeArg`](crate::key::KeyAttributeArg).
#[derive(Debug)]
pub enum KeyAttributeArgSeal {}
/// Marks [`SortArgs`](crate::key::SortArgs).
#[derive(Debug)]
pub enum SortArgsSeal {}
/// Marks [`Projected`](crate::query::Projected).
#[derive(Debug)]
pub enum ProjectedSeal {}
/// Marks [`PartialRead`](crate::query::PartialRead).
#[derive(Debug)]
pub enum PartialReadSeal {}
/// Marks [`EntityProjection`](crate::query::EntityProjection).
#[derive(Debug)]
pub enum EntityProjectionSeal {}
/// Marks [`Target`](crate::expr::Target).
#[derive(Debug)]
pub enum TargetSeal {}
/// Marks [`EventTime`](crate::timeseries::rows::EventTime).
#[derive(Debug)]
pub enum EventTimeSeal {}
/// Marks `StreamRecord` (feature `streams`).
#[cfg(feature = "streams")]
#[derive(Debug)]
pub enum StreamRecordSeal {}
/// Marks [`Versioned`](crate::Versioned).
#[derive(Debug)]
pub enum VersionedSeal {}
/// Marks [`AsEntity`](crate::AsEntity).
#[derive(Debug)]
pub enum AsEntitySeal {}
/// Marks [`TransactPut`](crate::transact::TransactPut).
#[derive(Debug)]
pub enum TransactPutSeal {}
/// Marks [`TransactDelete`](crate::transact::TransactDelete).
#[derive(Debug)]
pub enum TransactDeleteSeal {}
/// Marks [`TransactAttempt`](crate::transact::TransactAttempt).
#[derive(Debug)]
pub enum TransactAttemptSeal {}
/// Marks [`SetElement`](crate::expr::SetElement).
#[derive(Debug)]
pub enum SetElementSeal {}
/// Marks [`NativeSet`](crate::expr::NativeSet).
#[derive(Debug)]
pub enum NativeSetSeal {}
