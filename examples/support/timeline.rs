//! Seed 004's timelines: the entity of the `timeline` example, here so that the `model`
//! example draws the very type the app stores.

use dynamap::Entity;
use dynamap::model::Model;
use time::{Duration, OffsetDateTime, macros::datetime};

use crate::tables::Social;

/// One event on one follower's timeline. The sort key is time + stream id, so two streams
/// starting in the same millisecond stay two entries.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Social, entity = "TimelineEntry", pk = "USER#{follower}", sk = "TL#{at}#{stream_id}")]
pub struct TimelineEntry {
    /// The follower whose timeline it is on.
    pub follower: u32,
    /// When the stream started.
    #[dynamap(with = "dynamap::codec::timestamp")]
    pub at: OffsetDateTime,
    /// The stream.
    pub stream_id: String,
    /// Who streams.
    pub streamer: String,
    /// The stream's title.
    pub title: String,
    /// Epoch seconds; DynamoDB deletes the entry a month after the stream started.
    pub expires_at: i64,
}

/// The entry of `stream_id` at `at` on `follower`'s timeline.
pub fn entry(follower: u32, at: OffsetDateTime, stream_id: &str) -> TimelineEntry {
    TimelineEntry {
        follower,
        at,
        stream_id: stream_id.to_owned(),
        streamer: "alice".to_owned(),
        title: "Speedrun, any%".to_owned(),
        expires_at: (at + Duration::days(30)).unix_timestamp(),
    }
}

/// The data model of the timeline table, with two followers' entries of one stream.
///
/// # Errors
///
/// Fails when a sample does not encode.
pub fn model() -> dynamap::Result<Model<Social>> {
    let at = datetime!(2020-03-01 20:00 UTC);
    Model::<Social>::new("timeline")
        .pattern::<TimelineEntry>(None, "A follower's timeline, newest first, 10 a page")
        .sample(&entry(1, at, "s-1"))?
        .sample(&entry(2, at, "s-1"))
}
