//! The bound that ties an operation's entity to its handle's layout.

use crate::decode::Decode;
use crate::sealed::Sealed;

/// Marks [`InLayout`].
#[derive(Debug)]
pub enum InLayoutSeal {}

/// Types stored in table layout `L`: every [`Entity`](crate::Entity) whose `table = ..` is
/// `L`, and every `EntityEnum` of such entities. Every operation of a
/// [`Db<L>`](crate::Db) bounds its entity by it, so an entity of another layout is a
/// compile error that says so, not a write into the wrong table. Sealed: it is implemented
/// for exactly these types.
///
/// Generic code over a layout spells the same bound:
///
/// ```
/// use dynamap::{Db, Entity, InLayout, Table};
///
/// async fn save_all<L: Table, E: Entity + InLayout<L>>(db: &Db<L>, items: &[E]) -> dynamap::Result<()> {
///     for item in items {
///         db.put(item).await?;
///     }
///     Ok(())
/// }
/// ```
///
/// Using an entity of another layout does not compile:
///
/// ```compile_fail
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Billing;
/// # #[derive(Entity)] #[dynamap(table = Billing, entity = "Invoice", pk = "INVOICE#{id}", sk = "INFO")]
/// # struct Invoice { id: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// db.get(Invoice::key("i1")).await?; // `Invoice` belongs to `Billing`, not `App`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` belongs to another table layout than this `Db<{L}>`",
    label = "not an entity of layout `{L}`",
    note = "an entity is used only through a `Db` of the layout it names in `#[dynamap(table = ..)]`; for a second layout over the same table, use `db.with_layout::<Other>()`"
)]
pub trait InLayout<L>: Sealed<(InLayoutSeal, L)> {}

impl<T: Decode> Sealed<(InLayoutSeal, T::Table)> for T {}
impl<T: Decode> InLayout<T::Table> for T {}
