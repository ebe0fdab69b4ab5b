//! A platform crate of the kind that re-exports dynamap to the services built on it.

pub use platform_dynamap as dynamap;
pub use serde;
