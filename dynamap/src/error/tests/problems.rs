//! The typed fields of refused cursors, stream records and expressions: what a caller
//! branches on instead of the message, which stays as it was.

use super::super::{CursorProblem, Error, ExpressionPart, StreamRecordProblem};
use crate::expr::Attr;

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

#[cfg(feature = "streams")]
#[test]
fn a_stream_record_names_its_event_and_what_it_lacks() {
    use crate::streams::StreamRecord;
    use crate::streams::aws_sdk_dynamodbstreams::types::{OperationType, Record};

    let record = Record::builder()
        .event_name(OperationType::from("UPSERT"))
        .build();
    let err = record.parts().expect_err("unknown event name");
    assert!(
        matches!(
            &err,
            Error::InvalidStreamRecord {
                problem: StreamRecordProblem::UnknownEventName,
                event_name,
            } if event_name == "UPSERT"
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "invalid stream record: unknown event name \"UPSERT\""
    );
    let err = Record::builder()
        .build()
        .parts()
        .expect_err("no event name");
    assert!(
        matches!(
            &err,
            Error::InvalidStreamRecord {
                problem: StreamRecordProblem::UnknownEventName,
                event_name,
            } if event_name.is_empty()
        ),
        "{err:?}"
    );
}

#[test]
fn a_record_without_images_keeps_its_message() {
    let err = Error::InvalidStreamRecord {
        problem: StreamRecordProblem::NoImage,
        event_name: "INSERT".to_owned(),
    };
    assert_eq!(
        err.to_string(),
        "invalid stream record: the stream record carries no item image (a KEYS_ONLY stream), so its entity type is unknown"
    );
}
