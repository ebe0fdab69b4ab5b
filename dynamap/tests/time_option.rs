//! The `option` modules of the timestamp `with` modules: `None` as null both ways, a
//! present value in the parent module's form.

use aws_sdk_dynamodb::types::AttributeValue;
use time::OffsetDateTime;
use time::macros::datetime;

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Text(#[serde(with = "dynamap::codec::timestamp::option")] Option<OffsetDateTime>);

#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Seconds(#[serde(with = "dynamap::codec::epoch_seconds::option")] Option<OffsetDateTime>);

fn stored<T: serde::Serialize>(value: &T) -> Option<AttributeValue> {
    serde_dynamo::to_attribute_value(value).ok()
}

fn read<T: serde::de::DeserializeOwned>(value: AttributeValue) -> Option<T> {
    serde_dynamo::from_attribute_value(value).ok()
}

#[test]
fn none_is_stored_as_null_and_null_reads_as_none() {
    let null = AttributeValue::Null(true);
    assert_eq!(stored(&Text(None)), Some(null.clone()));
    assert_eq!(stored(&Seconds(None)), Some(null.clone()));
    assert_eq!(read::<Text>(null.clone()), Some(Text(None)));
    assert_eq!(read::<Seconds>(null), Some(Seconds(None)));
}

#[test]
fn a_present_value_keeps_its_modules_form() {
    let at = datetime!(2021-01-01 0:00 UTC);
    let text = AttributeValue::S("2021-01-01T00:00:00.000000000Z".to_owned());
    let seconds = AttributeValue::N("1609459200".to_owned());
    assert_eq!(stored(&Text(Some(at))), Some(text.clone()));
    assert_eq!(stored(&Seconds(Some(at))), Some(seconds.clone()));
    assert_eq!(read::<Text>(text), Some(Text(Some(at))));
    assert_eq!(read::<Seconds>(seconds), Some(Seconds(Some(at))));
}

#[test]
fn a_value_in_the_other_form_is_an_error() {
    let seconds = AttributeValue::N("1609459200".to_owned());
    assert_eq!(read::<Text>(seconds), None);
}
