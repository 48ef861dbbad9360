//! The language server's latency, measured as an editor sees it: the release binary
//! `citeproof lsp` over stdio, resolving against the mock scholarly world
//! (tests/support) as it would against the real services.
//!
//! ```text
//! cargo build --release --bin citeproof --example lsp_latency
//! target/release/examples/lsp_latency [--edits 300] [--size-kb 1024] [--refs 1000]
//!     [--resolve off] [--bin target/release/citeproof] [--data ../shared/data]
//! ```
//!
//! For a generated Markdown and a LaTeX manuscript of `--size-kb` each (a BibTeX
//! bibliography of `--refs` entries beside them): time from `didOpen` to the first
//! `publishDiagnostics` (local findings) and to the end of the background run
//! (`$/progress` end: every reference resolved), then `--edits` single-character
//! edits (typing and deleting at random places, one in ten a new line), each timed
//! from writing `didChange` to reading the `publishDiagnostics` of that version —
//! p50, p90, p99 and max — and the server's resident and peak memory with the
//! document open. Then the time to first diagnostics on opening the deep-review
//! manuscript (`--data`, by default ../shared/data, when present), and the server's
//! resident memory with it open.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "support/lsp_docs.rs"]
mod lsp_docs;
#[path = "support/lsp_stdio.rs"]
mod lsp_stdio;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_stdio::{Server, capabilities, cpu_time, is_publish, memory_mib, world_server_env};
use serde_json::{Value, json};
use support::{MockConfig, MockWorld};

const WAIT: Duration = Duration::from_secs(300);

struct Args {
    edits: usize,
    size_kb: usize,
    refs: usize,
    resolve: bool,
    bin: PathBuf,
    data: PathBuf,
}

fn args() -> Args {
    let mut args = Args {
        edits: 300,
        size_kb: 1024,
        refs: 1000,
        resolve: true,
        bin: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/citeproof"),
        data: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--edits" => args.edits = value.parse().expect("--edits N"),
            "--size-kb" => args.size_kb = value.parse().expect("--size-kb N"),
            "--refs" => args.refs = value.parse().expect("--refs N"),
            "--resolve" => args.resolve = value != "off",
            "--bin" => args.bin = PathBuf::from(value),
            "--data" => args.data = PathBuf::from(value),
            other => panic!("unknown flag {other}"),
        }
    }
    args
}

/// The server's environment: the mock world's URLs, its rate limits lifted, a
/// cache of its own.
fn environment(world: &MockWorld, cache: &Path, resolve: bool) -> Vec<(String, String)> {
    let mut env = world_server_env(world.env(), cache, "bench@example.org");
    env.push(("CITEPROOF_TIMEOUT".into(), "5".into()));
    if !resolve {
        env.push(("CITEPROOF_NO_RESOLVE".into(), "1".into()));
    }
    env
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Open, wait for the local and the background diagnostics, edit, report.
fn measure(args: &Args, world: &MockWorld, dir: &Path, file: &str, language: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("document");
    let uri = url::Url::from_file_path(&path).expect("path").to_string();
    let cache = tempfile::tempdir().expect("cache dir");
    let mut server = Server::spawn(&args.bin, &environment(world, cache.path(), args.resolve));
    server.initialize(dir, capabilities());
    let opened = Instant::now();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
    );
    let first = server.wait(WAIT, |m| is_publish(m, &uri, Some(1)));
    let first_at = opened.elapsed();
    let local_count = first["params"]["diagnostics"]
        .as_array()
        .map_or(0, Vec::len);
    let mut background = String::from("resolution off");
    if args.resolve {
        let end = server.wait(WAIT, |m| {
            m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
        });
        let done = opened.elapsed();
        // What the run changed was published before the answer to a request sent
        // now (the server handles messages in order); the document itself is
        // published again only when its own diagnostics changed.
        let probe = server.request("citeproof/noSuchMethod", Value::Null);
        let mut on_document = local_count;
        let mut published = 0;
        server.wait(WAIT, |m| {
            if m["method"] == "textDocument/publishDiagnostics" {
                published += 1;
                if m["params"]["uri"] == uri.as_str() {
                    on_document = m["params"]["diagnostics"].as_array().map_or(0, Vec::len);
                }
            }
            m["id"] == probe && m.get("method").is_none()
        });
        background = format!(
            "background run done {} after open ({}), {on_document} diagnostics on it after it \
             ({published} files published)",
            ms(done),
            end["params"]["value"]["message"].as_str().unwrap_or(""),
        );
    }
    println!(
        "{file}: {} KB, {} lines; first diagnostics {} after didOpen ({local_count} local); {background}",
        text.len() / 1024,
        text.lines().count(),
        ms(first_at)
    );
    let lines: Vec<&str> = text.lines().collect();
    let mut rng = lsp_docs::Lcg(99);
    let mut version = 1;
    let mut times = Vec::with_capacity(args.edits);
    let warm_up = 20;
    let mut cpu_before = None;
    for n in 0..(args.edits + warm_up) {
        if n == warm_up {
            cpu_before = cpu_time(server.pid());
        }
        // Type a character (one in ten a new line) somewhere in a prose line,
        // then delete it: the text stays the generated one.
        for change in lsp_docs::type_and_delete(&lines, &mut rng) {
            version += 1;
            let took = server.change_and_wait(&uri, version, change, WAIT);
            if n >= warm_up {
                times.push(took);
            }
        }
    }
    let cpu_per_edit = cpu_before
        .zip(cpu_time(server.pid()))
        .map(|(before, after)| {
            format!(
                ", server CPU {} per edit",
                ms((after - before) / times.len() as u32)
            )
        })
        .unwrap_or_default();
    times.sort();
    let memory = memory_mib(server.pid())
        .map(|(rss, peak)| format!("resident {rss:.0} MiB, peak {peak:.0} MiB"))
        .unwrap_or_else(|| "memory unknown".into());
    println!(
        "  edit -> publishDiagnostics over {} edits: p50 {}, p90 {}, p99 {}, max {}{cpu_per_edit}; {memory}",
        times.len(),
        ms(percentile(&times, 0.50)),
        ms(percentile(&times, 0.90)),
        ms(percentile(&times, 0.99)),
        ms(*times.last().expect("edits"))
    );
    assert!(server.shutdown(), "the server exits cleanly");
}

/// Time to first diagnostics on opening a section of the deep-review manuscript
/// (checked with every other section and `manual-references.json`).
fn deep_review(args: &Args) {
    let dir = args.data.join("manuscripts/markdown/deep-review");
    if !dir.is_dir() {
        println!("deep-review: skipped, {} is absent", dir.display());
        return;
    }
    let dir = dir.canonicalize().expect("deep-review");
    let works = args.data.join("world/works.jsonl");
    let world = if works.is_file() {
        MockWorld::start(MockConfig::files(vec![works]))
    } else {
        MockWorld::start(MockConfig::fixtures())
    };
    let cache = tempfile::tempdir().expect("cache dir");
    for file in ["02.intro.md", "04.study.md"] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).expect("section");
        let uri = url::Url::from_file_path(&path).expect("path").to_string();
        let mut server = Server::spawn(&args.bin, &environment(&world, cache.path(), args.resolve));
        server.initialize(&dir, capabilities());
        let opened = Instant::now();
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let first = server.wait(WAIT, |m| is_publish(m, &uri, Some(1)));
        let first_at = opened.elapsed();
        let count = first["params"]["diagnostics"]
            .as_array()
            .map_or(0, Vec::len);
        let mut background = String::new();
        if args.resolve {
            let end = server.wait(WAIT, |m| {
                m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
            });
            background = format!(
                "; background run done {} after open ({})",
                ms(opened.elapsed()),
                end["params"]["value"]["message"].as_str().unwrap_or("")
            );
        }
        let memory = memory_mib(server.pid())
            .map(|(rss, peak)| format!("; resident {rss:.0} MiB, peak {peak:.0} MiB"))
            .unwrap_or_default();
        println!(
            "deep-review, opening {file} (cache {}): first diagnostics {} ({count} on it){background}{memory}",
            if file == "02.intro.md" {
                "cold"
            } else {
                "warm"
            },
            ms(first_at)
        );
        assert!(server.shutdown(), "the server exits cleanly");
    }
}

fn main() {
    let args = args();
    assert!(
        args.bin.is_file(),
        "no server binary at {} (cargo build --release --bin citeproof)",
        args.bin.display()
    );
    let doc = lsp_docs::manuscript(args.size_kb * 1024, args.refs);
    let dir = tempfile::tempdir().expect("temp dir");
    let dir_path = dir.path().canonicalize().expect("temp dir");
    std::fs::write(dir_path.join("paper.md"), &doc.markdown).expect("write");
    std::fs::write(dir_path.join("paper.tex"), &doc.latex).expect("write");
    std::fs::write(dir_path.join("refs.bib"), &doc.bib).expect("write");
    std::fs::write(dir_path.join("works.jsonl"), &doc.works).expect("write");
    let world = MockWorld::start(MockConfig::files(vec![dir_path.join("works.jsonl")]));
    println!(
        "citeproof lsp latency ({}, {} references, resolution {})",
        args.bin.display(),
        args.refs,
        if args.resolve {
            "on (mock world)"
        } else {
            "off"
        }
    );
    measure(&args, &world, &dir_path, "paper.md", "markdown");
    measure(&args, &world, &dir_path, "paper.tex", "latex");
    deep_review(&args);
}
