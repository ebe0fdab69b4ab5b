//! The `sleep_events` example (seed 000), run against the shared DynamoDB Local and its
//! table scanned raw afterwards: the night is one item, its events one binary attribute
//! under the seed's 32 KB budget whose header records the codec.

use dynamap::codec::{AttributeValue, Codec, Format, Header};
use dynamap_local::DynamoLocal;

use crate::examples::run_example;

#[tokio::test]
async fn sleep_events_example_stores_the_night_as_one_compressed_attribute() {
    let stdout = run_example("sleep_events");
    assert!(
        stdout.contains("4320 events (1440 MOTION, 1440 NOISE, 1440 LIGHT)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("revision 2, 4320 events, read back equal: true"),
        "{stdout}"
    );
    for codec in ["zstd", "bzip2", "gzip", "snappy", "none"] {
        assert!(
            stdout.lines().any(|l| l.trim_start().starts_with(codec)),
            "no size printed for {codec}:\n{stdout}"
        );
    }
    assert!(stdout.contains("header: columnar v3 + zstd"), "{stdout}");

    let client = DynamoLocal::shared().expect("running").client();
    let scan = client
        .scan()
        .table_name("sleep_events")
        .send()
        .await
        .expect("raw scan");
    let nights: Vec<_> = scan
        .items()
        .iter()
        .filter(|item| {
            item.get("_type")
                .and_then(|t| t.as_s().ok())
                .is_some_and(|t| t == "Night")
        })
        .collect();
    assert_eq!(nights.len(), 1, "one item for the night: {nights:?}");
    let night = nights[0];
    assert_eq!(
        night["SK"].as_s().expect("string sort key"),
        "NIGHT#2026-11-21"
    );
    assert_eq!(night["revision"].as_n().expect("number"), "2");

    let binary: Vec<_> = night
        .iter()
        .filter(|(_, v)| matches!(v, AttributeValue::B(_)))
        .collect();
    assert_eq!(binary.len(), 1, "one binary attribute: {night:?}");
    let (name, value) = binary[0];
    assert_eq!(name, "events_data");
    let bytes = value.as_b().expect("binary").as_ref();
    assert!(bytes.len() < 32 * 1024, "{} bytes", bytes.len());
    let (header, _) = Header::read(bytes).expect("a readable header");
    // Written column by column by the code `#[derive(Columnar)]` generates.
    assert_eq!(
        (header.format, header.version, header.codec),
        (Format::Columnar, 3, Codec::DEFAULT)
    );
    assert_eq!(header.codec.name(), "zstd");
    assert_eq!(header.stored_bytes, bytes.len());
}
