//! The leading parts of a template sort key of several parts, as the derive's generated
//! builders (`Sensor::gsi1_sk().building("A").floor("2")`) collect them: each builder
//! method names one part, so a value can only go to the hole it is given for, even when
//! two parts share a type. The builders' types say how many are given; this holds the
//! rendered parts.

use super::sort::{Segment, SortBound, sort_bound, write_part};
use super::{KeyArg, KeyPart, KeyPartError};

/// The template, the parts rendered so far in template order, or the first one that is no
/// key part and its position. Not public API: the state of a generated sort key builder.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub struct SortParts {
    template: &'static [Segment],
    parts: Vec<String>,
    /// Kept rather than returned at once, so builder methods chain; reported by
    /// [`bound`](SortParts::bound) when the query is built.
    error: Option<(usize, KeyPartError)>,
}

impl SortParts {
    /// No part of `template` given yet.
    pub fn new(template: &'static [Segment]) -> Self {
        Self {
            template,
            parts: Vec::new(),
            error: None,
        }
    }

    /// `arg` as the next part, of type `T`, rendered in the format of the hole it fills.
    #[must_use]
    pub fn then<T: KeyPart, A: KeyArg<T>>(mut self, arg: &A) -> Self {
        if self.error.is_none()
            && let Err(err) = write_part::<T, A>(arg, self.template, &mut self.parts)
        {
            self.error = Some(err);
        }
        self
    }

    /// The given parts as a sort bound: a segment-exact prefix, or the whole key.
    ///
    /// # Errors
    ///
    /// Fails with the position of the first part that is not a key part, and why.
    pub fn bound(&self) -> Result<SortBound, (usize, KeyPartError)> {
        match &self.error {
            Some(err) => Err(err.clone()),
            None => Ok(sort_bound(self.template, &self.parts)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::KeyFormat;
    use Segment::{Hole, Literal};

    const LOC: &[Segment] = &[
        Literal("LOC#"),
        Hole("building", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("floor", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("room", KeyFormat::ESCAPED),
    ];

    #[test]
    fn named_parts_make_the_same_segment_exact_prefix_as_leading_parts() {
        let floor_2 = SortParts::new(LOC)
            .then::<String, _>(&"A")
            .then::<String, _>(&"2");
        assert_eq!(
            floor_2.bound(),
            Ok(SortBound::Prefix {
                prefix: "LOC#A#2#".into(),
                after: "LOC#A#2$".into()
            })
        );
        let room = floor_2.then::<String, _>(&"13");
        assert_eq!(room.bound(), Ok(SortBound::Whole("LOC#A#2#13".into())));
    }

    #[test]
    fn parts_are_escaped_and_the_first_at_fault_is_reported() {
        let escaped = SortParts::new(LOC).then::<String, _>(&"A#2");
        assert_eq!(
            escaped.bound(),
            Ok(SortBound::Prefix {
                prefix: "LOC#A%232#".into(),
                after: "LOC#A%232$".into()
            })
        );
        let empty = SortParts::new(LOC)
            .then::<String, _>(&"A")
            .then::<String, _>(&"")
            .then::<String, _>(&"");
        assert_eq!(empty.bound(), Err((1, KeyPartError::Empty)));
    }
}
