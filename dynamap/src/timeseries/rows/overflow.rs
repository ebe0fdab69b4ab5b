//! Finding a timestamp's overflow rows in one request, so that a write costs the same with
//! one overflow row or a hundred.
//!
//! Rows fill in order: a writer creates row `i + 1` only after seeing row `i` full. So when
//! row 0 is full, every row before the last existing one is full too, and the event is
//! either already in one of them (a replay) or belongs in the last row or a new one after
//! it. One consistent query of the overflow rows' ids tells which, and the write goes on
//! from the last row with the usual per-row steps, which keep it race safe.

use aws_sdk_dynamodb::types::AttributeValue;

use super::layout::{CAP, IDS, MAX_ROWS, SplitEvent, ids, row_sk};
use crate::codec::Item;
use crate::expr::Placeholders;
use crate::span::Call;
use crate::span::send_in;
use crate::table::Table;
use crate::{Entity, Error, Handle, Result};

/// Where a write whose row 0 is full goes on.
pub(crate) enum Resume {
    /// Overflow row `row` lists the event already.
    Holds(u32),
    /// No row lists it; go on at `row`: the last overflow row if it has room, the one
    /// after it if it is full (1 when there is none).
    At(u32),
}

/// Reads the ids of every overflow row of the event's timestamp: `(resume, requests)`.
pub(crate) async fn find<E: Entity>(db: &Handle, event: &SplitEvent) -> Result<(Resume, u32)> {
    let schema = <E::Table as Table>::SCHEMA;
    let Some(sk_name) = schema.sk else {
        return Ok((Resume::At(1), 0));
    };
    let mut p = Placeholders::default();
    let (pk, sk) = (p.name(schema.pk), p.name(sk_name));
    let (ids_name, cap_name) = (p.name(IDS), p.name(CAP));
    let condition = format!(
        "{pk} = {} AND {sk} BETWEEN {} AND {}",
        p.value(AttributeValue::S(event.pk.clone())),
        p.value(AttributeValue::S(row_sk(&event.sk, 1))),
        p.value(AttributeValue::S(row_sk(&event.sk, MAX_ROWS - 1))),
    );
    let (names, values) = p.into_parts();
    // The last overflow row seen, and whether it is full.
    let mut last = (0, true);
    let mut requests = 0;
    let mut start: Option<Item> = None;
    loop {
        requests += 1;
        let call = Call::new(db, "Query", E::ENTITY_TYPE, None);
        let result = send_in!(
            call,
            db.client()
                .query()
                .table_name(db.table_name())
                .key_condition_expression(&condition)
                .projection_expression(format!("{sk}, {ids_name}, {cap_name}"))
                .set_expression_attribute_names(names.clone())
                .set_expression_attribute_values(values.clone())
                .consistent_read(true)
                .set_exclusive_start_key(start.take())
        );
        let output = call
            .end(result, |o| o.consumed_capacity())
            .map_err(|e| Error::service("Query", e))?;
        for row in output.items() {
            let Some(number) = row_number(row, sk_name, &event.sk) else {
                continue;
            };
            if ids(row).contains(&event.id.as_str()) {
                return Ok((Resume::Holds(number), requests));
            }
            if number > last.0 {
                let cap = row
                    .get(CAP)
                    .and_then(|c| c.as_n().ok()?.parse::<usize>().ok());
                last = (number, cap.is_none_or(|cap| ids(row).len() >= cap));
            }
        }
        match output.last_evaluated_key {
            Some(next) => start = Some(next),
            None => {
                let (row, full) = last;
                let resume = if full { row + 1 } else { row };
                return Ok((Resume::At(resume.min(MAX_ROWS)), requests));
            }
        }
    }
}

/// The number of overflow row `row` of the timestamp `base`, from its sort key.
fn row_number(row: &Item, sk_name: &str, base: &str) -> Option<u32> {
    let sk = row.get(sk_name)?.as_s().ok()?;
    let digits = sk.strip_prefix(base)?.strip_prefix('#')?;
    let number: u32 = digits.parse().ok()?;
    (row_sk(base, number) == *sk).then_some(number)
}
