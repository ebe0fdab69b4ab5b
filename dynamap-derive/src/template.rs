//! Key templates: literal text with `{field}` holes.

use syn::LitStr;

use crate::ctx::Ctxt;

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Literal(String),
    Hole(String),
}

/// A parsed template, with the literal it came from for spans and messages.
#[derive(Clone)]
pub(crate) struct Template {
    pub(crate) source: LitStr,
    pub(crate) segments: Vec<Segment>,
}

impl Template {
    /// Parses `source`, recording any error in `cx`. `None` when the template is unusable.
    pub(crate) fn parse(cx: &mut Ctxt, source: &LitStr) -> Option<Template> {
        match parse_segments(&source.value()) {
            Ok(segments) => Some(Template {
                source: source.clone(),
                segments,
            }),
            Err(message) => {
                cx.error_at(source, message);
                None
            }
        }
    }

    pub(crate) fn text(&self) -> String {
        self.source.value()
    }

    /// The field names of the holes, in order.
    pub(crate) fn holes(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Hole(name) => Some(name.as_str()),
            Segment::Literal(_) => None,
        })
    }
}

fn parse_segments(text: &str) -> Result<Vec<Segment>, String> {
    if text.is_empty() {
        return Err("key template cannot be empty".to_owned());
    }
    let mut segments = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => name.push(c),
                        None => {
                            return Err(format!(
                                "unterminated `{{` in key template {text:?}: close the hole with `}}`"
                            ));
                        }
                    }
                }
                if !is_identifier(&name) {
                    return Err(format!(
                        "`{{{name}}}` in key template {text:?} must name a field, like `{{id}}`"
                    ));
                }
                if !literal.is_empty() {
                    segments.push(Segment::Literal(std::mem::take(&mut literal)));
                }
                segments.push(Segment::Hole(name));
            }
            '}' => return Err(format!("unmatched `}}` in key template {text:?}")),
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        segments.push(Segment::Literal(literal));
    }
    check_holes_end_segments(text, &segments)?;
    Ok(segments)
}

/// Every hole must be followed by `#` or the end: a stored key then splits back into its
/// parts in one way only, and a prefix ends on a segment boundary.
fn check_holes_end_segments(text: &str, segments: &[Segment]) -> Result<(), String> {
    for pair in segments.windows(2) {
        if let [Segment::Hole(name), next] = pair {
            let ok = matches!(next, Segment::Literal(l) if l.starts_with('#'));
            if !ok {
                return Err(format!(
                    "in key template {text:?}, `{{{name}}}` must be followed by `#` or the end of the template, so the key can be split back into its parts"
                ));
            }
        }
    }
    Ok(())
}

fn is_identifier(name: &str) -> bool {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Segment {
        Segment::Literal(s.to_owned())
    }
    fn hole(s: &str) -> Segment {
        Segment::Hole(s.to_owned())
    }

    #[test]
    fn splits_literals_and_holes() {
        assert_eq!(
            parse_segments("LOC#{building}#{floor}").expect("valid"),
            vec![lit("LOC#"), hole("building"), lit("#"), hole("floor")]
        );
        assert_eq!(
            parse_segments("SENSORINFO").expect("valid"),
            vec![lit("SENSORINFO")]
        );
        assert_eq!(parse_segments("{id}").expect("valid"), vec![hole("id")]);
    }

    #[test]
    fn rejects_malformed_templates() {
        for bad in [
            "", "A#{id", "A#{}", "A#{1x}", "A#}", "{a}{b}", "{a}-{b}", "{a}x",
        ] {
            assert!(parse_segments(bad).is_err(), "{bad:?}");
        }
    }
}
