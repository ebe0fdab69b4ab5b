// `set` on an `Option` field takes the value itself; an `Option` goes to `set_option`.
use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
struct Device {
    id: String,
    note: Option<String>,
}

async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
    let note = String::from("checked");
    db.update(Device::key("d1")).set(Device::NOTE, Some(note)).await?;
    Ok(())
}

fn main() {
    let _ = example;
}
