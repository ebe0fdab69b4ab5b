//! The write layer under single operations, lookup maintenance and transactions: the item
//! a put writes (timestamps, version, size checked), the conditions a write carries, the
//! actions of a transaction, and the TransactWriteItems call that sends them (limits
//! checked first, a cancellation explained action by action).
//!
//! It sits below `ops/` and `transact/`, which both build on it: a put of an entity with
//! lookup items is a transaction of actions built here, and a transaction's actions are
//! built with the same conditions as single writes. Nothing here imports either of them.

mod action;
mod answer;
mod condition;
mod exact;
mod failure;
mod item;
mod limits;
pub(crate) mod lookup_items;
mod nested;
mod put_mode;
mod send;

pub use limits::{MAX_ACTIONS, MAX_TRANSACTION_BYTES};
pub use put_mode::PutMode;

pub(crate) use action::{
    Action, check_action, delete_action, delete_condition, put_action, raw_delete, raw_put,
};
pub(crate) use answer::conditional_answer;
pub(crate) use condition::{
    RenderedCondition, finish, put_condition, put_failed, version_condition,
};
pub(crate) use exact::{AfterLoss, one_attempt, same_item, send_exactly};
pub(crate) use item::{PreparedPut, item_for_write, key_item, prepare_put, versioned_item};
pub(crate) use limits::first_repeat;
pub(crate) use nested::{Nested, missing_parent, nested_paths};
pub(crate) use send::{preview_actions, send_actions};
