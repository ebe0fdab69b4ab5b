//! Fan-out on write (seed 004): a streamer with many followers starts a stream, and one
//! timeline item per follower is written, 25 a call in parallel, retried, failures
//! reported. Then one follower reads the newest 10 entries, and the next 10 from the cursor.
//!
//! ```text
//! cargo run --release --example timeline                      # 220,000 followers
//! cargo run --release --example timeline -- --followers 5000
//! cargo run --release --example timeline -- --throttle 0.05   # 5% of calls throttled
//! ```
//!
//! Afterwards it counts the stored entries, so a run with throttling shows every entry stored
//! exactly once (or reported as failed).
//!
//! starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it writes to table
//! `timeline` at that endpoint and leaves it there to inspect.

use std::io::Write;
use std::time::Instant;

use dynamap::local::{DynamoLocal, Faults};
use dynamap::{Db, Entity, Table};
use example_support::example_db;
use time::{Duration, OffsetDateTime};

/// Timelines live under their reader: `USER#<follower>`, newest last in sort order.
#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK", ttl = "expires_at")]
struct Social;

/// One event on one follower's timeline. The sort key is time + stream id, so two streams
/// starting in the same millisecond stay two entries.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Social, entity = "TimelineEntry", pk = "USER#{follower}", sk = "TL#{at}#{stream_id}")]
struct TimelineEntry {
    follower: u32,
    #[dynamap(with = "dynamap::codec::timestamp")]
    at: OffsetDateTime,
    stream_id: String,
    streamer: String,
    title: String,
    /// Epoch seconds; DynamoDB deletes the entry a month after the stream started.
    expires_at: i64,
}

/// `--followers N` (default 220,000) and `--throttle RATE` (default 0).
fn args() -> Result<(u32, f64), String> {
    let mut args = std::env::args().skip(1);
    let mut followers = 220_000;
    let mut throttle = 0.0;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--throttle" => {
                let value = args.next().ok_or("--throttle needs a rate, like 0.05")?;
                throttle = value
                    .parse()
                    .map_err(|_| format!("--throttle takes a rate from 0 to 1, not {value:?}"))?;
            }
            "--followers" => {
                let value = args.next().ok_or("--followers needs a number")?;
                followers = value
                    .parse()
                    .map_err(|_| format!("--followers takes a whole number, not {value:?}"))?;
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: timeline [--followers N] [--throttle RATE]"
                ));
            }
        }
    }
    Ok((followers, throttle))
}

fn entry(follower: u32, at: OffsetDateTime, stream_id: &str) -> TimelineEntry {
    TimelineEntry {
        follower,
        at,
        stream_id: stream_id.to_owned(),
        streamer: "alice".to_owned(),
        title: "Speedrun, any%".to_owned(),
        expires_at: (at + Duration::days(30)).unix_timestamp(),
    }
}

/// A one-line progress bar, redrawn in place.
fn draw(done: usize, total: usize, started: Instant) {
    let width = 30;
    let filled = (done * width)
        .checked_div(total)
        .unwrap_or(width)
        .min(width);
    let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
    print!(
        "\r[{}{}] {done}/{total} items, {rate:.0} items/s ",
        "#".repeat(filled),
        " ".repeat(width - filled)
    );
    // A progress bar that fails to draw is no reason to stop the fan-out.
    let _ = std::io::stdout().flush();
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (followers, throttle) = args()?;
    let db = example_db::<Social>("timeline").await?;
    let faults = Faults::seeded(4).throttle(throttle);
    // The fan-out goes through a client whose calls are throttled at the given rate.
    let writer = if throttle > 0.0 {
        Db::new(
            DynamoLocal::shared()?.faulty_client(&faults),
            db.table_name(),
        )
    } else {
        db.clone()
    };

    // Two streams start in the same millisecond: both must reach every timeline.
    let now = OffsetDateTime::now_utc().replace_nanosecond(0)?;
    let streams = ["st-morning", "st-speedrun"];
    let total = followers as usize * streams.len();
    println!(
        "alice starts {} streams; fanning out to {followers} followers ({total} items)",
        streams.len()
    );
    let started = Instant::now();
    let mut last_drawn = 0;
    let report = writer
        .batch_write()
        .put_all((0..followers).flat_map(|f| streams.iter().map(move |s| entry(f, now, s))))
        .concurrency(16)
        .on_progress(|p| {
            if p.done() - last_drawn >= 2_500 || p.done() == total {
                last_drawn = p.done();
                draw(p.done(), total, started);
            }
        })
        .send()
        .await?;
    let elapsed = started.elapsed();
    println!();
    println!(
        "wrote {} items in {:.2} s: {:.0} items/s; {} failed",
        report.written,
        elapsed.as_secs_f64(),
        report.written as f64 / elapsed.as_secs_f64().max(1e-9),
        report.failed.len()
    );
    for failed in report.failed.iter().take(5) {
        println!("  not stored: {failed}");
    }
    if throttle > 0.0 {
        println!(
            "throttled calls: {} of {}",
            faults.counts().throttled,
            faults.counts().calls
        );
    }
    let stored = db.scan::<TimelineEntry>().count().await?;
    println!(
        "entries in the table: {stored} (written once each: {})",
        stored == report.written
    );

    // An older entry, so the reader has more than one page.
    for minutes in 1..=15 {
        let at = now - Duration::minutes(minutes);
        db.put(&entry(7, at, &format!("st-old-{minutes}"))).await?;
    }
    let reader = followers.min(7);
    let timeline = || {
        db.query(TimelineEntry::partition(reader))
            .descending()
            .limit(10)
    };
    let first = timeline().send().await?;
    println!("follower {reader}'s newest 10:");
    for e in &first.items {
        println!("  {} {} ({})", e.at, e.stream_id, e.title);
    }
    if let Some(cursor) = first.cursor {
        let next = timeline().after(cursor).send().await?;
        println!("the next {}:", next.items.len());
        for e in &next.items {
            println!("  {} {}", e.at, e.stream_id);
        }
    }
    if !report.failed.is_empty() {
        return Err(format!("{} timeline items were not stored", report.failed.len()).into());
    }
    Ok(())
}
