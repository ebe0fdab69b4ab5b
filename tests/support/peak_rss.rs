//! The peak resident set of this process (`VmHWM`), for the memory measurements that run in a
//! process of their own (the maintenance benchmark, the export memory program).

/// The peak resident set of this process, in KiB.
pub(crate) fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}
