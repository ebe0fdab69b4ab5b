//! Client-side encryption and signing of [dynamap](https://docs.rs/dynamap) entities with
//! the AWS Database Encryption SDK for DynamoDB (crate `aws-db-esdk`).
//!
//! The SDK works as an interceptor on the application's `aws_sdk_dynamodb::Client`: it
//! encrypts and signs each item before it leaves the process and checks and decrypts each
//! item read back. What it does with each attribute is the table's *attribute actions*;
//! [`TableEncryption`] builds them from the entities' derives, so they follow the structs:
//!
//! - `#[dynamap(encrypt)]` fields: `ENCRYPT_AND_SIGN`;
//! - `#[dynamap(sign_only)]` fields, and the table's partition and sort key (the SDK
//!   allows keys only to be signed): `SIGN_ONLY`;
//! - every other attribute (unmarked fields, the entity type, index keys, versions,
//!   timestamps, lookup records): `DO_NOTHING`, listed as allowed unsigned attributes, so
//!   that updates and conditions on them keep working (the SDK refuses update expressions
//!   on signed attributes).
//!
//! The attributes themselves belong to dynamap's derive, which needs no part of this crate:
//! it refuses an encrypted field in a key template, an index key or a lookup, and its field
//! constant ([`EncryptedAttr`](dynamap::expr::EncryptedAttr)) takes part in no condition,
//! filter, projection or update. [`check_encryption!`] checks at compile time that the
//! entities of a table agree on every attribute's action. Failures of the [`Interceptor`]
//! are told apart by [`dynamap::Error::is_encryption_failure`].
//!
//! ```
//! # async fn example(client: aws_sdk_dynamodb::Client) -> dynamap::Result<()> {
//! use dynamap::{Db, Entity, Table};
//! use dynamap_encryption::{TableEncryption, raw_aes_keyring};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct Clinic;
//!
//! #[derive(Entity)]
//! #[dynamap(table = Clinic, entity = "Patient", pk = "PATIENT#{id}", sk = "PATIENT")]
//! struct Patient {
//!     id: String,
//!     #[dynamap(encrypt)]
//!     diagnosis: String,
//! }
//!
//! let keyring = raw_aes_keyring("my-namespace", "my-key", [0x42; 32]).await?;
//! let interceptor = TableEncryption::<Clinic>::new("clinic")
//!     .entity::<Patient>()
//!     .interceptor(keyring)?;
//! let config = client.config().to_builder().interceptor(interceptor).build();
//! let db: Db<Clinic> = Db::new(aws_sdk_dynamodb::Client::from_conf(config), "clinic");
//! # let _ = db; Ok(()) }
//! ```
//!
//! See the encryption chapter of dynamap's guide (`docs/guide/encryption.md`).

mod actions;
mod compile_check;
mod interceptor;
mod keyring;

pub use actions::{Action, TableEncryption};
#[doc(hidden)]
pub use compile_check::check as __check;
pub use interceptor::Interceptor;
pub use keyring::raw_aes_keyring;

/// The dynamap this crate is built with, for [`check_encryption!`]'s expansion: it reaches
/// dynamap through this crate, so that it works where the application renamed dynamap or
/// uses it through a crate that re-exports it. Not public API.
#[doc(hidden)]
pub use dynamap as __dynamap;

/// The SDK's own types a configuration is made of, re-exported so that the application
/// names the same version this crate builds with.
pub mod sdk {
    pub use aws_db_esdk::CryptoAction;
    pub use aws_db_esdk::DynamoDbTablesEncryptionConfig;
    pub use aws_db_esdk::dynamodb::types::DynamoDbTableEncryptionConfig;
    pub use aws_db_esdk::intercept::DbEsdkInterceptor;
    pub use aws_db_esdk::material_providers::types::keyring::KeyringRef;
}

/// The guide's encryption chapter, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/encryption.md")]
pub struct EncryptionGuide;

/// The crate's README, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;
