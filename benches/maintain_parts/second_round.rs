//! Issue 42's measures of `benches/maintain.rs` (`cargo bench --bench maintain --
//! --second-round`, `--quick` for a smoke run): the offline mode against a hand-written
//! segment-parallel scan + `BatchWriteItem` migration, the conditioned mode at 8 to 64
//! writes in flight, and the budget second by second on a loaded machine.

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use dynamap::Db;
use dynamap_local::DynamoLocal;
use futures_util::stream::{self, StreamExt};

use super::cpu::{Cpu, cpu_seconds};
use super::{Desk, IN_FLIGHT, SEGMENTS, budgeted, by_hand_with, job_with, median, s, seed, settle};

/// A page's tickets that lack their keys, put whole with them (and the next version), 25 to
/// a `BatchWriteItem` call, the page's calls 8 at a time, unprocessed items sent again.
pub(crate) async fn hand_batch(db: &Db<Desk>, items: Vec<dynamap::codec::Item>) -> u64 {
    let text = |item: &dynamap::codec::Item, name: &str| {
        item.get(name)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    let puts: Vec<WriteRequest> = items
        .into_iter()
        .filter_map(|mut item| {
            let pk = s(format!("STATUS#{}", text(&item, "status")));
            let sk = s(format!("TICKET#{}", text(&item, "id")));
            if item.get("GSI1PK") == Some(&pk) && item.get("GSI1SK") == Some(&sk) {
                return None;
            }
            let version: u64 = item
                .get("version")
                .and_then(|v| v.as_n().ok())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            item.insert("GSI1PK".into(), pk);
            item.insert("GSI1SK".into(), sk);
            item.insert(
                "version".into(),
                AttributeValue::N((version + 1).to_string()),
            );
            let put = PutRequest::builder().set_item(Some(item)).build();
            Some(
                WriteRequest::builder()
                    .put_request(put.expect("put"))
                    .build(),
            )
        })
        .collect();
    let written = puts.len() as u64;
    let chunks: Vec<Vec<WriteRequest>> = puts.chunks(25).map(<[_]>::to_vec).collect();
    stream::iter(chunks)
        .for_each_concurrent(IN_FLIGHT, |mut requests| async move {
            while !requests.is_empty() {
                let out = db
                    .client()
                    .batch_write_item()
                    .request_items(db.table_name(), requests)
                    .send()
                    .await
                    .expect("batch");
                requests = out
                    .unprocessed_items
                    .and_then(|mut left| left.remove(db.table_name()))
                    .unwrap_or_default();
            }
        })
        .await;
    written
}

/// Alternating rounds of `ours` and `theirs` on fresh tables of `n` tickets; the median of
/// the rounds' ratios (items scanned per second), and each round's.
async fn pairs<A, B, FA, FB>(
    local: &DynamoLocal,
    n: u32,
    rounds: u32,
    ours: A,
    theirs: B,
) -> (f64, Vec<f64>)
where
    A: Fn(Db<Desk>) -> FA,
    B: Fn(Db<Desk>) -> FB,
    FA: std::future::Future<Output = (f64, u64)>,
    FB: std::future::Future<Output = (f64, u64)>,
{
    let mut ratios = Vec::new();
    for round in 0..rounds {
        let a = local.fresh_db::<Desk>("bench_ours").await.expect("table");
        let b = local.fresh_db::<Desk>("bench_theirs").await.expect("table");
        seed(&a, n).await;
        seed(&b, n).await;
        settle(&a).await;
        settle(&b).await;
        let ((rate_a, wrote_a, cpu_a), (rate_b, wrote_b, cpu_b)) = if round % 2 == 0 {
            let x = timed(ours(a)).await;
            (x, timed(theirs(b)).await)
        } else {
            let y = timed(theirs(b)).await;
            (timed(ours(a)).await, y)
        };
        assert_eq!(wrote_a, wrote_b, "both re-key the same tickets");
        println!(
            "    round {round}: {rate_a:.0} vs {rate_b:.0} items/s ({wrote_a} written); \
             CPU s (bench, DynamoDB Local, its storage thread) {:.2}, {:.2}, {:.2} vs {:.2}, {:.2}, {:.2}",
            cpu_a.bench, cpu_a.server, cpu_a.storage, cpu_b.bench, cpu_b.server, cpu_b.storage
        );
        ratios.push(rate_a / rate_b);
    }
    (median(ratios.clone()), ratios)
}

/// `side`'s rate and items written, and the CPU seconds it cost this process and its
/// children (DynamoDB Local).
async fn timed(side: impl std::future::Future<Output = (f64, u64)>) -> (f64, u64, Cpu) {
    let before = cpu_seconds();
    let (rate, wrote) = side.await;
    (rate, wrote, cpu_seconds() - before)
}

/// Two processes burning a core each while `f` runs (started and ended here, by their ids).
async fn loaded<T>(f: impl std::future::Future<Output = T>) -> T {
    let mut burners: Vec<std::process::Child> = (0..2)
        .map(|_| {
            std::process::Command::new("yes")
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("yes")
        })
        .collect();
    let out = f.await;
    for burner in &mut burners {
        let _ = burner.kill();
        let _ = burner.wait();
    }
    out
}

/// Measure 1 alone (`--offline-only`, about a minute): the offline mode against the
/// hand-written batch migration, 10,000 tickets x 6 rounds (`--quick`: 2,000 x 2).
pub(crate) async fn offline_only(local: &DynamoLocal, quick: bool) {
    let (n, rounds) = if quick { (2_000, 2) } else { (10_000, 6) };
    println!("offline mode only ({n} tickets x {rounds} rounds)");
    offline_against_batch(local, n, rounds).await;
}

/// The offline job against a hand-written scan + `BatchWriteItem` migration, 8 segments,
/// after a warm-up of both.
async fn offline_against_batch(local: &DynamoLocal, n: u32, rounds: u32) {
    let warm = local.fresh_db::<Desk>("bench_warm").await.expect("table");
    seed(&warm, 1_000).await;
    job_with(&warm, "warm", SEGMENTS, true).await;
    let warm = local.fresh_db::<Desk>("bench_warm").await.expect("table");
    seed(&warm, 1_000).await;
    by_hand_with(&warm, SEGMENTS, true).await;
    let (offline, rounds_offline) = pairs(
        local,
        n,
        rounds,
        |db| async move { job_with(&db, "offline", SEGMENTS, true).await },
        |db| async move { by_hand_with(&db, SEGMENTS, true).await },
    )
    .await;
    println!(
        "offline job / hand-written scan + BatchWriteItem, {SEGMENTS} segments: {offline:.3} {rounds_offline:.3?}"
    );
}

/// What counting units without a budget costs (`--counting-cost`, about a minute): the
/// offline job as it runs by default (one request in 16 asks DynamoDB for its
/// `ConsumedCapacity`) against the same job under a budget too large to wait, where every
/// request asks. Asking on every request magnifies the cost 16 times above the noise:
/// the sampled cost is about (sampled rate / all-asking rate - 1) / 15 of the run's time.
pub(crate) async fn counting_cost(local: &DynamoLocal, quick: bool) {
    let (n, rounds) = if quick { (2_000, 2) } else { (10_000, 6) };
    println!("counting cost ({n} tickets x {rounds} rounds)");
    let warm = local.fresh_db::<Desk>("bench_warm").await.expect("table");
    seed(&warm, 1_000).await;
    job_with(&warm, "warm", SEGMENTS, true).await;
    let (ratio, each) = pairs(
        local,
        n,
        rounds,
        |db| async move { job_with(&db, "sampled", SEGMENTS, true).await },
        |db| async move { job_asking(&db).await },
    )
    .await;
    let cost = (ratio - 1.0) / 15.0;
    println!(
        "sampled (1 in 16) / every request asking: {ratio:.3} {each:.3?}; \
         counting one request in 16 costs about {:.1}% of the run",
        100.0 * cost
    );
}

/// The offline job with every request asking DynamoDB for its `ConsumedCapacity`: under a
/// budget no request waits for.
async fn job_asking(db: &Db<Desk>) -> (f64, u64) {
    let started = std::time::Instant::now();
    let report = db
        .maintain::<super::Ticket>("asking")
        .rekey()
        .segments(SEGMENTS)
        .offline_nothing_else_writes()
        .budget(dynamap::maintain::Budget::UNLIMITED.reads(1e9).writes(1e9))
        .send()
        .await
        .expect("job");
    assert_eq!(report.failed_count, 0, "{:?}", report.failed);
    let seconds = started.elapsed().as_secs_f64();
    (report.scanned as f64 / seconds, report.rekeyed)
}

/// Issue 42's measures: the offline mode against a hand-written segment-parallel scan +
/// `BatchWriteItem` migration; the conditioned mode against one conditional write per
/// item at 8, 16, 32 and 64 writes in flight (1, 2, 4, 8 segments of 8); the budget's
/// units in every whole second, the first included, with two processes burning both cores.
pub(crate) async fn second_round(local: &DynamoLocal, quick: bool) {
    let (n, rounds, budget_items) = if quick {
        (2_000, 2, 1_500)
    } else {
        (10_000, 4, 3_000)
    };
    println!("second round ({n} tickets x {rounds} rounds)");
    offline_against_batch(local, n, rounds).await;
    for segments in [1, 2, 4, 8] {
        let (ratio, each) = pairs(
            local,
            n / 2,
            2,
            |db| async move { job_with(&db, "conditioned", segments, false).await },
            |db| async move { by_hand_with(&db, segments, false).await },
        )
        .await;
        println!(
            "conditioned job / one conditional write per item, {} in flight: {ratio:.3} {each:.3?}",
            segments * IN_FLIGHT as u32
        );
    }
    for budget in [100.0, 200.0] {
        let run = loaded(budgeted(local, budget_items, budget)).await;
        let worst = run.windows.iter().copied().fold(0.0, f64::max);
        println!(
            "loaded (2 busy processes), budget {budget:.0} WCU/s: {:.1} s, {:.0} units; first second {:.0} ({:.3}x), worst whole second {worst:.0} ({:.3}x); seconds {:.0?}",
            run.seconds,
            run.units,
            run.windows.first().copied().unwrap_or(0.0),
            run.windows.first().copied().unwrap_or(0.0) / budget,
            worst / budget,
            run.windows
        );
    }
}
