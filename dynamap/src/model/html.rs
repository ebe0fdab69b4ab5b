//! The model as one self-contained HTML page: the charts, then the sample items laid out by
//! partition as DynamoDB's console shows them, on the table and on each index. Inline style
//! only: no script, nothing fetched when the page is viewed.

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::Model;
use super::chart::{attribute_rows, entity_chart, patterns};
use super::json::text;
use crate::codec::{AttributeValue, Item};
use crate::table::Table;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#16191f}\
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d5dbdb}\
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d5dbdb;padding:4px 8px;\
text-align:left;vertical-align:top}th{background:#f2f3f3}code,td.key{font-family:ui-monospace,monospace}\
td.key{white-space:nowrap}td.pk{background:#fafafa;font-weight:600}.attr{display:inline-block;margin:1px 6px 1px 0}\
.attr b{color:#545b64;font-weight:500}.entity{display:inline-block;padding:0 6px;border-radius:8px;\
color:#fff;font-size:12px}p.none{color:#687078}";

const COLORS: &[&str] = &[
    "#0073bb", "#1d8102", "#d45b07", "#8455cf", "#c7254e", "#00796b", "#5f6b7a", "#9c6d00",
];

pub(crate) fn render<L: Table>(model: &Model<L>) -> String {
    let schema = L::SCHEMA;
    let mut out = String::new();
    let name = escape(&model.name);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}: data model</title>\
         <style>{STYLE}</style></head><body>\n<h1>Table {name}</h1>\n<p>Layout <code>{}</code>, drawn from \
         the code by dynamap.</p>\n",
        escape(schema.type_name)
    );
    let chart = entity_chart(model);
    out.push_str("<h2>Entity chart</h2>\n");
    let rows = chart.rows.into_iter().map(|(entity, mut cells)| {
        cells.insert(0, entity);
        cells
    });
    table(&mut out, &chart.headers, rows);
    out.push_str("<h2>Access patterns</h2>\n");
    let headers = ["Access pattern", "Operation", "Index", "Key condition"].map(str::to_owned);
    let rows = patterns(model)
        .into_iter()
        .map(|p| vec![p.name, p.operation.to_owned(), p.index, p.condition]);
    table(&mut out, &headers, rows);
    out.push_str("<h2>Attributes</h2>\n");
    out.push_str("<table>\n<tr><th>Entity</th><th>Attributes</th></tr>\n");
    for (entity, cells) in attribute_rows(model) {
        let _ = write!(out, "<tr><td>{}</td><td>", escape(&entity));
        for (label, value) in cells {
            let _ = write!(
                out,
                "<span class=\"attr\"><b>{}</b> <code>{}</code></span>",
                escape(&label),
                escape(&value)
            );
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</table>\n");

    let items: Vec<&Item> = model.all_items().collect();
    let _ = writeln!(out, "<h2>Items of table {name}</h2>");
    let sk: Vec<&str> = schema.sk.into_iter().collect();
    partitions(&mut out, model, &items, &[schema.pk], &sk);
    for index in schema.indexes {
        let pk: Vec<&str> = index.pk_attributes().map(|(a, _)| a).collect();
        let sk: Vec<&str> = index.sk_attributes().map(|(a, _)| a).collect();
        let kind = if index.local { "local" } else { "global" };
        let _ = writeln!(
            out,
            "<h2>Index {} ({kind} secondary index)</h2>",
            escape(index.name)
        );
        let held: Vec<&Item> = items
            .iter()
            .copied()
            .filter(|item| pk.iter().chain(&sk).all(|a| item.contains_key(*a)))
            .collect();
        partitions(&mut out, model, &held, &pk, &sk);
    }
    out.push_str("</body></html>\n");
    out
}

/// The items grouped by partition (the `pk` attributes' values) and ordered by sort key,
/// as the console lists them: key columns first, then each item's other attributes.
fn partitions<L: Table>(
    out: &mut String,
    model: &Model<L>,
    items: &[&Item],
    pk: &[&str],
    sk: &[&str],
) {
    if items.is_empty() {
        out.push_str("<p class=\"none\">No sample item.</p>\n");
        return;
    }
    let key = |item: &Item, attributes: &[&str]| -> Vec<AttributeValue> {
        attributes
            .iter()
            .map(|a| item.get(*a).cloned().unwrap_or(AttributeValue::Null(true)))
            .collect()
    };
    let mut sorted = items.to_vec();
    sorted.sort_by(|a, b| {
        compare(&key(a, pk), &key(b, pk)).then_with(|| compare(&key(a, sk), &key(b, sk)))
    });
    out.push_str("<table>\n<tr>");
    for attribute in pk.iter().chain(sk) {
        let _ = write!(out, "<th>{}</th>", escape(attribute));
    }
    out.push_str("<th>Attributes</th></tr>\n");
    let mut at = 0;
    while at < sorted.len() {
        let partition = key(sorted[at], pk);
        let len = sorted[at..]
            .iter()
            .take_while(|i| key(i, pk) == partition)
            .count();
        for (n, item) in sorted[at..at + len].iter().enumerate() {
            out.push_str("<tr>");
            if n == 0 {
                for value in &partition {
                    let _ = write!(
                        out,
                        "<td class=\"key pk\" rowspan=\"{len}\">{}</td>",
                        escape(&text(value))
                    );
                }
            }
            for attribute in sk {
                let value = item.get(*attribute).map(text).unwrap_or_default();
                let _ = write!(out, "<td class=\"key\">{}</td>", escape(&value));
            }
            out.push_str("<td>");
            attributes(out, model, item, pk, sk);
            out.push_str("</td></tr>\n");
        }
        at += len;
    }
    out.push_str("</table>\n");
}

/// An item's attributes besides the shown keys: its entity type as a coloured badge, then
/// the rest by name.
fn attributes<L: Table>(out: &mut String, model: &Model<L>, item: &Item, pk: &[&str], sk: &[&str]) {
    let schema = L::SCHEMA;
    if let Some(AttributeValue::S(entity)) = item.get(schema.entity_type) {
        let owner = entity.split('.').next().unwrap_or(entity);
        let at = model
            .descriptions()
            .position(|d| d.entity == owner)
            .unwrap_or(0);
        let _ = write!(
            out,
            "<span class=\"entity\" style=\"background:{}\">{}</span> ",
            COLORS[at % COLORS.len()],
            escape(entity)
        );
    }
    let mut names: Vec<&String> = item
        .keys()
        .filter(|k| {
            let k = k.as_str();
            k != schema.entity_type && !pk.contains(&k) && !sk.contains(&k)
        })
        .collect();
    names.sort();
    for name in names {
        let _ = write!(
            out,
            "<span class=\"attr\"><b>{}</b> {}</span>",
            escape(name),
            escape(&text(&item[name]))
        );
    }
}

/// Key order: numbers by value, everything else by its text, as DynamoDB sorts keys.
fn compare(a: &[AttributeValue], b: &[AttributeValue]) -> Ordering {
    for (a, b) in a.iter().zip(b) {
        let order = match (a, b) {
            (AttributeValue::N(a), AttributeValue::N(b)) => a
                .parse::<f64>()
                .unwrap_or(0.0)
                .total_cmp(&b.parse::<f64>().unwrap_or(0.0)),
            _ => text(a).cmp(&text(b)),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

fn table(out: &mut String, headers: &[String], rows: impl Iterator<Item = Vec<String>>) {
    out.push_str("<table>\n<tr>");
    for header in headers {
        let _ = write!(out, "<th>{}</th>", escape(header));
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for (n, cell) in row.iter().enumerate() {
            let class = if n == 0 { "" } else { " class=\"key\"" };
            let _ = write!(out, "<td{class}>{}</td>", escape(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
