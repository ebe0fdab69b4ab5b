//! Sort key conditions of a query, rendered from typed parts.

use crate::codec::AttributeValue;
use crate::key::{KeyError, KeyErrorKind, Segment, SortArgs, SortBound};

/// A condition on the sort key, as DynamoDB takes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SortCondition {
    Eq(AttributeValue),
    Lt(AttributeValue),
    Le(AttributeValue),
    Gt(AttributeValue),
    Ge(AttributeValue),
    Between(AttributeValue, AttributeValue),
    BeginsWith(AttributeValue),
}

/// Which comparison a query asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SortOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Prefix,
}

impl SortCondition {
    /// The condition `op` on the given leading parts. With every part given it compares
    /// whole keys; with fewer, it compares the given parts only: `gt(("A",))` means "a
    /// building after A", not "a key after `LOC#A#`", which every key of building A is.
    pub(crate) fn from_bound(op: SortOp, bound: SortBound) -> SortCondition {
        let s = AttributeValue::S;
        match (op, bound) {
            (SortOp::Eq, SortBound::Value(v)) => SortCondition::Eq(v),
            (SortOp::Prefix, SortBound::Value(v)) => SortCondition::BeginsWith(v),
            (SortOp::Lt, SortBound::Value(v)) => SortCondition::Lt(v),
            (SortOp::Le, SortBound::Value(v)) => SortCondition::Le(v),
            (SortOp::Gt, SortBound::Value(v)) => SortCondition::Gt(v),
            (SortOp::Ge, SortBound::Value(v)) => SortCondition::Ge(v),
            (SortOp::Eq | SortOp::Prefix, SortBound::Whole(key)) => SortCondition::Eq(s(key)),
            (SortOp::Lt, SortBound::Whole(key)) => SortCondition::Lt(s(key)),
            (SortOp::Le, SortBound::Whole(key)) => SortCondition::Le(s(key)),
            (SortOp::Gt, SortBound::Whole(key)) => SortCondition::Gt(s(key)),
            (SortOp::Ge, SortBound::Whole(key)) => SortCondition::Ge(s(key)),
            (SortOp::Eq | SortOp::Prefix, SortBound::Prefix { prefix, .. }) => {
                SortCondition::BeginsWith(s(prefix))
            }
            (SortOp::Lt, SortBound::Prefix { prefix, .. }) => SortCondition::Lt(s(prefix)),
            (SortOp::Le, SortBound::Prefix { after, .. }) => SortCondition::Lt(s(after)),
            (SortOp::Gt, SortBound::Prefix { after, .. }) => SortCondition::Ge(s(after)),
            (SortOp::Ge, SortBound::Prefix { prefix, .. }) => SortCondition::Ge(s(prefix)),
        }
    }

    /// `low <= key <= high`, comparing only the parts given on each side.
    pub(crate) fn between(low: SortBound, high: SortBound) -> SortCondition {
        let low = match low {
            SortBound::Whole(key) | SortBound::Prefix { prefix: key, .. } => AttributeValue::S(key),
            SortBound::Value(value) => value,
        };
        match high {
            SortBound::Whole(key) => SortCondition::Between(low, AttributeValue::S(key)),
            SortBound::Value(value) => SortCondition::Between(low, value),
            // `after` is never a stored key, so the inclusive upper bound admits exactly the
            // keys whose given parts are at most `high`.
            SortBound::Prefix { after, .. } => {
                SortCondition::Between(low, AttributeValue::S(after))
            }
        }
    }

    /// A number sort key has no prefix: `begins_with` is refused before sending.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        match self {
            SortCondition::BeginsWith(AttributeValue::N(_)) => {
                Err("a number sort key has no prefix: use `sk_eq` or a range")
            }
            _ => Ok(()),
        }
    }

    /// The key condition text for sort key placeholder `sk` and value placeholders.
    pub(crate) fn expression(
        &self,
        sk: &str,
        mut value: impl FnMut(&AttributeValue) -> String,
    ) -> String {
        match self {
            SortCondition::Eq(v) => format!("{sk} = {}", value(v)),
            SortCondition::Lt(v) => format!("{sk} < {}", value(v)),
            SortCondition::Le(v) => format!("{sk} <= {}", value(v)),
            SortCondition::Gt(v) => format!("{sk} > {}", value(v)),
            SortCondition::Ge(v) => format!("{sk} >= {}", value(v)),
            SortCondition::Between(low, high) => {
                format!("{sk} BETWEEN {} AND {}", value(low), value(high))
            }
            SortCondition::BeginsWith(v) => format!("begins_with({sk}, {})", value(v)),
        }
    }
}

/// Renders the leading parts `args` of `template` for the sort key attribute `attribute`.
pub(crate) fn bound<S, A: SortArgs<S>>(
    entity: &'static str,
    attribute: &'static str,
    template: &'static [Segment],
    args: &A,
) -> Result<SortBound, KeyError> {
    args.bound(template).map_err(|(index, err)| {
        let field = template
            .iter()
            .filter_map(|s| match s {
                Segment::Hole(name) => Some(*name),
                Segment::Literal(_) => None,
            })
            .nth(index);
        KeyError {
            entity,
            attribute,
            field,
            kind: KeyErrorKind::Part(err),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    fn prefix(p: &str, a: &str) -> SortBound {
        SortBound::Prefix {
            prefix: p.into(),
            after: a.into(),
        }
    }

    #[test]
    fn partial_bounds_compare_the_given_parts_only() {
        let b = || prefix("LOC#A#", "LOC#A$");
        assert_eq!(
            SortCondition::from_bound(SortOp::Prefix, b()),
            SortCondition::BeginsWith(s("LOC#A#"))
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Gt, b()),
            SortCondition::Ge(s("LOC#A$"))
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Le, b()),
            SortCondition::Lt(s("LOC#A$"))
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Lt, b()),
            SortCondition::Lt(s("LOC#A#"))
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Ge, b()),
            SortCondition::Ge(s("LOC#A#"))
        );
        // A key of building "A" sorts inside [LOC#A#, LOC#A$); building "AB" after it.
        for key in ["LOC#A#1#1", "LOC#A#zz#zz"] {
            assert!(("LOC#A#".."LOC#A$").contains(&key));
        }
        assert!("LOC#AB#1#1" >= "LOC#A$");
    }

    #[test]
    fn whole_bounds_compare_whole_keys() {
        let w = || SortBound::Whole("READ#5".into());
        assert_eq!(
            SortCondition::from_bound(SortOp::Prefix, w()),
            SortCondition::Eq(s("READ#5"))
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Gt, w()),
            SortCondition::Gt(s("READ#5"))
        );
        assert_eq!(
            SortCondition::between(SortBound::Whole("A".into()), prefix("B#", "B$")),
            SortCondition::Between(s("A"), s("B$"))
        );
    }

    #[test]
    fn attribute_values_compare_as_themselves() {
        let n = || SortBound::Value(AttributeValue::N("1000".into()));
        assert_eq!(
            SortCondition::from_bound(SortOp::Ge, n()),
            SortCondition::Ge(AttributeValue::N("1000".into()))
        );
        assert!(
            SortCondition::from_bound(SortOp::Prefix, n())
                .check()
                .is_err()
        );
        let text = SortBound::Value(s("ab"));
        assert!(
            SortCondition::from_bound(SortOp::Prefix, text)
                .check()
                .is_ok()
        );
    }

    #[test]
    fn renders_key_condition_text() {
        let mut n = 0;
        let c = SortCondition::Between(s("a"), s("b"));
        let text = c.expression("#sk", |_| {
            n += 1;
            format!(":s{n}")
        });
        assert_eq!(text, "#sk BETWEEN :s1 AND :s2");
    }
}
