//! A maintenance job from the command line: the tickets of a help desk got a status index
//! after thousands were written; audit the table, preview the re-key, run it (on one machine
//! or as a share of the segments on many), and audit again.
//!
//! ```text
//! cargo run --release --example maintain -- seed --items 50000   # tickets without the index
//! cargo run --release --example maintain -- audit                 # what has drifted
//! cargo run --release --example maintain -- migrate --dry-run     # what would change
//! cargo run --release --example maintain -- migrate --segments 8 --write-units 500
//! cargo run --release --example maintain -- migrate --segments 8 --only 0..4   # one worker's share
//! cargo run --release --example maintain -- migrate --segments 64 --workers 4 --worker 1
//! JOB_COMPLETION_INDEX=1 cargo run --release --example maintain -- migrate --segments 64 --workers 4
//! cargo run --release --example maintain -- demo                  # all of it, in one run
//! ```
//!
//! Without `AWS_ENDPOINT_URL_DYNAMODB` each run starts its own DynamoDB Local, so only
//! `demo` (seed, audit, dry run, migrate, audit) shows anything; with it set, the table
//! (`--table`, default `helpdesk`) stays between runs and several processes can share one
//! job, each running its `--only` share of the segments, or the share of its worker index:
//! `--worker I` of `--workers N`, the index otherwise read from `JOB_COMPLETION_INDEX` (a
//! Kubernetes Indexed Job's pods) or `AWS_BATCH_JOB_ARRAY_INDEX` (an AWS Batch array job's
//! children), the count in `AWS_BATCH_JOB_ARRAY_SIZE` when `--workers` is not given.

use std::io::IsTerminal;
use std::ops::Range;
use std::time::Duration;

use dynamap::aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use dynamap::codec::AttributeValue::{N, S};
use dynamap::codec::Item;
use dynamap::maintain::{AuditReport, Budget, Report};
use dynamap::{Db, Entity};
use example_support::example_db;
use example_support::tables::HelpDesk;
use indicatif::{ProgressBar, ProgressStyle};

/// A ticket as the code renders it now, with its status index.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = HelpDesk, entity = "Ticket", pk = "TICKET#{id}", sk = "TICKET",
          index(name = "GSI1", pk = "STATUS#{status}", sk = "TICKET#{id}"))]
struct Ticket {
    id: String,
    status: String,
    #[dynamap(version)]
    version: u64,
}

const USAGE: &str = "\
Audit and re-key a help desk's tickets.

Usage: maintain <seed|audit|migrate|demo> [options]

Options:
  --table NAME        the table (default helpdesk)
  --items N           seed: tickets to write without their index (default 20000)
  --segments N        migrate: scan segments (default 8)
  --only I..J         migrate: run only segments I..J of them (a worker's share)
  --workers N         migrate: run one worker's share of the segments, of N workers
                      (default: AWS_BATCH_JOB_ARRAY_SIZE, when set)
  --worker I          migrate: this worker's index, 0 to N-1 (default: the index in
                      JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX)
  --write-units W     migrate: write capacity units per second (default: unlimited)
  --dry-run           migrate: report what would change, write nothing
  -h, --help          print this help";

struct Args {
    command: String,
    table: String,
    items: usize,
    segments: u32,
    only: Option<Range<u32>>,
    /// Worker `.0` of `.1`.
    worker: Option<(u32, u32)>,
    write_units: Option<f64>,
    dry_run: bool,
}

fn args() -> Result<Option<Args>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut args = Args {
        command: String::new(),
        table: "helpdesk".to_owned(),
        items: 20_000,
        segments: 8,
        only: None,
        worker: None,
        write_units: None,
        dry_run: false,
    };
    let (mut index, mut workers) = (None, None);
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Value(command) if args.command.is_empty() => args.command = command.string()?,
            Long("table") => args.table = parser.value()?.string()?,
            Long("items") => args.items = parser.value()?.parse()?,
            Long("segments") => args.segments = parser.value()?.parse()?,
            Long("only") => {
                let text = parser.value()?.string()?;
                let (start, end) = text
                    .split_once("..")
                    .ok_or_else(|| format!("--only takes a range I..J, not {text:?}"))?;
                let bound = |n: &str| {
                    n.parse::<u32>()
                        .map_err(|_| format!("--only takes a range I..J of numbers, not {text:?}"))
                };
                args.only = Some(bound(start)?..bound(end)?);
            }
            Long("worker") => index = Some(parser.value()?.parse()?),
            Long("workers") => workers = Some(parser.value()?.parse()?),
            Long("write-units") => args.write_units = Some(parser.value()?.parse()?),
            Long("dry-run") => args.dry_run = true,
            Short('h') | Long("help") => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    if !["seed", "audit", "migrate", "demo"].contains(&args.command.as_str()) {
        return Err(format!(
            "a command is needed: seed, audit, migrate or demo, not {:?}",
            args.command
        )
        .into());
    }
    args.worker = worker(index, workers)?;
    if args.worker.is_some() && args.only.is_some() {
        return Err("--only and --workers both choose the segments: give one".into());
    }
    Ok(Some(args))
}

/// The batch engines' variables that hold a worker's index, in the order they are read.
const INDEX_VARIABLES: [&str; 2] = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];

/// The variable in which AWS Batch gives each child of an array job the array's size.
const SIZE_VARIABLE: &str = "AWS_BATCH_JOB_ARRAY_SIZE";

/// Which worker of how many this process is: `--worker` or else the engine's index
/// variable, of `--workers` or else AWS Batch's array size. `None` with neither count: the
/// process runs the whole job.
fn worker(index: Option<u32>, workers: Option<u32>) -> Result<Option<(u32, u32)>, lexopt::Error> {
    let workers = match (workers, std::env::var(SIZE_VARIABLE)) {
        (Some(workers), _) => Some(workers),
        (None, Ok(size)) => Some(
            size.trim()
                .parse()
                .map_err(|_| format!("{SIZE_VARIABLE} holds {size:?}, not a number of workers"))?,
        ),
        (None, Err(_)) => None,
    };
    let Some(workers) = workers else {
        return match index {
            Some(_) => Err("--worker needs --workers N, the number of workers".into()),
            None => Ok(None),
        };
    };
    let index = match index {
        Some(index) => index,
        None => {
            let (name, value) = INDEX_VARIABLES
                .iter()
                .find_map(|name| Some((name, std::env::var(name).ok()?)))
                .ok_or_else(|| {
                    format!(
                        "--workers needs this worker's index: --worker I, or {}",
                        INDEX_VARIABLES.join(" or ")
                    )
                })?;
            value
                .trim()
                .parse()
                .map_err(|_| format!("{name} holds {value:?}, not a worker index"))?
        }
    };
    Ok(Some((index, workers)))
}

/// Writes `items` tickets the way the old code did: no status index.
async fn seed(db: &Db<HelpDesk>, items: usize) -> Result<(), Box<dyn std::error::Error>> {
    let tickets: Vec<Item> = (0..items)
        .map(|i| {
            let mut item = Item::new();
            item.insert("PK".into(), S(format!("TICKET#{i:07}")));
            item.insert("SK".into(), S("TICKET".into()));
            item.insert("_type".into(), S("Ticket".into()));
            item.insert("id".into(), S(format!("{i:07}")));
            item.insert(
                "status".into(),
                S(["open", "closed", "waiting"][i % 3].into()),
            );
            item.insert("version".into(), N("1".into()));
            item
        })
        .collect();
    for chunk in tickets.chunks(25) {
        let mut requests: Vec<WriteRequest> = chunk
            .iter()
            .map(|item| {
                PutRequest::builder()
                    .set_item(Some(item.clone()))
                    .build()
                    .map(|put| WriteRequest::builder().put_request(put).build())
            })
            .collect::<Result<_, _>>()?;
        while !requests.is_empty() {
            let out = db
                .client()
                .batch_write_item()
                .request_items(db.table_name(), requests)
                .send()
                .await?;
            requests = out
                .unprocessed_items
                .and_then(|mut left| left.remove(db.table_name()))
                .unwrap_or_default();
        }
    }
    println!("seeded {items} tickets without their status index");
    Ok(())
}

async fn audit(db: &Db<HelpDesk>) -> dynamap::Result<AuditReport> {
    let report = db.audit().entity::<Ticket>().segments(4).send().await?;
    println!("audit: {report}", report = first_line(&report.to_string()));
    Ok(report)
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

async fn migrate(db: &Db<HelpDesk>, args: &Args, dry_run: bool) -> dynamap::Result<Report> {
    let mut job = db
        .maintain::<Ticket>("status-index")
        .rekey()
        .segments(args.segments);
    if let Some(only) = &args.only {
        job = job.only_segments(only.clone());
    }
    if let Some((index, workers)) = args.worker {
        println!(
            "worker {index} of {workers}, sharing {} segments",
            args.segments
        );
        job = job.worker(index, workers);
    }
    if let Some(units) = args.write_units {
        job = job.budget(Budget::UNLIMITED.writes(units));
    }
    if dry_run {
        job = job.dry_run();
    }
    // A progress bar on a terminal (items read of the table's estimated count, with the
    // job's ETA); in a log, only the final report.
    let bar = (std::io::stdout().is_terminal() && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} items read, {msg}")
                .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let shown = bar.clone();
    let report = job
        .on_progress(move |p| {
            if let Some(bar) = &shown {
                let read = p.items_read;
                bar.set_length(p.items_expected.unwrap_or(read).max(read));
                bar.set_position(read);
                let eta = p.eta().map_or_else(
                    || "ETA unknown".to_owned(),
                    |d| format!("ETA {}s", d.as_secs()),
                );
                bar.set_message(format!(
                    "{} tickets, {} changed, {:.0}/s, {:.0} write units, segments {}/{}, {eta}",
                    p.scanned,
                    p.changed,
                    p.items_per_second(),
                    p.write_units,
                    p.segments_done,
                    p.segments
                ));
            }
        })
        .send()
        .await?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    println!(
        "{}: {} scanned, {} re-keyed, {} unchanged, {} conflicts redone, {} failed, {} segments done, {} skipped, {:.0} write units",
        if dry_run { "dry run" } else { "migrate" },
        report.scanned,
        report.rekeyed,
        report.unchanged,
        report.conflicts_redone,
        report.failed_count,
        report.segments_done,
        report.segments_skipped,
        report.write_units
    );
    for sample in report.samples.iter().take(3) {
        println!("  would {} {}", sample.change, sample.before);
    }
    Ok(report)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(args) = args().map_err(|e| format!("{e} (maintain --help lists the options)"))? else {
        return Ok(());
    };
    let db = example_db::<HelpDesk>(&args.table).await?;
    match args.command.as_str() {
        "seed" => seed(&db, args.items).await?,
        "audit" => {
            audit(&db).await?;
        }
        "migrate" => {
            migrate(&db, &args, args.dry_run).await?;
        }
        _ => {
            seed(&db, args.items).await?;
            let before = audit(&db).await?;
            let preview = migrate(&db, &args, true).await?;
            let done = migrate(&db, &args, false).await?;
            let after = audit(&db).await?;
            assert_eq!(
                preview.rekeyed, done.rekeyed,
                "the dry run counted what the job did"
            );
            assert_eq!(before.key_drift, done.rekeyed);
            assert!(after.is_clean(), "{after}");
        }
    }
    Ok(())
}
