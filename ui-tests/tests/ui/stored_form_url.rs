// A `url::Url` in a nested struct stored by `#[derive(Attribute)]`: refused there too.
// (A stand-in for url, recognized by its path.)
mod url {
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Url(pub String);
}

#[derive(dynamap::Attribute, serde::Serialize, serde::Deserialize)]
struct Link {
    title: String,
    target: url::Url,
}

fn main() {}
