//! `citeproof verify` through a real local model server: llama-cpp-python's server with
//! Gemma 3 270M (installed by `scripts/install-llama-server.sh`; the folder from
//! `CITEPROOF_TEST_LLAMA_DIR`, default `~/.cache/citeproof-ci/llama`), on the first N
//! distinct Citation-Integrity claim–document pairs of a split.
//!
//! `cargo build --bin citeproof && cargo run --example llm_server_bench -- [--pairs 50]
//! [--split dev|train] [--max-tokens 200]` (add `--release` to both for an optimised
//! binary; the model server dominates the time either way).
//!
//! Each evidence document becomes a work in a local corpus (its sentences as the
//! abstract, a DOI of its own), each pair a `verify` input line; the run is offline
//! against that corpus, abstracts only. Prints the server's start time, the negotiated
//! structured-output form, the share of pairs with a parsed verdict (SUPPORTS,
//! CONTRADICTS or NOT_ENOUGH_INFO) and what the others were, requests and tokens per
//! pair and the time per pair. Accuracy of a 270 M-parameter model is not the point.

#[path = "../tests/support_llm/local_server.rs"]
mod local_server;
#[path = "support/verify_data.rs"]
#[allow(dead_code)]
mod verify_data;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

use local_server::{Install, LocalServer, MODEL_ALIAS};
use verify_data::{citation_integrity, data_dir, distinct_pairs};

fn main() {
    let mut pairs = 50usize;
    let mut split = "dev".to_string();
    let mut max_tokens = 200u32;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match arg.as_str() {
            "--pairs" => pairs = value().parse().expect("--pairs N"),
            "--split" => split = value(),
            "--max-tokens" => max_tokens = value().parse().expect("--max-tokens N"),
            other => panic!(
                "unknown argument {other}; usage: llm_server_bench [--pairs N] \
                 [--split dev|train] [--max-tokens N]"
            ),
        }
    }
    assert!(
        split == "dev" || split == "train",
        "tune and look on dev or train only (test is held out)"
    );
    let Some(data) = data_dir() else {
        eprintln!("skipping: ../shared/data/claim_verification is absent");
        return;
    };
    let install = match Install::find() {
        Ok(i) => i,
        Err(why) => {
            eprintln!("skipping: no local model server: {why}");
            return;
        }
    };
    let binary = citeproof_binary();
    let items: Vec<_> = distinct_pairs(&citation_integrity(&data, &split))
        .into_iter()
        .take(pairs)
        .collect();
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut corpus = String::new();
    let mut input = String::new();
    let mut docs = std::collections::HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let doi = format!("10.5555/citation-integrity.{}", item.doc);
        if docs.insert(item.doc.clone()) {
            let work = json!({"doi": doi, "title": format!("Evidence document {}", item.doc),
                              "abstract": item.evidence.join(" "), "year": 2020});
            corpus.push_str(&format!("{work}\n"));
        }
        input.push_str(&format!(
            "{}\n",
            json!({"id": i, "claim": item.claim, "doi": doi})
        ));
    }
    std::fs::write(dir.path().join("works.jsonl"), corpus).unwrap();
    std::fs::write(dir.path().join("input.jsonl"), input).unwrap();
    std::fs::write(
        dir.path().join("citeproof.toml"),
        format!("[verify]\nmax-tokens = {max_tokens}\n"),
    )
    .unwrap();

    let server = LocalServer::start(&install, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "llama-cpp-python server ({MODEL_ALIAS}) ready after {:.1} s",
        server.ready_after.as_secs_f64()
    );
    let started = Instant::now();
    let out = Command::new(&binary)
        .current_dir(dir.path())
        .env("CITEPROOF_CACHE_DIR", dir.path().join("cache"))
        .env("CITEPROOF_LLM_URL", &server.base_url)
        .env("CITEPROOF_LLM_MODEL", MODEL_ALIAS)
        .args([
            "verify",
            "input.jsonl",
            "--format",
            "json",
            "--no-full-text",
        ])
        .args(["--offline", "--corpus", "works.jsonl"])
        .output()
        .expect("citeproof runs");
    let elapsed = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}); stderr:\n{stderr}"));
    let verdicts = report["verdicts"].as_array().cloned().unwrap_or_default();
    let n = verdicts.len().max(1) as f64;
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for v in &verdicts {
        let label = v["label"].as_str().unwrap_or("?").to_string();
        if label == "UNVERIFIABLE" {
            *reasons
                .entry(reason_kind(v["rationale"].as_str().unwrap_or("")))
                .or_default() += 1;
        }
        *labels.entry(label).or_default() += 1;
    }
    let parsed: usize = ["SUPPORTS", "CONTRADICTS", "NOT_ENOUGH_INFO"]
        .iter()
        .map(|l| labels.get(*l).copied().unwrap_or(0))
        .sum();
    let usage = &report["usage"]["models"][0];
    let count = |k: &str| usage[k].as_u64().unwrap_or(0) as f64;
    println!(
        "Citation-Integrity {split}: {} pairs, max-tokens {max_tokens}",
        verdicts.len()
    );
    for line in stderr
        .lines()
        .filter(|l| l.starts_with("structured output"))
    {
        println!("{line}");
    }
    println!(
        "parsed verdicts: {parsed}/{} ({:.0} %); labels {labels:?}",
        verdicts.len(),
        100.0 * parsed as f64 / n
    );
    println!("unverifiable, by what the model returned: {reasons:?}");
    println!(
        "requests per pair {:.2} ({} refused or failed); tokens per pair {:.0} prompt + {:.0} completion",
        count("requests") / n,
        count("failures"),
        count("prompt_tokens") / n,
        count("completion_tokens") / n
    );
    println!("time: {elapsed:.1} s in all, {:.1} s per pair", elapsed / n);
}

/// The kind of an UNVERIFIABLE reason, for the tally: what the model returned, else
/// why it could not be asked ("model server did not answer in time" …).
fn reason_kind(rationale: &str) -> String {
    let after = match rationale.split("the model returned ").nth(1) {
        Some(returned) => returned,
        None => rationale
            .split_once('(')
            .map_or(rationale, |(_, inner)| inner),
    };
    let end = after.find([':', ';', '(']).unwrap_or(after.len());
    after[..end].trim().to_string()
}

/// The `citeproof` binary built next to this example (`target/<profile>/citeproof`).
fn citeproof_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("own path");
    let profile_dir = exe
        .parent()
        .and_then(|examples| examples.parent())
        .expect("target/<profile>/examples");
    let binary = profile_dir.join("citeproof");
    assert!(
        binary.is_file(),
        "{} is missing: run `cargo build --bin citeproof` (same profile) first",
        binary.display()
    );
    binary
}
