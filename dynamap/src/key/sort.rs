//! Sort keys given part by part: the leading parts of a sort key template, for range
//! conditions and segment-exact prefixes.

use super::escape::escape_tail;
use super::{KeyArg, KeyPart, KeyPartError};

/// One piece of a key template, kept at run time so queries can render some of its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Literal text.
    Literal(&'static str),
    /// A `{field}` hole.
    Hole(&'static str),
}

/// The leading parts of a sort key whose parts have the types `S` (a tuple): `("A",)` for
/// building `A` of `LOC#{building}#{floor}#{room}`, `("A", "2")` for its floor 2, all
/// three for one room. Implemented for tuples of up to six [`KeyArg`]s.
pub trait SortArgs<S> {
    /// Renders each given part, escaped, in order.
    fn write_parts(&self, parts: &mut Vec<String>) -> Result<(), (usize, KeyPartError)>;
}

fn write_part<T: KeyPart, A: KeyArg<T>>(
    arg: &A,
    parts: &mut Vec<String>,
) -> Result<(), (usize, KeyPartError)> {
    let mut text = String::new();
    arg.write_key_arg(&mut text)
        .map_err(|err| (parts.len(), err))?;
    if text.is_empty() {
        return Err((parts.len(), KeyPartError::Empty));
    }
    escape_tail(&mut text, 0);
    parts.push(text);
    Ok(())
}

macro_rules! sort_args {
    ([$($T:ident),*]; [$($A:ident : $TA:ident),*]) => {
        impl<$($T: KeyPart,)* $($A: KeyArg<$TA>,)*> SortArgs<($($T,)*)> for ($($A,)*) {
            #[allow(non_snake_case, unused_variables)] // bindings named after their type parameters
            fn write_parts(&self, parts: &mut Vec<String>) -> Result<(), (usize, KeyPartError)> {
                let ($($A,)*) = self;
                $(write_part::<$TA, _>($A, parts)?;)*
                Ok(())
            }
        }
    };
}

sort_args!([]; []);
sort_args!([T0]; []);
sort_args!([T0]; [A0: T0]);
sort_args!([T0,T1]; []);
sort_args!([T0,T1]; [A0: T0]);
sort_args!([T0,T1]; [A0: T0,A1: T1]);
sort_args!([T0,T1,T2]; []);
sort_args!([T0,T1,T2]; [A0: T0]);
sort_args!([T0,T1,T2]; [A0: T0,A1: T1]);
sort_args!([T0,T1,T2]; [A0: T0,A1: T1,A2: T2]);
sort_args!([T0,T1,T2,T3]; []);
sort_args!([T0,T1,T2,T3]; [A0: T0]);
sort_args!([T0,T1,T2,T3]; [A0: T0,A1: T1]);
sort_args!([T0,T1,T2,T3]; [A0: T0,A1: T1,A2: T2]);
sort_args!([T0,T1,T2,T3]; [A0: T0,A1: T1,A2: T2,A3: T3]);
sort_args!([T0,T1,T2,T3,T4]; []);
sort_args!([T0,T1,T2,T3,T4]; [A0: T0]);
sort_args!([T0,T1,T2,T3,T4]; [A0: T0,A1: T1]);
sort_args!([T0,T1,T2,T3,T4]; [A0: T0,A1: T1,A2: T2]);
sort_args!([T0,T1,T2,T3,T4]; [A0: T0,A1: T1,A2: T2,A3: T3]);
sort_args!([T0,T1,T2,T3,T4]; [A0: T0,A1: T1,A2: T2,A3: T3,A4: T4]);
sort_args!([T0,T1,T2,T3,T4,T5]; []);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0]);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0,A1: T1]);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0,A1: T1,A2: T2]);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0,A1: T1,A2: T2,A3: T3]);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0,A1: T1,A2: T2,A3: T3,A4: T4]);
sort_args!([T0,T1,T2,T3,T4,T5]; [A0: T0,A1: T1,A2: T2,A3: T3,A4: T4,A5: T5]);
/// A sort key given up to some part: either every part (a whole key) or the leading ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortBound {
    /// Every part was given: the whole sort key.
    Whole(String),
    /// Only leading parts were given.
    Prefix {
        /// The key up to the last given part plus the literal after it (which starts with
        /// the delimiter): every key with these leading parts starts with this, and no other.
        prefix: String,
        /// Greater than every key with these leading parts, and no greater than any key with
        /// larger ones: the prefix with its final delimiter replaced by `$`, the character
        /// just after `#`.
        after: String,
    },
}

/// Renders the given `parts` of `template`.
pub fn sort_bound(template: &[Segment], parts: &[String]) -> SortBound {
    let mut out = String::new();
    let mut given = parts.iter();
    let mut iter = template.iter().peekable();
    while let Some(segment) = iter.next() {
        match segment {
            Segment::Literal(text) => out.push_str(text),
            Segment::Hole(_) => match given.next() {
                Some(part) => out.push_str(part),
                None => return prefix_before_hole(out),
            },
        }
        if given.len() == 0 && matches!(segment, Segment::Hole(_)) {
            // The last given part: the rest of the template decides whether this is whole.
            let rest_has_hole = iter.clone().any(|s| matches!(s, Segment::Hole(_)));
            if rest_has_hole {
                let after = format!("{out}$");
                if let Some(Segment::Literal(next)) = iter.peek() {
                    out.push_str(next);
                }
                return SortBound::Prefix { prefix: out, after };
            }
        }
    }
    SortBound::Whole(out)
}

/// No part given: only the template's leading literal narrows the keys.
fn prefix_before_hole(out: String) -> SortBound {
    let mut after = out.clone();
    // The leading literal ends the range just past its own last character.
    if let Some(last) = after.pop() {
        after.push(char::from_u32(last as u32 + 1).unwrap_or(char::MAX));
    }
    SortBound::Prefix { prefix: out, after }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Segment::{Hole, Literal};

    const LOC: &[Segment] = &[
        Literal("LOC#"),
        Hole("building"),
        Literal("#"),
        Hole("floor"),
        Literal("#"),
        Hole("room"),
    ];

    fn parts<S, A: SortArgs<S>>(args: A) -> Vec<String> {
        let mut out = Vec::new();
        args.write_parts(&mut out).expect("renders");
        out
    }

    type Loc = (String, String, String);

    #[test]
    fn leading_parts_make_segment_exact_prefixes() {
        let bound = sort_bound(LOC, &parts::<Loc, _>(("A",)));
        assert_eq!(
            bound,
            SortBound::Prefix {
                prefix: "LOC#A#".into(),
                after: "LOC#A$".into()
            }
        );
        let bound = sort_bound(LOC, &parts::<Loc, _>(("A", "2")));
        assert_eq!(
            bound,
            SortBound::Prefix {
                prefix: "LOC#A#2#".into(),
                after: "LOC#A#2$".into()
            }
        );
        assert!(
            "LOC#A#20#1" > "LOC#A#2$" && !"LOC#A#20#1".starts_with("LOC#A#2#"),
            "floor 20 is not floor 2"
        );
    }

    #[test]
    fn all_parts_make_a_whole_key() {
        let bound = sort_bound(LOC, &parts::<Loc, _>(("A", "2", "13")));
        assert_eq!(bound, SortBound::Whole("LOC#A#2#13".into()));
        let read: &[Segment] = &[Literal("READ#"), Hole("at"), Literal("#END")];
        assert_eq!(
            sort_bound(read, &parts::<(u8,), _>((7u8,))),
            SortBound::Whole("READ#007#END".into())
        );
    }

    #[test]
    fn no_parts_narrow_to_the_leading_literal() {
        let bound = sort_bound(LOC, &parts::<Loc, _>(()));
        assert_eq!(
            bound,
            SortBound::Prefix {
                prefix: "LOC#".into(),
                after: "LOC$".into()
            }
        );
    }

    #[test]
    fn parts_are_escaped_and_checked() {
        assert_eq!(parts::<Loc, _>(("A#1",)), ["A%231"]);
        let mut out = Vec::new();
        let err = SortArgs::<Loc>::write_parts(&("A", ""), &mut out).expect_err("empty floor");
        assert_eq!(err, (1, KeyPartError::Empty));
    }
}
