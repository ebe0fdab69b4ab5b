//! The baseline: the raw SDK's query paginator and a hand-written decoder, as a user
//! without dynamap would write them.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use time::format_description::FormatItem;
use time::macros::format_description;

use crate::Item;
use crate::entity::Reading;

/// The timestamp form dynamap stores (`dynamap::codec::timestamp`); a user decoding by hand
/// would parse the same text.
pub(crate) const TIMESTAMP: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:9]Z");

/// Why the hand-written decoder rejected an item (attribute name, problem).
#[derive(Debug)]
#[allow(dead_code)] // read through `Debug` when a decode fails
pub(crate) struct RawDecodeError(&'static str, &'static str);

pub(crate) fn take_s(item: &mut Item, name: &'static str) -> Result<String, RawDecodeError> {
    match item.remove(name) {
        Some(AttributeValue::S(s)) => Ok(s),
        Some(_) => Err(RawDecodeError(name, "not a string")),
        None => Err(RawDecodeError(name, "missing")),
    }
}

pub(crate) fn get_n<T: std::str::FromStr>(
    item: &Item,
    name: &'static str,
) -> Result<T, RawDecodeError> {
    item.get(name)
        .ok_or(RawDecodeError(name, "missing"))?
        .as_n()
        .map_err(|_| RawDecodeError(name, "not a number"))?
        .parse()
        .map_err(|_| RawDecodeError(name, "number out of range"))
}

/// What a careful user writes without a mapper: checks the entity type, moves strings out
/// of the map instead of cloning them, parses numbers and the timestamp.
pub(crate) fn decode_by_hand(mut item: Item) -> Result<Reading, RawDecodeError> {
    match item.get("_type") {
        Some(AttributeValue::S(t)) if t == "Reading" => {}
        _ => return Err(RawDecodeError("_type", "not a Reading")),
    }
    let at = item
        .get("at")
        .ok_or(RawDecodeError("at", "missing"))?
        .as_s()
        .map_err(|_| RawDecodeError("at", "not a string"))?;
    let at = time::PrimitiveDateTime::parse(at, TIMESTAMP)
        .map_err(|_| RawDecodeError("at", "not a timestamp"))?
        .assume_utc();
    let valid = *item
        .get("valid")
        .ok_or(RawDecodeError("valid", "missing"))?
        .as_bool()
        .map_err(|_| RawDecodeError("valid", "not a boolean"))?;
    Ok(Reading {
        at,
        value: get_n(&item, "value")?,
        counter: get_n(&item, "counter")?,
        valid,
        sensor_id: take_s(&mut item, "sensor_id")?,
        unit: take_s(&mut item, "unit")?,
        note: match item.remove("note") {
            None | Some(AttributeValue::Null(_)) => None,
            Some(AttributeValue::S(s)) => Some(s),
            Some(_) => return Err(RawDecodeError("note", "not a string")),
        },
    })
}

/// The request dynamap sends for `db.query(Reading::partition(id))`, written with the SDK:
/// the partition, the sort key prefix `READ#` and a filter on the entity type, read through
/// the SDK's paginator. Hands each page's items to `on_page`.
pub(crate) async fn raw_query(
    client: &Client,
    table: &str,
    pk: &str,
    mut on_page: impl FnMut(Vec<Item>),
) {
    let mut pages = client
        .query()
        .table_name(table)
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
        .filter_expression("#type = :type")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_names("#sk", "SK")
        .expression_attribute_names("#type", "_type")
        .expression_attribute_values(":pk", AttributeValue::S(pk.to_owned()))
        .expression_attribute_values(":sk", AttributeValue::S("READ#".to_owned()))
        .expression_attribute_values(":type", AttributeValue::S("Reading".to_owned()))
        .into_paginator()
        .send();
    while let Some(page) = pages.next().await {
        let page = page.expect("raw SDK query failed");
        on_page(page.items.unwrap_or_default());
    }
}
