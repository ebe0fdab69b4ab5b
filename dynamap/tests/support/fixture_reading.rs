//! The element type of the committed columnar fixtures (`tests/fixtures/`), exactly as they
//! were written: `columnar_fixtures.rs` reads them back with it, `columnar_fuzz.rs` decodes
//! damaged copies with it (included with `#[path]`).

use dynamap::codec::Columnar;
use serde::{Deserialize, Serialize};

#[derive(Columnar, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub(crate) enum Kind {
    Motion,
    Noise,
    Light,
}

#[derive(Columnar, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Reading {
    pub(crate) kind: Kind,
    pub(crate) sensor: u8,
    pub(crate) start: i64,
    pub(crate) end: i64,
    pub(crate) value: f64,
    pub(crate) max: f64,
    pub(crate) flag: Option<String>,
    pub(crate) samples: Vec<i16>,
}
