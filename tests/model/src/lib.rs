//! Exhaustive models of dynamap's write protocols, checked by [`check::check`], a
//! breadth-first search over every reachable state.
//!
//! - [`lookup`]: an owner with a unique lookup item kept in sync by read-then-transact
//!   rounds (`dynamap/src/ops/sync.rs`, `write/lookup_items.rs`, `transact/synced.rs`).
//! - [`version`]: versioned writes (`write/condition.rs`, `write/item.rs`
//!   `versioned_item`), with lost responses retried.
//! - [`maintain`]: a maintenance job's conditioned writes and checkpoints
//!   (`dynamap/src/maintain/`), with crashes and restarts.
//!
//! Each model has switches for the behaviour before issue 46's fixes, and for guards
//! removed: the tests check that the checker finds each violation those allow, and none
//! with the designed behaviour. `docs/design/writes.md` ("The write protocols,
//! model-checked") describes the models, the bounds and the state counts.

pub mod check;
pub mod lookup;
pub mod maintain;
pub mod version;
