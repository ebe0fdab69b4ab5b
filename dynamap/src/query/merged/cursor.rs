//! Cursors of merged reads: where each shard of the current logical partition stands.
//!
//! Signed and bound as one partition's cursors are (`query/cursor.rs`), with their own
//! version byte, so neither kind is taken for the other. The payload is the binding (table,
//! index, every physical partition, the query digest), the logical partition being read
//! (counted in reading order), then per shard of it: not started, used up, or the key of
//! the last item consumed from it (or of where DynamoDB stopped, when the filter dropped
//! the rest of a response).

use super::super::cursor::{
    self as single, Binding, Cursor, MERGED_VERSION, OTHER_VERSION, Reader, VERSION, invalid,
    malformed,
};
use crate::Result;
use crate::codec::Item;
use crate::error::CursorProblem;

/// Where one shard stands.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Pos {
    /// Nothing read from it yet.
    NotStarted,
    /// Read up to and including the item with this key.
    After(Item),
    /// Every item read.
    Exhausted,
}

/// Where a merged read stands: its logical partition (in reading order) and its shards.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Position {
    pub(super) group: usize,
    pub(super) shards: Vec<Pos>,
}

/// Makes the cursor resuming at `position`.
pub(super) fn encode(binding: &Binding<'_>, position: &Position, key: Option<&[u8]>) -> Cursor {
    let mut payload = single::header(MERGED_VERSION, binding);
    payload.extend_from_slice(&(position.group as u32).to_le_bytes());
    payload.extend_from_slice(&(position.shards.len() as u32).to_le_bytes());
    for shard in &position.shards {
        match shard {
            Pos::NotStarted => payload.push(0),
            Pos::Exhausted => payload.push(1),
            Pos::After(keys) => {
                payload.push(2);
                single::push_keys(&mut payload, keys.iter().map(|(k, v)| (k.as_str(), v)));
            }
        }
    }
    single::sign(payload, key)
}

fn u32_of(r: &mut Reader<'_>) -> Option<usize> {
    let bytes = r.0.get(..4)?;
    let n = u32::from_le_bytes(bytes.try_into().ok()?);
    r.0 = &r.0[4..];
    usize::try_from(n).ok()
}

/// Checks `cursor` against `binding` and returns where it resumes; `shards(group)` is the
/// number of shards of a logical partition, `None` past the last.
pub(super) fn decode(
    cursor: &Cursor,
    binding: &Binding<'_>,
    key: Option<&[u8]>,
    shards: impl Fn(usize) -> Option<usize>,
) -> Result<Position> {
    let payload = single::signed_payload(cursor, key)?;
    let mut r = Reader(&payload);
    match r.byte() {
        Some(MERGED_VERSION) => {}
        Some(VERSION) => {
            return Err(invalid(
                CursorProblem::OtherQuery,
                "it belongs to a query of one partition, not to this read of several partitions merged",
            ));
        }
        Some(_) => return Err(invalid(CursorProblem::OtherVersion, OTHER_VERSION)),
        None => return Err(malformed()),
    }
    let mut found = [""; 4];
    for part in &mut found {
        *part = r.str().ok_or_else(malformed)?;
    }
    if found[..3] != [binding.table, binding.index, binding.partition] {
        return Err(invalid(
            CursorProblem::OtherQuery,
            "it belongs to another query (table, index or partitions)",
        ));
    }
    if found[3] != binding.query {
        return Err(invalid(
            CursorProblem::OtherQuery,
            "it belongs to the same partitions read another way (sort condition, direction, filter, projection or entity); a cursor resumes only the query that made it",
        ));
    }
    let group = u32_of(&mut r).ok_or_else(malformed)?;
    let count = u32_of(&mut r).ok_or_else(malformed)?;
    if shards(group) != Some(count) {
        return Err(malformed());
    }
    let mut positions = Vec::with_capacity(count);
    for _ in 0..count {
        positions.push(match r.byte().ok_or_else(malformed)? {
            0 => Pos::NotStarted,
            1 => Pos::Exhausted,
            2 => Pos::After(single::read_keys(&mut r)?),
            _ => return Err(malformed()),
        });
    }
    if !r.0.is_empty() {
        return Err(malformed());
    }
    Ok(Position {
        group,
        shards: positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::AttributeValue;

    const HERE: Binding<'static> = Binding {
        table: "app",
        index: "GSI1",
        partition: "merged:D1#0|D1#1",
        query: "q1",
    };

    fn position() -> Position {
        let key: Item = [
            ("PK".to_owned(), AttributeValue::S("DEAL#1".into())),
            ("GSI1SK".to_owned(), AttributeValue::N("-12.5".into())),
            ("bin".to_owned(), AttributeValue::B(vec![0, 255].into())),
        ]
        .into();
        Position {
            group: 1,
            shards: vec![Pos::NotStarted, Pos::After(key), Pos::Exhausted],
        }
    }

    fn shards(group: usize) -> Option<usize> {
        (group < 2).then_some(3)
    }

    #[test]
    fn round_trips_every_shard_position() {
        for key in [None, Some(&b"secret"[..])] {
            let cursor = encode(&HERE, &position(), key);
            assert_eq!(
                decode(&cursor, &HERE, key, shards).expect("valid"),
                position()
            );
        }
    }

    #[test]
    fn refuses_other_queries_other_shapes_edits_and_single_partition_cursors() {
        let cursor = encode(&HERE, &position(), None);
        let other = Binding {
            partition: "merged:D2#0|D2#1",
            ..HERE
        };
        let err = decode(&cursor, &other, None, shards).expect_err("other partitions");
        assert!(err.to_string().contains("another query"), "{err}");
        let other = Binding {
            query: "q2",
            ..HERE
        };
        let err = decode(&cursor, &other, None, shards).expect_err("other condition");
        assert!(err.to_string().contains("read another way"), "{err}");
        assert!(decode(&cursor, &HERE, None, |_| Some(2)).is_err());
        assert!(decode(&cursor, &HERE, Some(b"key"), shards).is_err());
        let mut text = cursor.to_string().into_bytes();
        text[10] = if text[10] == b'A' { b'B' } else { b'A' };
        let edited = Cursor::from(String::from_utf8(text).expect("ascii"));
        assert!(decode(&edited, &HERE, None, shards).is_err());

        let one = single::encode(&HERE, &[("PK", AttributeValue::S("x".into()))], None);
        let err = decode(&one, &HERE, None, shards).expect_err("single");
        assert!(err.to_string().contains("one partition"), "{err}");
        let err = single::decode(&cursor, &HERE, None).expect_err("merged");
        assert!(err.to_string().contains("several partitions"), "{err}");
    }
}
