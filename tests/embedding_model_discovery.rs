//! The embedded backend finds the sentence-embedding model by itself in
//! `<cache dir>/models/all-minilm-l6-v2`; `citeproof config` says which model is in use;
//! without one the lexical mode works and says so. Also `verify --format json`.

mod bin_support;
mod support_model;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

const CLAIM: &str = "Sleep deprivation after learning impairs contextual fear memory in mice.";

/// A corpus of one work and one input pair, offline.
fn project(dir: &Path) {
    let work = json!({"doi": "10.5555/sleep.1",
        "title": "Acute sleep deprivation impairs contextual fear memory consolidation in adult mice",
        "abstract": "We deprived adult mice of sleep for five hours after contextual fear \
                     conditioning. Sleep-deprived mice froze 41% less than controls a day later.",
        "year": 2023});
    std::fs::write(dir.join("works.jsonl"), format!("{work}\n")).unwrap();
    let line = json!({"id": "a", "claim": CLAIM, "doi": "10.5555/sleep.1"});
    std::fs::write(dir.join("input.jsonl"), format!("{line}\n")).unwrap();
}

/// The binary with `cache` as the cache directory and nothing else from outside.
fn citeproof(dir: &Path, cache: &Path) -> Command {
    let mut command = Command::new(bin_support::BIN);
    bin_support::isolate(&mut command)
        .current_dir(dir)
        .env("CITEPROOF_CACHE_DIR", cache);
    command
}

fn verify(dir: &Path, cache: &Path, format: &str) -> Output {
    citeproof(dir, cache)
        .args([
            "verify",
            "input.jsonl",
            "--offline",
            "--corpus",
            "works.jsonl",
        ])
        .args(["--no-full-text", "--format", format])
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn standard_place(cache: &Path) -> std::path::PathBuf {
    cache.join("models").join("all-minilm-l6-v2")
}

#[test]
fn config_says_which_sentence_model_is_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let place = standard_place(&cache);
    let config = |extra: &[&str]| {
        let out = citeproof(dir.path(), &cache)
            .arg("config")
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let none = config(&[]);
    assert!(
        none.contains(&format!(
            "# sentence-embedding model: none (looked in {}; scripts/fetch-embedding-model.sh \
             puts it there): the embedded backend scores lexically",
            place.display()
        )),
        "{none}"
    );
    std::fs::create_dir_all(&place).unwrap();
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::fs::write(place.join(file), "{}").unwrap();
    }
    let found = config(&[]);
    assert!(
        found.contains(&format!(
            "# sentence-embedding model: {} (found in the cache directory): the embedded \
             backend scores hybrid",
            place.display()
        )),
        "{found}"
    );
    let elsewhere = dir.path().join("elsewhere");
    let named = config(&["--embedding-model", elsewhere.to_str().unwrap()]);
    assert!(
        named.contains(&format!(
            "# sentence-embedding model: {} (verify.local-embedding-model)",
            elsewhere.display()
        )),
        "{named}"
    );
}

#[test]
fn without_a_model_the_embedded_backend_scores_lexically_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let cache = dir.path().join("cache");
    let out = verify(dir.path(), &cache, "json");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("verification: embedded backend, lexical scoring"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "no sentence-embedding model in {}",
            standard_place(&cache).display()
        )),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts = report["verdicts"].as_array().unwrap();
    assert_eq!(verdicts.len(), 1, "{report:#}");
    assert_eq!(verdicts[0]["id"], "a");
    assert_eq!(verdicts[0]["model"], "embedded-lexical");
    assert!(
        report["usage"]["notes"][0]
            .as_str()
            .unwrap()
            .contains("lexical scoring"),
        "{report:#}"
    );
    // JSONL stays the default: one object per line, the same verdict.
    let lines = verify(dir.path(), &cache, "jsonl");
    let first: Value = serde_json::from_str(text(&lines.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first, verdicts[0]);
}

#[test]
fn a_model_in_the_cache_directory_is_used_without_being_named() {
    let Some(model_dir) = support_model::model_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let cache = dir.path().join("cache");
    let place = standard_place(&cache);
    std::fs::create_dir_all(place.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&model_dir, &place).unwrap();
    let out = verify(dir.path(), &cache, "jsonl");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "embedded backend, hybrid scoring with the sentence model in {}",
            place.display()
        )),
        "{stderr}"
    );
    let verdict: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let name = model_dir.canonicalize().unwrap();
    let name = name.file_name().unwrap().to_string_lossy();
    assert_eq!(verdict["model"], format!("{name}+lexical"), "{verdict}");
}

#[test]
fn a_broken_model_in_the_cache_directory_is_skipped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let cache = dir.path().join("cache");
    let place = standard_place(&cache);
    std::fs::create_dir_all(&place).unwrap();
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::fs::write(place.join(file), "not a model").unwrap();
    }
    let out = verify(dir.path(), &cache, "jsonl");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the sentence-embedding model found is not used"),
        "{stderr}"
    );
    assert!(stderr.contains("lexical scoring"), "{stderr}");
    let verdict: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(verdict["model"], "embedded-lexical");
}
