//! Sort key conditions of a query, rendered from typed parts.

use crate::key::{KeyError, KeyErrorKind, Segment, SortArgs, SortBound, sort_bound};

/// A condition on the sort key, as DynamoDB takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SortCondition {
    Eq(String),
    Lt(String),
    Le(String),
    Gt(String),
    Ge(String),
    Between(String, String),
    BeginsWith(String),
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
        match (op, bound) {
            (SortOp::Eq | SortOp::Prefix, SortBound::Whole(key)) => SortCondition::Eq(key),
            (SortOp::Lt, SortBound::Whole(key)) => SortCondition::Lt(key),
            (SortOp::Le, SortBound::Whole(key)) => SortCondition::Le(key),
            (SortOp::Gt, SortBound::Whole(key)) => SortCondition::Gt(key),
            (SortOp::Ge, SortBound::Whole(key)) => SortCondition::Ge(key),
            (SortOp::Eq | SortOp::Prefix, SortBound::Prefix { prefix, .. }) => {
                SortCondition::BeginsWith(prefix)
            }
            (SortOp::Lt, SortBound::Prefix { prefix, .. }) => SortCondition::Lt(prefix),
            (SortOp::Le, SortBound::Prefix { after, .. }) => SortCondition::Lt(after),
            (SortOp::Gt, SortBound::Prefix { after, .. }) => SortCondition::Ge(after),
            (SortOp::Ge, SortBound::Prefix { prefix, .. }) => SortCondition::Ge(prefix),
        }
    }

    /// `low <= key <= high`, comparing only the parts given on each side.
    pub(crate) fn between(low: SortBound, high: SortBound) -> SortCondition {
        let low = match low {
            SortBound::Whole(key) => key,
            SortBound::Prefix { prefix, .. } => prefix,
        };
        match high {
            SortBound::Whole(key) => SortCondition::Between(low, key),
            // `after` is never a stored key, so the inclusive upper bound admits exactly the
            // keys whose given parts are at most `high`.
            SortBound::Prefix { after, .. } => SortCondition::Between(low, after),
        }
    }

    /// The key condition text for sort key placeholder `sk` and value placeholders.
    pub(crate) fn expression(&self, sk: &str, mut value: impl FnMut(&str) -> String) -> String {
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
    let mut parts = Vec::new();
    args.write_parts(&mut parts).map_err(|(index, err)| {
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
    })?;
    Ok(sort_bound(template, &parts))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            SortCondition::BeginsWith("LOC#A#".into())
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Gt, b()),
            SortCondition::Ge("LOC#A$".into())
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Le, b()),
            SortCondition::Lt("LOC#A$".into())
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Lt, b()),
            SortCondition::Lt("LOC#A#".into())
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Ge, b()),
            SortCondition::Ge("LOC#A#".into())
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
            SortCondition::Eq("READ#5".into())
        );
        assert_eq!(
            SortCondition::from_bound(SortOp::Gt, w()),
            SortCondition::Gt("READ#5".into())
        );
        assert_eq!(
            SortCondition::between(SortBound::Whole("A".into()), prefix("B#", "B$")),
            SortCondition::Between("A".into(), "B$".into())
        );
    }

    #[test]
    fn renders_key_condition_text() {
        let mut n = 0;
        let c = SortCondition::Between("a".into(), "b".into());
        let text = c.expression("#sk", |_| {
            n += 1;
            format!(":s{n}")
        });
        assert_eq!(text, "#sk BETWEEN :s1 AND :s2");
    }
}
