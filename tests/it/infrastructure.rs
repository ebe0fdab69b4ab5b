//! Infrastructure definitions against the real thing: every example table's CreateTable
//! JSON, sent as it is through the SDK to DynamoDB Local, makes a table with no drift from
//! its layout; the CloudFormation templates pass `cfn-lint`.

use std::path::{Path, PathBuf};
use std::process::Command;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::types::{BillingMode, StreamViewType};
use dynamap::admin::{Drift, StreamView, TableDefinition, TableOptions};
use dynamap::{Db, Table};
use dynamap_local::DynamoLocal;
use example_support::tables;
use serde_json::Value;

use crate::examples::example;
use crate::python_venv::venv_python;

/// Runs the `infra` example (it needs no server).
fn infra(args: &[&str]) -> String {
    let output = Command::new(example("infra"))
        .args(args)
        .output()
        .expect("infra runs");
    assert!(
        output.status.success(),
        "infra {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

fn apps() -> Vec<String> {
    infra(&["list"]).lines().map(str::to_owned).collect()
}

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", uuid::Uuid::new_v4().simple())
}

/// Sends `body` verbatim as the request of `operation` (`request` is that operation's
/// fluent builder with the table name set, which the SDK needs to route and sign).
/// The SDK signs and sends it, so the JSON meets the same service the SDK would.
macro_rules! send_json {
    ($request:expr, $body:expr) => {{
        let body = $body.to_string();
        $request
            .customize()
            .mutate_request(move |request| {
                request
                    .headers_mut()
                    .insert("content-length", body.len().to_string());
                *request.body_mut() = body.clone().into();
            })
            .send()
            .await
    }};
}

/// Creates the table `definition` describes from its JSON alone: CreateTable, then the
/// UpdateTimeToLive follow-up when there is one.
async fn create_from_json(client: &Client, create: &Value, ttl: Option<Value>) {
    let name = create["TableName"].as_str().expect("TableName");
    send_json!(client.create_table().table_name(name), create)
        .unwrap_or_else(|err| panic!("CreateTable from JSON {create}: {err:?}"));
    client
        .wait_until_table_exists()
        .table_name(name)
        .wait(std::time::Duration::from_secs(60))
        .await
        .expect("table becomes active");
    if let Some(ttl) = ttl {
        send_json!(client.update_time_to_live().table_name(name), ttl)
            .unwrap_or_else(|err| panic!("UpdateTimeToLive from JSON {ttl}: {err:?}"));
    }
}

/// The drift of `app`'s table: the test names each app's layout, and fails on an app it
/// does not know, so a new example table cannot go unchecked.
async fn drift(app: &str, db: &Db<Rich>) -> Vec<Drift> {
    // The handle's own layout is not the app's: each app's table is verified with its own.
    match app {
        "sensors" => db.with_layout::<tables::App>().verify_table().await,
        "gaming" => db.with_layout::<tables::Gaming>().verify_table().await,
        "timeline" => db.with_layout::<tables::Social>().verify_table().await,
        "sleep_events" => db.with_layout::<tables::SleepTable>().verify_table().await,
        "iot" => db.with_layout::<tables::Iot>().verify_table().await,
        "maintain" => db.with_layout::<tables::HelpDesk>().verify_table().await,
        other => panic!("the infra example has app {other:?}: add its layout here"),
    }
    .expect("verified")
}

#[tokio::test]
async fn every_example_tables_create_table_json_makes_a_table_without_drift() {
    let client = DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .client();
    let apps = apps();
    assert_eq!(apps.len(), 6, "{apps:?}");
    for app in &apps {
        let name = unique(app);
        let create: Value = serde_json::from_str(&infra(&["create-table", app, "--name", &name]))
            .expect("CreateTable JSON");
        let ttl: Value =
            serde_json::from_str(&infra(&["update-time-to-live", app, "--name", &name]))
                .expect("UpdateTimeToLive JSON or null");
        create_from_json(&client, &create, (!ttl.is_null()).then_some(ttl)).await;
        let db: Db<Rich> = Db::new(client.clone(), name);
        assert_eq!(drift(app, &db).await, [], "{app}: {create}");
    }
}

/// Everything at once: a multi-attribute global index, a local index, projections, TTL.
#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    ttl = "expires_at",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(
        name = "ByStatus",
        pk("repo", "owner"),
        sk("status", "number"),
        sk_type("S", "N"),
        projection = "keys_only"
    ),
    local_index(name = "ByDate", sk = "LSI1SK", include("title"))
)]
struct Rich;

fn rich_options() -> TableOptions {
    TableOptions::new()
        .provisioned(5, 7)
        .index_provisioned("GSI1", 3, 2)
        .stream(StreamView::NewAndOldImages)
        .deletion_protection(true)
        .tag("team", "support")
}

#[tokio::test]
async fn a_rich_layouts_json_makes_the_table_create_table_would() {
    let client = DynamoLocal::shared()
        .expect("DynamoDB Local starts")
        .client();
    let name = unique("rich-json");
    let definition = TableDefinition::new::<Rich>(&name, &rich_options()).expect("valid");
    create_from_json(
        &client,
        &definition.create_table_json(),
        definition.update_time_to_live_json(),
    )
    .await;
    let db: Db<Rich> = Db::new(client.clone(), name.clone());
    assert_eq!(db.verify_table().await.expect("verified"), []);

    // What the drift check does not look at, read back from the live table.
    let table = db.describe_table().await.expect("described");
    let throughput = table.provisioned_throughput().expect("throughput");
    assert_eq!(
        (
            throughput.read_capacity_units(),
            throughput.write_capacity_units()
        ),
        (Some(5), Some(7))
    );
    assert_ne!(
        table.billing_mode_summary().and_then(|b| b.billing_mode()),
        Some(&BillingMode::PayPerRequest)
    );
    let capacity = |index: &str| {
        let gsi = table
            .global_secondary_indexes()
            .iter()
            .find(|i| i.index_name() == Some(index))
            .expect("index");
        let t = gsi.provisioned_throughput().expect("index throughput");
        (t.read_capacity_units(), t.write_capacity_units())
    };
    assert_eq!(capacity("GSI1"), (Some(3), Some(2)));
    assert_eq!(capacity("ByStatus"), (Some(5), Some(7)));
    assert_eq!(
        table
            .stream_specification()
            .and_then(|s| s.stream_view_type()),
        Some(&StreamViewType::NewAndOldImages)
    );
    assert_eq!(table.deletion_protection_enabled(), Some(true));
    // And the JSON is the request `create_table` sends: the same options through the
    // builder give the same definition.
    let built = db
        .create_table()
        .provisioned(5, 7)
        .index_provisioned("GSI1", 3, 2)
        .stream(StreamView::NewAndOldImages)
        .deletion_protection(true)
        .tag("team", "support")
        .definition()
        .expect("valid");
    assert_eq!(built, definition);
}

/// `cfn-lint`, from the Python package index (see [`venv_python`]). `None` (the test is
/// skipped) only where there is no `python3`.
fn cfn_lint() -> Option<Command> {
    let mut command = Command::new(venv_python("cfn-lint==1.58.0")?);
    command.args([
        "-c",
        "import sys; from cfnlint.runner import main; sys.argv[0] = 'cfn-lint'; sys.exit(main())",
    ]);
    Some(command)
}

fn lint(cfn_lint: &mut Command, files: &[PathBuf]) -> (bool, String) {
    let output = cfn_lint.args(files).output().expect("cfn-lint runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

#[test]
fn cloudformation_templates_pass_cfn_lint() {
    let Some(mut cfn_lint) = cfn_lint() else {
        println!("skipped: cfn-lint needs python3, which is not on this machine");
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(unique("cfn-templates"));
    std::fs::create_dir_all(&dir).expect("template dir");
    let mut files = Vec::new();
    let mut write = |name: String, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("template written");
        files.push(path);
    };
    let rich = [
        "--provisioned",
        "10,5",
        "--stream",
        "new-and-old",
        "--deletion-protection",
    ];
    let rich_more = ["--point-in-time-recovery", "--tag", "team=ops"];
    for app in apps() {
        write(format!("{app}.json"), infra(&["cloudformation", &app]));
        let mut args = vec!["cloudformation-yaml", app.as_str()];
        args.extend(rich.iter().chain(&rich_more));
        write(format!("{app}.yaml"), infra(&args));
    }
    let definition =
        TableDefinition::new::<Rich>("rich", &rich_options().point_in_time_recovery(true))
            .expect("valid");
    write(
        "rich.json".into(),
        definition.cloudformation_template().to_string(),
    );
    write("rich.yaml".into(), definition.cloudformation_yaml());

    let (passed, output) = lint(&mut cfn_lint, &files);
    assert!(passed, "cfn-lint found problems:\n{output}");

    // The linter does read the files: a misspelt property fails it.
    let broken = dir.join("broken.yaml");
    let text = definition
        .cloudformation_yaml()
        .replace("DeletionProtectionEnabled", "DeletionProtection");
    std::fs::write(&broken, text).expect("written");
    let (passed, output) = lint(&mut self::cfn_lint().expect("installed"), &[broken]);
    assert!(!passed && output.contains("DeletionProtection"), "{output}");
}
