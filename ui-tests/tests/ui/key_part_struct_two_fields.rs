use dynamap::KeyPart;

#[derive(KeyPart)]
struct SensorRef(String, u32);

fn main() {}
