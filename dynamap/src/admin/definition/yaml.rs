//! A small YAML emitter for JSON values, enough for CloudFormation templates.
//!
//! Block style throughout, and every string double-quoted with JSON's escapes (which YAML's
//! double-quoted scalars share), so no value is read back as another type: `"N"`, `"true"`
//! or `"2010-09-09"` stay strings. Keys are plain when they are simple identifiers.

use serde_json::Value;

/// `value` as a YAML document, ending in a newline.
pub(super) fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => mapping(&mut out, map, 0),
        Value::Array(items) if !items.is_empty() => sequence(&mut out, items, 0),
        scalar => {
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
    out
}

fn mapping(out: &mut String, map: &serde_json::Map<String, Value>, indent: usize) {
    for (i, (key, value)) in map.iter().enumerate() {
        // The first entry of a mapping inside a sequence goes on the `- ` line.
        if i > 0 || !out.ends_with("- ") {
            push_indent(out, indent);
        }
        out.push_str(&yaml_key(key));
        out.push(':');
        nested(out, value, indent);
    }
}

fn sequence(out: &mut String, items: &[Value], indent: usize) {
    for item in items {
        push_indent(out, indent);
        match item {
            Value::Object(map) if !map.is_empty() => {
                out.push_str("- ");
                mapping(out, map, indent + 2);
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push_str("-\n");
                sequence(out, inner, indent + 2);
            }
            scalar => {
                out.push_str("- ");
                out.push_str(&inline(scalar));
                out.push('\n');
            }
        }
    }
}

/// What follows `key:`: a scalar on the same line, a collection on the lines below.
fn nested(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            mapping(out, map, indent + 2);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            sequence(out, items, indent + 2);
        }
        scalar => {
            out.push(' ');
            out.push_str(&inline(scalar));
            out.push('\n');
        }
    }
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// Scalars, and the empty collections, in flow style.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quoted(s),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

fn yaml_key(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match plain
        && !matches!(
            key,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        ) {
        true => key.to_owned(),
        false => quoted(key),
    }
}

/// A double-quoted scalar: JSON's string syntax is a subset of YAML's double-quoted style.
fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::to_yaml;

    #[test]
    fn block_style_with_compact_sequence_entries() {
        let value = json!({
            "A": {"B": [{"C": "x", "D": 1}, {"C": "y", "D": 2}]},
            "E": ["p", "q"],
            "F": true,
        });
        assert_eq!(
            to_yaml(&value),
            "A:\n  B:\n    - C: \"x\"\n      D: 1\n    - C: \"y\"\n      D: 2\nE:\n  - \"p\"\n  - \"q\"\nF: true\n"
        );
    }

    #[test]
    fn strings_that_look_like_other_types_stay_strings() {
        let value = json!({"a": "true", "b": "2010-09-09", "c": "N", "d": "x: y # z", "e": "quote\"\nline"});
        assert_eq!(
            to_yaml(&value),
            "a: \"true\"\nb: \"2010-09-09\"\nc: \"N\"\nd: \"x: y # z\"\ne: \"quote\\\"\\nline\"\n"
        );
    }

    #[test]
    fn keys_that_need_it_are_quoted_and_empty_collections_are_flow() {
        let value = json!({"//": [], "on": {}, "team-name": [[1, 2]]});
        assert_eq!(
            to_yaml(&value),
            "\"//\": []\n\"on\": {}\nteam-name:\n  -\n    - 1\n    - 2\n"
        );
    }
}
