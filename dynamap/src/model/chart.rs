//! The charts as data, before any rendering: the entity chart (each entity's key
//! templates per key attribute), the access-pattern chart (each entity on each of its
//! indexes, with its key condition) and the attribute chart.

use super::Model;
use crate::description::{EntityDescription, KeyDescription};
use crate::table::{IndexSchema, Table};

/// The entity chart: one column per key attribute of the table and its indexes.
pub(crate) struct EntityChart {
    pub(crate) headers: Vec<String>,
    /// `(entity, one cell per header after the first)`.
    pub(crate) rows: Vec<(String, Vec<String>)>,
}

/// One access pattern.
pub(crate) struct Pattern {
    pub(crate) name: String,
    /// `GetItem` or `Query`.
    pub(crate) operation: &'static str,
    /// The index, or `table`.
    pub(crate) index: String,
    pub(crate) condition: String,
}

/// The key attributes of the table and of every index, in chart order, with the index
/// each belongs to (`""` for the table's).
pub(crate) fn key_columns<L: Table>() -> Vec<(&'static str, &'static str)> {
    let schema = L::SCHEMA;
    let mut columns = vec![("", schema.pk)];
    columns.extend(schema.sk.map(|sk| ("", sk)));
    for index in schema.indexes {
        let pk = index.pk_attributes().filter(|_| !index.local);
        for (attribute, _) in pk.chain(index.sk_attributes()) {
            columns.push((index.name, attribute));
        }
    }
    columns
}

/// The attributes a key's values go to, partition key's then sort key's.
fn attributes<L: Table>(key: &KeyDescription) -> (Vec<&'static str>, Vec<&'static str>) {
    let schema = L::SCHEMA;
    match index::<L>(key) {
        Some(index) => (
            index.pk_attributes().map(|(a, _)| a).collect(),
            index.sk_attributes().map(|(a, _)| a).collect(),
        ),
        None => (vec![schema.pk], schema.sk.into_iter().collect()),
    }
}

fn index<L: Table>(key: &KeyDescription) -> Option<&'static IndexSchema> {
    L::SCHEMA.indexes.iter().find(|i| i.name == key.index)
}

pub(crate) fn entity_chart<L: Table>(model: &Model<L>) -> EntityChart {
    let columns = key_columns::<L>();
    let mut headers = vec!["Entity".to_owned()];
    headers.extend(columns.iter().map(|(_, a)| (*a).to_owned()));
    let mut rows = Vec::new();
    let mut row = |label: String, keys: &[(&KeyDescription, bool)]| {
        let mut cells = vec![String::new(); columns.len()];
        for (key, lookup) in keys {
            let (pk, sk) = attributes::<L>(key);
            let index = if *lookup { "" } else { key.index };
            let values = pk.iter().zip(key.pk).chain(sk.iter().zip(key.sk));
            for (attribute, value) in values {
                let at = columns.iter().position(|c| c == &(index, *attribute));
                // A local index's partition key is the table's: its column is the table's.
                let at = at.or_else(|| columns.iter().position(|c| c == &("", *attribute)));
                if let Some(at) = at {
                    cells[at] = (*value).to_owned();
                }
            }
        }
        rows.push((label, cells));
    };
    for description in model.descriptions() {
        let keys: Vec<_> = description.keys.iter().map(|k| (k, false)).collect();
        row(description.entity.to_owned(), &keys);
        for lookup in description.lookups {
            let mut key = *lookup;
            key.index = "";
            row(
                format!("{}.{} (lookup)", description.entity, lookup.index),
                &[(&key, true)],
            );
        }
    }
    EntityChart { headers, rows }
}

pub(crate) fn patterns<L: Table>(model: &Model<L>) -> Vec<Pattern> {
    let mut out = Vec::new();
    for description in model.descriptions() {
        for key in description.keys {
            out.push(pattern::<L>(model, description, key, false));
        }
        for lookup in description.lookups {
            out.push(pattern::<L>(model, description, lookup, true));
        }
    }
    out
}

fn pattern<L: Table>(
    model: &Model<L>,
    description: &EntityDescription,
    key: &KeyDescription,
    lookup: bool,
) -> Pattern {
    let mut table_key = *key;
    if lookup {
        table_key.index = "";
    }
    let (pk, sk) = attributes::<L>(&table_key);
    let mut condition: Vec<String> = pk
        .iter()
        .zip(key.pk)
        .map(|(attribute, value)| format!("{attribute} = {}", quoted(value)))
        .collect();
    let whole_sk = key.sk.iter().all(|part| !part.contains('{'));
    let on_table = key.index.is_empty() || lookup;
    let get = on_table && whole_sk;
    if whole_sk {
        condition.extend(
            sk.iter()
                .zip(key.sk)
                .map(|(attribute, value)| format!("{attribute} = {}", quoted(value))),
        );
    } else if let (Some(attribute), Some(first)) = (sk.first(), key.sk.first()) {
        let prefix = &first[..first.find('{').unwrap_or(first.len())];
        if !prefix.is_empty() {
            condition.push(format!("begins_with({attribute}, \"{prefix}\")"));
        }
    }
    let holes = holes(key.pk);
    let by = if holes.is_empty() {
        String::new()
    } else {
        format!(" by {}", holes.join(", "))
    };
    let entity = description.entity;
    let default = match (lookup, get, on_table) {
        (true, _, _) => format!("Find {entity}{by} (lookup {})", key.index),
        (false, true, _) => format!("Get {entity}{}", {
            let all = holes_of(key.pk.iter().chain(key.sk));
            if all.is_empty() {
                String::new()
            } else {
                format!(" by {}", all.join(", "))
            }
        }),
        (false, false, true) => format!("Query {entity}{by}"),
        (false, false, false) => format!("Query {entity}{by} on {}", key.index),
    };
    let index = if on_table { "table" } else { key.index };
    Pattern {
        name: model
            .name_of(
                entity,
                if on_table && !lookup {
                    None
                } else {
                    Some(key.index)
                },
            )
            .unwrap_or(default),
        operation: if get { "GetItem" } else { "Query" },
        index: index.to_owned(),
        condition: condition.join(" AND "),
    }
}

/// A key value in a condition: a template with literal text as a string, `{field}` (a
/// field's own value, or a template of one hole) as it is.
fn quoted(value: &str) -> String {
    let one_hole =
        value.starts_with('{') && value.ends_with('}') && value.matches('{').count() == 1;
    if one_hole {
        value.to_owned()
    } else {
        format!("\"{value}\"")
    }
}

fn holes(parts: &[&str]) -> Vec<String> {
    holes_of(parts.iter())
}

fn holes_of<'a>(parts: impl Iterator<Item = &'a &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        for piece in part.split('{').skip(1) {
            if let Some(end) = piece.find('}') {
                let name = piece[..end].to_owned();
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// `(entity, [(label, code)])`: each stored field as `attribute`, `Type` (in multi-event
/// rows, a map of event id to `Type`, and the row's id list and cap), then the TTL
/// attribute and the computed key parts.
pub(crate) fn attribute_rows<L: Table>(model: &Model<L>) -> Vec<(String, Vec<(String, String)>)> {
    model
        .descriptions()
        .map(|d| {
            let row_shared = model.row_shared(d.entity);
            let mut cells: Vec<(String, String)> = d
                .fields
                .iter()
                .map(|(_, attribute, ty)| {
                    let ty = match row_shared {
                        Some(shared) if !shared.contains(attribute) => {
                            format!("map<event id, {ty}>")
                        }
                        _ => (*ty).to_owned(),
                    };
                    ((*attribute).to_owned(), ty)
                })
                .collect();
            if row_shared.is_some() {
                // The row's own attributes (`timeseries::rows`).
                cells.push(("_ids".to_owned(), "list<event id>".to_owned()));
                cells.push(("_cap".to_owned(), "number".to_owned()));
            }
            // The TTL attribute: a `ttl` field, or a field stored under the layout's.
            let layout_ttl = L::SCHEMA
                .ttl
                .filter(|ttl| d.fields.iter().any(|(_, attribute, _)| attribute == ttl));
            if let Some(ttl) = d.ttl.or(layout_ttl) {
                cells.push(("TTL".to_owned(), ttl.to_owned()));
            }
            for (part, how, fields) in d.computed {
                let fields = fields.join(", ");
                let value = if how.starts_with("shard(") {
                    format!("{how} of ({fields})")
                } else {
                    format!("{how}({fields})")
                };
                cells.push((format!("{{{part}}}"), value));
            }
            (d.entity.to_owned(), cells)
        })
        .collect()
}
