//! A sleep tracker's event table (seed 000): one user's day of sensor events (motion, noise
//! and light, one event per type per minute: 4,320 events) stored compressed in a single
//! item per night, reprocessed and overwritten wholesale, read back and verified.
//!
//! ```text
//! cargo run --example sleep_events
//! ```
//!
//! It prints how large the stored attribute would be with each codec and format, then
//! scans the table raw to show what DynamoDB holds: one binary attribute, under the seed's
//! 32 KB budget, whose header records its format and codec.
//!
//! Without `AWS_ENDPOINT_URL_DYNAMODB` it starts DynamoDB Local by itself; with it set, it
//! writes to table `sleep_events` at that endpoint and leaves it there to inspect.

use dynamap::codec::{AttributeValue, Codec, Compression, Format, Header, compress_list};
use example_support::example_db;
use example_support::nights::Night;
use example_support::sleep::{self, Kind, NIGHT};
use example_support::tables::SleepTable;

/// Reprocessing: the noise sensor turned out to read 1.5 dB high, so every noise reading
/// is corrected and the whole list is written again.
fn reprocess(night: &Night) -> Night {
    let mut next = night.clone();
    next.revision += 1;
    for event in next.events.iter_mut().filter(|e| e.kind == Kind::Noise) {
        event.value = ((event.value - 1.5) * 10.0).round() / 10.0;
        event.max = ((event.max - 1.5) * 10.0).round() / 10.0;
    }
    next
}

/// An attribute's type as DynamoDB names it, and its size in bytes.
fn describe(value: &AttributeValue) -> (&'static str, usize) {
    match value {
        AttributeValue::S(s) => ("S", s.len()),
        AttributeValue::N(n) => ("N", n.len()),
        AttributeValue::B(b) => ("B", b.as_ref().len()),
        AttributeValue::Bool(_) => ("BOOL", 1),
        AttributeValue::Null(_) => ("NULL", 1),
        AttributeValue::L(l) => ("L", l.len()),
        AttributeValue::M(m) => ("M", m.len()),
        _ => ("?", 0),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = example_db::<SleepTable>("sleep_events").await?;

    let events = sleep::night(42);
    let raw_json = serde_json::to_vec(&events)?.len();
    println!(
        "night {NIGHT}: {} events ({} MOTION, {} NOISE, {} LIGHT), {raw_json} bytes as JSON",
        events.len(),
        events.iter().filter(|e| e.kind == Kind::Motion).count(),
        events.iter().filter(|e| e.kind == Kind::Noise).count(),
        events.iter().filter(|e| e.kind == Kind::Light).count(),
    );

    let night = Night {
        account_id: "A1".into(),
        target_date_of_night: NIGHT.into(),
        revision: 1,
        events,
    };
    db.put(&night).await?;
    println!("wrote revision {}", night.revision);

    // Reprocessing reads the night, re-derives the events and overwrites the item whole:
    // no read-modify-write of parts, so no race between parts.
    let stored = db
        .get(Night::key("A1", NIGHT))
        .consistent()
        .await?
        .ok_or("the night was not stored")?;
    let reprocessed = reprocess(&stored);
    db.put(&reprocessed).await?;
    let read = db
        .get(Night::key("A1", NIGHT))
        .consistent()
        .await?
        .ok_or("the night disappeared")?;
    println!(
        "reprocessed and overwrote: revision {}, {} events, read back equal: {}",
        read.revision,
        read.events.len(),
        read == reprocessed
    );
    if read != reprocessed {
        return Err("the night read back differs from the one written".into());
    }

    println!("\nstored size of the events by codec and format (budget 32,768 bytes):");
    println!(
        "  {:<8} {:>10} {:>10} {:>22}",
        "codec", "columnar", "json", "plain JSON / columnar"
    );
    let codecs = [
        Codec::DEFAULT,
        Codec::Bzip2 { level: 9 },
        Codec::Gzip { level: 6 },
        Codec::Snappy,
        Codec::None,
    ];
    for codec in codecs {
        let size = |format| -> Result<usize, dynamap::codec::CodecError> {
            let settings = Compression::DEFAULT.codec(codec).format(format);
            Ok(compress_list(&read.events, &settings)?.len())
        };
        let (columnar, json) = (size(Format::Columnar)?, size(Format::Json)?);
        println!(
            "  {:<8} {columnar:>10} {json:>10} {:>20.0}:1{}",
            codec.name(),
            raw_json as f64 / columnar as f64,
            if codec == Codec::DEFAULT {
                "  <- the default, as stored"
            } else {
                ""
            }
        );
    }

    println!("\nraw scan of table {}:", db.table_name());
    let scan = db
        .client()
        .scan()
        .table_name(db.table_name())
        .send()
        .await?;
    for item in scan.items() {
        let mut names: Vec<&String> = item.keys().collect();
        names.sort();
        println!("  item ({} attributes):", names.len());
        for name in names {
            let value = &item[name];
            let (kind, size) = describe(value);
            match value {
                AttributeValue::B(bytes) => {
                    let header = Header::read(bytes.as_ref())
                        .map_or_else(|err| format!("no header: {err}"), |(h, _)| h.to_string());
                    println!(
                        "    {name:<13} {kind:<2} {size:>6} bytes, under 32 KB: {}; header: {header}",
                        size < 32 * 1024
                    );
                }
                AttributeValue::S(s) => println!("    {name:<13} {kind:<2} {s:?}"),
                AttributeValue::N(n) => println!("    {name:<13} {kind:<2} {n}"),
                _ => println!("    {name:<13} {kind:<2} {size:>6} bytes"),
            }
        }
    }
    Ok(())
}
