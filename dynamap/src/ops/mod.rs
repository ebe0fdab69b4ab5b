//! Single-item operations: put, get, delete, update.

mod delete;
mod deprecated;
mod get;
mod modify;
mod put;
pub(crate) mod sync;
mod update;
mod upsert;

pub use crate::write::PutMode;
pub use delete::Delete;
pub use get::Get;
pub use modify::{Modified, Modify};
pub use put::Put;
pub use update::Update;
pub use upsert::Upsert;
