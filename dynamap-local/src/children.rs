//! Owning the Java processes so that none outlives this process.
//!
//! The shared server lives in a static that is never dropped, and test binaries end with
//! `exit`, so `Drop` alone cannot clean up. Three mechanisms together cover every ending:
//!
//! * `Drop` of a dedicated server kills it right away;
//! * an `atexit` hook kills whatever is left on a normal exit, on every platform;
//! * on Linux, `PR_SET_PDEATHSIG` makes the kernel kill the child when we die in any way,
//!   even by `SIGKILL` or an abort, where no hook runs.
//!
//! The kernel sends the death signal when the *thread* that spawned the child ends, not the
//! process. Test harnesses run each test on its own short-lived thread, and async runtimes
//! retire idle blocking threads, so every child is spawned by one dedicated thread that never
//! ends.

use std::mem;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError, TryLockError};
use std::thread;
use std::time::{Duration, Instant};
use std::{fs, io};

/// How long the exit hook waits for another thread to release the registry. Exiting must not
/// hang; after this the Linux death signal is the only cleanup left.
const EXIT_LOCK_PATIENCE: Duration = Duration::from_millis(500);

/// A running child and the file its output goes to.
struct Entry {
    child: Child,
    log: Option<PathBuf>,
}

/// Every child not yet stopped, so the exit hook can find them.
static CHILDREN: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// A request to the spawner thread.
struct Job {
    command: Command,
    log: Option<PathBuf>,
    reply: Sender<io::Result<u32>>,
}

/// Spawns `command` from the spawner thread and takes ownership of the child, returning its id.
/// `log` is deleted when the child is stopped in good health.
pub(super) fn spawn(command: Command, log: Option<PathBuf>) -> io::Result<u32> {
    static SPAWNER: OnceLock<io::Result<Sender<Job>>> = OnceLock::new();
    let gone = || io::Error::other("the dynamap-local-spawner thread is gone");
    let spawner = match SPAWNER.get_or_init(start_spawner) {
        Ok(spawner) => spawner,
        Err(e) => {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot start a spawner thread: {e}"),
            ));
        }
    };
    let (reply, answer) = mpsc::channel();
    spawner
        .send(Job {
            command,
            log,
            reply,
        })
        .map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

fn start_spawner() -> io::Result<Sender<Job>> {
    register_exit_hook();
    let (jobs, queue) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("dynamap-local-spawner".to_owned())
        .spawn(move || {
            for mut job in queue {
                let spawned = job.run();
                let _ = job.reply.send(spawned);
            }
            // The sender sits in a static, so the queue never closes; should it ever, the
            // thread must stay anyway, since its end would kill every child.
            loop {
                thread::park();
            }
        })?;
    Ok(jobs)
}

impl Job {
    fn run(&mut self) -> io::Result<u32> {
        die_with_parent(&mut self.command);
        let child = self.command.spawn()?;
        let id = child.id();
        registry().push(Entry {
            child,
            log: self.log.take(),
        });
        Ok(id)
    }
}

/// The child's exit status if it has exited, `None` while it runs.
pub(super) fn exit_status(id: u32) -> Option<ExitStatus> {
    let mut children = registry();
    let entry = children.iter_mut().find(|entry| entry.child.id() == id)?;
    entry.child.try_wait().ok().flatten()
}

/// Kills child `id` and waits for it. Its log is kept if `keep_log` is set or the child had
/// already died on its own, since then the log tells why.
pub(super) fn stop(id: u32, keep_log: bool) {
    let entry = {
        let mut children = registry();
        match children.iter().position(|entry| entry.child.id() == id) {
            Some(i) => children.swap_remove(i),
            None => return,
        }
    };
    shut_down(entry, keep_log);
}

fn shut_down(mut entry: Entry, keep_log: bool) {
    let died_on_its_own = matches!(entry.child.try_wait(), Ok(Some(_)));
    // An in-memory database has nothing to save, so there is no point in asking politely.
    let _ = entry.child.kill();
    let _ = entry.child.wait();
    if let Some(log) = entry.log.filter(|_| !keep_log && !died_on_its_own) {
        let _ = fs::remove_file(log);
    }
}

/// A poisoned lock only means a panic elsewhere; the list itself is always consistent.
fn registry() -> MutexGuard<'static, Vec<Entry>> {
    CHILDREN.lock().unwrap_or_else(PoisonError::into_inner)
}

extern "C" fn stop_all_at_exit() {
    let deadline = Instant::now() + EXIT_LOCK_PATIENCE;
    let entries = loop {
        match CHILDREN.try_lock() {
            Ok(mut children) => break mem::take(&mut *children),
            Err(TryLockError::Poisoned(poisoned)) => break mem::take(&mut *poisoned.into_inner()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                thread::sleep(Duration::from_millis(1))
            }
            Err(TryLockError::WouldBlock) => return,
        }
    };
    for entry in entries {
        shut_down(entry, false);
    }
}

/// Registers [`stop_all_at_exit`] with the C runtime.
///
/// `atexit` is the only hook that runs on a normal exit, including the `exit` that ends a test
/// binary. It is declared here rather than taken from `libc` because `libc` is only a Linux
/// dependency, while every platform needs the hook; it is ISO C, in every C runtime Rust links.
#[allow(unsafe_code)] // FFI call; the handler is a plain `extern "C" fn` that cannot unwind.
fn register_exit_hook() {
    unsafe extern "C" {
        fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
    }
    // SAFETY: `atexit` only stores the pointer; the handler is a `'static` function taking no
    // arguments and returns normally (a panic in an `extern "C" fn` aborts instead of unwinding).
    // A failure (the C runtime's table is full) leaves the other two mechanisms.
    let _ = unsafe { atexit(stop_all_at_exit) };
}

/// Asks the kernel to `SIGKILL` the child when the spawning thread, the never-ending spawner,
/// goes away, which happens only when this process dies.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // `pre_exec` is unsafe: the hook runs between fork and exec.
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // Taken before the fork: in the child, `getppid` must still report this process.
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: between fork and exec only async-signal-safe calls are allowed; the hook makes two
    // system calls and builds errors from raw codes, which allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            // Had we died before the prctl took effect, no signal would ever come.
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_command: &mut Command) {}
