//! The row layout: splitting an event into row-level attributes and per-field values, the
//! item that creates a row, and rebuilding events from a stored row. Pure: no I/O.

use aws_sdk_dynamodb::types::AttributeValue;

use super::EventId;
use crate::codec::Item;
use crate::limits::check_item_size;
use crate::table::Table;
use crate::{Entity, Error, Result};

/// The list of event ids, in the order they were added.
pub(crate) const IDS: &str = "_ids";
/// How many events the row accepts; fixed when the row is created, 0 once closed.
pub(crate) const CAP: &str = "_cap";
/// The overflow index of a row (absent in a timestamp's first row).
pub(crate) const ROW: &str = "_row";
/// Overflow rows per timestamp: row indexes are `0..MAX_ROWS`, rendered in four digits so
/// rows sort in order.
pub(crate) const MAX_ROWS: u32 = 10_000;

/// One event, split for its row.
#[derive(Debug, Clone)]
pub(crate) struct SplitEvent {
    pub(crate) id: EventId,
    pub(crate) pk: String,
    /// The sort key of the timestamp's first row: the event's own sort key.
    pub(crate) sk: String,
    /// Attributes every event of the row shares: the entity type and the key fields.
    pub(crate) shared: Item,
    /// Every other attribute, sorted by name: one map each in the row.
    pub(crate) fields: Vec<(String, AttributeValue)>,
}

/// Refuses entities whose writes need more than one item's conditions (versions, lookups)
/// or whose index keys would have to be rendered per event.
pub(crate) fn check_supported<E: Entity>() -> Result<()> {
    let meta = E::WRITE;
    let schema = <E::Table as Table>::SCHEMA;
    let reason = if meta.version.is_some() {
        Some("it has a version field (one row holds many events, each would need its own version)")
    } else if !meta.lookups.is_empty() {
        Some("it has lookup items (they would have to follow every event of a row)")
    } else if !meta.indexed_attributes.is_empty() {
        Some(
            "it has index templates (a row is one item, so it has one index key, not one per event)",
        )
    } else if schema.sk.is_none() {
        Some("its table has no sort key to hold the timestamp")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(unsupported::<E>(reason.to_owned())),
        None => Ok(()),
    }
}

fn unsupported<E: Entity>(reason: String) -> Error {
    Error::EventRowUnsupported {
        entity: E::ENTITY_TYPE,
        reason,
    }
}

/// Splits `event` into what its row shares and its per-field values.
pub(crate) fn split<E: Entity>(event: &E) -> Result<SplitEvent> {
    let schema = <E::Table as Table>::SCHEMA;
    let mut item = event.to_item()?;
    let id = EventId::of_item(&item);
    let (pk, sk) = match (
        item.remove(schema.pk),
        schema.sk.and_then(|sk| item.remove(sk)),
    ) {
        (Some(AttributeValue::S(pk)), Some(AttributeValue::S(sk))) => (pk, sk),
        _ => {
            return Err(unsupported::<E>(
                "its items lack a string partition or sort key".to_owned(),
            ));
        }
    };
    let mut shared = Item::new();
    for name in std::iter::once(schema.entity_type).chain(E::WRITE.key_attributes.iter().copied()) {
        if let Some(value) = item.remove(name) {
            shared.insert(name.to_owned(), value);
        }
    }
    if let Some(name) = [IDS, CAP, ROW].into_iter().find(|n| item.contains_key(*n)) {
        return Err(unsupported::<E>(format!(
            "it stores attribute `{name}`, which event rows use themselves"
        )));
    }
    let mut fields: Vec<(String, AttributeValue)> = item.into_iter().collect();
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(SplitEvent {
        id,
        pk,
        sk,
        shared,
        fields,
    })
}

/// The sort key of row `row` of the timestamp whose first row has sort key `base`.
pub(crate) fn row_sk(base: &str, row: u32) -> String {
    if row == 0 {
        base.to_owned()
    } else {
        format!("{base}#{row:04}")
    }
}

/// The key attributes of row `row`.
pub(crate) fn row_key<E: Entity>(event: &SplitEvent, row: u32) -> Item {
    let schema = <E::Table as Table>::SCHEMA;
    let mut key = Item::with_capacity(2);
    key.insert(schema.pk.to_owned(), AttributeValue::S(event.pk.clone()));
    if let Some(sk) = schema.sk {
        key.insert(sk.to_owned(), AttributeValue::S(row_sk(&event.sk, row)));
    }
    key
}

fn number(n: impl ToString) -> AttributeValue {
    AttributeValue::N(n.to_string())
}

/// The item that creates row `row` holding just `event`. Every optional field gets a map,
/// empty when the event leaves it out, so later events that have it can add to the map.
pub(crate) fn create_item<E: Entity>(event: &SplitEvent, row: u32, cap: usize) -> Result<Item> {
    let mut item = row_key::<E>(event, row);
    item.extend(event.shared.clone());
    item.insert(
        IDS.to_owned(),
        AttributeValue::L(vec![AttributeValue::S(event.id.to_string())]),
    );
    item.insert(CAP.to_owned(), number(cap));
    if row > 0 {
        item.insert(ROW.to_owned(), number(row));
    }
    for name in E::WRITE.optional_attributes {
        if !E::WRITE.key_attributes.contains(name) {
            item.insert((*name).to_owned(), AttributeValue::M(Item::new()));
        }
    }
    for (name, value) in &event.fields {
        let map = [(event.id.to_string(), value.clone())]
            .into_iter()
            .collect();
        item.insert(name.clone(), AttributeValue::M(map));
    }
    // Alone in a row and still too large: no row can hold it.
    check_item_size(E::ENTITY_TYPE, &item)?;
    Ok(item)
}

/// `row` as it would be with `event` added: for estimating its size.
pub(crate) fn with_event(row: &Item, event: &SplitEvent) -> Item {
    let mut row = row.clone();
    let id = event.id.to_string();
    if let Some(AttributeValue::L(ids)) = row.get_mut(IDS) {
        ids.push(AttributeValue::S(id.clone()));
    }
    for (name, value) in &event.fields {
        let entry = row
            .entry(name.clone())
            .or_insert_with(|| AttributeValue::M(Item::new()));
        if let AttributeValue::M(map) = entry {
            map.insert(id.clone(), value.clone());
        }
    }
    row
}

/// The rows that writing `events` one after another stores, with no request made: per
/// timestamp (in order of first appearance) its row 0 and the overflow rows after `cap`
/// events each; an event already stored is stored once. A data model's sample rows.
pub(crate) fn rows_of<E: Entity>(events: &[E], cap: usize) -> Result<Vec<Item>> {
    check_supported::<E>()?;
    let mut timestamps: Vec<(SplitEvent, Vec<Item>)> = Vec::new();
    for event in events {
        let event = split(event)?;
        let at = timestamps
            .iter()
            .position(|(first, _)| first.pk == event.pk && first.sk == event.sk);
        let rows = match at {
            Some(at) => &mut timestamps[at].1,
            None => {
                let row = create_item::<E>(&event, 0, cap)?;
                timestamps.push((event, vec![row]));
                continue;
            }
        };
        if rows
            .iter()
            .any(|row| row_state(row, &event) == RowState::Holds)
        {
            continue;
        }
        let Some(last) = rows.last_mut() else {
            continue;
        };
        if row_state(last, &event) == RowState::Full {
            let next = u32::try_from(rows.len()).unwrap_or(MAX_ROWS);
            rows.push(create_item::<E>(&event, next, cap)?);
        } else {
            *last = with_event(last, &event);
        }
    }
    Ok(timestamps.into_iter().flat_map(|(_, rows)| rows).collect())
}

/// What a stored row says about adding one event to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RowState {
    /// The event is in the row already.
    Holds,
    /// The row takes no more events.
    Full,
    /// The row takes the event, but lacks maps for these fields.
    MissingMaps(Vec<String>),
    /// The row takes the event.
    Open,
}

/// The ids a stored row lists.
pub(crate) fn ids(row: &Item) -> Vec<&str> {
    match row.get(IDS) {
        Some(AttributeValue::L(ids)) => ids
            .iter()
            .filter_map(|id| id.as_s().ok())
            .map(String::as_str)
            .collect(),
        _ => Vec::new(),
    }
}

/// How `row` stands towards `event`.
pub(crate) fn row_state(row: &Item, event: &SplitEvent) -> RowState {
    let ids = ids(row);
    if ids.contains(&event.id.as_str()) {
        return RowState::Holds;
    }
    let cap = match row.get(CAP) {
        Some(AttributeValue::N(n)) => n.parse::<usize>().unwrap_or(0),
        _ => 0,
    };
    if ids.len() >= cap {
        return RowState::Full;
    }
    let missing: Vec<String> = event
        .fields
        .iter()
        .filter(|(name, _)| !matches!(row.get(name), Some(AttributeValue::M(_))))
        .map(|(name, _)| name.clone())
        .collect();
    if missing.is_empty() {
        RowState::Open
    } else {
        RowState::MissingMaps(missing)
    }
}

/// The events a stored row holds, in the order they were added.
pub(crate) fn decode_row<E: Entity>(mut row: Item) -> Result<Vec<E>> {
    let schema = <E::Table as Table>::SCHEMA;
    let malformed = |row: &Item, reason: String| Error::MalformedEventRow {
        entity: E::ENTITY_TYPE,
        pk: string_of(row, schema.pk),
        sk: schema.sk.map(|sk| string_of(row, sk)).unwrap_or_default(),
        reason,
    };
    let ids = match row.remove(IDS) {
        Some(AttributeValue::L(ids)) => ids,
        _ => return Err(malformed(&row, format!("no list attribute `{IDS}`"))),
    };
    let overflow = match row.remove(ROW) {
        Some(AttributeValue::N(n)) => n.parse::<u32>().unwrap_or(0),
        _ => 0,
    };
    row.remove(CAP);
    if let (Some(sk), true) = (schema.sk, overflow > 0) {
        // Events keep the sort key of their timestamp, not of the overflow row.
        if let Some(AttributeValue::S(value)) = row.get_mut(sk) {
            let suffix = format!("#{overflow:04}");
            if let Some(base) = value.strip_suffix(&suffix) {
                *value = base.to_owned();
            }
        }
    }
    let is_shared = |name: &str| {
        name == schema.pk
            || Some(name) == schema.sk
            || name == schema.entity_type
            || E::WRITE.key_attributes.contains(&name)
    };
    let mut shared = Item::new();
    let mut maps = Vec::new();
    for (name, value) in row {
        if is_shared(&name) {
            shared.insert(name, value);
        } else {
            match value {
                AttributeValue::M(map) => maps.push((name, map)),
                _ => {
                    return Err(malformed(
                        &shared,
                        format!("attribute `{name}` is not a map"),
                    ));
                }
            }
        }
    }
    let mut events = Vec::with_capacity(ids.len());
    for id in ids {
        let Ok(id) = id.as_s() else {
            return Err(malformed(&shared, format!("`{IDS}` holds a non-string id")));
        };
        let mut item = shared.clone();
        for (name, map) in &maps {
            if let Some(value) = map.get(id) {
                item.insert(name.clone(), value.clone());
            }
        }
        events.push(E::from_item(item)?);
    }
    Ok(events)
}

fn string_of(item: &Item, name: &str) -> String {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::item_size;

    #[test]
    fn overflow_rows_sort_after_their_timestamp_in_order() {
        assert_eq!(row_sk("0000001000", 0), "0000001000");
        assert_eq!(row_sk("0000001000", 7), "0000001000#0007");
        let mut keys: Vec<String> = [12, 0, 3, 1, 9999]
            .iter()
            .map(|r| row_sk("T", *r))
            .collect();
        keys.sort();
        assert_eq!(keys, ["T", "T#0001", "T#0003", "T#0012", "T#9999"]);
        // Reads bound a timestamp by its last possible row, which every row sorts before.
        let last = row_sk("T", MAX_ROWS - 1);
        assert!(keys.iter().all(|k| *k <= last));
        assert!(last.as_str() < "T$");
    }

    fn event(id: &str, fields: &[&str]) -> SplitEvent {
        let item: Item = [("x".to_owned(), AttributeValue::S(id.to_owned()))].into();
        SplitEvent {
            id: EventId::of_item(&item),
            pk: "P".into(),
            sk: "T".into(),
            shared: Item::new(),
            fields: fields
                .iter()
                .map(|f| ((*f).to_owned(), AttributeValue::N("1".into())))
                .collect(),
        }
    }

    fn row(ids: &[&SplitEvent], cap: usize, maps: &[&str]) -> Item {
        let mut row = Item::new();
        let list = ids
            .iter()
            .map(|e| AttributeValue::S(e.id.to_string()))
            .collect();
        row.insert(IDS.to_owned(), AttributeValue::L(list));
        row.insert(CAP.to_owned(), number(cap));
        for map in maps {
            row.insert((*map).to_owned(), AttributeValue::M(Item::new()));
        }
        row
    }

    #[test]
    fn a_row_holds_is_full_lacks_maps_or_is_open() {
        let (a, b) = (event("a", &["speed"]), event("b", &["speed", "door"]));
        assert_eq!(row_state(&row(&[&a], 1, &["speed"]), &a), RowState::Holds);
        assert_eq!(row_state(&row(&[&a], 1, &["speed"]), &b), RowState::Full);
        // A closed row (cap 0) is full, even when empty.
        assert_eq!(row_state(&row(&[], 0, &["speed"]), &a), RowState::Full);
        assert_eq!(
            row_state(&row(&[&a], 5, &["speed"]), &b),
            RowState::MissingMaps(vec!["door".to_owned()])
        );
        assert_eq!(
            row_state(&row(&[&a], 5, &["speed", "door"]), &b),
            RowState::Open
        );
        let grown = with_event(&row(&[&a], 5, &["speed"]), &b);
        assert_eq!(ids(&grown), [a.id.as_str(), b.id.as_str()]);
        assert!(item_size(&grown) > item_size(&row(&[&a], 5, &["speed"])));
    }
}
