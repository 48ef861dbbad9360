//! Request bodies and a ready client for the `serve` benchmarks (`serve_load`, `serve_soak`): LLM
//! answers with three citations each — two of real works with sentences from their
//! abstracts, one invented — built from the world of works
//! (`../shared/data/world/works.jsonl`, else the bundled `fixtures/world`).

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A work with a title and an abstract.
pub struct Work {
    pub doi: Option<String>,
    pub title: String,
    pub abstract_text: String,
    pub venue: Option<String>,
    pub year: Option<i64>,
}

/// The world files the bodies are built from (and a mock world can serve).
pub fn world_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data/world/works.jsonl");
    if shared.exists() {
        vec![shared]
    } else {
        std::fs::read_dir(root.join("fixtures/world"))
            .expect("fixtures/world")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect()
    }
}

pub fn load_works() -> Vec<Work> {
    let files = world_files();
    let mut works = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("world file");
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let abstract_text = v["abstract"].as_str().unwrap_or("").to_string();
            let title = v["title"].as_str().unwrap_or("").to_string();
            if abstract_text.split_whitespace().count() < 40 || title.is_empty() {
                continue;
            }
            works.push(Work {
                doi: v["doi"].as_str().map(str::to_string),
                title,
                abstract_text,
                venue: v["venue"].as_str().map(str::to_string),
                year: v["year"].as_i64(),
            });
            if works.len() >= 5_000 {
                return works;
            }
        }
    }
    works
}

/// The first sentence of an abstract, at most 40 words.
pub fn sentence(text: &str) -> String {
    let first = text.split(". ").next().unwrap_or(text);
    let words: Vec<&str> = first.split_whitespace().take(40).collect();
    words.join(" ")
}

pub fn article(w: &Work) -> Value {
    json!({"doi": w.doi, "title": w.title, "abstract": w.abstract_text, "journal": w.venue,
           "year": w.year, "citation_count": 10, "is_peer_reviewed": true, "is_retracted": false})
}

/// One closed-world request body for `route`, from works `a` and `b`.
pub fn body(route: &str, a: &Work, b: &Work, n: usize) -> Value {
    let reference = |i: usize, w: &Work| match &w.doi {
        Some(doi) => format!("[{i}] {}. {}. doi:{doi}", w.title, w.year.unwrap_or(2020)),
        None => format!("[{i}] {}. {}.", w.title, w.year.unwrap_or(2020)),
    };
    let answer = format!(
        "{} [1]. {} [2]. A claim no source makes, number {n} [3].\n\nReferences:\n{}\n{}\n\
         [3] Invented A. A study that does not exist. 2021. doi:10.9999/invented.{n}\n",
        sentence(&a.abstract_text),
        sentence(&b.abstract_text),
        reference(1, a),
        reference(2, b),
    );
    match route {
        "clean" => json!({"answer": answer, "sources": [article(a), article(b)]}),
        "validate" => {
            json!({"query": sentence(&a.abstract_text), "articles": [article(a), article(b)]})
        }
        "check" => json!({"text": answer, "kind": "text"}),
        "resolve" => json!({"references": [
            reference(1, a).trim_start_matches("[1] "),
            reference(2, b).trim_start_matches("[2] "),
            format!("Invented A. A study that does not exist. 2021. doi:10.9999/invented.{n}"),
        ]}),
        other => panic!("unknown route {other} (clean, validate, check, resolve)"),
    }
}

pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Start `command` (a `citeproof serve --listen 127.0.0.1:0 …`), read where it listens
/// from its standard error, and keep reading the rest (to `echo` when given).
pub fn spawn_serve(mut command: Command, echo: bool) -> (Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the server: {e} (cargo build --release)"));
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server said where it listens")
            .expect("stderr line");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split_whitespace().next().unwrap_or("").to_string();
        }
    };
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if echo {
                eprintln!("server: {line}");
            }
        }
    });
    (child, format!("http://{address}"))
}

/// A client for `connections` connections to the server at `base`, once the server
/// answers `/healthz` (polled until `ready_within` has passed).
pub async fn ready_client(
    base: &str,
    connections: usize,
    request_timeout: std::time::Duration,
    ready_within: std::time::Duration,
) -> reqwest::Client {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(connections)
        .timeout(request_timeout)
        .build()
        .expect("client");
    let deadline = std::time::Instant::now() + ready_within;
    while client.get(format!("{base}/healthz")).send().await.is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never answered /healthz"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    client
}
