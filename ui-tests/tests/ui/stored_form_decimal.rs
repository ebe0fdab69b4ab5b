// rust_decimal's `Decimal` has no form chosen by dynamap (its serde form is text or a
// float by feature): refused, in a list too. (A stand-in, recognized by its path.)
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

mod rust_decimal {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Decimal(pub i128);
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Invoice", pk = "INVOICE#{id}", sk = "INVOICE")]
struct Invoice {
    id: String,
    lines: Vec<rust_decimal::Decimal>,
}

fn main() {}
