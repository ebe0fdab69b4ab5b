//! What a job's requests cost, computed before they are sent: from the items' sizes and the
//! indexes they are in, the way DynamoDB charges them. The budget paces requests by these
//! figures before any answer says otherwise, and a job without a budget counts its units
//! with them (scaled by how the requests that asked DynamoDB compared, see `meter`).

use super::plan::{Decision, Write};
use crate::codec::Item;
use crate::limits::item_size;
use crate::table::{IndexSchema, TableSchema};

/// A write unit covers 1 KB; a read unit 4 KB (eventually consistent: half a unit).
const WRITE_BYTES: f64 = 1024.0;
const READ_BYTES: f64 = 4096.0;

/// Units of a write of `bytes` (at least one).
fn write_units(bytes: usize) -> f64 {
    (bytes as f64 / WRITE_BYTES).ceil().max(1.0)
}

/// The indexes `item` is in: those whose every key attribute it holds.
fn held<'s>(schema: &'s TableSchema, item: &'s Item) -> impl Iterator<Item = &'s IndexSchema> {
    schema.indexes.iter().filter(|index| {
        index
            .pk_attributes()
            .chain(index.sk_attributes())
            .all(|(name, _)| item.contains_key(name))
    })
}

/// True when `index`'s key is the same in `a` and `b`.
fn same_key(index: &IndexSchema, a: &Item, b: &Item) -> bool {
    index
        .pk_attributes()
        .chain(index.sk_attributes())
        .all(|(name, _)| a.get(name) == b.get(name))
}

/// A put of `item` where nothing is stored, or a delete of stored `item`: the table's
/// write and one in each index it is in.
pub(super) fn whole(schema: &TableSchema, item: &Item) -> f64 {
    let units = write_units(item_size(item));
    units * (1 + held(schema, item).count()) as f64
}

/// `stored` overwritten by `after` at the same key: the larger of the two on the table, and
/// in each index a put, a delete, both (its key changed), or an update.
pub(super) fn overwrite(schema: &TableSchema, stored: &Item, after: &Item) -> f64 {
    let units = write_units(item_size(stored).max(item_size(after)));
    let index_writes: usize = schema
        .indexes
        .iter()
        .map(|index| {
            let had = held(schema, stored).any(|i| i.name == index.name);
            let has = held(schema, after).any(|i| i.name == index.name);
            match (had, has) {
                (false, false) => 0,
                (true, true) if !same_key(index, stored, after) => 2,
                _ => 1,
            }
        })
        .sum();
    units * (1 + index_writes) as f64
}

/// What `decision` costs for `stored`, sent on its own (`transaction`: in a transaction,
/// which DynamoDB charges twice).
pub(super) fn decision(
    schema: &TableSchema,
    stored: &Item,
    decision: &Decision,
    transaction: bool,
) -> f64 {
    let units = match decision {
        Decision::Keep => 0.0,
        Decision::Delete => whole(schema, stored),
        Decision::Move { item } => whole(schema, item) + whole(schema, stored),
        Decision::Replace { item } => overwrite(schema, stored, item),
        Decision::Rewrite { set, remove } => {
            overwrite(schema, stored, &rewritten(stored, set, remove))
        }
    };
    if transaction { 2.0 * units } else { units }
}

/// What a job's `write` of `stored` costs: a move, a write with lookup items to keep, in
/// a transaction; each lookup item put or deleted a unit (twice, in the transaction).
pub(super) fn write(schema: &TableSchema, stored: &Item, write: &Write) -> f64 {
    let lookups = write.lookups.put.len() + write.lookups.release.len();
    let transaction = lookups > 0 || matches!(write.decision, Decision::Move { .. });
    decision(schema, stored, &write.decision, transaction) + 2.0 * lookups as f64
}

/// `stored` with `set` set and `remove` removed: what a rewrite in place leaves.
pub(super) fn rewritten(stored: &Item, set: &Item, remove: &[String]) -> Item {
    let mut after = stored.clone();
    for name in remove {
        after.remove(name);
    }
    after.extend(set.iter().map(|(k, v)| (k.clone(), v.clone())));
    after
}

/// A scan page that read `items` items of `bytes_each` bytes on average: their total size
/// in 4 KB units, half a unit each (eventually consistent).
pub(super) fn scan(items: u64, bytes_each: f64) -> f64 {
    ((items as f64 * bytes_each) / READ_BYTES).ceil().max(1.0) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::AttributeValue::S;
    use crate::table::IndexSchema;

    const GSI1: IndexSchema = IndexSchema::for_tests("GSI1", "GSI1PK", "GSI1SK");

    fn schema() -> TableSchema {
        TableSchema::for_tests("App", std::slice::from_ref(&GSI1))
    }

    fn item(pairs: &[(&str, &str)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), S((*v).to_owned())))
            .collect()
    }

    #[test]
    fn an_item_in_an_index_costs_twice_and_size_rounds_up_by_kilobyte() {
        let schema = schema();
        let plain = item(&[("PK", "A"), ("SK", "B")]);
        assert_eq!(whole(&schema, &plain), 1.0);
        let indexed = item(&[("PK", "A"), ("SK", "B"), ("GSI1PK", "X"), ("GSI1SK", "Y")]);
        assert_eq!(whole(&schema, &indexed), 2.0);
        let mut big = indexed.clone();
        big.insert("body".into(), S("x".repeat(1500)));
        assert_eq!(whole(&schema, &big), 4.0);
    }

    #[test]
    fn an_index_key_added_changed_or_kept_costs_one_two_or_one_index_write() {
        let schema = schema();
        let plain = item(&[("PK", "A"), ("SK", "B")]);
        let indexed = item(&[("PK", "A"), ("SK", "B"), ("GSI1PK", "X"), ("GSI1SK", "Y")]);
        let moved = item(&[("PK", "A"), ("SK", "B"), ("GSI1PK", "Z"), ("GSI1SK", "Y")]);
        assert_eq!(overwrite(&schema, &plain, &indexed), 2.0);
        assert_eq!(overwrite(&schema, &indexed, &moved), 3.0);
        assert_eq!(overwrite(&schema, &indexed, &indexed), 2.0);
        let decision = Decision::Move { item: moved };
        assert_eq!(super::decision(&schema, &indexed, &decision, true), 8.0);
    }
}
