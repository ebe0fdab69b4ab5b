//! Client-side encryption and signing of attributes with the AWS Database Encryption SDK
//! for DynamoDB (feature `encryption`).
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
//! The derive refuses an encrypted field in a key template, an index key or a lookup, and
//! its field constant ([`EncryptedAttr`](crate::expr::EncryptedAttr)) takes part in no
//! condition, filter, projection or update. [`check_encryption!`](crate::check_encryption)
//! checks at compile time that the entities of a table agree on every attribute's action.
//! See `docs/guide/encryption.md`.

mod actions;
mod compile_check;
mod interceptor;
mod keyring;

pub use actions::{Action, TableEncryption};
#[doc(hidden)]
pub use compile_check::check as __check;
pub use interceptor::Interceptor;
pub use keyring::raw_aes_keyring;

/// The SDK's own types a configuration is made of, re-exported so that the application
/// names the same version dynamap builds with.
pub mod sdk {
    pub use aws_db_esdk::CryptoAction;
    pub use aws_db_esdk::DynamoDbTablesEncryptionConfig;
    pub use aws_db_esdk::dynamodb::types::DynamoDbTableEncryptionConfig;
    pub use aws_db_esdk::intercept::DbEsdkInterceptor;
    pub use aws_db_esdk::material_providers::types::keyring::KeyringRef;
}
