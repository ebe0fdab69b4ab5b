//! Compiler errors the guide quotes are the ones the compiler gives: each quote, marked
//! `<!-- quoted from ui-tests/tests/ui/<case>.stderr -->` before its code block, is a run of
//! whole lines of that ui test's `.stderr`, which trybuild checks against the compiler.

use crate::{markdown_in, read};

const MARK: &str = "<!-- quoted from ";

/// (chapter, the `.stderr` named, the quoted lines) for every marked quote of the guide.
fn quotes() -> Vec<(String, String, Vec<String>)> {
    let mut quotes = Vec::new();
    for chapter in markdown_in("docs/guide") {
        let chapter = chapter.display().to_string();
        let text = read(&chapter);
        for marked in text.split(MARK).skip(1) {
            let (source, rest) = marked
                .split_once(" -->")
                .expect("a quote mark ends with -->");
            let block = rest
                .trim_start()
                .strip_prefix("```text\n")
                .and_then(|block| block.split_once("\n```"))
                .map(|(block, _)| block)
                .unwrap_or_else(|| {
                    panic!("{chapter}: no ```text block after the mark for {source}")
                });
            quotes.push((
                chapter.clone(),
                source.to_owned(),
                block.lines().map(str::to_owned).collect(),
            ));
        }
    }
    quotes
}

#[test]
fn every_quoted_compiler_error_is_the_ui_tests() {
    let quotes = quotes();
    for (chapter, source, quoted) in &quotes {
        assert!(
            source.ends_with(".stderr"),
            "{chapter}: quotes {source}, not a ui test's .stderr"
        );
        let stderr = read(source);
        let lines: Vec<&str> = stderr.lines().collect();
        let first = quoted.first().expect("a quote has lines");
        assert!(
            first.starts_with("error"),
            "{chapter}: a quote of {source} starts at its error line"
        );
        let found = lines
            .windows(quoted.len())
            .any(|window| window.iter().zip(quoted).all(|(line, quote)| line == quote));
        assert!(
            found,
            "{chapter} quotes lines that are not in {source} as they stand:\n{}\n--- {source} is:\n{stderr}",
            quoted.join("\n")
        );
    }
    // The encryption chapter's refusals are quoted, not paraphrased.
    let encryption: Vec<&str> = quotes
        .iter()
        .filter(|(chapter, ..)| chapter.ends_with("encryption.md"))
        .map(|(_, source, _)| source.as_str())
        .collect();
    assert_eq!(
        encryption,
        [
            "ui-tests/tests/ui/encrypted_field_in_condition.stderr",
            "ui-tests/tests/ui/encrypted_field_in_update.stderr"
        ]
    );
}
