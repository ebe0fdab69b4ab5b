//! Reporting: the results as JSON, and the machine they were measured on.

use std::path::PathBuf;
use std::time::Duration;

use time::OffsetDateTime;

use crate::measure::{Footprint, Rounds, items_per_s, median};

/// Just enough JSON to write the results without another dependency.
pub(crate) enum Json {
    Num(f64),
    Int(u64),
    Str(String),
    Bool(bool),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    pub(crate) fn str(text: impl Into<String>) -> Json {
        Json::Str(text.into())
    }

    pub(crate) fn int(n: usize) -> Json {
        Json::Int(u64::try_from(n).unwrap_or(u64::MAX))
    }

    /// Milliseconds, rounded to microseconds.
    pub(crate) fn ms(d: Duration) -> Json {
        Json::Num((d.as_secs_f64() * 1e6).round() / 1e3)
    }

    pub(crate) fn render(&self, indent: usize, out: &mut String) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::Num(n) if n.is_finite() => out.push_str(&format!("{n}")),
            Json::Num(_) => out.push_str("null"),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::Arr(items)
                if items
                    .iter()
                    .all(|i| !matches!(i, Json::Arr(_) | Json::Obj(_))) =>
            {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push_str(", ");
                    }
                    item.render(indent, out);
                }
                out.push(']');
            }
            Json::Arr(items) => {
                out.push_str("[\n");
                for (n, item) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    item.render(indent + 1, out);
                    out.push_str(if n + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push_str("{\n");
                for (n, (key, value)) in fields.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    Json::str(*key).render(indent + 1, out);
                    out.push_str(": ");
                    value.render(indent + 1, out);
                    out.push_str(if n + 1 < fields.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
}

/// Rounds to three significant decimals for reading.
pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Items per second of the median and of the fastest round, for each side.
pub(crate) struct Summary {
    pub(crate) dynamap: f64,
    pub(crate) raw: f64,
    pub(crate) dynamap_best: f64,
    pub(crate) raw_best: f64,
}

impl Summary {
    pub(crate) fn ratio(&self) -> f64 {
        self.dynamap / self.raw
    }

    pub(crate) fn best_ratio(&self) -> f64 {
        self.dynamap_best / self.raw_best
    }
}

pub(crate) fn comparison_json(items: usize, warmup: usize, rounds: &Rounds) -> (Json, Summary) {
    let fastest = |d: &[Duration]| d.iter().copied().min().unwrap_or_default();
    let summary = Summary {
        dynamap: items_per_s(items, median(&rounds.dynamap)),
        raw: items_per_s(items, median(&rounds.raw)),
        dynamap_best: items_per_s(items, fastest(&rounds.dynamap)),
        raw_best: items_per_s(items, fastest(&rounds.raw)),
    };
    let json = Json::Obj(vec![
        ("items_per_round", Json::int(items)),
        ("warmup_rounds", Json::int(warmup)),
        ("rounds", Json::int(rounds.dynamap.len())),
        ("dynamap_items_per_s", Json::Num(summary.dynamap.round())),
        ("raw_items_per_s", Json::Num(summary.raw.round())),
        ("ratio_dynamap_over_raw", Json::Num(round3(summary.ratio()))),
        (
            "dynamap_best_items_per_s",
            Json::Num(summary.dynamap_best.round()),
        ),
        ("raw_best_items_per_s", Json::Num(summary.raw_best.round())),
        (
            "best_ratio_dynamap_over_raw",
            Json::Num(round3(summary.best_ratio())),
        ),
        (
            "dynamap_round_ms",
            Json::Arr(rounds.dynamap.iter().copied().map(Json::ms).collect()),
        ),
        (
            "raw_round_ms",
            Json::Arr(rounds.raw.iter().copied().map(Json::ms).collect()),
        ),
    ]);
    (json, summary)
}

pub(crate) fn footprint_json(f: &Footprint) -> Json {
    Json::Obj(vec![
        ("items", Json::int(f.items)),
        ("peak_heap_bytes", Json::int(f.peak_bytes)),
        ("retained_heap_bytes", Json::int(f.retained_bytes)),
        ("elapsed_ms", Json::ms(f.elapsed)),
    ])
}

/// The output of a command, trimmed, if it ran and succeeded.
pub(crate) fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let output = std::process::Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

pub(crate) fn machine_json(quick: bool) -> Json {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    let nproc = std::thread::available_parallelism().map_or(0, usize::from);
    let date = OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let commit = command_output("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = command_output("git", &["status", "--porcelain"]).map(|s| !s.is_empty());
    let mut fields = vec![
        ("mode", Json::str(if quick { "quick" } else { "full" })),
        ("date_utc", Json::str(date)),
        ("nproc", Json::int(nproc)),
        ("cpu", Json::str(cpu)),
        ("os", Json::str(std::env::consts::OS)),
        (
            "profile",
            Json::str(if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }),
        ),
    ];
    if let Some(rustc) = command_output("rustc", &["--version"]) {
        fields.push(("rustc", Json::str(rustc)));
    }
    if let Some(commit) = commit {
        fields.push(("git_commit", Json::str(commit)));
    }
    if let Some(dirty) = dirty {
        fields.push(("git_worktree_dirty", Json::Bool(dirty)));
    }
    Json::Obj(fields)
}

pub(crate) fn write_results(path: &PathBuf, json: &Json) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("creating the results directory");
    }
    let mut text = String::new();
    json.render(0, &mut text);
    text.push('\n');
    std::fs::write(path, text).expect("writing the results");
    println!("wrote {}", path.display());
}

pub(crate) fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
