//! CPU time, to see which side of a comparison costs the machine more: this process's,
//! that of its children (DynamoDB Local, when this process started it), and of DynamoDB
//! Local's `SQLiteQueue` thread, which runs every request's storage work one at a time
//! (the server's bottleneck on two cores), from `/proc` (Linux only; elsewhere zero).

/// CPU seconds so far.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cpu {
    /// This process.
    pub(crate) bench: f64,
    /// Its direct children: DynamoDB Local.
    pub(crate) server: f64,
    /// DynamoDB Local's storage thread.
    pub(crate) storage: f64,
}

impl std::ops::Sub for Cpu {
    type Output = Cpu;
    fn sub(self, earlier: Cpu) -> Cpu {
        Cpu {
            bench: self.bench - earlier.bench,
            server: self.server - earlier.server,
            storage: self.storage - earlier.storage,
        }
    }
}

/// CPU seconds this process, its direct children and their storage threads have run.
pub(crate) fn cpu_seconds() -> Cpu {
    let me = std::process::id();
    let bench = stat_seconds(&format!("/proc/{me}/stat")).map_or(0.0, |(_, s)| s);
    let children: Vec<std::path::PathBuf> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            stat_seconds(&format!("{}/stat", path.display())).is_some_and(|(p, _)| p == me)
        })
        .collect();
    let server = children
        .iter()
        .filter_map(|path| stat_seconds(&format!("{}/stat", path.display())))
        .map(|(_, s)| s)
        .sum();
    let storage = children
        .iter()
        .filter_map(|path| std::fs::read_dir(path.join("task")).ok())
        .flatten()
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|comm| comm.starts_with("SQLiteQueue"))
        })
        .filter_map(|task| stat_seconds(&format!("{}/stat", task.path().display())))
        .map(|(_, s)| s)
        .sum();
    Cpu {
        bench,
        server,
        storage,
    }
}

/// A process's (or thread's) parent and its CPU seconds (`utime` + `stime`, at 100 ticks
/// a second).
fn stat_seconds(path: &str) -> Option<(u32, f64)> {
    let text = std::fs::read_to_string(path).ok()?;
    // The command name may hold spaces: the fields start after its closing parenthesis.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let parent = fields.get(1)?.parse().ok()?;
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some((parent, ticks / 100.0))
}
