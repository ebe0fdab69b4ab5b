//! Rendering keys from templates and parsing them back. Generated code drives these with
//! the template's literal text and holes, in order.

use super::escape::{DELIMITER, escape_tail, unescape};
use super::{KeyArg, KeyError, KeyErrorKind, KeyFormat, KeyPart, KeyPartError};

/// The value a key builder's argument stands for, read back from the text it writes: a
/// key's computed parts are computed from values, and builders take `&str` for `String`.
/// Used by generated code.
///
/// # Errors
///
/// Fails, naming `field`, when the argument writes no key part (an empty string) or text
/// its type does not read back.
#[doc(hidden)]
pub fn key_arg_value<T: KeyPart>(
    arg: &(impl KeyArg<T> + ?Sized),
    entity: &'static str,
    attribute: &'static str,
    field: &'static str,
) -> Result<T, KeyError> {
    let mut text = String::new();
    let value = match arg.write_key_arg(&mut text) {
        Ok(()) if text.is_empty() => Err(KeyPartError::Empty),
        Ok(()) => T::parse_key_part(&text),
        Err(err) => Err(err),
    };
    value.map_err(|err| KeyError {
        entity,
        attribute,
        field: Some(field),
        kind: KeyErrorKind::Part(err),
    })
}

/// Renders one key attribute from a template, segment by segment.
///
/// The first failure is kept and returned by [`finish`](KeyWriter::finish), so generated
/// code can render a whole template without checking after every hole.
///
/// # Examples
///
/// ```
/// use dynamap::key::KeyWriter;
///
/// let mut key = KeyWriter::new("Sensor", "PK", 2048);
/// key.literal("SENSOR#");
/// key.part::<String, _>("id", &"S#1");
/// assert_eq!(key.finish()?, "SENSOR#S%231"); // the delimiter in a part is escaped
/// # Ok::<(), dynamap::KeyError>(())
/// ```
#[derive(Debug)]
pub struct KeyWriter {
    entity: &'static str,
    attribute: &'static str,
    limit: usize,
    out: String,
    error: Option<KeyError>,
}

impl KeyWriter {
    /// Starts a key for `attribute` of `entity`, at most `limit` bytes long.
    #[inline]
    pub fn new(entity: &'static str, attribute: &'static str, limit: usize) -> Self {
        Self::with_capacity(entity, attribute, limit, 32)
    }

    /// As [`new`](KeyWriter::new), with room for `capacity` bytes: generated code passes the
    /// template's length, so that a key is allocated once, at its size.
    #[doc(hidden)]
    #[inline]
    pub fn with_capacity(
        entity: &'static str,
        attribute: &'static str,
        limit: usize,
        capacity: usize,
    ) -> Self {
        Self {
            entity,
            attribute,
            limit,
            out: String::with_capacity(capacity),
            error: None,
        }
    }

    /// Appends literal template text.
    #[inline]
    pub fn literal(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// Appends the value of the hole `{field}`, escaped.
    #[inline]
    pub fn part<T: KeyPart, A: KeyArg<T> + ?Sized>(&mut self, field: &'static str, value: &A) {
        self.part_as::<T, A>(field, value, KeyFormat::ESCAPED);
    }

    /// Appends the value of the hole `{field}` in `format`: escaped or checked to need no
    /// escape, lower-cased, numbers in the format's form.
    #[inline]
    pub fn part_as<T: KeyPart, A: KeyArg<T> + ?Sized>(
        &mut self,
        field: &'static str,
        value: &A,
        format: KeyFormat,
    ) {
        if self.error.is_some() {
            return;
        }
        let start = self.out.len();
        let result = value
            .write_key_arg_as(&mut self.out, format.number_format())
            .and_then(|()| finish_part::<T>(&mut self.out, start, format));
        if let Err(err) = result {
            self.error = Some(self.error(Some(field), KeyErrorKind::Part(err)));
        }
    }

    fn error(&self, field: Option<&'static str>, kind: KeyErrorKind) -> KeyError {
        KeyError {
            entity: self.entity,
            attribute: self.attribute,
            field,
            kind,
        }
    }

    /// The rendered key, or the first error: a bad part, or a key over the byte limit.
    ///
    /// # Errors
    ///
    /// Fails with the first [`KeyError`]: a part that does not render, or a key over the
    /// byte limit.
    #[inline]
    pub fn finish(self) -> Result<String, KeyError> {
        if let Some(err) = self.error {
            return Err(err);
        }
        if self.out.len() > self.limit {
            let kind = KeyErrorKind::TooLong {
                len: self.out.len(),
                limit: self.limit,
            };
            return Err(self.error(None, kind));
        }
        Ok(self.out)
    }
}

/// Turns the text a part wrote at `out[start..]` into its form in the key: not empty,
/// lower-cased when the format says so and the part is text, then escaped, or, verbatim,
/// refused if it holds the delimiter.
pub(super) fn finish_part<T: KeyPart>(
    out: &mut String,
    start: usize,
    format: KeyFormat,
) -> Result<(), KeyPartError> {
    if out.len() == start {
        return Err(KeyPartError::Empty);
    }
    if format.is_lowercase() && T::TEXT && out[start..].chars().any(char::is_uppercase) {
        let lower = out[start..].to_lowercase();
        out.truncate(start);
        out.push_str(&lower);
    }
    if T::ESCAPE_FREE {
        // Nothing to escape, and no delimiter to refuse.
    } else if !format.is_verbatim() {
        escape_tail(out, start);
    } else if out[start..].contains(DELIMITER) {
        return Err(KeyPartError::NotVerbatim {
            text: out.split_off(start),
        });
    }
    Ok(())
}

/// Reads a stored key back into its parts, following the same template.
///
/// # Examples
///
/// ```
/// use dynamap::key::KeyReader;
///
/// let mut key = KeyReader::new("Sensor", "PK", "SENSOR#S%231");
/// key.literal("SENSOR#", "SENSOR#{id}")?;
/// let id: String = key.part("id", "SENSOR#{id}")?;
/// key.finish("SENSOR#{id}")?;
/// assert_eq!(id, "S#1");
/// # Ok::<(), dynamap::KeyError>(())
/// ```
#[derive(Debug)]
pub struct KeyReader<'a> {
    entity: &'static str,
    attribute: &'static str,
    text: &'a str,
    rest: &'a str,
}

impl<'a> KeyReader<'a> {
    /// Starts reading `text`, the stored value of `attribute` of `entity`.
    pub fn new(entity: &'static str, attribute: &'static str, text: &'a str) -> Self {
        Self {
            entity,
            attribute,
            text,
            rest: text,
        }
    }

    fn mismatch(&self, field: Option<&'static str>, kind: KeyErrorKind) -> KeyError {
        KeyError {
            entity: self.entity,
            attribute: self.attribute,
            field,
            kind,
        }
    }

    fn no_match(&self, template: &'static str) -> KeyError {
        self.mismatch(
            None,
            KeyErrorKind::NoMatch {
                key: self.text.to_owned(),
                template,
            },
        )
    }

    /// Expects literal template text next.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyError`] naming `template` when the key does not continue with
    /// `text`.
    pub fn literal(&mut self, text: &str, template: &'static str) -> Result<(), KeyError> {
        match self.rest.strip_prefix(text) {
            Some(rest) => {
                self.rest = rest;
                Ok(())
            }
            None => Err(self.no_match(template)),
        }
    }

    /// Reads the hole `{field}`: everything up to the next delimiter or the end.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyError`] naming the field when the text does not parse as a `T`.
    pub fn part<T: KeyPart>(
        &mut self,
        field: &'static str,
        template: &'static str,
    ) -> Result<T, KeyError> {
        self.part_as(field, template, KeyFormat::ESCAPED)
    }

    /// Reads the hole `{field}` written in `format`. A lower-cased part reads back
    /// lower-cased.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyError`] naming the field when the text does not parse as a `T`.
    pub fn part_as<T: KeyPart>(
        &mut self,
        field: &'static str,
        template: &'static str,
        format: KeyFormat,
    ) -> Result<T, KeyError> {
        let end = self.rest.find(DELIMITER).unwrap_or(self.rest.len());
        let (raw, rest) = self.rest.split_at(end);
        if raw.is_empty() {
            return Err(self.no_match(template));
        }
        let text = if format.is_verbatim() {
            std::borrow::Cow::Borrowed(raw)
        } else {
            unescape(raw).ok_or_else(|| self.no_match(template))?
        };
        let value = T::parse_key_part_as(&text, format.number_format())
            .map_err(|err| self.mismatch(Some(field), KeyErrorKind::Part(err)))?;
        self.rest = rest;
        Ok(value)
    }

    /// Expects the end of the key.
    ///
    /// # Errors
    ///
    /// Fails with a [`KeyError`] naming `template` when text is left over.
    pub fn finish(self, template: &'static str) -> Result<(), KeyError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(self.no_match(template))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "LOC#{building}#{floor}";

    fn render(building: &str, floor: i32) -> Result<String, KeyError> {
        let mut w = KeyWriter::new("Sensor", "SK", 1024);
        w.literal("LOC#");
        w.part::<String, _>("building", &building);
        w.literal("#");
        w.part::<i32, _>("floor", &floor);
        w.finish()
    }

    fn parse(text: &str) -> Result<(String, i32), KeyError> {
        let mut r = KeyReader::new("Sensor", "SK", text);
        r.literal("LOC#", TEMPLATE)?;
        let building = r.part("building", TEMPLATE)?;
        r.literal("#", TEMPLATE)?;
        let floor = r.part("floor", TEMPLATE)?;
        r.finish(TEMPLATE)?;
        Ok((building, floor))
    }

    #[test]
    fn renders_and_parses_back() {
        let key = render("A", -1).expect("renders");
        assert_eq!(key, "LOC#A#-2147483647");
        assert_eq!(parse(&key).expect("parses"), ("A".to_owned(), -1));
    }

    #[test]
    fn delimiters_in_values_cannot_forge_keys() {
        let forged = render("A#0000000002", 3).expect("renders");
        let honest = render("A", 2).expect("renders");
        assert_ne!(forged, honest);
        assert!(
            !forged.starts_with("LOC#A#"),
            "a prefix for building A must not match {forged}"
        );
        assert_eq!(
            parse(&forged).expect("parses"),
            ("A#0000000002".to_owned(), 3)
        );
    }

    #[test]
    fn empty_parts_are_rejected_with_the_field_named() {
        let err = render("", 1).expect_err("empty building");
        assert_eq!(err.field, Some("building"));
        assert!(matches!(err.kind, KeyErrorKind::Part(KeyPartError::Empty)));
        assert_eq!(
            err.to_string(),
            "key attribute `SK` of entity `Sensor`, field `building`: key parts cannot be empty"
        );
    }

    #[test]
    fn keys_over_the_limit_are_rejected() {
        let long = "x".repeat(1024);
        let err = render(&long, 1).expect_err("too long");
        assert!(
            matches!(
                err.kind,
                KeyErrorKind::TooLong {
                    len: 1039,
                    limit: 1024
                }
            ),
            "{err:?}"
        );
    }

    fn render_as(building: &str, floor: i32, format: KeyFormat) -> Result<String, KeyError> {
        let mut w = KeyWriter::new("Sensor", "SK", 1024);
        w.literal("LOC#");
        w.part_as::<String, _>("building", &building, format);
        w.literal("#");
        w.part_as::<i32, _>("floor", &floor, format);
        w.finish()
    }

    fn parse_as(text: &str, format: KeyFormat) -> Result<(String, i32), KeyError> {
        let mut r = KeyReader::new("Sensor", "SK", text);
        r.literal("LOC#", TEMPLATE)?;
        let building = r.part_as("building", TEMPLATE, format)?;
        r.literal("#", TEMPLATE)?;
        let floor = r.part_as("floor", TEMPLATE, format)?;
        r.finish(TEMPLATE)?;
        Ok((building, floor))
    }

    #[test]
    fn a_verbatim_lowercase_plain_format_writes_what_other_mappers_store() {
        use super::super::Numbers;
        let format = KeyFormat::verbatim().lowercase().numbers(Numbers::Plain);
        let key = render_as("Mary Ann 100%", -3, format).expect("renders");
        assert_eq!(key, "LOC#mary ann 100%#-3");
        assert_eq!(
            parse_as(&key, format).expect("parses"),
            ("mary ann 100%".to_owned(), -3)
        );
        // Only text parts are lower-cased; numbers and case-sensitive forms are not.
        let escaped_lower = KeyFormat::ESCAPED.lowercase();
        assert_eq!(
            render_as("A B", 1, escaped_lower).expect("renders"),
            "LOC#a%20b#0000000001"
        );
    }

    #[test]
    fn a_verbatim_part_holding_the_delimiter_is_refused_naming_the_field() {
        let err = render_as("ops#1", 1, KeyFormat::verbatim()).expect_err("refused");
        assert_eq!(err.field, Some("building"));
        assert_eq!(
            err.kind,
            KeyErrorKind::Part(KeyPartError::NotVerbatim {
                text: "ops#1".to_owned()
            })
        );
        assert!(err.to_string().contains("verbatim"), "{err}");
        let empty = render_as("", 1, KeyFormat::verbatim()).expect_err("empty");
        assert_eq!(empty.kind, KeyErrorKind::Part(KeyPartError::Empty));
    }

    #[test]
    fn keys_of_another_shape_are_rejected() {
        for text in [
            "LOC#A",
            "LOC#A#0000000001#x",
            "READ#A#0000000001",
            "LOC##0000000001",
            "LOC#A%2#0000000001",
        ] {
            let err = parse(text).expect_err(text);
            assert!(
                matches!(err.kind, KeyErrorKind::NoMatch { .. }),
                "{text}: {err:?}"
            );
        }
        let err = parse("LOC#A#12").expect_err("short number");
        assert_eq!(err.field, Some("floor"));
    }
}
