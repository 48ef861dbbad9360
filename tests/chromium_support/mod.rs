//! Headless Chromium for the tests that render pages: finding the binary (skip with a
//! message when there is none; `.ci/run` installs it; CITEPROOF_CHROMIUM names
//! another) and running it with a deadline.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CITEPROOF_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(move |dir| dir.join(name))
            .collect::<Vec<_>>()
    })
    .find(|p| p.is_file())
}

/// Run Chromium headless with a deadline; returns its standard output.
pub fn run_chromium(binary: &Path, profile: &Path, args: &[String]) -> String {
    let mut child = Command::new(binary)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child
            .try_wait()
            .expect("chromium can be waited on")
            .is_some()
        {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("chromium output");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
