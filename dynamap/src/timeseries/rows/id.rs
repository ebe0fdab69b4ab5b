//! Event ids: short, deterministic hashes of an event's content and timestamp.
//!
//! The seed calls them "unique enough": not random ids, so that writing the same event again
//! (a retry after a failure somewhere in the ingest pipeline) finds the id already in the row
//! and stores nothing. The hash covers the event's whole item, the sort key (its timestamp)
//! included, through a canonical encoding: attributes sorted by name, every value tagged
//! with its type and length-prefixed, map entries sorted by key and set elements sorted, so
//! the same item always hashes the same, whatever order its maps iterate in.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use crate::codec::{AttributeValue, Item};

/// How many bytes of the SHA-256 digest an id keeps: 96 bits, 16 characters. Two distinct
/// events collide with probability about 2^-96 per pair; in a row of a few hundred events
/// that is never in practice, while the id stays short (it is stored once in the id list and
/// once in every field map).
const ID_BYTES: usize = 12;

/// Separates these hashes from any other use of SHA-256 over similar bytes, and versions the
/// encoding: changing it would make replays of old events look new.
const DOMAIN: &[u8] = b"dynamap.event-id.v1\0";

/// The id of one event in a multi-event row: 16 URL-safe base64 characters.
///
/// ```
/// use dynamap::codec::{AttributeValue, Item};
/// use dynamap::timeseries::rows::EventId;
///
/// let item: Item = [("speed".to_owned(), AttributeValue::N("88".to_owned()))].into();
/// let id = EventId::of_item(&item);
/// assert_eq!(id.as_str().len(), 16);
/// assert_eq!(id, EventId::of_item(&item.clone()));
/// ```
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct Iot;
/// # #[derive(Entity, Debug, Clone, PartialEq)]
/// # #[dynamap(table = Iot, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
/// # struct Ping { device: String, at: i64, value: i64 }
/// # async fn example(db: dynamap::Db<Iot>) -> dynamap::Result<()> {
/// let outcome = db.event_rows::<Ping>().write(&Ping { device: "d1".into(), at: 1, value: 7 }).await?;
/// // The same event always gets the same id: a replay finds it and stores nothing.
/// println!("stored as {}", outcome.id);
/// # Ok(()) }
/// ```
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct EventId(String);

impl EventId {
    /// The id of the event whose item (as `Entity::to_item` returns it) is `item`.
    pub fn of_item(item: &Item) -> EventId {
        let mut hasher = Sha256::new();
        hasher.update(DOMAIN);
        let mut buf = Vec::new();
        encode_item(item, &mut buf);
        hasher.update(&buf);
        let digest = hasher.finalize();
        EventId(URL_SAFE_NO_PAD.encode(&digest[..ID_BYTES]))
    }

    /// The id as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn encode_len(len: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&(len as u64).to_le_bytes());
}

fn encode_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    encode_len(bytes.len(), out);
    out.extend_from_slice(bytes);
}

fn encode_item(item: &Item, out: &mut Vec<u8>) {
    let mut names: Vec<&String> = item.keys().collect();
    names.sort();
    encode_len(names.len(), out);
    for name in names {
        encode_bytes(name.as_bytes(), out);
        if let Some(value) = item.get(name) {
            encode_value(value, out);
        }
    }
}

fn encode_set<'v>(tag: u8, elements: impl Iterator<Item = &'v [u8]>, out: &mut Vec<u8>) {
    let mut sorted: Vec<&[u8]> = elements.collect();
    sorted.sort_unstable();
    out.push(tag);
    encode_len(sorted.len(), out);
    for element in sorted {
        encode_bytes(element, out);
    }
}

fn encode_value(value: &AttributeValue, out: &mut Vec<u8>) {
    match value {
        AttributeValue::S(s) => {
            out.push(b's');
            encode_bytes(s.as_bytes(), out);
        }
        AttributeValue::N(n) => {
            out.push(b'n');
            encode_bytes(n.as_bytes(), out);
        }
        AttributeValue::B(b) => {
            out.push(b'b');
            encode_bytes(b.as_ref(), out);
        }
        AttributeValue::Bool(b) => out.extend_from_slice(if *b { b"T" } else { b"F" }),
        AttributeValue::Null(_) => out.push(b'z'),
        AttributeValue::Ss(v) => encode_set(b'S', v.iter().map(|s| s.as_bytes()), out),
        AttributeValue::Ns(v) => encode_set(b'N', v.iter().map(|s| s.as_bytes()), out),
        AttributeValue::Bs(v) => encode_set(b'B', v.iter().map(|b| b.as_ref()), out),
        AttributeValue::L(v) => {
            out.push(b'l');
            encode_len(v.len(), out);
            for element in v {
                encode_value(element, out);
            }
        }
        AttributeValue::M(m) => {
            out.push(b'm');
            encode_item(m, out);
        }
        // A variant added to the SDK later: its debug text is still a function of the value.
        other => {
            out.push(b'?');
            encode_bytes(format!("{other:?}").as_bytes(), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::primitives::Blob;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.to_owned())
    }

    #[test]
    fn an_event_id_goes_through_serde_as_its_text() {
        let id = EventId::of_item(&item(&[("at", s("1"))]));
        let json = serde_json::to_value(&id).expect("serializes");
        assert_eq!(json, serde_json::Value::String(id.to_string()));
        assert_eq!(serde_json::from_value::<EventId>(json).ok(), Some(id));
    }

    fn item(pairs: &[(&str, AttributeValue)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    #[test]
    fn same_content_same_id_whatever_the_order() {
        let nested = |order: &[(&str, &str)]| {
            AttributeValue::M(order.iter().map(|(k, v)| ((*k).to_owned(), s(v))).collect())
        };
        let a = item(&[
            ("SK", s("0000001000")),
            ("tags", AttributeValue::Ss(vec!["x".into(), "y".into()])),
            ("m", nested(&[("a", "1"), ("b", "2")])),
        ]);
        let b = item(&[
            ("m", nested(&[("b", "2"), ("a", "1")])),
            ("tags", AttributeValue::Ss(vec!["y".into(), "x".into()])),
            ("SK", s("0000001000")),
        ]);
        assert_eq!(EventId::of_item(&a), EventId::of_item(&b));
    }

    #[test]
    fn any_change_changes_the_id() {
        let base = item(&[("SK", s("1")), ("v", AttributeValue::N("1".into()))]);
        let variants = [
            item(&[("SK", s("2")), ("v", AttributeValue::N("1".into()))]),
            item(&[("SK", s("1")), ("v", AttributeValue::N("2".into()))]),
            item(&[("SK", s("1")), ("v", s("1"))]),
            item(&[("SK", s("1")), ("w", AttributeValue::N("1".into()))]),
            item(&[("SK", s("1"))]),
            item(&[
                ("SK", s("1")),
                ("v", AttributeValue::L(vec![AttributeValue::N("1".into())])),
            ]),
            item(&[
                ("SK", s("1")),
                ("v", AttributeValue::B(Blob::new(b"1".to_vec()))),
            ]),
        ];
        let id = EventId::of_item(&base);
        for variant in &variants {
            assert_ne!(EventId::of_item(variant), id, "{variant:?}");
        }
    }

    #[test]
    fn lengths_keep_boundaries_apart() {
        // Without length prefixes these two would encode the same bytes.
        let a = item(&[("ab", s("c"))]);
        let b = item(&[("a", s("bc"))]);
        assert_ne!(EventId::of_item(&a), EventId::of_item(&b));
    }

    #[test]
    fn ids_are_stable_across_releases() {
        // Changing the encoding would make replays of stored events look new.
        let a = item(&[
            ("SK", s("0000001000")),
            ("speed", AttributeValue::N("88".into())),
        ]);
        let id = EventId::of_item(&a);
        assert_eq!(id.as_str().len(), 16);
        assert!(
            id.as_str()
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(id.as_str(), STABLE_ID);
    }

    /// Computed independently from the encoding described above (SHA-256 of the domain tag and
    /// the length-prefixed, sorted encoding), truncated to 12 bytes, base64url.
    const STABLE_ID: &str = "shRTQKfiZzOBO_7S";
}
