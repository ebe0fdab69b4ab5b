//! Renders the stored-forms entity in a build where `time`'s `serde-human-readable` feature
//! is on, and checks every attribute against the values pinned for the suite's own build
//! (`tests/support/stored_forms.rs`). Exits non-zero (a panic) on any difference.

#[path = "../../support/stored_forms.rs"]
#[allow(
    dead_code,
    reason = "the guide's table is checked by the suite, not here"
)]
mod fixture;

use dynamap::Entity;

fn main() {
    // The feature is on in this build: serde writes `time`'s values as text here.
    let serde_form = serde_json::to_value(fixture::sample("hr").offset).expect("serializes");
    assert!(
        serde_form.is_string(),
        "time's serde-human-readable is off in this build: {serde_form}"
    );

    let item = fixture::sample("hr").to_item().expect("renders");
    fixture::assert_pinned(&item);
    assert_eq!(
        Kinds::from_item(item).expect("reads"),
        fixture::sample("hr")
    );

    for (id, forms) in [
        ("plain", fixture::serde_forms()),
        ("human", fixture::human_readable_forms()),
    ] {
        let read = Kinds::from_item(fixture::item_with(id, forms)).expect("an old form reads");
        assert_eq!(read, fixture::sample(id), "{id}");
    }
    println!("stored forms: the same with time's serde-human-readable feature on");
}

use fixture::Kinds;
