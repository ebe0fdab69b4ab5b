//! Infrastructure as code for the example apps' tables: prints what `create_table` would
//! make, as a CreateTable request (with its TTL and point-in-time recovery follow-ups), a
//! CloudFormation template in JSON or YAML, or a Terraform resource in JSON syntax.
//!
//! ```text
//! cargo run --example infra -- cloudformation-yaml timeline
//! cargo run --example infra -- create-table gaming --name gaming-prod > table.json
//! aws dynamodb create-table --cli-input-json file://table.json
//! cargo run --example infra -- terraform sensors --provisioned 10,5 --stream new-and-old \
//!     --deletion-protection --point-in-time-recovery --tag team=sensors > table.tf.json
//! ```
//!
//! Needs no connection: the definitions come from the `#[derive(Table)]` layouts alone.

use dynamap::Table;
use dynamap::admin::{StreamView, TableDefinition, TableOptions};
use example_support::tables::{App, Gaming, HelpDesk, Iot, SleepTable, Social};

const USAGE: &str = "\
usage: infra FORMAT APP [--name TABLE] [--provisioned READ,WRITE] [--index-provisioned INDEX=READ,WRITE]
             [--stream keys-only|new|old|new-and-old] [--deletion-protection]
             [--point-in-time-recovery] [--tag KEY=VALUE]...
       infra list

FORMAT: create-table          the CreateTable request (aws dynamodb create-table --cli-input-json)
        update-time-to-live   its UpdateTimeToLive follow-up (\"null\" without a TTL attribute)
        update-continuous-backups
                              its UpdateContinuousBackups follow-up (\"null\" without recovery)
        cloudformation        an AWS::DynamoDB::Table template, JSON
        cloudformation-yaml   the same template, YAML
        terraform             an aws_dynamodb_table resource, Terraform JSON syntax (*.tf.json)
APP:    sensors, gaming, timeline, sleep_events, iot or maintain; the table is named after it
        unless --name says otherwise.";

/// Each example app with its layout's definition function.
const APPS: &[(&str, Define)] = &[
    ("sensors", definition::<App>),
    ("gaming", definition::<Gaming>),
    ("timeline", definition::<Social>),
    ("sleep_events", definition::<SleepTable>),
    ("iot", definition::<Iot>),
    ("maintain", definition::<HelpDesk>),
];

type Define = fn(&str, &TableOptions) -> dynamap::Result<TableDefinition>;

fn definition<T: Table>(name: &str, options: &TableOptions) -> dynamap::Result<TableDefinition> {
    TableDefinition::new::<T>(name, options)
}

struct Args {
    format: String,
    app: String,
    name: Option<String>,
    options: TableOptions,
}

fn args() -> Result<Option<Args>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut positional = Vec::new();
    let mut name = None;
    let mut options = TableOptions::new();
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Value(value) => positional.push(value.string()?),
            Long("name") => name = Some(parser.value()?.string()?),
            Long("provisioned") => {
                let (read, write) = capacity(&parser.value()?.string()?)?;
                options = options.provisioned(read, write);
            }
            Long("index-provisioned") => {
                let text = parser.value()?.string()?;
                let (index, units) = text.split_once('=').ok_or_else(|| {
                    format!("--index-provisioned takes INDEX=READ,WRITE, not {text:?}")
                })?;
                let (read, write) = capacity(units)?;
                options = options.index_provisioned(index, read, write);
            }
            Long("stream") => {
                let view = match parser.value()?.string()?.as_str() {
                    "keys-only" => StreamView::KeysOnly,
                    "new" => StreamView::NewImage,
                    "old" => StreamView::OldImage,
                    "new-and-old" => StreamView::NewAndOldImages,
                    other => return Err(format!("unknown stream view {other:?}").into()),
                };
                options = options.stream(view);
            }
            Long("deletion-protection") => options = options.deletion_protection(true),
            Long("point-in-time-recovery") => options = options.point_in_time_recovery(true),
            Long("tag") => {
                let text = parser.value()?.string()?;
                let (key, value) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--tag takes KEY=VALUE, not {text:?}"))?;
                options = options.tag(key, value);
            }
            Short('h') | Long("help") => {
                println!("{USAGE}");
                return Ok(None);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    if positional.first().map(String::as_str) == Some("list") {
        for (app, _) in APPS {
            println!("{app}");
        }
        return Ok(None);
    }
    let [format, app] = <[String; 2]>::try_from(positional)
        .map_err(|_| format!("a format and an app are needed\n\n{USAGE}"))?;
    Ok(Some(Args {
        format,
        app,
        name,
        options,
    }))
}

fn capacity(text: &str) -> Result<(i64, i64), lexopt::Error> {
    let parsed = text
        .split_once(',')
        .and_then(|(read, write)| Some((read.parse().ok()?, write.parse().ok()?)));
    parsed.ok_or_else(|| format!("capacity is READ,WRITE, not {text:?}").into())
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // Display, not Debug: the messages name the option and the limit it breaks.
        Err(err) => {
            eprintln!("infra: {err}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let Some(args) = args()? else {
        return Ok(());
    };
    let Some((_, define)) = APPS.iter().find(|(app, _)| *app == args.app) else {
        return Err(format!("unknown app {:?}; `infra list` names them", args.app).into());
    };
    let definition = define(args.name.as_deref().unwrap_or(&args.app), &args.options)?;
    let json = |value: &serde_json::Value| serde_json::to_string_pretty(value);
    let text = match args.format.as_str() {
        "create-table" => json(&definition.create_table_json())?,
        "update-time-to-live" => json(&definition.update_time_to_live_json().into())?,
        "update-continuous-backups" => json(&definition.update_continuous_backups_json().into())?,
        "cloudformation" => json(&definition.cloudformation_template())?,
        "cloudformation-yaml" => definition.cloudformation_yaml(),
        "terraform" => json(&definition.terraform_json())?,
        other => return Err(format!("unknown format {other:?}\n\n{USAGE}").into()),
    };
    println!("{}", text.trim_end());
    Ok(())
}
