//! The typed fields of refused stream records: what a caller branches on instead of the
//! message, which stays as it was. (Expressions: `expr/part_tests.rs`; stream records read
//! from records: `streams.rs`; cursors: `query/cursor.rs`.)

use super::super::{Error, StreamRecordProblem};

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
