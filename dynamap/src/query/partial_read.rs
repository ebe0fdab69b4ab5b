//! [`PartialRead`]: entities that decode from any subset of their attributes.

use crate::Entity;
use crate::sealed::{PartialReadSeal, Sealed};

/// An entity every field of which can be left out of a read: an `Option`, a field with
/// `#[dynamap(default)]`, `#[dynamap(skip)]` or `#[dynamap(version)]`, or a field of the
/// primary key templates (read back from the item's key). `#[derive(Entity)]` implements it
/// exactly then, and [`Query::project`](super::Query::project) with field constants asks
/// for it: reading some attributes of any other entity could not build it.
///
/// An entity with a required field is read in part through a projection type instead, a
/// struct of the fields to read that derives
/// [`EntityProjection`](derive@crate::EntityProjection), with
/// [`Query::project_as`](super::Query::project_as).
///
/// ```compile_fail
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Issue", pk = "REPO#{repo}", sk = "ISSUE#{number}")]
/// # struct Issue { repo: String, number: u64, title: String }
/// # fn example(db: &dynamap::Db<App>) {
/// // `title` is required: an item read without it would not decode.
/// let _ = db.query(Issue::partition("dynamap")).project(Issue::NUMBER);
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has required fields, so it cannot be read from only some of its attributes",
    label = "field constants of an entity with a field that is not an `Option`, has no default and is not in its primary key",
    note = "declare the fields to read in a struct with `#[derive(dynamap::EntityProjection)]` and `#[dynamap(entity = {Self})]`, and read it with `.project_as::<ThatStruct>()`",
    note = "or make each field left out an `Option`, or give it `#[dynamap(default)]`"
)]
pub trait PartialRead: Entity + Sealed<PartialReadSeal> {}
