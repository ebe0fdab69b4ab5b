//! # dynamap
//!
//! A typed object mapper for Amazon DynamoDB, built for single-table design.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod codec;
mod db;
mod entity;
mod error;
pub mod key;
pub mod limits;
#[cfg(feature = "local")]
pub mod local;
pub mod ops;
mod table;

#[doc(hidden)]
pub mod __private;

pub use db::Db;
pub use dynamap_derive::{Entity, KeyPart, Table};
pub use entity::Entity;
pub use error::{Error, Result};
pub use key::{Key, KeyError, KeyPart, PartitionKey};
pub use table::{IndexSchema, Projection, Table, TableSchema};
