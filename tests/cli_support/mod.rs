//! Running the real `citeproof` binary on a copy of a fixture project.

#![allow(dead_code)]

#[path = "../bin_support/mod.rs"]
mod bin_support;

use std::path::{Path, PathBuf};
use std::process::Output;

/// A temporary copy of `fixtures/ci/project`.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn copy() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ci/project");
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
        Project { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }

    pub fn write(&self, name: &str, text: &str) {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// `citeproof ARGS` run in the project folder: local checks only, with no
    /// CITEPROOF_* or NO_COLOR variables inherited (see tests/bin_support).
    pub fn run(&self, args: &[&str]) -> Run {
        let mut command = bin_support::citeproof();
        command.args(args).current_dir(self.dir.path());
        Run(command.output().unwrap())
    }

    /// A shell command made a local-only run like [`Project::run`]'s.
    pub fn local(command: &mut std::process::Command) -> &mut std::process::Command {
        bin_support::local(command)
    }
}

/// A finished run.
pub struct Run(pub Output);

impl Run {
    pub fn code(&self) -> i32 {
        self.0.status.code().unwrap_or(-1)
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }

    /// Rule codes of a `--format json` run, in order.
    pub fn codes(&self) -> Vec<String> {
        let findings: Vec<serde_json::Value> = serde_json::from_str(&self.stdout())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout(), self.stderr()));
        findings
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    }

    /// The findings of a `--format json` run.
    pub fn findings(&self) -> Vec<serde_json::Value> {
        serde_json::from_str(&self.stdout()).unwrap()
    }
}
