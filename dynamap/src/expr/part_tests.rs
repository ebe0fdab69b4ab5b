//! An expression that does not render names its part (`ExpressionPart`), and a condition
//! rendered as a filter is a filter; the message stays as it was.

use super::Attr;
use crate::error::{CursorProblem, Error, ExpressionPart};

struct Sensor;
const CITY: Attr<Sensor, String> = Attr::new("city");

#[test]
fn an_expression_names_its_part_and_a_filter_is_a_filter() {
    let none: [&str; 0] = [];
    let err = CITY.is_in(none).render().expect_err("no values");
    assert!(
        matches!(
            &err,
            Error::InvalidExpression {
                part: ExpressionPart::Condition,
                reason,
            } if reason.contains("city")
        ),
        "{err:?}"
    );
    let message = err.to_string();
    let err = err.in_filter();
    assert!(
        matches!(
            err,
            Error::InvalidExpression {
                part: ExpressionPart::Filter,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        message,
        "the part does not change the text"
    );
    let other = Error::InvalidCursor {
        problem: CursorProblem::Malformed,
        reason: "x",
    };
    assert!(matches!(other.in_filter(), Error::InvalidCursor { .. }));
}
