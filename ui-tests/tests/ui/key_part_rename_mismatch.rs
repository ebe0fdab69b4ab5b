// A variant's key text must be the name serde stores it under; otherwise the key says
// `OPEN` while the attribute says `Open`.
use dynamap::KeyPart;

#[derive(KeyPart, serde::Serialize)]
enum Status {
    #[dynamap(rename = "OPEN")]
    Open,
    Closed,
}

fn main() {}
