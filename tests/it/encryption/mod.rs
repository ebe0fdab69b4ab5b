//! Client-side encryption with the AWS Database Encryption SDK, through the
//! `dynamap-encryption` crate (the suite's feature `encryption`): the models, and two
//! handles on one table, one through the SDK's interceptor and one raw, to see what
//! DynamoDB stores.

mod at_rest;
mod config;
mod field_keys;
mod interop;
mod maintenance;
mod paths;

use dynamap::{Db, Entity, Table};
use dynamap_encryption::{TableEncryption, raw_aes_keyring};

use crate::fresh_db;

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK")
)]
pub(crate) struct Clinic;

/// Secret diagnosis and notes, a signed insurer, plain bookkeeping; indexed by ward, unique
/// by badge (a lookup), versioned.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(
    table = Clinic,
    entity = "Patient",
    pk = "PATIENT#{id}",
    sk = "PATIENT",
    index(name = "GSI1", pk = "WARD#{ward}", sk = "PATIENT#{id}"),
    lookup(name = "badge", pk = "BADGE#{badge}", sk = "BADGE")
)]
pub(crate) struct Patient {
    pub(crate) id: String,
    pub(crate) ward: String,
    pub(crate) badge: String,
    #[dynamap(encrypt)]
    pub(crate) diagnosis: String,
    #[dynamap(encrypt)]
    pub(crate) notes: Option<String>,
    #[dynamap(sign_only)]
    pub(crate) insurer: String,
    pub(crate) visits: u32,
    #[dynamap(version)]
    pub(crate) version: u64,
}

/// Unversioned, so batch writes take it (a batch cannot guard a version).
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Clinic, entity = "Prescription", pk = "RX#{id}", sk = "RX")]
pub(crate) struct Prescription {
    pub(crate) id: String,
    #[dynamap(encrypt)]
    pub(crate) drug: String,
    #[dynamap(sign_only)]
    pub(crate) doses: u32,
}

/// An entity with nothing secret, sharing the table.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Clinic, entity = "Ward", pk = "WARD#{name}", sk = "WARD")]
pub(crate) struct Ward {
    pub(crate) name: String,
    pub(crate) beds: u32,
}

// The two entities agree on every attribute's action (checked while compiling).
dynamap_encryption::check_encryption!(Clinic: Patient, Prescription, Ward);

pub(crate) fn patient(id: &str, ward: &str) -> Patient {
    Patient {
        id: id.into(),
        ward: ward.into(),
        badge: format!("B-{id}"),
        diagnosis: format!("diagnosis of {id}"),
        notes: Some("allergic to penicillin".into()),
        insurer: "Acme Health".into(),
        visits: 1,
        version: 0,
    }
}

pub(crate) const KEY: [u8; 32] = [7; 32];

pub(crate) fn encryption(table: &str) -> TableEncryption<Clinic> {
    TableEncryption::new(table)
        .entity::<Patient>()
        .entity::<Prescription>()
        .entity::<Ward>()
}

/// A client like `db`'s with the SDK's interceptor configured by `config`.
pub(crate) async fn client_with<L: dynamap::Table>(
    db: &Db<L>,
    config: dynamap_encryption::sdk::DynamoDbTablesEncryptionConfig,
) -> dynamap::aws_sdk_dynamodb::Client {
    let interceptor = dynamap_encryption::Interceptor::new(config).expect("interceptor");
    let conf = db
        .client()
        .config()
        .to_builder()
        .interceptor(interceptor)
        .build();
    dynamap::aws_sdk_dynamodb::Client::from_conf(conf)
}

/// `(raw, encrypted)`: the same fresh table, without and with the interceptor.
pub(crate) async fn encrypted_db(test: &str) -> (Db<Clinic>, Db<Clinic>) {
    let raw = fresh_db::<Clinic>(test).await;
    let keyring = raw_aes_keyring("dynamap-tests", "clinic-key", KEY)
        .await
        .expect("keyring");
    let config = encryption(raw.table_name())
        .tables_config(keyring)
        .expect("config");
    let client = client_with(&raw, config).await;
    let encrypted = Db::new(client, raw.table_name());
    (raw, encrypted)
}
