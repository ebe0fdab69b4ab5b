// Key formats declared wrongly: an unknown choice, one choice set twice, a number form
// that does not exist, padding without a width or with a pad that would not read back,
// and a format on a field no key template uses. One error each, at the culprit.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", key_format(uppercase))]
struct Shouting;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", key_format(verbatim, escaped))]
struct Undecided;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Order", pk = "ORDER#{id}", sk = "N#{number}",
          key_format(numbers = "hex"))]
struct Order {
    id: String,
    number: u32,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Line", pk = "LINE#{id}", sk = "N#{number}#{step}")]
struct Line {
    id: String,
    #[dynamap(key_format(padded(pad = '0')))]
    number: u32,
    #[dynamap(key_format(padded(width = 4, pad = '-')))]
    step: u32,
}

#[derive(Entity)]
#[dynamap(table = App, entity = "Note", pk = "NOTE#{id}", sk = "NOTE")]
struct Note {
    id: String,
    #[dynamap(key_format(lowercase))]
    text: String,
}

fn main() {}
