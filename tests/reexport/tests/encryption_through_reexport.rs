//! `#[dynamap(encrypt)]` and `#[dynamap(sign_only)]` fields derived through a crate that
//! re-exports dynamap (`#[dynamap(crate = "...")]`), configured by `dynamap_encryption`:
//! its `check_encryption!` names dynamap through the encryption crate's own re-export, since
//! `::dynamap` resolves nowhere in this package.

use dynamap_encryption::{Action, TableEncryption, raw_aes_keyring};
use dynamap_reexport_check::dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", pk = "PK", sk = "SK")]
struct Clinic;

#[derive(Entity)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", table = Clinic, entity = "Patient",
          pk = "PATIENT#{id}", sk = "PATIENT")]
struct Patient {
    id: String,
    #[dynamap(encrypt)]
    diagnosis: String,
    #[dynamap(sign_only)]
    insurer: String,
}

#[derive(Entity)]
#[dynamap(crate = "dynamap_reexport_check::dynamap", table = Clinic, entity = "Ward",
          pk = "WARD#{name}", sk = "WARD")]
struct Ward {
    name: String,
    beds: u32,
}

dynamap_encryption::check_encryption!(Clinic: Patient, Ward);

fn encryption() -> TableEncryption<Clinic> {
    TableEncryption::new("clinic")
        .entity::<Patient>()
        .entity::<Ward>()
}

#[test]
fn the_actions_follow_the_fields_derived_through_the_reexport() {
    let actions = encryption()
        .attribute_actions()
        .expect("one action per attribute");
    assert_eq!(actions["diagnosis"], Action::Encrypt);
    assert_eq!(actions["insurer"], Action::SignOnly);
    assert_eq!(actions["PK"], Action::SignOnly);
    assert_eq!(actions["SK"], Action::SignOnly);
    assert_eq!(actions["beds"], Action::Plain);
    assert_eq!(actions["name"], Action::Plain);
}

#[tokio::test]
async fn the_sdk_accepts_the_configuration_and_builds_the_interceptor() {
    let keyring = raw_aes_keyring("reexport", "key", [7; 32])
        .await
        .expect("keyring");
    let interceptor = encryption().interceptor(keyring).expect("interceptor");
    let name =
        dynamap_reexport_check::dynamap::aws_sdk_dynamodb::config::Intercept::name(&interceptor);
    // The name `Db` knows an encrypting client by (it then reads whole items).
    assert_eq!(name, "DbEsdkInterceptor");
}
