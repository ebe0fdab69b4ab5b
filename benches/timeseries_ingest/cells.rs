//! The cells of the study (write path, live or backfill) and what each measured.

use dynamap::timeseries::rows::WritePath;
use serde_json::{Value, json};

use crate::workload::RECENT;

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    /// One item per event, `db.put`.
    Baseline,
    Rows(WritePath),
}

#[derive(Clone, Copy)]
pub(crate) struct Cell {
    pub(crate) name: &'static str,
    pub(crate) mode: Mode,
    /// Events stamped 30 days ago rather than now.
    pub(crate) backfill: bool,
    /// Collisions arrive after the group's first write finished (see [`plan`]).
    pub(crate) spread: bool,
}

pub(crate) const fn cell(name: &'static str, mode: Mode, backfill: bool, spread: bool) -> Cell {
    Cell {
        name,
        mode,
        backfill,
        spread,
    }
}

pub(crate) const AUTO: WritePath = WritePath::Auto { recent: RECENT };

pub(crate) const CELLS: [Cell; 9] = [
    cell("baseline (item per event)", Mode::Baseline, false, false),
    cell("map-first", Mode::Rows(WritePath::MapFirst), false, false),
    cell(
        "create-first",
        Mode::Rows(WritePath::CreateFirst),
        false,
        false,
    ),
    cell("auto, live", Mode::Rows(AUTO), false, false),
    cell("auto, backfill", Mode::Rows(AUTO), true, false),
    cell(
        "adaptive, backfill",
        Mode::Rows(WritePath::Adaptive),
        true,
        false,
    ),
    cell(
        "map-first, spread",
        Mode::Rows(WritePath::MapFirst),
        false,
        true,
    ),
    cell(
        "create-first, spread",
        Mode::Rows(WritePath::CreateFirst),
        false,
        true,
    ),
    cell(
        "adaptive, spread",
        Mode::Rows(WritePath::Adaptive),
        false,
        true,
    ),
];

/// What one cell measured.
pub(crate) struct Measured {
    pub(crate) events: usize,
    pub(crate) distinct_timestamps: usize,
    pub(crate) seconds: f64,
    pub(crate) requests: u64,
    /// Writes that took 1, 2, 3 and 4 or more requests.
    pub(crate) histogram: [u64; 4],
    pub(crate) started_with_create: usize,
    pub(crate) stored: usize,
    pub(crate) already_stored: usize,
    pub(crate) errors: usize,
    pub(crate) items_in_table: usize,
    pub(crate) read_back: usize,
}

impl Measured {
    pub(crate) fn events_per_second(&self) -> f64 {
        self.events as f64 / self.seconds
    }

    pub(crate) fn requests_per_event(&self) -> f64 {
        self.requests as f64 / self.events as f64
    }

    pub(crate) fn json(&self, cell: &Cell, rate: f64) -> Value {
        json!({
            "cell": cell.name,
            "backfill": cell.backfill,
            "collisions_spread": cell.spread,
            "collision_rate": rate,
            "events": self.events,
            "distinct_timestamps": self.distinct_timestamps,
            "seconds": self.seconds,
            "events_per_second": self.events_per_second(),
            "requests": self.requests,
            "requests_per_event": self.requests_per_event(),
            "requests_per_second": self.requests as f64 / self.seconds,
            "writes_by_requests": {
                "1": self.histogram[0], "2": self.histogram[1],
                "3": self.histogram[2], "4_or_more": self.histogram[3],
            },
            "started_with_create": self.started_with_create,
            "stored": self.stored,
            "already_stored": self.already_stored,
            "errors": self.errors,
            "items_in_table": self.items_in_table,
            "read_back": self.read_back,
        })
    }
}
