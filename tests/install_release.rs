//! The install paths a new user takes, played against a local directory laid out like
//! a GitHub release (BASE/download/vX.Y.Z/ASSET, BASE/latest/download/ASSET): the
//! archive is packed from the binary under test by scripts/package-release.sh (what
//! the release workflow runs), then scripts/install.sh and the GitHub Action's install
//! step (action.yml) install it, a corrupted archive is refused, and the README's demo
//! runs with the installed binary. Unix only (sh, symlinks); the release workflow's
//! Action job runs the same install on Windows and macOS.
#![cfg(unix)]

mod bin_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use yaml_rust2::YamlLoader;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn text(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn run(command: &mut Command) -> Output {
    command.output().expect("start the command")
}

/// The release target install.sh picks on this machine.
fn host_target() -> String {
    let out =
        run(Command::new("sh").args([&format!("{ROOT}/scripts/install.sh"), "--print-target"]));
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The archive of the binary under test and its checksum file, packed once for
/// every test here (gzip of a debug binary takes seconds).
fn packed_assets() -> &'static Path {
    static PACKED: OnceLock<tempfile::TempDir> = OnceLock::new();
    PACKED
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let out = run(Command::new("bash").args([
                &format!("{ROOT}/scripts/package-release.sh"),
                bin_support::BIN,
                &host_target(),
                dir.path().to_str().unwrap(),
            ]));
            assert!(out.status.success(), "{}", text(&out));
            dir
        })
        .path()
}

/// A release directory of its own (a test may corrupt it) under `parent`, holding the
/// packed assets under both download/vVERSION and latest/download.
fn release_dir(parent: &Path) -> PathBuf {
    let base = parent.join("releases");
    let assets = base.join(format!("download/v{VERSION}"));
    std::fs::create_dir_all(&assets).unwrap();
    for entry in std::fs::read_dir(packed_assets()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), assets.join(entry.file_name())).unwrap();
    }
    std::fs::create_dir_all(base.join("latest")).unwrap();
    std::os::unix::fs::symlink(&assets, base.join("latest/download")).unwrap();
    base
}

fn install_sh(args: &[&str]) -> Output {
    let mut command = Command::new("sh");
    command.arg(format!("{ROOT}/scripts/install.sh")).args(args);
    bin_support::isolate(&mut command);
    run(&mut command)
}

/// The README's demo command (its `check --offline … fixtures/demo/paper.md` line),
/// as arguments for an installed `citeproof`.
fn readme_demo_args() -> Vec<String> {
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.contains(" check --offline --corpus fixtures/demo/"))
        .expect("README.md shows the demo command");
    let from_check = &line[line.find("check --offline").unwrap()..];
    from_check.split_whitespace().map(String::from).collect()
}

/// Runs the installed binary on the README demo; asserts the demo's findings.
fn assert_demo_runs(binary: &Path) {
    let cache = tempfile::tempdir().unwrap();
    let mut command = Command::new(binary);
    bin_support::isolate(&mut command)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("CITEPROOF_CACHE_DIR", cache.path())
        .args(readme_demo_args());
    let out = run(&mut command);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    for code in [
        "CP201", "CP202", "CP205", "CP207", "CP208", "CP209", "CP212",
    ] {
        assert!(
            stdout.contains(&format!("[{code}]")),
            "no {code}: {}",
            text(&out)
        );
    }
}

#[test]
fn install_script_installs_the_checksummed_archive_and_the_demo_runs() {
    let scratch = tempfile::tempdir().unwrap();
    let base = release_dir(scratch.path());
    let base_url = format!("file://{}", base.display());

    let pinned = scratch.path().join("pinned/bin");
    let out = install_sh(&[
        "--version",
        VERSION,
        "--base-url",
        &base_url,
        "--to",
        pinned.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let installed = run(Command::new(pinned.join("citeproof")).arg("--version"));
    assert!(
        String::from_utf8_lossy(&installed.stdout).contains(VERSION),
        "{}",
        text(&installed)
    );
    assert_demo_runs(&pinned.join("citeproof"));

    // No version: the latest release; the base given as a plain directory, by environment.
    let latest = scratch.path().join("latest/bin");
    let mut command = Command::new("sh");
    command.arg(format!("{ROOT}/scripts/install.sh"));
    bin_support::isolate(&mut command)
        .env("CITEPROOF_BASE_URL", &base)
        .env("CITEPROOF_INSTALL_DIR", &latest);
    let out = run(&mut command);
    assert!(out.status.success(), "{}", text(&out));
    assert!(latest.join("citeproof").is_file());
}

#[test]
fn install_script_refuses_a_corrupted_archive() {
    let scratch = tempfile::tempdir().unwrap();
    let target = host_target();
    let base = release_dir(scratch.path());
    let archive = base.join(format!("download/v{VERSION}/citeproof-{target}.tar.gz"));
    let mut bytes = std::fs::read(&archive).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&archive, bytes).unwrap();

    let dest = scratch.path().join("bin");
    let out = install_sh(&[
        "--version",
        VERSION,
        "--base-url",
        &format!("file://{}", base.display()),
        "--to",
        dest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("checksum mismatch"),
        "{}",
        text(&out)
    );
    assert!(!dest.join("citeproof").exists(), "installed anyway");

    // A release without this platform's archive: a clear error, nothing installed.
    let out = install_sh(&[
        "--version",
        "0.0.0-missing",
        "--base-url",
        base.to_str().unwrap(),
        "--to",
        dest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not download"));
}

/// The action's install step, run as GitHub runs it: bash, the action's checkout in
/// GITHUB_ACTION_PATH, inputs in INPUT_* variables. Returns the run and the PATH
/// entries it added.
fn action_install_step(scratch: &Path, release_url: &str) -> (Output, Vec<PathBuf>) {
    let action_text = std::fs::read_to_string(format!("{ROOT}/action.yml")).unwrap();
    let action = YamlLoader::load_from_str(&action_text).unwrap().remove(0);
    let step = action["runs"]["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .find(|s| s["name"].as_str() == Some("Install citeproof"))
        .expect("an Install citeproof step")
        .clone();
    assert_eq!(step["shell"].as_str(), Some("bash"));
    let runner_temp = scratch.join("runner-temp");
    std::fs::create_dir_all(&runner_temp).unwrap();
    let github_path = scratch.join("github-path");
    let mut command = Command::new("bash");
    bin_support::isolate(&mut command)
        .args(["-c", step["run"].as_str().unwrap()])
        .current_dir(scratch)
        .env("GITHUB_ACTION_PATH", ROOT)
        .env("RUNNER_TEMP", &runner_temp)
        .env("GITHUB_PATH", &github_path)
        .env("INPUT_RELEASE_URL", release_url)
        .env("INPUT_BUILD_FROM_SOURCE", "false")
        // The wheel fallback must not reach a package index from a test.
        .env("PIP_NO_INDEX", "1");
    let out = run(&mut command);
    let added = std::fs::read_to_string(&github_path)
        .unwrap_or_default()
        .lines()
        .map(PathBuf::from)
        .collect();
    (out, added)
}

#[test]
fn action_install_step_puts_the_release_binary_on_the_path() {
    let scratch = tempfile::tempdir().unwrap();
    let base = release_dir(scratch.path());
    let (out, added) = action_install_step(scratch.path(), &format!("file://{}", base.display()));
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("installed from the prebuilt binary"),
        "{}",
        text(&out)
    );
    assert_eq!(added.len(), 1, "{added:?}");
    assert_demo_runs(&added[0].join("citeproof"));
}

#[test]
fn action_install_step_fails_on_a_corrupted_archive_without_a_wheel() {
    let scratch = tempfile::tempdir().unwrap();
    let target = host_target();
    let base = release_dir(scratch.path());
    let archive = base.join(format!("download/v{VERSION}/citeproof-{target}.tar.gz"));
    std::fs::write(&archive, b"not the archive the checksum names").unwrap();
    let (out, added) = action_install_step(scratch.path(), &format!("file://{}", base.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stdout.contains("::warning title=citeproof::no prebuilt citeproof"),
        "{}",
        text(&out)
    );
    assert!(
        stdout.contains("::error title=citeproof::"),
        "{}",
        text(&out)
    );
    assert!(added.is_empty(), "PATH changed: {added:?}");
}
