//! The example apps, run against the shared DynamoDB Local and inspected afterwards.

use std::path::PathBuf;
use std::process::Command;

use dynamap_local::DynamoLocal;

/// The example's binary, built by `cargo test` beside the test binaries (or built now when
/// only this test target was built).
pub(crate) fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().expect("test binary path");
    let profile_dir = deps
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .args(["build", "--all-features", "--example", name])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building example {name}");
    }
    path
}

/// Runs an example against the shared server; it then leaves its table there.
pub(crate) fn run_example(name: &str) -> String {
    run_example_with(name, &[])
}

pub(crate) fn run_example_with(name: &str, args: &[&str]) -> String {
    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let output = Command::new(example(name))
        .args(args)
        .env("AWS_ENDPOINT_URL_DYNAMODB", local.endpoint())
        .output()
        .expect("example runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[tokio::test]
async fn sensors_example_indexes_sensors_and_not_readings() {
    let stdout = run_example("sensors");
    assert!(stdout.contains("in Poznań, building A, floor 2 (not 20): [\"smoke-sensor-4\", \"carbon-monoxide-sensor-2\"]"), "{stdout}");
    assert!(
        stdout.contains("rain-sensor-8 (no room) read by key: rain; in the location index: false"),
        "{stdout}"
    );
    assert!(
        stdout.contains("in Poznań, building A, by location items: [\"carbon-monoxide-sensor-2\", \"smoke-sensor-4\", \"smoke-sensor-5\", \"humidity-sensor-1\", \"rain-sensor-8\"]"),
        "{stdout}"
    );

    let client = DynamoLocal::shared().expect("running").client();
    let scan = client
        .scan()
        .table_name("sensors")
        .send()
        .await
        .expect("raw scan");
    let (mut sensors, mut readings, mut locations, mut outside_index) = (0, 0, 0, Vec::new());
    for item in scan.items() {
        let indexed = item.contains_key("GSI1PK") && item.contains_key("GSI1SK");
        match item["_type"].as_s().expect("entity type").as_str() {
            "Sensor" => {
                sensors += 1;
                if !indexed {
                    outside_index.push(item["id"].as_s().expect("sensor id").clone());
                }
            }
            "Reading" => {
                readings += 1;
                assert!(
                    !item.contains_key("GSI1PK") && !item.contains_key("GSI1SK"),
                    "reading in the index: {item:?}"
                );
            }
            "Sensor.site" => {
                locations += 1;
                assert!(!indexed, "location item in the index: {item:?}");
            }
            other => panic!("unexpected entity type {other}"),
        }
    }
    assert_eq!((sensors, readings, locations), (8, 96, 8));
    // Only the sensor without a room stays out of the sparse index.
    assert_eq!(outside_index, ["rain-sensor-8"]);
}

#[tokio::test]
async fn gaming_example_runs() {
    let stdout = run_example("gaming");
    assert!(
        stdout.contains("space-invaders top 3: werner 2400, mza 1200, jeffbarr 870"),
        "{stdout}"
    );
    assert!(
        stdout.contains("customer 102 orders in April 2012: 10"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "meteor-blasters top 10 after 120 concurrent increments: p12 600, p11 550, p10 500, \
             p09 450, p08 400, p07 350, p06 300, p05 250, p04 200, p03 150\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("space-invaders scores above 1000: 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "meteor-blasters matches recorded concurrently: 20 (numbered 1 to 20 without gaps: true), moderators: 5"
        ),
        "{stdout}"
    );
}

#[tokio::test]
async fn timeline_example_fans_out_under_throttling_and_pages() {
    let stdout = run_example_with("timeline", &["--followers", "1500", "--throttle", "0.05"]);
    assert!(stdout.contains("wrote 3000 items"), "{stdout}");
    assert!(stdout.contains("; 0 failed"), "{stdout}");
    assert!(
        stdout.contains("entries in the table: 3000 (written once each: true)"),
        "{stdout}"
    );
    assert!(stdout.contains("the next 7:"), "{stdout}");
    // Piped (as here), progress is a log of plain lines, one per tenth of the work.
    let progress: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert_eq!(progress.len(), 10, "{stdout}");
    assert!(progress[4].contains("/3000 items (50%)"), "{stdout}");
    assert!(progress[9].contains("3000/3000 items (100%)"), "{stdout}");
    assert!(!stdout.contains('\r'), "{stdout:?}");
}

#[test]
fn timeline_example_prints_its_usage_for_help_and_refuses_unknown_options() {
    let help = Command::new(example("timeline"))
        .arg("--help")
        .output()
        .expect("example runs");
    assert!(help.status.success(), "{help:?}");
    let usage = String::from_utf8_lossy(&help.stdout);
    assert!(
        usage.contains("Usage: timeline [--followers N] [--throttle RATE]"),
        "{usage}"
    );

    let wrong = Command::new(example("timeline"))
        .arg("--folowers")
        .output()
        .expect("example runs");
    assert!(!wrong.status.success());
    let message = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        message.contains("--folowers") && message.contains("--help"),
        "{message}"
    );
}

/// One maintenance job shared by two processes, each running its half of the segments
/// against the same table, as two workers of a batch job would.
#[tokio::test]
async fn the_maintain_example_shares_one_job_between_two_processes() {
    let table = format!("helpdesk-{}", uuid::Uuid::new_v4().simple());
    let seeded = run_example_with("maintain", &["seed", "--items", "1500", "--table", &table]);
    assert!(seeded.contains("seeded 1500 tickets"), "{seeded}");
    let audit = run_example_with("maintain", &["audit", "--table", &table]);
    assert!(audit.contains("1500 key drift"), "{audit}");

    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let worker = |only: &str| {
        Command::new(example("maintain"))
            .args([
                "migrate",
                "--segments",
                "8",
                "--only",
                only,
                "--table",
                &table,
            ])
            .env("AWS_ENDPOINT_URL_DYNAMODB", local.endpoint())
            .spawn()
            .expect("worker starts")
    };
    let (mut first, mut second) = (worker("0..4"), worker("4..8"));
    assert!(first.wait().expect("first worker").success());
    assert!(second.wait().expect("second worker").success());

    let audit = run_example_with("maintain", &["audit", "--table", &table]);
    assert!(audit.contains("1500 items: 0 key drift"), "{audit}");
    // The job is finished: a third run finds every segment done.
    let again = run_example_with(
        "maintain",
        &["migrate", "--segments", "8", "--table", &table],
    );
    assert!(
        again.contains("0 scanned") && again.contains("8 skipped"),
        "{again}"
    );
}

#[tokio::test]
async fn metrics_example_prints_a_scrape_with_every_documented_metric() {
    let stdout = run_example("metrics");
    let scrape = stdout.split("--- scrape ---").nth(1).expect("a scrape");
    for name in [
        dynamap::metrics::REQUESTS,
        dynamap::metrics::REQUEST_DURATION,
        dynamap::metrics::READ_CAPACITY,
        dynamap::metrics::WRITE_CAPACITY,
    ] {
        assert!(
            scrape.contains(&format!("# TYPE {name} ")),
            "{name}:\n{scrape}"
        );
    }
    // Two sensors, each written to the table and to the location index.
    assert!(
        scrape.contains(r#"operation="PutItem",entity="Sensor",index="GSI1"} 2000"#),
        "{scrape}"
    );
    assert!(
        scrape
            .contains(r#"operation="Query",entity="Reading|Sensor",index="table",outcome="ok"} 1"#),
        "{scrape}"
    );
}
