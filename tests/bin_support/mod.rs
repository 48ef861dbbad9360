//! The one way the tests run the real `citeproof` binary, so that none of them can
//! reach the real network (there is none in CI; a run that tried would wait on
//! timeouts and end in `unverified` findings that snapshots would then record).
//!
//! - [`citeproof`]: local checks only. Nothing is inherited from the environment of
//!   `cargo test` (no `CITEPROOF_*`, no `NO_COLOR`); `CITEPROOF_NO_RESOLVE=1`; and in
//!   case a test turns resolution on anyway (a flag, a configuration file), the run is
//!   offline against an empty cache of its own, so it ends at once in `unverified`.
//! - [`citeproof_in_world`]: resolution against a mock world (tests/support), its
//!   rate limits lifted and short timeouts, so a fault costs seconds at most.
//! - [`isolate`] and [`LOCAL_ENV`] for commands built elsewhere (a shell running the
//!   GitHub Action's script).

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_citeproof");

/// Environment of a local-only run (see the module docs).
pub const LOCAL_ENV: [(&str, &str); 3] = [
    ("CITEPROOF_NO_RESOLVE", "1"),
    ("CITEPROOF_OFFLINE", "1"),
    ("CITEPROOF_RETRIES", "0"),
];

/// An empty cache folder for offline runs (never the user's cache).
pub fn offline_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("citeproof-offline-cache")
}

/// Remove every `CITEPROOF_*` variable and `NO_COLOR` from what `command` inherits,
/// and keep the user's own accepted works (`~/.config/citeproof/accepted.toml`) out.
pub fn isolate(command: &mut Command) -> &mut Command {
    for (key, _) in std::env::vars() {
        if key.starts_with("CITEPROOF_") || key == "NO_COLOR" {
            command.env_remove(key);
        }
    }
    command.env("CITEPROOF_USER_ACCEPTED", "")
}

/// Make `command` (the binary, or a shell that runs it) a local-only run.
pub fn local(command: &mut Command) -> &mut Command {
    isolate(command)
        .envs(LOCAL_ENV)
        .env("CITEPROOF_CACHE_DIR", offline_cache())
}

/// `out`, once its command is known to have succeeded (else its stderr says why).
pub fn succeeded(out: Output) -> Output {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `citeproof`, local checks only.
pub fn citeproof() -> Command {
    let mut command = Command::new(BIN);
    local(&mut command);
    command
}

/// `citeproof` resolving against a mock world: `world_env` is the world's
/// `CITEPROOF_<NAME>_URL` variables (`MockWorld::env()`).
pub fn citeproof_in_world(world_env: Vec<(String, String)>) -> Command {
    let mut command = Command::new(BIN);
    isolate(&mut command);
    for (name, _) in &world_env {
        if let Some(source) = name
            .strip_prefix("CITEPROOF_")
            .and_then(|n| n.strip_suffix("_URL"))
        {
            command.env(format!("CITEPROOF_{source}_RATE"), "1000");
        }
    }
    command
        .envs(world_env)
        .env("CITEPROOF_TIMEOUT", "5")
        .env("CITEPROOF_RETRIES", "1");
    command
}
