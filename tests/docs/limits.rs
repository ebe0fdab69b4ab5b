//! The limits the README, the guide, the design notes and `ARCHITECTURE.md` state are the
//! ones the code checks (`dynamap::limits`, `dynamap::batch`, `dynamap::transact`).
//!
//! Each phrase below is how the documents state one limit, with `{n}` where the number
//! goes; every place a phrase occurs must hold the code's number, and every phrase must
//! occur somewhere (a phrase no document uses any more is removed here, not left to pass).

use dynamap::batch::{MAX_GET_CHUNK, MAX_WRITE_CHUNK};
use dynamap::limits::{MAX_ITEM_BYTES, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES};
use dynamap::transact::{MAX_ACTIONS, MAX_TRANSACTION_BYTES};

use crate::{markdown_in, read};

const KB: usize = 1024;

/// (phrase, the code's number, what it is).
fn phrases() -> Vec<(&'static str, usize, &'static str)> {
    vec![
        ("{n}-byte item", MAX_ITEM_BYTES, "MAX_ITEM_BYTES"),
        ("item over {n} bytes", MAX_ITEM_BYTES, "MAX_ITEM_BYTES"),
        (
            "stored size in bytes, up to {n}",
            MAX_ITEM_BYTES,
            "MAX_ITEM_BYTES",
        ),
        ("`MAX_ITEM_BYTES` ({n})", MAX_ITEM_BYTES, "MAX_ITEM_BYTES"),
        ("{n} KB item", MAX_ITEM_BYTES / KB, "MAX_ITEM_BYTES in KB"),
        (
            "must fit {n} KB",
            MAX_ITEM_BYTES / KB,
            "MAX_ITEM_BYTES in KB",
        ),
        (
            "{n}-byte partition key",
            MAX_PARTITION_KEY_BYTES,
            "MAX_PARTITION_KEY_BYTES",
        ),
        (
            "partition key over {n} bytes",
            MAX_PARTITION_KEY_BYTES,
            "MAX_PARTITION_KEY_BYTES",
        ),
        (
            "`MAX_PARTITION_KEY_BYTES` ({n})",
            MAX_PARTITION_KEY_BYTES,
            "MAX_PARTITION_KEY_BYTES",
        ),
        (
            "{n}-byte sort key",
            MAX_SORT_KEY_BYTES,
            "MAX_SORT_KEY_BYTES",
        ),
        (
            "sort key over {n}",
            MAX_SORT_KEY_BYTES,
            "MAX_SORT_KEY_BYTES",
        ),
        (
            "`MAX_SORT_KEY_BYTES` ({n})",
            MAX_SORT_KEY_BYTES,
            "MAX_SORT_KEY_BYTES",
        ),
        ("{n} writes and", MAX_WRITE_CHUNK, "MAX_WRITE_CHUNK"),
        ("written {n} a call", MAX_WRITE_CHUNK, "MAX_WRITE_CHUNK"),
        (
            "Items go {n} to a `BatchWriteItem` call",
            MAX_WRITE_CHUNK,
            "MAX_WRITE_CHUNK",
        ),
        ("{n} keys per call", MAX_GET_CHUNK, "MAX_GET_CHUNK"),
        ("{n} keys a call", MAX_GET_CHUNK, "MAX_GET_CHUNK"),
        ("{n} reads per batch call", MAX_GET_CHUNK, "MAX_GET_CHUNK"),
        ("{n} actions", MAX_ACTIONS, "MAX_ACTIONS"),
        (
            "up to {n} items of any entity types",
            MAX_ACTIONS,
            "MAX_ACTIONS (reads)",
        ),
        (
            "at most {n} items, none",
            MAX_ACTIONS,
            "MAX_ACTIONS (reads)",
        ),
        ("({n} reads)", MAX_ACTIONS, "MAX_ACTIONS (reads)"),
        (
            "actions, {n} MB",
            MAX_TRANSACTION_BYTES / KB / KB,
            "MAX_TRANSACTION_BYTES in MB",
        ),
        (
            "actions and {n} MB",
            MAX_TRANSACTION_BYTES / KB / KB,
            "MAX_TRANSACTION_BYTES in MB",
        ),
        (
            "at most {n} MB of items",
            MAX_TRANSACTION_BYTES / KB / KB,
            "MAX_TRANSACTION_BYTES in MB",
        ),
    ]
}

/// The documents that state limits, with runs of white space made one space (a phrase may
/// be broken across lines).
fn documents() -> Vec<(String, String)> {
    let mut files: Vec<String> = ["README.md", "ARCHITECTURE.md", "dynamap/src/lib.rs"]
        .map(str::to_owned)
        .to_vec();
    for folder in ["docs/guide", "docs/design"] {
        files.extend(markdown_in(folder).iter().map(|p| p.display().to_string()));
    }
    files
        .into_iter()
        .map(|file| {
            // The crate docs' `//!` markers joined away, as rustdoc reads them.
            let text = read(&file).replace("//!", " ");
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            (file, text)
        })
        .collect()
}

/// The numbers `phrase` states in `text`: `1,024` is 1024. An occurrence with no number in
/// the `{n}` place (`up to the limit`) states none.
fn stated(text: &str, phrase: &str) -> Vec<usize> {
    let (before, after) = phrase.split_once("{n}").expect("a phrase holds {n}");
    let number_chars = |c: char| c.is_ascii_digit() || c == ',';
    let mut found = Vec::new();
    if before.is_empty() {
        for (at, _) in text.match_indices(after) {
            let head = &text[..at];
            let digits = head.len() - head.trim_end_matches(number_chars).len();
            let number = head[at - digits..].trim_start_matches(',');
            // A number glued to a word before it (`v2`) is not a stated limit.
            let glued = head[..at - digits]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
            if let (false, Ok(n)) = (glued, number.replace(',', "").parse()) {
                found.push(n);
            }
        }
    } else {
        for (at, _) in text.match_indices(before) {
            let tail = &text[at + before.len()..];
            let number = tail.trim_start_matches(|c: char| c.is_ascii_digit() || c == ',');
            let digits = &tail[..tail.len() - number.len()];
            if number.starts_with(after)
                && let Ok(n) = digits.trim_end_matches(',').replace(',', "").parse()
            {
                found.push(n);
            }
        }
    }
    found
}

#[test]
fn every_stated_limit_is_the_codes() {
    let documents = documents();
    let mut wrong = Vec::new();
    for (phrase, limit, name) in phrases() {
        let mut uses = 0;
        for (file, text) in &documents {
            for n in stated(text, phrase) {
                uses += 1;
                if n != limit {
                    wrong.push(format!(
                        "{file}: \"{}\" where the code has {limit} ({name})",
                        phrase.replace("{n}", &n.to_string())
                    ));
                }
            }
        }
        assert!(
            uses > 0,
            "no document says \"{phrase}\" any more: remove the phrase here"
        );
    }
    assert!(
        wrong.is_empty(),
        "documented limits that are not the code's:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_phrase_finds_the_number_in_its_place() {
    assert_eq!(
        stated("the 1,024-byte sort key", "{n}-byte sort key"),
        [1024]
    );
    assert_eq!(
        stated("an item over 409,600 bytes, or", "item over {n} bytes"),
        [409_600]
    );
    assert_eq!(
        stated("item over the limit bytes", "item over {n} bytes"),
        Vec::<usize>::new()
    );
    assert_eq!(stated("v2 actions and 99 actions", "{n} actions"), [99]);
    assert_eq!(stated("(100 actions, 4 MB, no", "actions, {n} MB"), [4]);
}
