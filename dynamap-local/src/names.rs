//! Unique table names, so every test gets a table of its own.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// DynamoDB's limit on table name length.
const MAX_LEN: usize = 255;

/// Room kept for the `-<pid>-<counter>-<time>` suffix: at most 10 + 20 + 25 digits and 3 dashes.
const SUFFIX_ROOM: usize = 58;

/// A table name no other call in this process, and no earlier run with the same process id,
/// has produced.
///
/// The process id keeps parallel test binaries apart, the counter keeps tests within one process
/// apart, and the time keeps runs apart on a long-lived server reached through
/// `AWS_ENDPOINT_URL_DYNAMODB`, where a recycled process id would otherwise silently reuse an
/// old table (`create_table` accepts an existing table).
pub(super) fn unique_table_name(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    // A clock before 1970 only weakens the cross-run part; the counter still separates tests.
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    table_name(prefix, std::process::id(), n, millis)
}

fn table_name(prefix: &str, pid: u32, n: u64, millis: u128) -> String {
    let mut name: String = prefix
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(MAX_LEN - SUFFIX_ROOM)
        .collect();
    if name.is_empty() {
        name.push_str("dynamap");
    }
    name.push_str(&format!("-{pid}-{n}-{}", base36(millis)));
    name
}

/// Shorter than decimal, and still only uses characters DynamoDB allows.
fn base36(mut n: u128) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.iter().rev().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_valid(name: &str) -> bool {
        (3..=MAX_LEN).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    }

    #[test]
    fn keeps_a_valid_prefix_and_appends_pid_counter_and_time() {
        assert_eq!(
            table_name("my_test", 42, 7, 36 * 36 + 35),
            "my_test-42-7-10z"
        );
    }

    #[test]
    fn replaces_characters_dynamodb_rejects() {
        assert_eq!(table_name("a b/c:ü", 1, 0, 0), "a_b_c__-1-0-0");
    }

    #[test]
    fn empty_prefix_still_gives_a_readable_name() {
        assert_eq!(table_name("", 1, 2, 3), "dynamap-1-2-3");
    }

    #[test]
    fn long_prefixes_are_cut_to_fit_the_length_limit() {
        let name = table_name(&"x".repeat(1000), u32::MAX, u64::MAX, u128::MAX);
        assert!(is_valid(&name), "{name}");
    }

    #[test]
    fn successive_names_differ() {
        let (a, b) = (unique_table_name("t"), unique_table_name("t"));
        assert_ne!(a, b);
        assert!(is_valid(&a) && is_valid(&b));
    }

    #[test]
    fn base36_digits() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
    }
}
