//! Benchmark: `Db::put` and `Db::get` of one entity with and without the AWS Database
//! Encryption SDK's interceptor (raw AES keyring), in the same run, on the same DynamoDB
//! Local, rounds of the two arms alternating so that drift hits both alike.
//!
//! ```text
//! cargo bench --features encryption --bench encryption              # writes docs/performance/encryption.json
//! cargo bench --features encryption --bench encryption -- --quick   # smoke run
//! ```
//!
//! See `docs/performance/encryption.md`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use dynamap::{Db, Entity, Table};
use dynamap_encryption::{TableEncryption, raw_aes_keyring};
use dynamap_local::DynamoLocal;

#[derive(Table)]
#[dynamap(pk = "PK", sk = "SK")]
struct Bench;

/// Two encrypted fields (one of 1 KB), one signed, three plain: a record of personal data.
#[derive(Entity, Debug, Clone, PartialEq)]
#[dynamap(table = Bench, entity = "Person", pk = "PERSON#{id}", sk = "PERSON")]
struct Person {
    id: u32,
    #[dynamap(encrypt)]
    email: String,
    #[dynamap(encrypt)]
    history: String,
    #[dynamap(sign_only)]
    country: String,
    name: String,
    visits: u32,
    score: f64,
}

fn person(id: u32) -> Person {
    Person {
        id,
        email: format!("person{id}@example.com"),
        history: "x".repeat(1024),
        country: "PL".into(),
        name: format!("Person {id}"),
        visits: id,
        score: f64::from(id) / 3.0,
    }
}

/// Per-operation times of one arm, in microseconds.
#[derive(Default)]
struct Arm {
    put: Vec<f64>,
    get: Vec<f64>,
}

async fn round(db: &Db<Bench>, ids: std::ops::Range<u32>, arm: &mut Arm) {
    for id in ids.clone() {
        let start = Instant::now();
        db.put(&person(id)).await.expect("put");
        arm.put.push(micros(start.elapsed()));
    }
    for id in ids {
        let start = Instant::now();
        let got = db.get(Person::key(id)).consistent().await.expect("get");
        arm.get.push(micros(start.elapsed()));
        assert_eq!(got.map(|p| p.id), Some(id));
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn p90(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() * 9 / 10]
}

#[tokio::main]
async fn main() {
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var_os("DYNAMAP_BENCH_QUICK").is_some();
    let (rounds, per_round) = if quick { (2, 20) } else { (10, 200) };
    let local = DynamoLocal::shared().expect("DynamoDB Local");
    let plain = local.fresh_db::<Bench>("bench_plain").await.expect("table");
    let raw = local
        .fresh_db::<Bench>("bench_encrypted")
        .await
        .expect("table");
    let keyring = raw_aes_keyring("bench", "bench-key", [3; 32])
        .await
        .expect("keyring");
    let interceptor = TableEncryption::<Bench>::new(raw.table_name())
        .entity::<Person>()
        .interceptor(keyring)
        .expect("interceptor");
    let config = raw
        .client()
        .config()
        .to_builder()
        .interceptor(interceptor)
        .build();
    let encrypted = Db::new(
        dynamap::aws_sdk_dynamodb::Client::from_conf(config),
        raw.table_name(),
    );

    // Warm-up: connections, the JIT of DynamoDB Local, the SDK's caches.
    round(&plain, 0..20, &mut Arm::default()).await;
    round(&encrypted, 0..20, &mut Arm::default()).await;

    let (mut without, mut with) = (Arm::default(), Arm::default());
    for r in 0..rounds {
        let ids = r * per_round..(r + 1) * per_round;
        if r % 2 == 0 {
            round(&plain, ids.clone(), &mut without).await;
            round(&encrypted, ids, &mut with).await;
        } else {
            round(&encrypted, ids.clone(), &mut with).await;
            round(&plain, ids, &mut without).await;
        }
    }

    let summary = |arm: &Arm| {
        serde_json::json!({
            "put_median_us": median(&arm.put), "put_p90_us": p90(&arm.put),
            "get_median_us": median(&arm.get), "get_p90_us": p90(&arm.get),
        })
    };
    let result = serde_json::json!({
        "benchmark": "encryption",
        "operations_per_arm": rounds * per_round,
        "item": "6 fields: 2 encrypted (22 B and 1 KB), 1 signed, 3 plain",
        "keyring": "raw AES-256",
        "without_encryption": summary(&without),
        "with_encryption": summary(&with),
        "put_ratio_median": median(&with.put) / median(&without.put),
        "get_ratio_median": median(&with.get) / median(&without.get),
        "quick": quick,
        // The SDK is Dafny-generated Rust, far slower unoptimized: say which build ran.
        "profile": if cfg!(debug_assertions) { "dev" } else { "release" },
        "load_average_at_end": std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().next().unwrap_or("").to_owned(),
    });
    let text = serde_json::to_string_pretty(&result).expect("json");
    println!("{text}");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let dir = target.join("bench");
    std::fs::create_dir_all(&dir).expect("bench folder");
    std::fs::write(dir.join("encryption.json"), &text).expect("write");
    if !quick {
        let docs =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/performance/encryption.json");
        std::fs::write(docs, text + "\n").expect("write docs");
    }
}
