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
    /// On a multi-attribute sort key: the leading attributes equal `equal`, in key order,
    /// and the next attribute meets `last` (if any).
    Leading {
        equal: Vec<AttributeValue>,
        last: Option<Box<SortCondition>>,
    },
    /// A condition that cannot be sent, and why: refused before sending.
    Refused(&'static str),
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
            (SortOp::Eq, SortBound::Values(equal)) => SortCondition::Leading { equal, last: None },
            (op, SortBound::Values(mut equal)) => {
                let last = equal
                    .pop()
                    .map(|v| Box::new(SortCondition::from_bound(op, SortBound::Value(v))));
                SortCondition::Leading { equal, last }
            }
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
        const SAME_ATTRIBUTES: &str =
            "both ends of a range on a multi-attribute sort key give the same attributes";
        let low = match low {
            SortBound::Whole(key) | SortBound::Prefix { prefix: key, .. } => AttributeValue::S(key),
            SortBound::Value(value) => value,
            SortBound::Values(low) => {
                return match high {
                    SortBound::Values(high) if high.len() == low.len() => {
                        Self::between_leading(low, high)
                    }
                    _ => SortCondition::Refused(SAME_ATTRIBUTES),
                };
            }
        };
        match high {
            SortBound::Whole(key) => SortCondition::Between(low, AttributeValue::S(key)),
            SortBound::Value(value) => SortCondition::Between(low, value),
            // `after` is never a stored key, so the inclusive upper bound admits exactly the
            // keys whose given parts are at most `high`.
            SortBound::Prefix { after, .. } => {
                SortCondition::Between(low, AttributeValue::S(after))
            }
            SortBound::Values(_) => SortCondition::Refused(SAME_ATTRIBUTES),
        }
    }

    /// `BETWEEN` on a multi-attribute sort key ranges over its last given attribute only:
    /// both ends give the same attributes, equal on every one before it.
    fn between_leading(mut low: Vec<AttributeValue>, mut high: Vec<AttributeValue>) -> Self {
        match (low.pop(), high.pop()) {
            (Some(lo), Some(hi)) if low == high => SortCondition::Leading {
                equal: low,
                last: Some(Box::new(SortCondition::Between(lo, hi))),
            },
            _ => SortCondition::Refused(
                "a range on a multi-attribute sort key compares its last given attribute only: both ends must be equal on the attributes before it",
            ),
        }
    }

    /// A number sort key has no prefix: `begins_with` is refused before sending.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        match self {
            SortCondition::BeginsWith(AttributeValue::N(_)) => {
                Err("a number sort key has no prefix: use `sk_eq` or a range")
            }
            SortCondition::Leading {
                last: Some(last), ..
            } => last.check(),
            SortCondition::Refused(reason) => Err(reason),
            _ => Ok(()),
        }
    }

    /// How many sort key attributes the condition names: one, or the leading ones a
    /// multi-attribute condition gives.
    pub(crate) fn attributes_used(&self) -> usize {
        match self {
            SortCondition::Leading { equal, last } => equal.len() + usize::from(last.is_some()),
            SortCondition::Refused(_) => 0,
            _ => 1,
        }
    }

    /// The key condition text for the sort key attributes' placeholders `sk` (one, or one
    /// per attribute of a multi-attribute key) and value placeholders.
    pub(crate) fn expression(
        &self,
        sk: &[String],
        mut value: impl FnMut(&AttributeValue) -> String,
    ) -> String {
        if let SortCondition::Leading { equal, last } = self {
            let mut terms: Vec<String> = equal
                .iter()
                .zip(sk)
                .map(|(v, name)| format!("{name} = {}", value(v)))
                .collect();
            if let Some(last) = last {
                terms.push(last.expression(&sk[equal.len().min(sk.len())..], value));
            }
            return terms.join(" AND ");
        }
        let sk = sk.first().map_or("", String::as_str);
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
            SortCondition::Leading { .. } | SortCondition::Refused(_) => String::new(),
        }
    }
}

/// Renders the leading parts `args` of `template` for the sort key `attributes` (one, or
/// several in a multi-attribute key, whose parts are the attributes themselves).
pub(crate) fn bound<S, A: SortArgs<S>>(
    entity: &'static str,
    attributes: &[&'static str],
    template: &'static [Segment],
    args: &A,
) -> Result<SortBound, KeyError> {
    args.bound(template).map_err(|(index, err)| {
        let field = template.iter().filter_map(Segment::hole_name).nth(index);
        let attribute = match attributes {
            [one] => *one,
            many => many.get(index).copied().unwrap_or_default(),
        };
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
        let text = c.expression(&["#sk".to_owned()], |_| {
            n += 1;
            format!(":s{n}")
        });
        assert_eq!(text, "#sk BETWEEN :s1 AND :s2");
    }

    fn n(number: &str) -> AttributeValue {
        AttributeValue::N(number.into())
    }

    #[test]
    fn multi_attribute_conditions_are_equal_on_all_but_the_last() {
        let names = ["#a".to_owned(), "#b".to_owned(), "#c".to_owned()];
        let render = |c: &SortCondition| {
            let mut i = 0;
            c.expression(&names, |_| {
                i += 1;
                format!(":v{i}")
            })
        };
        let values = || SortBound::Values(vec![s("OPEN"), n("5")]);
        assert_eq!(
            render(&SortCondition::from_bound(SortOp::Eq, values())),
            "#a = :v1 AND #b = :v2"
        );
        assert_eq!(
            render(&SortCondition::from_bound(SortOp::Gt, values())),
            "#a = :v1 AND #b > :v2"
        );
        let between = SortCondition::between(values(), SortBound::Values(vec![s("OPEN"), n("9")]));
        assert_eq!(render(&between), "#a = :v1 AND #b BETWEEN :v2 AND :v3");
        assert!(between.check().is_ok());
        let prefix = SortCondition::from_bound(SortOp::Prefix, SortBound::Values(vec![s("OP")]));
        assert_eq!(render(&prefix), "begins_with(#a, :v1)");
        assert!(
            SortCondition::from_bound(SortOp::Prefix, values())
                .check()
                .is_err(),
            "a number has no prefix"
        );
    }

    #[test]
    fn multi_attribute_ranges_need_equal_leading_attributes() {
        let low = SortBound::Values(vec![s("OPEN"), n("5")]);
        let other = SortBound::Values(vec![s("CLOSED"), n("9")]);
        assert!(SortCondition::between(low.clone(), other).check().is_err());
        let shorter = SortBound::Values(vec![s("OPEN")]);
        assert!(SortCondition::between(low, shorter).check().is_err());
    }
}
