//! Updates that reach inside an attribute. DynamoDB cannot set `counts.alarm` on an item
//! without `counts` (one stored before the field existed) and answers with a
//! `ValidationException` that names neither; every update path turns that into
//! [`Error::MissingParent`], naming the paths and what holds them.

use crate::Error;
use crate::expr::update::Change;

/// A path an update reaches inside another attribute, and what holds it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Nested {
    path: String,
    parent: String,
}

/// The paths of `changes` inside another attribute.
pub(crate) fn nested_paths(changes: &[Change]) -> Vec<Nested> {
    changes
        .iter()
        .filter_map(|change| {
            let path = change.path();
            let parent = path.parent()?;
            Some(Nested {
                path: path.to_string(),
                parent,
            })
        })
        .collect()
}

/// `err` as [`Error::MissingParent`] when it is DynamoDB's answer to a path inside a missing
/// attribute and `nested` lists the paths that can be at fault; otherwise `err`.
pub(crate) fn missing_parent(entity: &'static str, nested: &[Nested], err: Error) -> Error {
    let invalid_path = match &err {
        Error::Service(service) => {
            service.code() == Some("ValidationException")
                && service
                    .message()
                    .to_ascii_lowercase()
                    .contains("document path provided in the update expression is invalid")
        }
        _ => false,
    };
    if nested.is_empty() || !invalid_path {
        return err;
    }
    let mut parents: Vec<String> = Vec::new();
    for n in nested {
        if !parents.contains(&n.parent) {
            parents.push(n.parent.clone());
        }
    }
    Error::MissingParent {
        entity,
        paths: nested.iter().map(|n| n.path.clone()).collect(),
        parents,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::DocPath;

    #[test]
    fn only_paths_inside_an_attribute_are_nested() {
        let whole = Change::Remove(DocPath::attribute("note"));
        assert!(nested_paths(&[whole]).is_empty());
    }

    #[test]
    fn errors_other_than_an_invalid_document_path_pass_through() {
        let nested = [Nested {
            path: "counts.alarm".into(),
            parent: "counts".into(),
        }];
        let other = Error::InvalidCursor {
            problem: crate::CursorProblem::Malformed,
            reason: "test",
        };
        assert!(matches!(
            missing_parent("Tally", &nested, other),
            Error::InvalidCursor { .. }
        ));
    }
}
