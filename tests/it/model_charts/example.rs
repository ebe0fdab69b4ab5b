//! The one command: `cargo run --example model` writes each example app's Markdown, HTML
//! page and NoSQL Workbench model, the same the library draws.

use std::process::Command;

use crate::examples::example;

#[test]
fn model_example_writes_each_apps_charts_page_and_workbench_model() {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("model-example");
    let _ = std::fs::remove_dir_all(&folder);
    let output = Command::new(example("model"))
        .arg(&folder)
        .output()
        .expect("the example runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).expect(name);
    let sensors = example_support::sensors::model().expect("the model");
    assert_eq!(read("sensors.md"), sensors.markdown());
    assert_eq!(read("sensors.html"), sensors.html());
    let workbench: serde_json::Value =
        serde_json::from_str(&read("sensors.workbench.json")).expect("JSON");
    assert_eq!(workbench, sensors.workbench_json().expect("the model"));
    let gaming = read("gaming.md");
    assert!(gaming.contains(
        "| Top and bottom N of a game | Query | Leaderboard | `LB_PK = \"GAME#{game}\"` |"
    ));
    assert!(
        gaming.contains("| Score | `USER#{user_id}` | `GAME#{game}` | `GAME#{game}` | `{score}` |")
    );
    // The timeline's TTL attribute is a plain field stored under the layout's TTL name.
    assert!(read("timeline.md").contains("expires_at: `i64`, TTL: `expires_at` |"));
    assert!(
        read("timeline.html").contains("USER#0000000001"),
        "{}",
        read("timeline.html")
    );
    // The night's events are one compressed binary attribute.
    assert!(
        read("sleep_events.md").contains("events_data"),
        "{}",
        read("sleep_events.md")
    );
    assert!(read("sleep_events.html").contains("NIGHT#2026-11-21"));
    // The car events are multi-event rows: per field a map of event id to value.
    assert!(
        read("iot.md").contains("speed_kmh: `map<event id, f64>`"),
        "{}",
        read("iot.md")
    );
    assert!(read("iot.html").contains("_ids"));
}
