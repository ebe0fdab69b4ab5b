// `uuid::Uuid` is stored in dynamap's form only with dynamap's `uuid` feature: without
// it, refused, naming the feature. (A stand-in with no dynamap form, as with the feature off.)
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

mod uuid {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Uuid(pub u128);
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Device", pk = "DEVICE#{name}", sk = "DEVICE")]
struct Device {
    name: String,
    owners: std::collections::HashMap<String, uuid::Uuid>,
}

fn main() {}
