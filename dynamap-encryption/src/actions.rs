//! The attribute actions of one table, from the entities stored in it.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::marker::PhantomData;

use aws_db_esdk::CryptoAction;
use aws_db_esdk::DynamoDbTablesEncryptionConfig;
use aws_db_esdk::dynamodb::types::DynamoDbTableEncryptionConfig;
use aws_db_esdk::material_providers::types::keyring::KeyringRef;

use dynamap::__private::{
    CHECKPOINT_ATTRIBUTES, OWNER_PK, OWNER_SK, SCHEMA_VERSION_ATTRIBUTE, invalid_setting,
    lookup_record,
};
use dynamap::{Entity, Error, Result, Table};

use crate::Interceptor;

/// What the SDK does with one attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Action {
    /// Neither encrypted nor signed (`DO_NOTHING`), and allowed unsigned on reads.
    Plain,
    /// Signed, stored readable (`SIGN_ONLY`).
    SignOnly,
    /// Encrypted and signed (`ENCRYPT_AND_SIGN`).
    Encrypt,
}

impl Action {
    fn sdk(self) -> CryptoAction {
        match self {
            Action::Plain => CryptoAction::DoNothing,
            Action::SignOnly => CryptoAction::SignOnly,
            Action::Encrypt => CryptoAction::EncryptAndSign,
        }
    }
}

/// The encryption configuration of one physical table, built from its entities:
/// register every entity stored in the table, then hand the result a keyring.
///
/// ```
/// use dynamap::{Entity, Table};
/// use dynamap_encryption::{Action, TableEncryption};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Patient", pk = "PATIENT#{id}", sk = "PATIENT")]
/// struct Patient {
///     id: String,
///     #[dynamap(encrypt)]
///     diagnosis: String,
///     #[dynamap(sign_only)]
///     ward: String,
///     name: String,
/// }
///
/// let encryption = TableEncryption::<App>::new("clinic").entity::<Patient>();
/// let actions = encryption.attribute_actions()?;
/// assert_eq!(actions["diagnosis"], Action::Encrypt);
/// assert_eq!(actions["ward"], Action::SignOnly);
/// assert_eq!(actions["PK"], Action::SignOnly);
/// assert_eq!(actions["name"], Action::Plain);
/// # Ok::<(), dynamap::Error>(())
/// ```
pub struct TableEncryption<T> {
    table_name: String,
    /// `(entity type, attribute, action)` of every attribute the registered entities store.
    attributes: Vec<(&'static str, String, Action)>,
    table: PhantomData<fn() -> T>,
}

// By hand: the layout `T` is a marker, and needs neither `Clone` nor `Debug` itself.
impl<T> Clone for TableEncryption<T> {
    fn clone(&self) -> Self {
        Self {
            table_name: self.table_name.clone(),
            attributes: self.attributes.clone(),
            table: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for TableEncryption<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableEncryption")
            .field("table", &self.table_name)
            .field("attributes", &self.attributes)
            .finish()
    }
}

impl<T: Table> TableEncryption<T> {
    /// The configuration of the table called `table_name` (the name given to `Db::new`),
    /// with table layout `T`. Its keys are signed.
    pub fn new(table_name: impl Into<String>) -> Self {
        let schema = &T::SCHEMA;
        let mut attributes = vec![("", schema.pk.to_owned(), Action::SignOnly)];
        attributes.extend(schema.sk.map(|sk| ("", sk.to_owned(), Action::SignOnly)));
        // What dynamap writes besides fields, whatever the entity.
        let bookkeeping = [
            schema.entity_type,
            SCHEMA_VERSION_ATTRIBUTE,
            OWNER_PK,
            OWNER_SK,
        ];
        attributes.extend(
            bookkeeping
                .iter()
                .chain(&CHECKPOINT_ATTRIBUTES)
                .chain(schema.ttl.iter())
                .map(|a| ("", (*a).to_owned(), Action::Plain)),
        );
        Self {
            table_name: table_name.into(),
            attributes,
            table: PhantomData,
        }
    }

    /// Adds entity `E`'s attributes. Register every entity the table stores: an attribute
    /// the configuration does not name makes the SDK refuse the write.
    #[must_use]
    pub fn entity<E: Entity<Table = T>>(mut self) -> Self {
        let meta = E::WRITE;
        let schema = &T::SCHEMA;
        let action = |attribute: &str| {
            // A field stored as the table's key (`pk = field(user_id)`) is signed, as keys are.
            if attribute == schema.pk || Some(attribute) == schema.sk {
                Action::SignOnly
            } else if meta.encrypted_attributes.contains(&attribute) {
                Action::Encrypt
            } else if meta.sign_only_attributes.contains(&attribute) {
                Action::SignOnly
            } else {
                Action::Plain
            }
        };
        let stored = meta
            .stored_attributes
            .iter()
            .chain(meta.constants.iter().map(|(name, _)| name));
        self.attributes
            .extend(stored.map(|a| (E::ENTITY_TYPE, (*a).to_owned(), action(a))));
        // The owner's records of its lookup items' keys.
        let records = meta
            .lookups
            .iter()
            .flat_map(|name| ["pk", "sk"].map(|part| lookup_record(name, part)));
        self.attributes
            .extend(records.map(|a| (E::ENTITY_TYPE, a, Action::Plain)));
        self
    }

    /// Every attribute's action. Two entities giving one attribute different actions is an
    /// [`Error::InvalidSetting`] naming both: the SDK configures a table, not an entity, so
    /// one of them would be stored unprotected or unreadable.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSetting`] when two entities disagree on an attribute.
    pub fn attribute_actions(&self) -> Result<BTreeMap<String, Action>> {
        let mut actions: BTreeMap<&str, (&str, Action)> = BTreeMap::new();
        for (entity, attribute, action) in &self.attributes {
            let (entity, attribute, action) = (*entity, attribute.as_str(), *action);
            match actions.get(attribute) {
                None => {
                    actions.insert(attribute, (entity, action));
                }
                Some(&(first, earlier)) if earlier != action => {
                    return Err(conflict(attribute, (first, earlier), (entity, action)));
                }
                Some(_) => {}
            }
        }
        // Index key attributes rendered from templates are plain, unless an entity stores a
        // signed field under the name (`field(score)` with `sign_only`), which then counts.
        for index in T::SCHEMA.indexes {
            let more = index.pk_more.iter().chain(index.sk_more).map(|k| k.name);
            for name in std::iter::once(index.pk).chain(index.sk).chain(more) {
                actions.entry(name).or_insert(("", Action::Plain));
            }
        }
        Ok(actions
            .into_iter()
            .map(|(a, (_, action))| (a.to_owned(), action))
            .collect())
    }

    /// The SDK's configuration of this table, protecting data keys with `keyring`
    /// (AWS KMS in production; [`raw_aes_keyring`](crate::raw_aes_keyring) in tests).
    ///
    /// # Errors
    ///
    /// As [`attribute_actions`](Self::attribute_actions), or [`Error::InvalidSetting`]
    /// with the SDK's reason when it refuses the configuration.
    pub fn table_config(&self, keyring: KeyringRef) -> Result<DynamoDbTableEncryptionConfig> {
        let actions = self.attribute_actions()?;
        let unsigned: Vec<String> = actions
            .iter()
            .filter(|(_, action)| **action == Action::Plain)
            .map(|(name, _)| name.clone())
            .collect();
        let sdk_actions: HashMap<String, CryptoAction> = actions
            .into_iter()
            .map(|(name, action)| (name, action.sdk()))
            .collect();
        let schema = &T::SCHEMA;
        let mut builder = DynamoDbTableEncryptionConfig::builder()
            .logical_table_name(&self.table_name)
            .partition_key_name(schema.pk)
            .attribute_actions_on_encrypt(sdk_actions)
            .allowed_unsigned_attributes(unsigned)
            .keyring(keyring);
        if let Some(sk) = schema.sk {
            builder = builder.sort_key_name(sk);
        }
        builder.build().map_err(sdk_error)
    }

    /// The configuration of every table the interceptor serves: this one.
    ///
    /// # Errors
    ///
    /// As [`table_config`](Self::table_config).
    pub fn tables_config(&self, keyring: KeyringRef) -> Result<DynamoDbTablesEncryptionConfig> {
        let table = self.table_config(keyring)?;
        DynamoDbTablesEncryptionConfig::builder()
            .table_encryption_configs(HashMap::from([(self.table_name.clone(), table)]))
            .build()
            .map_err(sdk_error)
    }

    /// The interceptor to build the application's client with:
    /// `aws_sdk_dynamodb::config::Builder::interceptor(encryption.interceptor(keyring)?)`.
    /// Its failures are told apart by type ([`Error::is_encryption_failure`]).
    ///
    /// # Errors
    ///
    /// As [`table_config`](Self::table_config).
    pub fn interceptor(&self, keyring: KeyringRef) -> Result<Interceptor> {
        Interceptor::new(self.tables_config(keyring)?)
    }
}

fn conflict(attribute: &str, first: (&str, Action), second: (&str, Action)) -> Error {
    let who = |entity: &str| {
        if entity.is_empty() {
            "the table layout".to_owned()
        } else {
            format!("entity `{entity}`")
        }
    };
    invalid_setting(
        "encryption",
        format!(
            "attribute `{attribute}` is {:?} for {} but {:?} for {}: one table has one action per attribute name",
            first.1,
            who(first.0),
            second.1,
            who(second.0)
        ),
    )
}

/// The SDK's configuration errors carry their reason in `Debug` only.
pub(crate) fn sdk_error(error: impl std::fmt::Debug) -> Error {
    invalid_setting("encryption", format!("{error:?}"))
}
