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

/// One maintenance job shared by four worker processes that differ only in the index
/// variable a Kubernetes Indexed Job gives each pod, as the guide's manifest runs them: 10
/// segments split unevenly (2, 3, 2, 3), every ticket re-keyed exactly once.
#[tokio::test]
async fn the_maintain_example_is_shared_by_four_workers_by_their_index() {
    let table = format!("helpdesk-{}", uuid::Uuid::new_v4().simple());
    let seeded = run_example_with("maintain", &["seed", "--items", "800", "--table", &table]);
    assert!(seeded.contains("seeded 800 tickets"), "{seeded}");

    let local = DynamoLocal::shared().expect("DynamoDB Local starts");
    let worker = |index: u32| {
        Command::new(example("maintain"))
            .args([
                "migrate",
                "--segments",
                "10",
                "--workers",
                "4",
                "--table",
                &table,
            ])
            .env("AWS_ENDPOINT_URL_DYNAMODB", local.endpoint())
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env_remove("AWS_BATCH_JOB_ARRAY_INDEX")
            .env_remove("AWS_BATCH_JOB_ARRAY_SIZE")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("worker starts")
    };
    let workers: Vec<_> = (0..4).map(worker).collect();
    let mut rekeyed = 0;
    for (index, worker) in workers.into_iter().enumerate() {
        let out = worker.wait_with_output().expect("worker runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "worker {index}: {stdout}");
        assert!(
            stdout.contains(&format!("worker {index} of 4, sharing 10 segments")),
            "{stdout}"
        );
        let segments = [2, 3, 2, 3][index];
        assert!(
            stdout.contains(&format!(" {segments} segments done, 0 skipped")),
            "worker {index}: {stdout}"
        );
        rekeyed += number_before(&stdout, " re-keyed");
    }
    assert_eq!(rekeyed, 800, "the shares' re-keys add up to every ticket");

    // Every ticket written exactly once: each job write raises the version from 1, so a
    // ticket two workers both wrote would be at 3.
    let client = local.client();
    let mut versions = std::collections::BTreeMap::<String, usize>::new();
    let mut start = None;
    loop {
        let out = client
            .scan()
            .table_name(&table)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("raw scan");
        for item in out.items() {
            if item
                .get("_type")
                .and_then(|t| t.as_s().ok())
                .map(String::as_str)
                == Some("Ticket")
            {
                assert!(item.contains_key("GSI1PK"), "{item:?}");
                let version = item["version"].as_n().expect("a version").clone();
                *versions.entry(version).or_default() += 1;
            }
        }
        start = out.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    assert_eq!(versions, [("2".to_owned(), 800)].into(), "{versions:?}");

    let audit = run_example_with("maintain", &["audit", "--table", &table]);
    assert!(audit.contains("800 items: 0 key drift"), "{audit}");
    // A worker retried with its index (here an AWS Batch array child's, with the array's
    // size for the count) finds its segments done; the whole job, run once more, finds
    // every segment done.
    let retried = Command::new(example("maintain"))
        .args(["migrate", "--segments", "10", "--table", &table])
        .env("AWS_ENDPOINT_URL_DYNAMODB", local.endpoint())
        .env_remove("JOB_COMPLETION_INDEX")
        .env("AWS_BATCH_JOB_ARRAY_INDEX", "1")
        .env("AWS_BATCH_JOB_ARRAY_SIZE", "4")
        .output()
        .expect("worker runs");
    let retried = String::from_utf8_lossy(&retried.stdout);
    assert!(
        retried.contains("worker 1 of 4")
            && retried.contains("0 scanned")
            && retried.contains("3 skipped"),
        "{retried}"
    );
    let again = run_example_with(
        "maintain",
        &["migrate", "--segments", "10", "--table", &table],
    );
    assert!(
        again.contains("0 scanned") && again.contains("10 skipped"),
        "{again}"
    );
}

/// The number just before `label` in `text`: `12` in "12 re-keyed".
fn number_before(text: &str, label: &str) -> u64 {
    let before = &text[..text
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {text}"))];
    let digits = before
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap_or_default();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a number before {label:?} in {text}"))
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
