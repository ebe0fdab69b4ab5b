//! The study's chart: stored size against compress time, codec only and end to end, one
//! point per row, with the goal region shaded.

use std::fmt::Write as _;

use dynamap::codec::{Codec, Format};

use crate::measure::{Measure, Row};
use crate::variants::{BZIP2_SEED, DEFAULT};

const PANEL_W: f64 = 600.0;
const PANEL_H: f64 = 470.0;
const MARGIN_L: f64 = 70.0;
const MARGIN_T: f64 = 60.0;
const PLOT_W: f64 = 470.0;
const PLOT_H: f64 = 370.0;

fn colour(codec: Codec) -> &'static str {
    match codec {
        Codec::Zstd { .. } => "#1f77b4",
        Codec::Bzip2 { .. } => "#d62728",
        Codec::Gzip { .. } => "#ff7f0e",
        Codec::Snappy => "#2ca02c",
        _ => "#7f7f7f",
    }
}

/// Log-scale axis over whole decades covering `values`.
struct LogAxis {
    lo: f64,
    hi: f64,
}

impl LogAxis {
    fn covering(values: impl Iterator<Item = f64>) -> LogAxis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values {
            lo = lo.min(v.log10());
            hi = hi.max(v.log10());
        }
        LogAxis {
            lo: lo.floor(),
            hi: hi.ceil().max(lo.floor() + 1.0),
        }
    }

    /// Position of `v` from 0 to 1.
    fn at(&self, v: f64) -> f64 {
        ((v.log10() - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }

    /// Gridline values: 1, 2 and 5 in every decade.
    fn ticks(&self) -> Vec<(f64, bool)> {
        let mut ticks = Vec::new();
        let mut decade = self.lo;
        while decade <= self.hi {
            for (m, major) in [(1.0, true), (2.0, false), (5.0, false)] {
                let v = m * 10f64.powf(decade);
                if v.log10() <= self.hi + 1e-9 {
                    ticks.push((v, major));
                }
            }
            decade += 1.0;
        }
        ticks
    }
}

fn tick_label(v: f64) -> String {
    if v >= 1000.0 {
        format!("{}k", v / 1000.0)
    } else if v >= 1.0 {
        format!("{v}")
    } else {
        format!("{v:.2}")
    }
}

/// The axes both panels share, and the rounds their times add up.
struct Axes {
    x: LogAxis,
    y: LogAxis,
    rounds: usize,
}

/// Draws one panel (`way`: 0 codec only, 1 end to end) at horizontal offset `left`.
fn panel(svg: &mut String, rows: &[Row], way: usize, left: f64, axes: &Axes, title: &str) {
    let (x, y, rounds) = (&axes.x, &axes.y, axes.rounds);
    fn measure(row: &Row, way: usize) -> &Measure {
        if way == 0 {
            &row.codec_only
        } else {
            &row.end_to_end
        }
    }
    let px = |v: f64| left + MARGIN_L + x.at(v) * PLOT_W;
    let py = |v: f64| MARGIN_T + (1.0 - y.at(v)) * PLOT_H;
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="40" font-size="15" font-weight="bold" text-anchor="middle">{title}</text>"##,
        left + MARGIN_L + PLOT_W / 2.0
    );
    // The goal region: at most a quarter of BZip2's bytes and a 70th of its time.
    let bzip2 = measure(&rows[BZIP2_SEED], way);
    let (gx, gy) = (
        px(bzip2.compress.total_ms() / 70.0),
        py(bzip2.bytes as f64 / 4.0),
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="{gy:.1}" width="{:.1}" height="{:.1}" fill="#2ca02c" fill-opacity="0.08" stroke="#2ca02c" stroke-dasharray="4 3"/>"##,
        left + MARGIN_L,
        gx - left - MARGIN_L,
        MARGIN_T + PLOT_H - gy
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{:.1}" font-size="10" fill="#2ca02c">goal: ≤ ¼ of BZip2's bytes, ≥ 70x faster</text>"##,
        left + MARGIN_L + 4.0,
        MARGIN_T + PLOT_H - 4.0
    );
    for (v, major) in x.ticks() {
        let sx = px(v);
        let _ = writeln!(
            svg,
            r##"<line x1="{sx:.1}" y1="{MARGIN_T}" x2="{sx:.1}" y2="{}" stroke="#ddd" stroke-width="{}"/>"##,
            MARGIN_T + PLOT_H,
            if major { 1.0 } else { 0.5 }
        );
        let _ = writeln!(
            svg,
            r##"<text x="{sx:.1}" y="{}" font-size="10" text-anchor="middle">{}</text>"##,
            MARGIN_T + PLOT_H + 14.0,
            tick_label(v)
        );
    }
    for (v, major) in y.ticks() {
        let sy = py(v);
        let _ = writeln!(
            svg,
            r##"<line x1="{}" y1="{sy:.1}" x2="{}" y2="{sy:.1}" stroke="#ddd" stroke-width="{}"/>"##,
            left + MARGIN_L,
            left + MARGIN_L + PLOT_W,
            if major { 1.0 } else { 0.5 }
        );
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{:.1}" font-size="10" text-anchor="end">{}</text>"##,
            left + MARGIN_L - 4.0,
            sy + 3.0,
            tick_label(v)
        );
    }
    // The seed's 32 KB budget.
    let budget = py(32.0 * 1024.0);
    let _ = writeln!(
        svg,
        r##"<line x1="{}" y1="{budget:.1}" x2="{}" y2="{budget:.1}" stroke="#444" stroke-dasharray="6 4"/><text x="{}" y="{:.1}" font-size="10">32 KB budget</text>"##,
        left + MARGIN_L,
        left + MARGIN_L + PLOT_W,
        left + MARGIN_L + 4.0,
        budget - 3.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="{MARGIN_T}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="#333"/>"##,
        left + MARGIN_L
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">compress time, {rounds} rounds (ms, log scale)</text>"##,
        left + MARGIN_L + PLOT_W / 2.0,
        MARGIN_T + PLOT_H + 32.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" transform="rotate(-90 {} {})">stored bytes (log scale)</text>"##,
        left + 18.0,
        MARGIN_T + PLOT_H / 2.0,
        left + 18.0,
        MARGIN_T + PLOT_H / 2.0
    );

    // Points first, then each label at the nearest free spot beside its point (boxes as
    // left, top, right, bottom), with a leader line when it had to move.
    let points: Vec<(f64, f64)> = rows
        .iter()
        .map(|row| {
            let m = measure(row, way);
            (px(m.compress.total_ms()), py(m.bytes as f64))
        })
        .collect();
    let mut taken: Vec<[f64; 4]> = points
        .iter()
        .map(|&(x, y)| [x - 6.0, y - 6.0, x + 6.0, y + 6.0])
        .collect();
    for (i, (row, &(sx, sy))) in rows.iter().zip(&points).enumerate() {
        let fill = colour(row.variant.codec);
        let (size, stroke) = if i == DEFAULT {
            (7.0, r##" stroke="#000" stroke-width="2""##)
        } else {
            (4.5, "")
        };
        if row.variant.format == Format::Json {
            let _ = writeln!(
                svg,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}"{stroke}/>"##,
                sx - size,
                sy - size,
                size * 2.0,
                size * 2.0
            );
        } else {
            let _ = writeln!(
                svg,
                r##"<circle cx="{sx:.1}" cy="{sy:.1}" r="{size}" fill="{fill}"{stroke}/>"##
            );
        }
    }
    let (plot_left, plot_right) = (left + MARGIN_L, left + MARGIN_L + PLOT_W);
    for (i, (row, &(sx, sy))) in rows.iter().zip(&points).enumerate() {
        let label = if i == DEFAULT {
            format!("{} (default)", row.variant.label)
        } else {
            row.variant.label.to_owned()
        };
        let width = label.len() as f64 * 5.4;
        let mut spot = None;
        'search: for step in 0..12 {
            let dy = f64::from((step + 1) / 2) * 11.0 * if step % 2 == 0 { 1.0 } else { -1.0 };
            for right in [true, false] {
                let x0 = if right { sx + 9.0 } else { sx - 9.0 - width };
                let (y0, y1) = (sy + dy - 5.0, sy + dy + 5.0);
                let inside = x0 >= plot_left && x0 + width <= plot_right;
                let free = taken
                    .iter()
                    .all(|t| x0 + width <= t[0] || t[2] <= x0 || y1 <= t[1] || t[3] <= y0);
                if inside && free {
                    spot = Some((x0, dy));
                    break 'search;
                }
            }
        }
        let (x0, dy) = spot.unwrap_or((sx + 9.0, 0.0));
        taken.push([x0, sy + dy - 5.0, x0 + width, sy + dy + 5.0]);
        if dy != 0.0 {
            let end = if x0 > sx { x0 - 1.0 } else { x0 + width + 1.0 };
            let _ = writeln!(
                svg,
                r##"<line x1="{sx:.1}" y1="{sy:.1}" x2="{end:.1}" y2="{:.1}" stroke="#999" stroke-width="0.6"/>"##,
                sy + dy
            );
        }
        let _ = writeln!(
            svg,
            r##"<text x="{x0:.1}" y="{:.1}" font-size="10" fill="#222">{label}</text>"##,
            sy + dy + 3.5
        );
    }
}

pub(crate) fn chart(rows: &[Row], raw_json: usize, rounds: usize) -> String {
    let points = rows
        .iter()
        .flat_map(|r| [&r.codec_only, &r.end_to_end])
        .collect::<Vec<_>>();
    let axes = Axes {
        x: LogAxis::covering(points.iter().map(|m| m.compress.total_ms())),
        y: LogAxis::covering(points.iter().map(|m| m.bytes as f64)),
        rounds,
    };
    let width = PANEL_W * 2.0;
    let height = PANEL_H + 40.0;
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="{}" y="20" font-size="16" font-weight="bold" text-anchor="middle">One night of 4,320 sleep events ({raw_json} bytes as JSON): stored size against compress time</text>
"##,
        width / 2.0
    );
    panel(
        &mut svg,
        rows,
        0,
        0.0,
        &axes,
        "codec only (bytes to bytes, as the seed measured)",
    );
    panel(
        &mut svg,
        rows,
        1,
        PANEL_W,
        &axes,
        "end to end (Vec&lt;Event&gt; to stored attribute)",
    );
    let _ = writeln!(
        svg,
        r##"<text x="20" y="{}" font-size="11">squares: JSON; circles: dynamap's columnar/row format. Colour: zstd blue, bzip2 red, gzip orange, snappy green, none grey. Black ring: the default.</text>"##,
        height - 12.0
    );
    svg.push_str("</svg>\n");
    svg
}
