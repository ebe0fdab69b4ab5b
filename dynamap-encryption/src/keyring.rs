//! A raw AES keyring: the wrapping key is held by the application.

use aws_db_esdk::material_providers::client::Client;
use aws_db_esdk::material_providers::types::AesWrappingAlg;
use aws_db_esdk::material_providers::types::keyring::KeyringRef;
use aws_db_esdk::material_providers::types::material_providers_config::MaterialProvidersConfig;

use dynamap::Result;

use crate::actions::sdk_error;

/// A raw AES-256-GCM keyring wrapping data keys with `key`, named `namespace`/`name` (the
/// names are stored with each item and must match on read). Meant for tests and for keys
/// kept in an HSM; production tables use an AWS KMS keyring from the SDK's
/// `material_providers` client.
///
/// # Errors
///
/// [`Error::InvalidSetting`](dynamap::Error::InvalidSetting) with the SDK's reason when it
/// refuses the keyring.
pub async fn raw_aes_keyring(namespace: &str, name: &str, key: [u8; 32]) -> Result<KeyringRef> {
    let providers = Client::from_conf(
        MaterialProvidersConfig::builder()
            .build()
            .map_err(sdk_error)?,
    )
    .map_err(sdk_error)?;
    providers
        .create_raw_aes_keyring()
        .key_namespace(namespace)
        .key_name(name)
        .wrapping_key(aws_smithy_types::Blob::new(key.to_vec()))
        .wrapping_alg(AesWrappingAlg::AlgAes256GcmIv12Tag16)
        .send()
        .await
        .map_err(sdk_error)
}
