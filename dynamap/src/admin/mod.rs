//! The table's life: creating it from a [`Table`](crate::Table) layout with capacity,
//! streams, deletion protection, tags and point-in-time recovery
//! ([`Db::create_table`](crate::Db::create_table)); describing and deleting it; and checking
//! a live table against the layout ([`Db::verify_table`](crate::Db::verify_table)), the
//! check a deploy pipeline runs. For infrastructure as code, [`TableDefinition`] writes the
//! same table down as a CreateTable request, a CloudFormation or a Terraform resource.
//!
//! ```no_run
//! # use dynamap::{Db, Table};
//! use dynamap::admin::StreamView;
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK", index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"))]
//! struct App;
//!
//! # async fn example(db: Db<App>) -> dynamap::Result<()> {
//! db.create_table()
//!     .provisioned(10, 5)
//!     .index_provisioned("GSI1", 5, 5)
//!     .stream(StreamView::NewAndOldImages)
//!     .deletion_protection(true)
//!     .tag("team", "sensors")
//!     .await?;
//!
//! let drift = db.verify_table().await?;
//! assert!(drift.is_empty(), "the live table differs from the model: {drift:?}");
//! # Ok(()) }
//! ```

mod create;
mod definition;
pub(crate) mod delete;
mod drift;
mod options;
mod schema;
mod sdk_request;

pub use create::{CreateTable, StreamView, Throughput};
pub use definition::TableDefinition;
pub use drift::Drift;
pub use options::TableOptions;

/// DynamoDB's limits on tags (`TagResource`, `CreateTable`'s `Tags`).
pub mod tag_limits {
    /// At most 50 tags on one table.
    pub const MAX_TAGS: usize = 50;
    /// A tag key is 1 to 128 characters.
    pub const MAX_KEY_CHARS: usize = 128;
    /// A tag value is 0 to 256 characters.
    pub const MAX_VALUE_CHARS: usize = 256;
}
