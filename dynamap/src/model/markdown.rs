//! The charts as Markdown tables, as the DynamoDB Book prints them.

use std::fmt::Write as _;

use super::Model;
use super::chart::{attribute_rows, entity_chart, patterns};
use crate::table::Table;

pub(crate) fn render<L: Table>(model: &Model<L>) -> String {
    let mut out = String::new();
    let chart = entity_chart(model);
    out.push_str("**Entity chart**\n\n");
    table(
        &mut out,
        &chart.headers,
        chart.rows.into_iter().map(|(entity, cells)| {
            std::iter::once(entity)
                .chain(cells.iter().map(|c| code(c)))
                .collect()
        }),
    );
    out.push_str("\n**Access patterns**\n\n");
    let headers = ["Access pattern", "Operation", "Index", "Key condition"].map(str::to_owned);
    table(
        &mut out,
        &headers,
        patterns(model)
            .into_iter()
            .map(|p| vec![p.name, p.operation.to_owned(), p.index, code(&p.condition)]),
    );
    out.push_str("\n**Attributes**\n\n");
    let headers = ["Entity", "Attributes"].map(str::to_owned);
    table(
        &mut out,
        &headers,
        attribute_rows(model).into_iter().map(|(entity, cells)| {
            let cells: Vec<String> = cells
                .iter()
                .map(|(label, value)| format!("{label}: {}", code(value)))
                .collect();
            vec![entity, cells.join(", ")]
        }),
    );
    out
}

/// Text as inline code (nothing when empty), so `<`, `*` and `_` show as they are.
fn code(text: &str) -> String {
    match text {
        "" => String::new(),
        text if text.contains('`') => format!("`` {text} ``"),
        text => format!("`{text}`"),
    }
}

fn table(out: &mut String, headers: &[String], rows: impl Iterator<Item = Vec<String>>) {
    line(out, headers.iter().map(String::as_str));
    line(out, headers.iter().map(|_| "---"));
    for row in rows {
        line(out, row.iter().map(String::as_str));
    }
}

fn line<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>) {
    out.push('|');
    for cell in cells {
        // A `|` would end the cell.
        let _ = write!(out, " {} |", cell.replace('|', "\\|"));
    }
    out.push('\n');
}
