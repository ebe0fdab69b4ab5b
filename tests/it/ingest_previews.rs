//! Previews of ingests into rolled tables: an ingest of items previews each table's batch
//! calls, an ingest into event rows the first write of each event, and both match what
//! `send` puts on the wire (the `lose` interceptor's capture; it leaves out the
//! `CreateTable` of new tables, as previews do).

use std::time::{SystemTime, UNIX_EPOCH};

use dynamap::Entity;
use dynamap::preview::Request;
use dynamap::timeseries::rolling::{RollingTables, TableNaming, WEEK_MS};
use dynamap::timeseries::rows::WritePath;

use crate::lost_responses::lose::lossy_db;
use crate::models::App;
use crate::previews::sent;

/// Several events per millisecond, as items or as multi-event rows.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = App, entity = "Ping", pk = "DEV#{device}", sk = "{at}", event_rows)]
struct Ping {
    device: String,
    at: i64,
    seq: u32,
}

/// `previewed` and `wire` hold the same requests, in any order: an ingest sends its
/// tables' writes concurrently.
fn same_requests(previewed: &[Request], mut wire: Vec<Request>) {
    for request in previewed {
        let Some(at) = wire.iter().position(|sent| sent == request) else {
            panic!("previewed but not sent: {request:?}");
        };
        wire.swap_remove(at);
    }
    assert_eq!(wire, [], "sent but not previewed");
}

#[tokio::test]
async fn an_ingest_previews_what_it_sends() {
    let (db, losses) = lossy_db("an_ingest_previews_what_it_sends", false).await;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    let prefix = format!("pv-{}-{}.", std::process::id(), nanos.as_nanos());
    let naming = TableNaming::new(prefix).expect("valid prefix");
    let rolling = RollingTables::<App>::new(db.client().clone(), naming);
    let now = i64::try_from(nanos.as_millis()).expect("ms fit an i64");
    // Three events a millisecond, ten milliseconds over two weeks or more: several tables.
    let pings: Vec<Ping> = (0..30u32)
        .map(|seq| Ping {
            device: "p1".into(),
            at: now - i64::from(seq / 3) * WEEK_MS / 5,
            seq,
        })
        .collect();

    // As items (one a millisecond: the same key twice is a duplicate in a batch): one
    // BatchWriteItem per table, fewer than 25 events each.
    let items: Vec<Ping> = pings
        .iter()
        .map(|p| Ping {
            at: p.at - i64::from(p.seq % 3),
            ..p.clone()
        })
        .collect();
    let ingest = rolling.ingest(&items, |p| p.at);
    let preview = ingest.preview().expect("preview");
    assert!(preview.requests().len() >= 2, "{preview}");
    assert!(
        preview
            .requests()
            .iter()
            .all(|r| matches!(r, Request::BatchWriteItem(_)))
    );
    let (report, wire) = sent(&losses, ingest).await;
    assert!(report.is_complete());
    same_requests(preview.requests(), wire);

    // Into event rows, adding to the row first: one UpdateItem per event. The rows do not
    // exist yet, so each add is refused and a create follows on the wire: requests the
    // answers decide, which the preview leaves out.
    let rows = rolling
        .ingest(&pings, |p| p.at)
        .event_rows(WritePath::MapFirst);
    let preview = rows.preview().expect("preview");
    assert_eq!(preview.requests().len(), pings.len(), "{preview}");
    let (report, wire) = sent(&losses, rows).await;
    assert!(
        report
            .outcomes
            .iter()
            .all(|o| o.as_ref().is_ok_and(|o| o.stored()))
    );
    for request in preview.requests() {
        assert!(matches!(request, Request::UpdateItem(_)), "{request:?}");
        assert!(
            wire.contains(request),
            "previewed but not sent: {request:?}"
        );
    }
    // Creating first: a PutItem per event.
    let creates = rolling
        .ingest(&pings, |p| p.at)
        .event_rows(WritePath::CreateFirst);
    let preview = creates.preview().expect("preview");
    assert!(
        preview
            .requests()
            .iter()
            .all(|r| matches!(r, Request::PutItem(_))),
        "{preview}"
    );
    assert_eq!(preview.requests().len(), pings.len());
}
