//! Escaping of key parts, so that no value can forge a key and keys sort as their parts do.
//!
//! Templates use `#` to separate segments. A value that contained a raw `#` could make two
//! different entities render the same key (`{a}#{b}` with `a = "x#y", b = "z"` and with
//! `a = "x", b = "y#z"`), and could make a segment prefix match a longer segment. So every
//! part is escaped when a key is rendered and unescaped when it is parsed back.
//!
//! Every character at or below the escape character `%` (U+0000 to U+0025: control
//! characters, space, `!`, `"`, `#`, `$`, `%`) is written as `%` and two uppercase hex
//! digits: space is `%20`, `#` is `%23`, `%` is `%25`. Every other character, including
//! case, letters, digits, `-`, `_`, `.`, `:`, `@` and all non-ASCII text, is kept exactly.
//!
//! That choice keeps **order**: DynamoDB compares keys byte by byte, and after escaping
//!
//! - every byte of a part is at least `%` (0x25), so the delimiter `#` (0x23) that follows
//!   a part is smaller than any byte that could continue it: a part sorts before every
//!   longer part it is a prefix of, as strings do;
//! - an escape is `%` plus two hex digits, so escapes sort below every kept character
//!   (`&` and up) and among themselves by the character they stand for; kept characters
//!   are UTF-8, whose byte order is code point order.
//!
//! So for any two tuples of parts, byte order of the rendered keys is tuple order, and the
//! byte `$` (0x24) after a rendered part is greater than every key with that part and
//! smaller than every key with a larger one (see [`SortBound`](super::SortBound)).
//!
//! Keys stored before this rule escaped only `#` (`%23`) and `%` (`%25`) and kept every
//! other character raw. Those two escapes mean the same now, and a raw control character,
//! space, `!`, `"` or `$` is never written by rendering, so parsing accepts it as itself:
//! every key stored under the old rule parses to the same value.

/// The character that separates key segments.
pub const DELIMITER: char = '#';
const ESCAPE: char = '%';

/// True when `ch` is written as an escape: it sorts at or below the escape character.
fn escaped(ch: char) -> bool {
    ch <= ESCAPE
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Escapes `out[start..]` in place. The common case, a part with nothing to escape, is a
/// scan, inlined where the part is written, that neither allocates nor calls.
#[inline]
pub(crate) fn escape_tail(out: &mut String, start: usize) {
    // Escaped characters are ASCII, so a byte scan finds them and never splits a character.
    if any_escaped_byte(&out.as_bytes()[start..]) {
        escape_found(out, start);
    }
}

/// [`escape_tail`] for a part that holds something to escape.
#[cold]
fn escape_found(out: &mut String, start: usize) {
    let raw = out.split_off(start);
    for ch in raw.chars() {
        if escaped(ch) {
            let byte = ch as u8;
            out.push(ESCAPE);
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0x0F)]));
        } else {
            out.push(ch);
        }
    }
}

/// True when some byte of `bytes` is one that escaping replaces (`<= %`). Eight bytes at a
/// time: a byte below `n` (at most 128) sets its high bit in `(x - n * ONES) & !x`, and no
/// other byte makes the whole word nonzero (bytes of UTF-8 sequences are 128 or more).
#[inline]
fn any_escaped_byte(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    const BELOW: u64 = ONES * (ESCAPE as u64 + 1);
    let mut words = bytes.chunks_exact(8);
    let found = words.by_ref().any(|word| {
        let x = u64::from_ne_bytes(word.try_into().unwrap_or_default());
        x.wrapping_sub(BELOW) & !x & HIGH != 0
    });
    found || words.remainder().iter().any(|&b| b <= ESCAPE as u8)
}

/// The character an escape's two hex digits stand for, if rendering writes that escape.
fn escape_code(code: &str) -> Option<char> {
    let digits = code.as_bytes();
    let digit = |b: u8| HEX.iter().position(|&h| h == b);
    let (high, low) = (digit(*digits.first()?)?, digit(*digits.get(1)?)?);
    let ch = char::from(u8::try_from(high * 16 + low).ok()?);
    escaped(ch).then_some(ch)
}

/// Reverses [`escape_tail`]. `None` when `text` holds an escape that rendering never makes
/// (lowercase hex, a character above `%`, a cut-off escape).
///
/// A raw character that rendering would escape (other than `#`, which ends a part, and `%`,
/// which starts an escape) is read as itself: keys stored before every such character was
/// escaped kept them raw.
pub(crate) fn unescape(text: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !text.contains(ESCAPE) {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(ESCAPE) {
        out.push_str(&rest[..at]);
        out.push(escape_code(rest.get(at + 1..at + 3)?)?);
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Some(std::borrow::Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_scan_finds_every_escaped_byte_at_every_position() {
        for byte in 0..=255u8 {
            for len in 1..=20 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    assert_eq!(
                        any_escaped_byte(&bytes),
                        byte <= ESCAPE as u8,
                        "{byte} at {at} of {len}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_word_scan_agrees_with_a_byte_scan(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            proptest::prop_assert_eq!(any_escaped_byte(&bytes), bytes.iter().any(|&b| b <= ESCAPE as u8));
        }
    }

    fn escaped(text: &str) -> String {
        let mut out = String::from("P#");
        out.push_str(text);
        escape_tail(&mut out, 2);
        out
    }

    #[test]
    fn common_text_is_kept_exactly() {
        assert_eq!(escaped("Poznań-A_2.x:y@z"), "P#Poznań-A_2.x:y@z");
        assert_eq!(
            escaped("MiXeD&'()*+,/;<=>?[]^`{|}~"),
            "P#MiXeD&'()*+,/;<=>?[]^`{|}~"
        );
    }

    #[test]
    fn characters_up_to_the_escape_character_are_escaped() {
        assert_eq!(escaped("a#b"), "P#a%23b");
        assert_eq!(escaped("100%"), "P#100%25");
        assert_eq!(escaped("%23"), "P#%2523");
        assert_eq!(escaped("A B"), "P#A%20B");
        assert_eq!(escaped("!\"$"), "P#%21%22%24");
        assert_eq!(escaped("\0\t\n\x1f"), "P#%00%09%0A%1F");
    }

    #[test]
    fn escaped_parts_sort_as_their_values_and_above_the_delimiter() {
        let chars: Vec<char> = ('\0'..='\u{7f}').chain(['ą', '€', '\u{10ffff}']).collect();
        for &a in &chars {
            let ea = escaped(&a.to_string());
            assert!(ea.as_bytes()[2..].iter().all(|&b| b > DELIMITER as u8 + 1));
            for &b in &chars {
                assert_eq!(ea.cmp(&escaped(&b.to_string())), a.cmp(&b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn unescape_reverses_escape() {
        for text in [
            "",
            "a",
            "a#b",
            "%",
            "%%##",
            "%23",
            "ż#ó%ł",
            "#",
            "A B",
            "\0$!\"\x1f",
        ] {
            let out = escaped(text);
            assert_eq!(unescape(&out[2..]).as_deref(), Some(text), "{text:?}");
        }
    }

    #[test]
    fn keys_stored_before_every_low_character_was_escaped_still_parse() {
        // The old rule escaped only `#` and `%`, and kept the rest raw.
        assert_eq!(unescape("A B!\"$").as_deref(), Some("A B!\"$"));
        assert_eq!(unescape("2$%2320 %25").as_deref(), Some("2$#20 %"));
    }

    #[test]
    fn unescape_rejects_escapes_rendering_never_makes() {
        for text in ["%", "%2", "%41", "%26", "%FF", "%0a", "a%ż", "%%"] {
            assert_eq!(unescape(text), None, "{text:?}");
        }
    }
}
