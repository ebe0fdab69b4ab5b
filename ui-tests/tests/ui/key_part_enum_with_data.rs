use dynamap::KeyPart;

#[derive(KeyPart)]
enum Kind {
    Gas,
    Humidity,
    Other(String),
}

fn main() {}
