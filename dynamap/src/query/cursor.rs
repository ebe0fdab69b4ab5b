//! Page cursors: signed, not encrypted, bound to their query and protected against edits.
//!
//! A cursor holds the key of the last item a page returned (DynamoDB's
//! `ExclusiveStartKey`, each attribute with its type: string, number or binary) and what it
//! belongs to: the table, the index, the partition, and a digest of everything else that
//! decides which items the query returns and in which order (the sort key condition, the
//! direction, the filter, the projection and the entity type read). It is
//! `base64url(payload || tag)`, where the tag is the first 16 bytes of an HMAC-SHA256 of the
//! payload.
//!
//! - With [`Db::with_cursor_key`](crate::Db::with_cursor_key), the HMAC key is the
//!   application's secret: clients cannot make or alter cursors.
//! - Without it, a fixed public key is used: edits by hand and transmission errors are still
//!   caught, but a determined client could compute a valid tag. Set a key when cursors leave
//!   your process.
//!
//! A cursor is signed, not encrypted: anyone holding one can decode the key of the item it
//! resumes after. If keys hold what a client must not see, keep cursors on the server (in a
//! session) instead of handing them out.
//!
//! Either way, a cursor is rejected, before anything is sent, by any query other than the
//! one that made it: another table, index or partition, or the same partition with another
//! sort condition, direction, filter, projection or entity. Resuming `sk_ge(500)` with a
//! cursor from `sk_ge(100)` would silently skip items; a cursor is only ever valid for the
//! query that made it. The page size (`limit`) may change between pages.

use std::fmt;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::codec::{AttributeValue, Item};
use crate::error::CursorProblem;
use crate::{Error, Result};

pub(super) const VERSION: u8 = 2;
/// The version byte of a cursor of several partitions read merged (`merged/cursor.rs`).
pub(super) const MERGED_VERSION: u8 = 3;
pub(super) const TAG_LEN: usize = 16;
const PUBLIC_KEY: &[u8] = b"dynamap cursor v1 (no application key)";

/// Where to resume a query: after the last item of a page. Not for parsing: pass it back
/// unchanged with [`Query::after`](crate::query::Query::after). It is signed (with the key
/// of [`Db::with_cursor_key`](crate::Db::with_cursor_key)), not encrypted: whoever holds it
/// can decode the key it resumes after. With serde it is the same text as its `Display`.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let page = db.query(Sensor::partition("S1")).limit(10).send().await?;
/// if let Some(cursor) = page.cursor {
///     // Opaque text, safe in a URL: hand it to the client, take it back for the next page.
///     let text = cursor.to_string();
///     let cursor = dynamap::query::Cursor::from(text);
///     let next = db.query(Sensor::partition("S1")).limit(10).after(cursor).send().await?;
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Cursor(String);

impl Cursor {
    /// The cursor as text, safe in URLs.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cursor({})", self.0)
    }
}

/// A cursor in a builder's `Debug`: its length only, since the cursor carries the key of
/// the item it resumes after, which logs should not show.
pub(super) struct Redacted<'a>(pub(super) &'a Cursor);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cursor(<{} characters>)", self.0.0.len())
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Cursor {
    type Err = std::convert::Infallible;

    /// Any text is accepted here; a query checks it when it uses it.
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Ok(Cursor(s.to_owned()))
    }
}

impl From<String> for Cursor {
    fn from(s: String) -> Self {
        Cursor(s)
    }
}

/// What a cursor belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding<'a> {
    pub(crate) table: &'a str,
    pub(crate) index: &'a str,
    pub(crate) partition: &'a str,
    /// A digest (hex) of the rest of the query: see [`query_digest`].
    pub(crate) query: &'a str,
}

/// A hex SHA-256 of the parts of a query that decide which items it returns and in which
/// order, given as text in a fixed order.
pub(crate) fn query_digest(parts: &[&str]) -> String {
    use sha2::Digest;
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A key attribute's value as it goes in a cursor: its type tag and its text.
fn tagged(value: &AttributeValue) -> Option<(u8, Vec<u8>)> {
    match value {
        AttributeValue::S(text) => Some((b'S', text.as_bytes().to_vec())),
        AttributeValue::N(number) => Some((b'N', number.as_bytes().to_vec())),
        AttributeValue::B(bytes) => Some((b'B', bytes.as_ref().to_vec())),
        _ => None,
    }
}

pub(super) fn mac(key: Option<&[u8]>) -> Hmac<Sha256> {
    #[allow(clippy::expect_used)] // HMAC takes keys of every length; this cannot fail
    <Hmac<Sha256> as KeyInit>::new_from_slice(key.unwrap_or(PUBLIC_KEY))
        .expect("HMAC accepts keys of any length")
}

fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn push_str(out: &mut Vec<u8>, s: &str) {
    push_bytes(out, s.as_bytes());
}

/// Makes the cursor resuming after the item with key attributes `keys` (string, number or
/// binary values; others cannot be keys and are left out).
pub(crate) fn encode(
    binding: &Binding<'_>,
    keys: &[(&str, AttributeValue)],
    key: Option<&[u8]>,
) -> Cursor {
    let mut payload = header(VERSION, binding);
    push_keys(
        &mut payload,
        keys.iter().map(|(name, value)| (*name, value)),
    );
    sign(payload, key)
}

/// A cursor's payload up to its position: the format version and what it is bound to.
pub(super) fn header(version: u8, binding: &Binding<'_>) -> Vec<u8> {
    let mut payload = vec![version];
    for part in [
        binding.table,
        binding.index,
        binding.partition,
        binding.query,
    ] {
        push_str(&mut payload, part);
    }
    payload
}

/// Appends key attributes: their count, then each name, type tag and value, by name.
pub(super) fn push_keys<'a>(
    payload: &mut Vec<u8>,
    keys: impl IntoIterator<Item = (&'a str, &'a AttributeValue)>,
) {
    let mut keys: Vec<(&str, (u8, Vec<u8>))> = keys
        .into_iter()
        .filter_map(|(name, value)| Some((name, tagged(value)?)))
        .collect();
    keys.sort();
    payload.push(keys.len() as u8);
    for (name, (tag, value)) in keys {
        push_str(payload, name);
        payload.push(tag);
        push_bytes(payload, &value);
    }
}

/// Reads what [`push_keys`] wrote.
pub(super) fn read_keys(r: &mut Reader<'_>) -> Result<Item> {
    let invalid = malformed;
    let count = r.byte().ok_or_else(invalid)?;
    let mut item = Item::with_capacity(count as usize);
    for _ in 0..count {
        let name = r.str().ok_or_else(invalid)?;
        let tag = r.byte().ok_or_else(invalid)?;
        let value = r.bytes().ok_or_else(invalid)?;
        let text = || {
            std::str::from_utf8(value)
                .map(str::to_owned)
                .map_err(|_| invalid())
        };
        let value = match tag {
            b'S' => AttributeValue::S(text()?),
            b'N' => AttributeValue::N(text()?),
            b'B' => AttributeValue::B(value.to_vec().into()),
            _ => return Err(invalid()),
        };
        item.insert(name.to_owned(), value);
    }
    Ok(item)
}

pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    pub(super) fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = u32::from_le_bytes(self.0.get(..4)?.try_into().ok()?) as usize;
        let bytes = self.0.get(4..4usize.checked_add(len)?)?;
        self.0 = &self.0[4 + len..];
        Some(bytes)
    }

    pub(super) fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
}

pub(super) const MALFORMED: &str = "it is not a cursor dynamap made";
/// Why a genuine cursor of an unknown form is refused.
pub(super) const OTHER_VERSION: &str = "it was made by another version of dynamap";

/// The error of a cursor that failed `problem`'s check, `reason` in words.
pub(super) fn invalid(problem: CursorProblem, reason: &'static str) -> Error {
    Error::InvalidCursor { problem, reason }
}

/// The error of a text that is not a cursor dynamap made.
pub(super) fn malformed() -> Error {
    invalid(CursorProblem::Malformed, MALFORMED)
}

/// Checks `cursor` and returns the `ExclusiveStartKey` it holds.
pub(crate) fn decode(cursor: &Cursor, binding: &Binding<'_>, key: Option<&[u8]>) -> Result<Item> {
    decode_matching(cursor, key, |found| {
        if (found.table, found.index, found.partition)
            != (binding.table, binding.index, binding.partition)
        {
            return Err("it belongs to another query (table, index or partition)");
        }
        if found.query != binding.query {
            return Err(
                "it belongs to the same partition read another way (sort condition, direction, filter, projection or entity); a cursor resumes only the query that made it",
            );
        }
        Ok(())
    })
}

/// The payload of `cursor` (version byte first), once its signature is checked.
pub(super) fn signed_payload(cursor: &Cursor, key: Option<&[u8]>) -> Result<Vec<u8>> {
    let mut bytes = URL_SAFE_NO_PAD.decode(&cursor.0).map_err(|_| malformed())?;
    if bytes.len() < TAG_LEN + 1 {
        return Err(malformed());
    }
    let (payload, tag) = bytes.split_at(bytes.len() - TAG_LEN);
    let mut mac = mac(key);
    mac.update(payload);
    mac.verify_truncated_left(tag).map_err(|_| {
        invalid(
            CursorProblem::Tampered,
            "it was modified, or signed with another key",
        )
    })?;
    bytes.truncate(bytes.len() - TAG_LEN);
    Ok(bytes)
}

/// Signs `payload` and makes the cursor of it.
pub(super) fn sign(mut payload: Vec<u8>, key: Option<&[u8]>) -> Cursor {
    let mut mac = mac(key);
    mac.update(&payload);
    let tag = mac.finalize().into_bytes();
    payload.extend_from_slice(&tag[..TAG_LEN]);
    Cursor(URL_SAFE_NO_PAD.encode(payload))
}

/// Checks `cursor`'s signature and form, then its binding with `check` (which says why it
/// does not belong), and returns the `ExclusiveStartKey` it holds.
pub(crate) fn decode_matching(
    cursor: &Cursor,
    key: Option<&[u8]>,
    check: impl FnOnce(&Binding<'_>) -> std::result::Result<(), &'static str>,
) -> Result<Item> {
    let payload = signed_payload(cursor, key)?;
    let mut r = Reader(&payload);
    match r.byte() {
        Some(VERSION) => {}
        Some(MERGED_VERSION) => {
            return Err(invalid(
                CursorProblem::OtherQuery,
                "it belongs to a read of several partitions merged, not to this query of one partition",
            ));
        }
        Some(_) => return Err(invalid(CursorProblem::OtherVersion, OTHER_VERSION)),
        None => return Err(malformed()),
    }
    let found = Binding {
        table: r.str().ok_or_else(malformed)?,
        index: r.str().ok_or_else(malformed)?,
        partition: r.str().ok_or_else(malformed)?,
        query: r.str().ok_or_else(malformed)?,
    };
    check(&found).map_err(|reason| invalid(CursorProblem::OtherQuery, reason))?;
    let item = read_keys(&mut r)?;
    if !r.0.is_empty() {
        return Err(malformed());
    }
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: Binding<'static> = Binding {
        table: "app",
        index: "",
        partition: "SENSOR#S1",
        query: "q1",
    };

    fn cursor(key: Option<&[u8]>) -> Cursor {
        encode(
            &HERE,
            &[
                ("PK", AttributeValue::S("SENSOR#S1".into())),
                ("SK", AttributeValue::S("READ#2".into())),
                ("score", AttributeValue::N("-12.5".into())),
                ("digest", AttributeValue::B(vec![0, 255].into())),
            ],
            key,
        )
    }

    #[test]
    fn round_trips_the_start_key() {
        let item = decode(&cursor(None), &HERE, None).expect("valid");
        assert_eq!(item["SK"], AttributeValue::S("READ#2".into()));
        assert_eq!(item["score"], AttributeValue::N("-12.5".into()));
        assert_eq!(item["digest"], AttributeValue::B(vec![0, 255].into()));
        let item = decode(&cursor(Some(b"secret")), &HERE, Some(b"secret")).expect("valid");
        assert_eq!(item.len(), 4);
    }

    #[test]
    fn rejects_cursors_of_other_queries() {
        for other in [
            Binding {
                partition: "SENSOR#S2",
                ..HERE
            },
            Binding {
                index: "GSI1",
                ..HERE
            },
            Binding {
                table: "other",
                ..HERE
            },
        ] {
            let err = decode(&cursor(None), &other, None).expect_err("foreign");
            assert!(err.to_string().contains("another query"), "{err}");
            assert_eq!(problem(&err), CursorProblem::OtherQuery);
        }
        let other = Binding {
            query: "q2",
            ..HERE
        };
        let err = decode(&cursor(None), &other, None).expect_err("other condition");
        assert!(err.to_string().contains("read another way"), "{err}");
        assert_eq!(problem(&err), CursorProblem::OtherQuery);
    }

    /// The check an invalid cursor failed.
    fn problem(err: &Error) -> CursorProblem {
        match err {
            Error::InvalidCursor { problem, .. } => *problem,
            other => panic!("not an invalid cursor: {other:?}"),
        }
    }

    #[test]
    fn a_signed_cursor_of_an_unknown_form_is_of_another_version() {
        let mut payload = header(VERSION, &HERE);
        payload[0] = 1;
        let err = decode(&sign(payload, None), &HERE, None).expect_err("version 1");
        assert_eq!(problem(&err), CursorProblem::OtherVersion);
        assert_eq!(
            err.to_string(),
            "invalid cursor: it was made by another version of dynamap"
        );
        let err = decode(&sign(Vec::new(), None), &HERE, None).expect_err("no version byte");
        assert_eq!(problem(&err), CursorProblem::Malformed);
        let mut truncated = header(VERSION, &HERE);
        truncated.truncate(5);
        let err = decode(&sign(truncated, None), &HERE, None).expect_err("cut short");
        assert_eq!(problem(&err), CursorProblem::Malformed);
    }

    #[test]
    fn rejects_edited_and_wrongly_signed_cursors() {
        let good = cursor(None).0;
        for i in 0..good.len() {
            let mut bytes = good.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let edited = Cursor(String::from_utf8(bytes).expect("ascii"));
            let err = decode(&edited, &HERE, None).expect_err("edited");
            assert!(
                matches!(
                    problem(&err),
                    CursorProblem::Tampered | CursorProblem::Malformed
                ),
                "edit at {i}: {err}"
            );
        }
        let err = decode(&cursor(Some(b"one")), &HERE, Some(b"two")).expect_err("other key");
        assert!(err.to_string().contains("signed with another key"), "{err}");
        assert_eq!(problem(&err), CursorProblem::Tampered);
        for text in ["not a cursor!", ""] {
            let err = decode(&Cursor(text.into()), &HERE, None).expect_err("not a cursor");
            assert_eq!(problem(&err), CursorProblem::Malformed, "{text:?}");
            assert_eq!(
                err.to_string(),
                "invalid cursor: it is not a cursor dynamap made"
            );
        }
    }
}
