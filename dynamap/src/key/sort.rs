//! Sort keys given part by part: the leading parts of a sort key template, for range
//! conditions and segment-exact prefixes.

use super::attribute::{AttributeKey, KeyAttribute, KeyAttributeArg};
use super::template::finish_part;
use super::{KeyArg, KeyFormat, KeyPart, KeyPartError};
use crate::codec::AttributeValue;
use crate::limits::MAX_SORT_KEY_BYTES;
use crate::sealed::{Sealed, SortArgsSeal};

/// One piece of a key template, kept at run time so queries can render some of its parts.
///
/// # Examples
///
/// ```
/// use dynamap::key::{KeyFormat, Segment, SortBound, sort_bound};
///
/// // `LOC#{building}#{floor}`, as generated code keeps it.
/// let template = [Segment::Literal("LOC#"), Segment::Hole("building", KeyFormat::ESCAPED), Segment::Literal("#"), Segment::Hole("floor", KeyFormat::ESCAPED)];
/// assert!(matches!(sort_bound(&template, &["A".into()]), SortBound::Prefix { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Literal text.
    Literal(&'static str),
    /// A `{field}` hole, and the format its part is written in.
    Hole(&'static str, KeyFormat),
}

impl Segment {
    /// The field of a hole.
    #[must_use]
    pub const fn hole_name(&self) -> Option<&'static str> {
        match self {
            Segment::Hole(name, _) => Some(name),
            Segment::Literal(_) => None,
        }
    }
}

/// The leading parts of a sort key of shape `S`, which a sort condition
/// ([`Query::sk_eq`](crate::query::Query::sk_eq) and the others) takes:
///
/// - for a template sort key, `S` is the tuple of its parts' types and the leading parts are
///   a tuple of [`KeyArg`]s, in template order: `("A",)` for building `A` of
///   `LOC#{building}#{floor}#{room}`, `("A", "2")` for its floor 2, all three for one room
///   (up to six parts);
/// - for a sort key that is a field's own attribute (shape [`AttributeKey<T>`]), a value of
///   `T`;
/// - for a multi-attribute sort key (`sk = fields(year, month)`), `S` is a type the derive
///   generates for the entity and index, and the leading attributes are given **by name**
///   with its builder, named after the index: `Event::by_date_sk().year(2024)`, then
///   `.month(3)`. Each step offers only the next attribute, so none can be skipped or given
///   in another's place, even one of the same type; a builder of another index or entity
///   is refused. Tuples are not accepted there.
///
/// # Examples
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Sensor", pk = "CITY#{city}", sk = "LOC#{building}#{floor}#{id}")]
/// struct Sensor { city: String, building: String, floor: u32, id: String }
///
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let poznan = || db.query(Sensor::partition("Poznań"));
/// poznan().sk_prefix(("A",)).all().await?;            // building A
/// poznan().sk_prefix(("A", 2u32)).all().await?;       // its floor 2
/// poznan().sk_ge(("A", 2u32, "s-7")).all().await?;    // whole keys
/// # Ok(()) }
/// ```
///
/// A multi-attribute sort key, given by name:
///
/// ```no_run
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)]
/// # #[dynamap(pk = "PK", sk = "SK", index(name = "ByDate", pk("city"), sk("year", "month"), sk_type("N", "N")))]
/// # struct App;
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Event", pk = "EVENT#{id}", sk = "EVENT",
///           index(name = "ByDate", pk = field(city), sk = fields(year, month)))]
/// struct Event { id: String, city: String, year: i32, month: i32 }
///
/// # async fn example(db: dynamap::Db<App>) -> dynamap::Result<()> {
/// let poznan = || db.query(Event::by_date("Poznań"));
/// poznan().sk_eq(Event::by_date_sk().year(2024)).all().await?;           // year = 2024
/// poznan().sk_ge(Event::by_date_sk().year(2024).month(3)).all().await?;  // and month >= 3
/// # Ok(()) }
/// ```
///
/// `sk_eq((3,))` on that index does not compile: a month cannot pass for a year.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not give the leading parts of the sort key `{S}`",
    label = "expected this sort key's leading parts, from the first",
    note = "a template sort key takes a tuple of its parts in template order, from the first, without skipping one: `(building,)`, `(building, floor)`",
    note = "a multi-attribute sort key (`sk = fields(...)`) takes its attributes by name, at least the first, from the builder the derive generates for the entity and index: for the shape `EventByDateSk`, `Event::by_date_sk().year(..)`, then `.month(..)`"
)]
pub trait SortArgs<S>: Sealed<(SortArgsSeal, S)> {
    /// The sort key these parts give in `template`; on error, the index of the part at
    /// fault.
    ///
    /// # Errors
    ///
    /// Fails with the index of the part at fault and its [`KeyPartError`].
    fn bound(&self, template: &[Segment]) -> Result<SortBound, (usize, KeyPartError)>;
}

impl<T: KeyAttribute, A: KeyAttributeArg<T>> Sealed<(SortArgsSeal, AttributeKey<T>)> for A {}

impl<T: KeyAttribute, A: KeyAttributeArg<T>> SortArgs<AttributeKey<T>> for A {
    fn bound(&self, _: &[Segment]) -> Result<SortBound, (usize, KeyPartError)> {
        self.key_value(MAX_SORT_KEY_BYTES)
            .map(SortBound::Value)
            .map_err(|err| (0, err))
    }
}

/// Writes the next given part, in the format of the hole it fills.
fn write_part<T: KeyPart, A: KeyArg<T>>(
    arg: &A,
    template: &[Segment],
    parts: &mut Vec<String>,
) -> Result<(), (usize, KeyPartError)> {
    let format = template
        .iter()
        .filter_map(|segment| match segment {
            Segment::Hole(_, format) => Some(*format),
            Segment::Literal(_) => None,
        })
        .nth(parts.len())
        .unwrap_or_default();
    let mut text = String::new();
    arg.write_key_arg_as(&mut text, format.number_format())
        .and_then(|()| finish_part::<T>(&mut text, 0, format))
        .map_err(|err| (parts.len(), err))?;
    parts.push(text);
    Ok(())
}

macro_rules! sort_args {
    ([$($T:ident),*]; [$($A:ident : $TA:ident),*]) => {
        impl<$($T: KeyPart,)* $($A: KeyArg<$TA>,)*> Sealed<(SortArgsSeal, ($($T,)*))> for ($($A,)*) {}

        impl<$($T: KeyPart,)* $($A: KeyArg<$TA>,)*> SortArgs<($($T,)*)> for ($($A,)*) {
            #[allow(non_snake_case, unused_variables, unused_mut)] // bindings named after their type parameters; `()` pushes no part
            fn bound(&self, template: &[Segment]) -> Result<SortBound, (usize, KeyPartError)> {
                let ($($A,)*) = self;
                let mut parts = Vec::new();
                $(write_part::<$TA, _>($A, template, &mut parts)?;)*
                Ok(sort_bound(template, &parts))
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
///
/// Queries turn a bound into a DynamoDB condition on the sort key `sk`. For leading parts
/// `p` they compare only the given parts, and for every key of the template:
///
/// | condition on the parts | on the key |
/// |---|---|
/// | parts `== p` (`sk_prefix`, `sk_eq`) | `begins_with(sk, prefix)` |
/// | parts `< p` | `sk < prefix` |
/// | parts `<= p` | `sk < after` |
/// | parts `> p` | `sk >= after` |
/// | parts `>= p` | `sk >= prefix` |
/// | parts `<= p`, as the high end of `BETWEEN` | `sk <= after` |
///
/// # Examples
///
/// ```
/// use dynamap::key::{KeyFormat, Segment, SortBound, sort_bound};
///
/// let template = [Segment::Literal("LOC#"), Segment::Hole("building", KeyFormat::ESCAPED), Segment::Literal("#"), Segment::Hole("floor", KeyFormat::ESCAPED)];
/// match sort_bound(&template, &["A".into()]) {
///     SortBound::Prefix { prefix, after } => {
///         assert_eq!(prefix, "LOC#A#");
///         assert_eq!(after, "LOC#A$");
///     }
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(sort_bound(&template, &["A".into(), "2".into()]), SortBound::Whole("LOC#A#2".into()));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SortBound {
    /// Every part was given: the whole sort key.
    Whole(String),
    /// The value of a sort key that is a field's own attribute.
    Value(AttributeValue),
    /// The values of the leading attributes of a multi-attribute sort key, in key order:
    /// conditions take every one but the last as equal, and compare the last.
    Values(Vec<AttributeValue>),
    /// Only leading parts were given.
    Prefix {
        /// The key up to the last given part plus the literal after it (which starts with
        /// the delimiter): every key with these leading parts starts with this, and no other.
        prefix: String,
        /// Greater than every key with these leading parts, and smaller than every key with
        /// larger ones: the key up to the last given part, then `$`, the character just
        /// after `#`. A rendered part is always followed by `#` and every byte of an escaped
        /// part is at least `%` (see [`crate::key`]), so `$` sorts between "this part ends
        /// here" and "this part goes on", and no key of the template equals `after`.
        after: String,
    },
}

/// Renders the given `parts` of `template`.
///
/// # Examples
///
/// ```
/// use dynamap::key::{KeyFormat, Segment, SortBound, sort_bound};
///
/// let template = [Segment::Literal("READ#"), Segment::Hole("at", KeyFormat::ESCAPED)];
/// assert_eq!(sort_bound(&template, &["2026".into()]), SortBound::Whole("READ#2026".into()));
/// ```
pub fn sort_bound(template: &[Segment], parts: &[String]) -> SortBound {
    let mut out = String::new();
    let mut given = parts.iter();
    let mut iter = template.iter().peekable();
    while let Some(segment) = iter.next() {
        match segment {
            Segment::Literal(text) => out.push_str(text),
            Segment::Hole(..) => match given.next() {
                Some(part) => out.push_str(part),
                None => return prefix_before_hole(out),
            },
        }
        if given.len() == 0 && matches!(segment, Segment::Hole(..)) {
            // The last given part: the rest of the template decides whether this is whole.
            let rest_has_hole = iter.clone().any(|s| matches!(s, Segment::Hole(..)));
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
        Hole("building", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("floor", KeyFormat::ESCAPED),
        Literal("#"),
        Hole("room", KeyFormat::ESCAPED),
    ];

    fn bound_of<S, A: SortArgs<S>>(template: &[Segment], args: A) -> SortBound {
        args.bound(template).expect("renders")
    }

    type Loc = (String, String, String);

    #[test]
    fn leading_parts_make_segment_exact_prefixes() {
        let bound = bound_of::<Loc, _>(LOC, ("A",));
        assert_eq!(
            bound,
            SortBound::Prefix {
                prefix: "LOC#A#".into(),
                after: "LOC#A$".into()
            }
        );
        let bound = bound_of::<Loc, _>(LOC, ("A", "2"));
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
    fn floors_that_extend_a_floor_sort_after_all_of_it() {
        let SortBound::Prefix { prefix, after } = bound_of::<Loc, _>(LOC, ("A", "2")) else {
            panic!("leading parts make a prefix");
        };
        // Floors "2 ", "2!", "2#0", "2$" and "20" are all greater than floor "2".
        for floor in ["2 ", "2!", "2#0", "2$", "20", "2\0"] {
            let SortBound::Whole(key) = bound_of::<Loc, _>(LOC, ("A", floor, "1")) else {
                panic!("every part makes a whole key");
            };
            assert!(key > after && after > prefix, "{floor:?}: {key}");
        }
    }

    #[test]
    fn all_parts_make_a_whole_key() {
        let bound = bound_of::<Loc, _>(LOC, ("A", "2", "13"));
        assert_eq!(bound, SortBound::Whole("LOC#A#2#13".into()));
        let read: &[Segment] = &[
            Literal("READ#"),
            Hole("at", KeyFormat::ESCAPED),
            Literal("#END"),
        ];
        assert_eq!(
            bound_of::<(u8,), _>(read, (7u8,)),
            SortBound::Whole("READ#007#END".into())
        );
    }

    #[test]
    fn no_parts_narrow_to_the_leading_literal() {
        let bound = bound_of::<Loc, _>(LOC, ());
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
        assert_eq!(
            bound_of::<Loc, _>(LOC, ("A#1",)),
            SortBound::Prefix {
                prefix: "LOC#A%231#".into(),
                after: "LOC#A%231$".into()
            }
        );
        assert_eq!(
            bound_of::<Loc, _>(LOC, ("A", "2 ")),
            SortBound::Prefix {
                prefix: "LOC#A#2%20#".into(),
                after: "LOC#A#2%20$".into()
            }
        );
        let err = SortArgs::<Loc>::bound(&("A", ""), LOC).expect_err("empty floor");
        assert_eq!(err, (1, KeyPartError::Empty));
    }
}
