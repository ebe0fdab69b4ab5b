// `#[derive(Attribute)]` stores serde's default form; serde attributes that change the form
// (other than the renames, `default` and `skip` it follows) are refused where they are written.
use dynamap::Attribute;

#[derive(Attribute, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Address {
    #[serde(skip_serializing_if = "Option::is_none")]
    floor: Option<i16>,
    street: String,
}

#[derive(Attribute, serde::Serialize, serde::Deserialize)]
enum Shape {
    Square,
    Polygon(u8),
}

fn main() {}
