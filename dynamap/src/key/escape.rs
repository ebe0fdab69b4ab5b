//! Escaping of key parts, so that no value can forge a key.
//!
//! Templates use `#` to separate segments. A value that contained a raw `#` could make two
//! different entities render the same key (`{a}#{b}` with `a = "x#y", b = "z"` and with
//! `a = "x", b = "y#z"`), and could make a segment prefix match a longer segment. So every
//! part is escaped when a key is rendered and unescaped when it is parsed back:
//! `%` becomes `%25` and `#` becomes `%23`. Every other character, including case, is kept
//! exactly as given.

/// The character that separates key segments.
pub const DELIMITER: char = '#';
const ESCAPE: char = '%';

/// True when `text` holds a character that [`escape_tail`] rewrites.
fn needs_escape(text: &str) -> bool {
    text.bytes().any(|b| b == b'#' || b == b'%')
}

/// Escapes `out[start..]` in place. The common case, a part with nothing to escape, does
/// not allocate.
pub(crate) fn escape_tail(out: &mut String, start: usize) {
    if !needs_escape(&out[start..]) {
        return;
    }
    let raw = out.split_off(start);
    for ch in raw.chars() {
        match ch {
            DELIMITER => out.push_str("%23"),
            ESCAPE => out.push_str("%25"),
            other => out.push(other),
        }
    }
}

/// Reverses [`escape_tail`]. `None` when `text` holds an escape that rendering never makes.
pub(crate) fn unescape(text: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !text.contains(ESCAPE) {
        return Some(std::borrow::Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(ESCAPE) {
        out.push_str(&rest[..at]);
        let code = rest.get(at + 1..at + 3)?;
        out.push(match code {
            "23" => DELIMITER,
            "25" => ESCAPE,
            _ => return None,
        });
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    Some(std::borrow::Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = String::from("P#");
        out.push_str(text);
        escape_tail(&mut out, 2);
        out
    }

    #[test]
    fn plain_text_is_kept_exactly() {
        assert_eq!(escaped("Poznań A-2 x"), "P#Poznań A-2 x");
        assert_eq!(escaped("MiXeD"), "P#MiXeD");
    }

    #[test]
    fn delimiter_and_escape_are_escaped() {
        assert_eq!(escaped("a#b"), "P#a%23b");
        assert_eq!(escaped("100%"), "P#100%25");
        assert_eq!(escaped("%23"), "P#%2523");
    }

    #[test]
    fn unescape_reverses_escape() {
        for text in ["", "a", "a#b", "%", "%%##", "%23", "ż#ó%ł", "#"] {
            let out = escaped(text);
            assert_eq!(unescape(&out[2..]).as_deref(), Some(text), "{text:?}");
        }
    }

    #[test]
    fn unescape_rejects_escapes_rendering_never_makes() {
        assert_eq!(unescape("%"), None);
        assert_eq!(unescape("%2"), None);
        assert_eq!(unescape("%41"), None);
        assert_eq!(unescape("a%ż"), None);
    }
}
