//! Running the real `citeproof` binary on a copy of a fixture project.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

    /// `citeproof ARGS` run in the project folder, with no CITEPROOF_* or NO_COLOR
    /// variables inherited.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_citeproof"));
        command.args(args).current_dir(self.dir.path());
        for (key, _) in std::env::vars() {
            if key.starts_with("CITEPROOF_") || key == "NO_COLOR" {
                command.env_remove(key);
            }
        }
        Run(command.output().unwrap())
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
