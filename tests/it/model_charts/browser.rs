//! The HTML page in a real browser: headless Chromium renders the sensors model's page,
//! takes its picture (saved under `target/`) and gives back the DOM it built, whose text
//! must show every entity and index. Skips, saying so, where no Chromium is installed (CI
//! installs the Debian package `chromium`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Chromium may be: `DYNAMAP_CHROMIUM`, then the usual names on the `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DYNAMAP_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Runs Chromium headless on `page` with `args`, in a profile of its own, offline.
fn run(browser: &Path, page: &Path, args: &[&str]) -> Vec<u8> {
    let profile = std::env::temp_dir().join(format!("dynamap-chromium-{}", std::process::id()));
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("Chromium starts");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        output.status.success(),
        "Chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The text a reader sees: the DOM without its tags, entities decoded.
fn text_of(dom: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in dom.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn html_page_shows_every_entity_and_index_in_headless_chromium() {
    let Some(browser) = chromium() else {
        println!(
            "SKIPPED html_page_shows_every_entity_and_index_in_headless_chromium: no Chromium \
             found (install the Debian package `chromium`, or set DYNAMAP_CHROMIUM)"
        );
        return;
    };
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("model");
    std::fs::create_dir_all(&folder).expect("the artifact folder");
    let page = folder.join("sensors.html");
    let model = example_support::sensors::model().expect("the model");
    std::fs::write(&page, model.html()).expect("the page written");

    let dom = String::from_utf8(run(&browser, &page, &["--dump-dom"])).expect("UTF-8");
    let text = text_of(&dom);
    for shown in [
        // Every entity, its lookup items and every index, in the charts and the items.
        "Entity chart Entity PK SK GSI1PK GSI1SK Sensor SENSOR#{id} SENSORINFO CITY#{city} LOC#{building}#{floor}#{room}",
        "Sensor.site (lookup) SITE#{city} BUILDING#{building}#{floor}#{id}",
        "Reading SENSOR#{sensor_id} READ#{at}",
        "Latest readings of a sensor Query table PK = \"SENSOR#{sensor_id}\" AND begins_with(SK, \"READ#\")",
        "Sensors by location (with a room) Query GSI1",
        "Items of table sensors PK SK Attributes SENSOR#humidity-sensor-1 READ#2020-03-01T12:30:00.000000000Z Reading",
        "SITE#Poznań BUILDING#A#3#humidity-sensor-1 Sensor.site",
        "Index GSI1 (global secondary index) GSI1PK GSI1SK Attributes CITY#Poznań LOC#A#3#112 Sensor",
    ] {
        assert!(
            text.contains(shown),
            "the page does not show {shown:?}:\n{text}"
        );
    }
    // Only the sensor with a room is in the index.
    let index = &text[text.find("Index GSI1").expect("the index")..];
    assert!(!index.contains("rain-sensor-8"), "{index}");

    let picture = folder.join("sensors.png");
    let _ = std::fs::remove_file(&picture);
    run(
        &browser,
        &page,
        &[
            "--window-size=1280,1300",
            &format!("--screenshot={}", picture.display()),
        ],
    );
    let png = std::fs::read(&picture).expect("the screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // A blank page of that size compresses to a few kilobytes; the charts take far more.
    assert!(png.len() > 50_000, "a {} byte picture", png.len());
    println!("screenshot: {}", picture.display());
}
