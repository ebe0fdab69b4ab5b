// `modify` reads, changes and writes back on condition that nobody wrote in between: that
// needs a version field, so an entity without one is refused at compile time.
use dynamap::{Db, Entity, Table};

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct App;

#[derive(Entity)]
#[dynamap(table = App, entity = "Device", pk = "DEVICE#{id}", sk = "DEVICE")]
struct Device {
    id: String,
    alarms: u64,
}

async fn bump(db: Db<App>) -> dynamap::Result<Option<Device>> {
    db.modify(Device::key("d1"), |device| device.alarms += 1).await
}

fn main() {}
