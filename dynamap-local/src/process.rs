//! Starting DynamoDB Local and waiting until it serves requests.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::{children, install, probe};
use crate::{Error, Result};

/// A cold JVM on a busy CI machine takes a few seconds; a minute means something is wrong.
const READY_TIMEOUT: Duration = Duration::from_secs(60);

const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// The free port we picked may be taken by another process before Java binds it.
const START_ATTEMPTS: u32 = 3;

/// How long a log left behind by a killed process is kept.
const LOG_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// Extra JVM options, e.g. `-Xmx4g` to raise the heap (the last `-Xmx` wins).
const JAVA_OPTS_VAR: &str = "DYNAMAP_LOCAL_JAVA_OPTS";

/// A running DynamoDB Local, killed when dropped.
#[derive(Debug)]
pub(super) struct Server {
    id: u32,
    port: u16,
    log: Option<PathBuf>,
    keep_log: bool,
}

/// Why one start attempt failed.
enum Failed {
    /// Java could not bind the port: worth another attempt on another port.
    PortTaken(Error),
    Other(Error),
}

impl From<Error> for Failed {
    fn from(e: Error) -> Self {
        Failed::Other(e)
    }
}

impl Server {
    /// Installs DynamoDB Local if needed, starts it on a free port and waits until it answers.
    pub(super) fn start() -> Result<Self> {
        let cache = install::cache_dir()?;
        let distribution = install::distribution(&cache)?;
        let mut attempt = 1;
        loop {
            match Self::start_once(&cache, &distribution) {
                Ok(server) => return Ok(server),
                Err(Failed::PortTaken(_)) if attempt < START_ATTEMPTS => attempt += 1,
                Err(Failed::PortTaken(e) | Failed::Other(e)) => return Err(e),
            }
        }
    }

    pub(super) fn port(&self) -> u16 {
        self.port
    }

    fn start_once(cache: &Path, distribution: &Path) -> Result<Self, Failed> {
        let port =
            free_port().map_err(|e| Error::Setup(format!("cannot find a free local port: {e}")))?;
        let (log, output) = open_log(cache, port);
        let mut command = java_command(distribution, port);
        // DynamoDB Local may write files next to where it runs; keep them out of the user's crate.
        command.current_dir(cache).stdin(Stdio::null());
        match output.and_then(|file| Ok((file.try_clone()?, file))) {
            Ok((stdout, stderr)) => command.stdout(stdout).stderr(stderr),
            // Inheriting would flood test output; losing the log only makes failures terser.
            Err(_) => command.stdout(Stdio::null()).stderr(Stdio::null()),
        };
        let id = children::spawn(command, log.clone()).map_err(|e| {
            // Nothing ran, so the log is empty.
            if let Some(log) = &log {
                let _ = fs::remove_file(log);
            }
            match e.kind() {
                io::ErrorKind::NotFound => Error::Setup(
                    "java not found: install a Java runtime, version 17 or newer (or set \
                     JAVA_HOME), or set AWS_ENDPOINT_URL_DYNAMODB to a running DynamoDB"
                        .to_owned(),
                ),
                _ => Error::Setup(format!("cannot start java: {e}")),
            }
        })?;
        let mut server = Server {
            id,
            port,
            log,
            keep_log: false,
        };
        match server.wait_ready() {
            Ok(()) => Ok(server),
            Err(failed) => {
                // The error points at the log, so it must survive the drop.
                server.keep_log = true;
                Err(failed)
            }
        }
    }

    /// Polls with real requests until one succeeds, the child exits, or time runs out.
    fn wait_ready(&self) -> Result<(), Failed> {
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            let answer = probe::list_tables_status(self.port);
            // Checked after the request too: if Java lost the port to another DynamoDB Local,
            // that one would answer in its place.
            if let Some(status) = children::exit_status(self.id) {
                let e = Error::Setup(format!(
                    "java exited ({status}) before DynamoDB Local answered; its output is in {}",
                    self.log_name()
                ));
                return Err(if self.port_was_taken() {
                    Failed::PortTaken(e)
                } else {
                    Failed::Other(e)
                });
            }
            let last = match answer {
                Ok(200) => return Ok(()),
                Ok(code) => format!("HTTP {code}"),
                Err(e) => e.to_string(),
            };
            if Instant::now() >= deadline {
                return Err(Failed::Other(Error::Setup(format!(
                    "DynamoDB Local on port {} did not answer ListTables within {} s \
                     (last try: {last}); its output is in {}",
                    self.port,
                    READY_TIMEOUT.as_secs(),
                    self.log_name()
                ))));
            }
            thread::sleep(POLL_INTERVAL);
        }
    }

    fn port_was_taken(&self) -> bool {
        let text = self
            .log
            .as_ref()
            .and_then(|log| fs::read_to_string(log).ok())
            .unwrap_or_default();
        text.contains("BindException") || text.contains("Address already in use")
    }

    fn log_name(&self) -> String {
        match &self.log {
            Some(log) => log.display().to_string(),
            None => "nowhere (the log file could not be created)".to_owned(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        children::stop(self.id, self.keep_log);
    }
}

/// A port nobody listens on right now. The listener is dropped so Java can bind the port.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// A log file per server, so parallel test binaries do not interleave their output.
fn open_log(cache: &Path, port: u16) -> (Option<PathBuf>, io::Result<File>) {
    let dir = cache.join("logs");
    prune_logs(&dir);
    let path = dir.join(format!("dynamodb-local-{}-{port}.log", std::process::id()));
    match fs::create_dir_all(&dir).and_then(|()| File::create(&path)) {
        Ok(file) => (Some(path), Ok(file)),
        Err(e) => (None, Err(e)),
    }
}

/// Logs are deleted when a server stops in good health, but a killed process leaves its log
/// behind; a week is plenty to read one after a failure.
fn prune_logs(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|entry| entry.ok()) {
        let age = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|time| time.elapsed().ok());
        if age.is_some_and(|age| age > LOG_MAX_AGE)
            && entry.path().extension().is_some_and(|ext| ext == "log")
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn java_command(distribution: &Path, port: u16) -> Command {
    let mut library_path = OsString::from("-Djava.library.path=");
    library_path.push(distribution.join("DynamoDBLocal_lib"));
    let mut command = Command::new(java_binary());
    command.arg("-Xmx1g").arg(library_path);
    if let Some(opts) = std::env::var_os(JAVA_OPTS_VAR) {
        command.args(opts.to_string_lossy().split_whitespace());
    }
    command
        .arg("-jar")
        .arg(distribution.join(install::JAR))
        // Tests should not phone home.
        .args(["-inMemory", "-sharedDb", "-disableTelemetry", "-port"])
        .arg(port.to_string());
    command
}

/// `$JAVA_HOME/bin/java` when that exists, since JAVA_HOME is how users pick among several
/// installed JDKs; otherwise `java` from the PATH.
fn java_binary() -> PathBuf {
    let name = format!("java{}", std::env::consts::EXE_SUFFIX);
    std::env::var_os("JAVA_HOME")
        .filter(|home| !home.is_empty())
        .map(|home| PathBuf::from(home).join("bin").join(&name))
        .filter(|java| java.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}
