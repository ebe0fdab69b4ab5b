//! Fan-out on write (seed 004): a streamer with many followers starts a stream, and one
//! timeline item per follower is written, 25 a call in parallel, retried, failures
//! reported. Then one follower reads the newest 10 entries, and the next 10 from the cursor.
//!
//! ```text
//! cargo run --release --example timeline                      # 220,000 followers
//! cargo run --release --example timeline -- --followers 5000
//! cargo run --release --example timeline -- --throttle 0.05   # 5% of calls throttled
//! cargo run --release --example timeline -- --help
//! ```
//!
//! On a terminal the fan-out draws a progress bar; piped to a file it logs a line at every
//! tenth of the work instead.
//!
//! Afterwards it counts the stored entries, so a run with throttling shows every entry stored
//! exactly once (or reported as failed).
//!
//! starts DynamoDB Local by itself. With `AWS_ENDPOINT_URL_DYNAMODB` set, it writes to table
//! `timeline` at that endpoint and leaves it there to inspect.

use std::io::IsTerminal;
use std::time::Instant;

use dynamap::Db;
use dynamap_local::{DynamoLocal, Faults};
use example_support::tables::Social;
use example_support::timeline::{TimelineEntry, entry};
use example_support::{example_db, rfc3339};
use indicatif::{ProgressBar, ProgressStyle};
use time::{Duration, OffsetDateTime};

const USAGE: &str = "\
Fan out two streams to every follower's timeline, then read one timeline back.

Usage: timeline [--followers N] [--throttle RATE]

Options:
  --followers N    followers to fan out to (default 220000)
  --throttle RATE  share of batch calls DynamoDB Local throttles, 0 to 1 (default 0)
  -h, --help       print this help";

/// What the command line asks for.
struct Args {
    followers: u32,
    throttle: f64,
}

/// Parses the command line; `None` after printing the help, which `--help` asks for.
fn args() -> Result<Option<Args>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut args = Args {
        followers: 220_000,
        throttle: 0.0,
    };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("followers") => args.followers = parser.value()?.parse()?,
            Long("throttle") => {
                let rate: f64 = parser.value()?.parse()?;
                if !(0.0..=1.0).contains(&rate) {
                    return Err(format!("--throttle takes a rate from 0 to 1, not {rate}").into());
                }
                args.throttle = rate;
            }
            Short('h') | Long("help") => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(Some(args))
}

/// Fan-out progress: a bar redrawn in place on a terminal; elsewhere (piped to a file or a
/// CI log) a plain line at every tenth of the work, since a log has no place to redraw.
struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    started: Instant,
    next_line: usize,
}

impl Progress {
    fn new(total: usize) -> Self {
        // The bar draws on stderr; with stdout going to a file, the log goes there instead.
        let on_terminal = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
        let bar = on_terminal.then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "[{bar:30}] {human_pos}/{human_len} items, {per_sec}, {eta} left",
                )
                .expect("a valid template")
                .progress_chars("#>-"),
            );
            bar
        });
        Self {
            bar,
            total,
            started: Instant::now(),
            next_line: (total / 10).max(1),
        }
    }

    fn update(&mut self, done: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
        } else if done >= self.next_line {
            let rate = done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            println!(
                "progress: {done}/{} items ({}%), {rate:.0} items/s",
                self.total,
                done * 100 / self.total.max(1)
            );
            let step = (self.total / 10).max(1);
            self.next_line = (done / step + 1) * step;
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish();
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(Args {
        followers,
        throttle,
    }) = args().map_err(|e| format!("{e} (timeline --help lists the options)"))?
    else {
        return Ok(());
    };
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
    let mut progress = Progress::new(total);
    let report = writer
        .batch_write()
        .put_all((0..followers).flat_map(|f| streams.iter().map(move |s| entry(f, now, s))))
        .concurrency(16)
        .on_progress(|p| progress.update(p.done()))
        .send()
        .await?;
    progress.finish();
    let elapsed = started.elapsed();
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
        println!("  {} {} ({})", rfc3339(e.at), e.stream_id, e.title);
    }
    if let Some(cursor) = first.cursor {
        let next = timeline().after(cursor).send().await?;
        println!("the next {}:", next.items.len());
        for e in &next.items {
            println!("  {} {}", rfc3339(e.at), e.stream_id);
        }
    }
    if !report.failed.is_empty() {
        return Err(format!("{} timeline items were not stored", report.failed.len()).into());
    }
    Ok(())
}
