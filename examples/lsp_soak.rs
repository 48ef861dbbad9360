//! Soak test of the language server: one document edited many times, the server's
//! memory sampled as it goes.
//!
//! ```text
//! cargo build --release --bin citeproof --example lsp_soak
//! target/release/examples/lsp_soak [--edits 100000] [--size-kb 32] [--refs 100]
//!     [--samples 20] [--bin target/release/citeproof]
//! ```
//!
//! The release binary `citeproof lsp` over stdio, resolving a generated Markdown
//! manuscript's bibliography against the mock scholarly world (tests/support). After
//! the background run, `--edits` single edits (a character typed at a random place in
//! a prose line, then deleted, one in ten a new line), each waited for until the
//! server publishes that version's diagnostics, so every edit is really handled. The
//! server's resident memory (VmRSS) and the edit latency are printed `--samples`
//! times along the way, and the growth from the first sample to the last at the end.

#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "support/lsp_docs.rs"]
#[allow(dead_code)]
mod lsp_docs;
#[path = "support/lsp_stdio.rs"]
#[allow(dead_code)]
mod lsp_stdio;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use lsp_stdio::{Server, capabilities, is_publish, memory_mib, world_server_env};
use serde_json::json;
use support::{MockConfig, MockWorld};

const WAIT: Duration = Duration::from_secs(300);

#[derive(Parser)]
struct Args {
    /// Edits in all (each a `didChange` waited for).
    #[arg(long, default_value_t = 100_000)]
    edits: usize,
    /// Size of the document.
    #[arg(long, default_value_t = 32)]
    size_kb: usize,
    /// Bibliography entries.
    #[arg(long, default_value_t = 100)]
    refs: usize,
    /// Memory samples along the way.
    #[arg(long, default_value_t = 20)]
    samples: usize,
    #[arg(long, default_value = "target/release/citeproof")]
    bin: PathBuf,
}

fn main() {
    let args = Args::parse();
    let doc = lsp_docs::manuscript(args.size_kb * 1024, args.refs);
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("temp dir");
    std::fs::write(root.join("paper.md"), &doc.markdown).expect("write");
    std::fs::write(root.join("refs.bib"), &doc.bib).expect("write");
    std::fs::write(root.join("works.jsonl"), &doc.works).expect("write");
    let world = MockWorld::start(MockConfig::files(vec![root.join("works.jsonl")]));
    let cache = tempfile::tempdir().expect("cache dir");
    let env = world_server_env(world.env(), cache.path(), "soak@example.org");
    let mut server = Server::spawn(&args.bin, &env);
    server.initialize(&root, capabilities());
    let path = root.join("paper.md");
    let uri = url::Url::from_file_path(&path).expect("path").to_string();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                "text": doc.markdown}}),
    );
    server.wait(WAIT, |m| is_publish(m, &uri, Some(1)));
    server.wait(WAIT, |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    let lines: Vec<&str> = doc.markdown.lines().collect();
    let mut rng = lsp_docs::Lcg(41);
    let mut version = 1i64;
    let every = (args.edits / args.samples.max(1)).max(1);
    let mut window = Vec::with_capacity(every);
    let mut rss = Vec::new();
    let started = Instant::now();
    println!(
        "lsp soak: {} edits on a {} KB Markdown document ({} lines, {} references), server pid {}",
        args.edits,
        doc.markdown.len() / 1024,
        lines.len(),
        args.refs,
        server.pid()
    );
    let mut changes = Vec::new();
    for n in 1..=args.edits {
        // Alternate: type at a random place in a prose line, then delete what was typed.
        if changes.is_empty() {
            changes = lsp_docs::type_and_delete(&lines, &mut rng)
                .into_iter()
                .rev()
                .collect();
        }
        let change = changes.pop().expect("a change");
        version += 1;
        window.push(server.change_and_wait(&uri, version, change, WAIT));
        if n % every == 0 {
            window.sort_unstable();
            let p = |q: f64| {
                let i = ((window.len() as f64 * q).ceil() as usize).clamp(1, window.len()) - 1;
                window[i].as_secs_f64() * 1000.0
            };
            let (resident, peak) = memory_mib(server.pid()).unwrap_or((0.0, 0.0));
            rss.push(resident);
            println!(
                "edits {n:>7} ({:>6.0} s): RSS {resident:.1} MiB (peak {peak:.1}), \
                 edit p50 {:.2} ms, p99 {:.2} ms",
                started.elapsed().as_secs_f64(),
                p(0.5),
                p(0.99)
            );
            window.clear();
        }
    }
    if rss.len() >= 2 {
        let (first, last) = (rss[0], *rss.last().unwrap());
        println!(
            "summary: RSS {first:.1} MiB after {every} edits, {last:.1} MiB after {} ({:+.1} %), max {:.1} MiB",
            args.edits,
            (last - first) / first * 100.0,
            rss.iter().cloned().fold(0.0, f64::max)
        );
    }
    assert!(server.shutdown(), "the server exits cleanly");
}
