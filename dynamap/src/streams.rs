//! DynamoDB Streams records decoded into entities (feature `streams`).
//!
//! A stream record says what happened to one item (inserted, modified, removed) and, as the
//! stream's view type allows, carries the item before and after. [`decode`] turns a record
//! into a [`Change`] of an entity, or of an entity enum for a single-table stream holding
//! several entity types. It takes the records a Lambda function receives
//! ([`aws_lambda_events::dynamodb::EventRecord`](aws_lambda_events::event::dynamodb::EventRecord))
//! and those the SDK's streams client reads
//! ([`aws_sdk_dynamodbstreams::types::Record`]). Both crates are re-exported here, so the
//! record types always match the ones dynamap decodes.
//!
//! ```
//! use dynamap::streams::aws_lambda_events::event::dynamodb::Event;
//! use dynamap::streams::{ChangeKind, decode};
//! use dynamap::{Entity, Table};
//!
//! #[derive(Table)]
//! #[dynamap(pk = "PK", sk = "SK")]
//! struct App;
//!
//! #[derive(Entity, Debug, PartialEq)]
//! #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
//! struct Sensor { id: String, city: String }
//!
//! // What a Lambda function's handler receives, here as the JSON Lambda sends.
//! let event: Event = serde_json::from_value(serde_json::json!({ "Records": [{
//!     "eventID": "1", "eventName": "INSERT", "eventVersion": "1.1",
//!     "eventSource": "aws:dynamodb", "awsRegion": "eu-central-1",
//!     "dynamodb": {
//!         "Keys": { "PK": { "S": "SENSOR#S1" }, "SK": { "S": "INFO" } },
//!         "NewImage": { "PK": { "S": "SENSOR#S1" }, "SK": { "S": "INFO" },
//!                       "_type": { "S": "Sensor" }, "id": { "S": "S1" },
//!                       "city": { "S": "Poznań" } },
//!         "SequenceNumber": "111", "SizeBytes": 26, "StreamViewType": "NEW_AND_OLD_IMAGES"
//!     }
//! }]})).unwrap();
//!
//! for record in &event.records {
//!     if let Some(change) = decode::<Sensor>(record)? {
//!         assert_eq!(change.kind, ChangeKind::Insert);
//!         assert_eq!(change.new, Some(Sensor { id: "S1".into(), city: "Poznań".into() }));
//!     }
//! }
//! # Ok::<(), dynamap::Error>(())
//! ```

pub use aws_lambda_events;
pub use aws_sdk_dynamodbstreams;

use crate::codec::Item;
use crate::decode::{Decode, decode_image};
use crate::error::StreamRecordProblem;
use crate::sealed::{Sealed, StreamRecordSeal};
use crate::{Error, Result};

/// What happened to the item.
///
/// # Examples
///
/// ```
/// use dynamap::streams::{ChangeKind, StreamRecord};
/// use dynamap::streams::aws_sdk_dynamodbstreams::types::{OperationType, Record};
///
/// let record = Record::builder().event_name(OperationType::Remove).build();
/// let (kind, ..) = record.parts()?;
/// assert_eq!(kind, ChangeKind::Remove);
/// # Ok::<(), dynamap::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A new item was written (`INSERT`).
    Insert,
    /// An existing item was changed (`MODIFY`).
    Modify,
    /// The item was deleted, by a request or by time to live (`REMOVE`).
    Remove,
}

/// One stream record, decoded: the kind of change, the item's key attributes, and the item
/// before (`old`) and after (`new`) as the stream's view type includes them.
///
/// # Examples
///
/// ```
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity, Debug, Clone)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
/// # struct Sensor { id: String, city: String }
/// use dynamap::streams::{Change, ChangeKind};
///
/// fn city_moved(change: &Change<Sensor>) -> bool {
///     change.kind == ChangeKind::Modify
///         && change.old.as_ref().map(|s| &s.city) != change.new.as_ref().map(|s| &s.city)
/// }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Change<T> {
    /// Insert, modify or remove.
    pub kind: ChangeKind,
    /// The item's key attributes, as stored.
    pub keys: Item,
    /// The item before the change (`OLD_IMAGE` and `NEW_AND_OLD_IMAGES` streams; none for
    /// an insert).
    pub old: Option<T>,
    /// The item after the change (`NEW_IMAGE` and `NEW_AND_OLD_IMAGES` streams; none for a
    /// remove).
    pub new: Option<T>,
}

impl<T> Change<T> {
    /// The item as it is now: the new image, or for a remove the old one.
    ///
    /// # Examples
    ///
    /// ```
    /// # use dynamap::{Entity, Table};
    /// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
    /// # #[derive(Entity, Debug)] #[dynamap(table = App, entity = "Sensor", pk = "SENSOR#{id}", sk = "INFO")]
    /// # struct Sensor { id: String }
    /// use dynamap::streams::{Change, decode};
    /// use dynamap::streams::aws_lambda_events::event::dynamodb::EventRecord;
    ///
    /// fn last_known(record: &EventRecord) -> dynamap::Result<Option<String>> {
    ///     let change: Option<Change<Sensor>> = decode(record)?;
    ///     Ok(change.and_then(|c| c.latest().map(|s| s.id.clone())))
    /// }
    /// ```
    pub fn latest(&self) -> Option<&T> {
        self.new.as_ref().or(self.old.as_ref())
    }
}

/// A stream record of either source, taken apart: the change kind, the keys and the images.
///
/// # Examples
///
/// ```
/// use dynamap::streams::StreamRecord;
/// use dynamap::streams::aws_sdk_dynamodbstreams::types::{OperationType, Record};
///
/// // A KEYS_ONLY record: the keys are there, the images are not.
/// let record = Record::builder().event_name(OperationType::Insert).build();
/// let (_, keys, old, new) = record.parts()?;
/// assert!(keys.is_empty() && old.is_none() && new.is_none());
/// # Ok::<(), dynamap::Error>(())
/// ```
pub trait StreamRecord: Sealed<StreamRecordSeal> {
    /// The change kind, the keys, the old image and the new image.
    ///
    /// # Errors
    ///
    /// Fails with [`Error::InvalidStreamRecord`] when the record's event name is not `INSERT`,
    /// `MODIFY` or `REMOVE`.
    fn parts(self) -> Result<(ChangeKind, Item, Option<Item>, Option<Item>)>;
}

impl ChangeKind {
    /// The stream's event name of the change.
    fn event_name(self) -> &'static str {
        match self {
            ChangeKind::Insert => "INSERT",
            ChangeKind::Modify => "MODIFY",
            ChangeKind::Remove => "REMOVE",
        }
    }
}

fn kind_of(name: &str) -> Result<ChangeKind> {
    match name {
        "INSERT" => Ok(ChangeKind::Insert),
        "MODIFY" => Ok(ChangeKind::Modify),
        "REMOVE" => Ok(ChangeKind::Remove),
        other => Err(Error::InvalidStreamRecord {
            problem: StreamRecordProblem::UnknownEventName,
            event_name: other.to_owned(),
        }),
    }
}

impl Sealed<StreamRecordSeal> for &aws_lambda_events::event::dynamodb::EventRecord {}
impl Sealed<StreamRecordSeal> for aws_sdk_dynamodbstreams::types::Record {}
impl Sealed<StreamRecordSeal> for &aws_sdk_dynamodbstreams::types::Record {}

impl StreamRecord for &aws_lambda_events::event::dynamodb::EventRecord {
    fn parts(self) -> Result<(ChangeKind, Item, Option<Item>, Option<Item>)> {
        let image = |item: &serde_dynamo::Item| -> Option<Item> {
            (!item.is_empty()).then(|| item.clone().into())
        };
        Ok((
            kind_of(&self.event_name)?,
            self.change.keys.clone().into(),
            image(&self.change.old_image),
            image(&self.change.new_image),
        ))
    }
}

impl StreamRecord for aws_sdk_dynamodbstreams::types::Record {
    fn parts(self) -> Result<(ChangeKind, Item, Option<Item>, Option<Item>)> {
        let kind = kind_of(self.event_name.as_ref().map_or("", |n| n.as_str()))?;
        let record = self
            .dynamodb
            .unwrap_or_else(|| aws_sdk_dynamodbstreams::types::StreamRecord::builder().build());
        let item = |map: std::collections::HashMap<
            String,
            aws_sdk_dynamodbstreams::types::AttributeValue,
        >|
         -> Item { serde_dynamo::Item::from(map).into() };
        Ok((
            kind,
            record.keys.map(item).unwrap_or_default(),
            record.old_image.map(item),
            record.new_image.map(item),
        ))
    }
}

impl StreamRecord for &aws_sdk_dynamodbstreams::types::Record {
    fn parts(self) -> Result<(ChangeKind, Item, Option<Item>, Option<Item>)> {
        self.clone().parts()
    }
}

/// Decodes one stream record into a change of `U`: an entity, or an enum deriving
/// `EntityEnum`. `Ok(None)` when the record is about an item of another entity type (or a
/// lookup item): in a single-table stream most records are of some other type.
///
/// A record without images (a `KEYS_ONLY` stream) cannot say which entity it is about: it
/// is an [`Error::InvalidStreamRecord`]; read such records' [`StreamRecord::parts`] instead.
/// An image of the right entity type that does not decode is an error, as for a read.
///
/// # Errors
///
/// Fails with [`Error::InvalidStreamRecord`] when the record has an unknown event name or no
/// image, and with a decode error when an image of `U`'s entity type does not decode.
pub fn decode<U: Decode>(record: impl StreamRecord) -> Result<Option<Change<U>>> {
    let (kind, keys, old, new) = record.parts()?;
    if old.is_none() && new.is_none() {
        return Err(Error::InvalidStreamRecord {
            problem: StreamRecordProblem::NoImage,
            event_name: kind.event_name().to_owned(),
        });
    }
    let old = old.map(decode_image::<U>).transpose()?.flatten();
    let new = new.map(decode_image::<U>).transpose()?.flatten();
    Ok((old.is_some() || new.is_some()).then_some(Change {
        kind,
        keys,
        old,
        new,
    }))
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodbstreams::types::{OperationType, Record};

    use super::*;

    #[test]
    fn a_record_of_an_unknown_event_is_an_invalid_stream_record() {
        let record = Record::builder()
            .event_name(OperationType::from("UPSERT"))
            .build();
        let err = record.parts().expect_err("unknown event name");
        assert!(
            matches!(&err, Error::InvalidStreamRecord { problem: StreamRecordProblem::UnknownEventName, event_name, .. } if event_name == "UPSERT"),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "invalid stream record: unknown event name \"UPSERT\""
        );
        assert_eq!(err.kind(), crate::ErrorKind::Decode);
        let err = kind_of("").expect_err("no event name");
        assert!(matches!(err, Error::InvalidStreamRecord { .. }), "{err:?}");
    }

    #[test]
    fn a_stream_record_names_its_event_and_what_it_lacks() {
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
}
