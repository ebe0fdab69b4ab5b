//! The data model of the example apps, drawn from their code: for each app, the entity
//! chart and access-pattern chart in Markdown, a self-contained HTML page with sample items
//! laid out by partition, and a NoSQL Workbench data model to import.
//!
//! ```text
//! cargo run --example model             # writes into target/model/
//! cargo run --example model -- docs/x   # or into the folder given
//! ```
//!
//! Needs no connection: the samples are the apps' own values.

use std::path::PathBuf;

use dynamap::Table;
use dynamap::model::Model;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("target/model"), PathBuf::from);
    std::fs::create_dir_all(&folder)?;
    write(&folder, "sensors", &example_support::sensors::model()?)?;
    write(&folder, "gaming", &example_support::gaming::model()?)?;
    write(&folder, "timeline", &example_support::timeline::model()?)?;
    write(&folder, "sleep_events", &example_support::nights::model()?)?;
    write(&folder, "iot", &example_support::iot::model()?)?;
    Ok(())
}

/// Writes `<app>.md`, `<app>.html` and `<app>.workbench.json` into `folder`.
fn write<L: Table>(
    folder: &std::path::Path,
    app: &str,
    model: &Model<L>,
) -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        (format!("{app}.md"), model.markdown()),
        (format!("{app}.html"), model.html()),
        (
            format!("{app}.workbench.json"),
            serde_json::to_string_pretty(&model.workbench_json()?)? + "\n",
        ),
    ];
    for (name, text) in files {
        let path = folder.join(name);
        std::fs::write(&path, text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
