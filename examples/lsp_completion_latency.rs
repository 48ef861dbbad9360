//! Completion latency of the language server on a generated bibliography of
//! 10,000 entries (or as many as the first argument says): the server runs
//! in-process over `Connection::memory()`, as in the tests, and a Markdown paper
//! that reads the bibliography is open.
//!
//! Measured, each as p50 / p99 / max over repeated requests:
//! - `completion` at `[@` with prefixes of 0 to 5 characters (request sent →
//!   response received), with the number of items and the size of the response,
//!   and the first request after a check, which also indexes the entries;
//! - `edit + completion`: a keystroke (`didChange`) and the completion request
//!   that follows it, which first re-checks the paper and its 10,000 entries;
//! - `completionItem/resolve` of the documentation of one item.
//!
//! With `--zotero ITEMS`, a mock of Zotero 7's local API and Better BibTeX
//! (tests/support/zotero.rs) serves a library of ITEMS generated items whose keys
//! the .bib lacks; the server reads it in the background before the paper is opened,
//! so every completion also matches the library.
//!
//! Run: `cargo run --release --example lsp_completion_latency [-- ENTRIES] [--zotero ITEMS]`

use std::time::{Duration, Instant};

use citeproof::lsp::serve;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

#[allow(dead_code)]
#[path = "../tests/support/zotero.rs"]
mod zotero;

const FAMILIES: &[&str] = &[
    "Smith",
    "Müller",
    "García",
    "Wang",
    "Li",
    "Kim",
    "Nguyen",
    "Ivanov",
    "Rossi",
    "Okafor",
    "Schölkopf",
    "Tanaka",
    "Kowalski",
    "Dubois",
    "Hansen",
    "Silva",
    "Cohen",
    "Novak",
    "Singh",
    "Brown",
    "Vaswani",
    "Hinton",
    "Bengio",
    "LeCun",
    "Goodfellow",
    "Sutskever",
    "Hochreiter",
];
const WORDS: &[&str] = &[
    "deep",
    "learning",
    "networks",
    "attention",
    "residual",
    "sparse",
    "graph",
    "protein",
    "folding",
    "clinical",
    "trial",
    "vitamin",
    "bayesian",
    "inference",
    "transformer",
    "language",
    "models",
    "causal",
    "effects",
    "climate",
    "signals",
    "memory",
    "sleep",
    "reinforcement",
    "optimization",
    "stochastic",
    "gradient",
    "descent",
    "vision",
    "speech",
];

/// A Zotero library of `items` generated articles keyed `z…` (none in the .bib).
fn zotero_library(items: usize) -> zotero::MockZotero {
    let mut rng = StdRng::seed_from_u64(7);
    let list = (0..items)
        .map(|i| {
            let family = FAMILIES[rng.random_range(0..FAMILIES.len())];
            let title: Vec<&str> = (0..4 + rng.random_range(0..8))
                .map(|_| WORDS[rng.random_range(0..WORDS.len())])
                .collect();
            let year = 1990 + rng.random_range(0..35);
            let key = format!("z{}{year}_{i}", family.to_lowercase());
            zotero::MockItem::article(
                &format!("Z{i:07}"),
                Some(&key),
                &title.join(" "),
                &[(family, "A.")],
                &year.to_string(),
                "Journal of Things",
            )
        })
        .collect();
    zotero::MockZotero::start(list, Vec::new())
}

fn bibliography(entries: usize) -> String {
    // Seeded: the same bibliography on every run.
    let mut rng = StdRng::seed_from_u64(42);
    let mut out = String::with_capacity(entries * 260);
    for i in 0..entries {
        let authors: Vec<String> = (0..1 + rng.random_range(0..5))
            .map(|_| {
                format!(
                    "{}, {}.",
                    FAMILIES[rng.random_range(0..FAMILIES.len())],
                    (b'A' + rng.random_range(0..26) as u8) as char
                )
            })
            .collect();
        let title: Vec<&str> = (0..4 + rng.random_range(0..8))
            .map(|_| WORDS[rng.random_range(0..WORDS.len())])
            .collect();
        let year = 1990 + rng.random_range(0..35);
        let first = authors[0].split(',').next().unwrap().to_lowercase();
        out.push_str(&format!(
            "@article{{{first}{year}_{i},\n  author = {{{}}},\n  title = {{{}}},\n  journal = {{Journal of {}}},\n  year = {{{year}}},\n  doi = {{10.1234/j.{i}}}\n}}\n\n",
            authors.join(" and "),
            title.join(" "),
            WORDS[rng.random_range(0..WORDS.len())],
        ));
    }
    out
}

struct Client {
    connection: Connection,
    next: i32,
}

impl Client {
    fn send(&mut self, method: &str, params: Value) -> RequestId {
        let id = RequestId::from(self.next);
        self.next += 1;
        self.connection
            .sender
            .send(Request::new(id.clone(), method.into(), params).into())
            .unwrap();
        id
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.into(), params).into())
            .unwrap();
    }

    fn wait(&self, id: &RequestId) -> Response {
        loop {
            match self
                .connection
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .unwrap()
            {
                Message::Response(r) if &r.id == id => return r,
                _ => {}
            }
        }
    }

    fn wait_notification(&self, method: &str) -> Value {
        loop {
            if let Message::Notification(n) = self
                .connection
                .receiver
                .recv_timeout(Duration::from_secs(120))
                .unwrap()
                && n.method == method
            {
                return n.params;
            }
        }
    }

    fn wait_diagnostics(&self) {
        loop {
            if let Message::Notification(n) = self
                .connection
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .unwrap()
                && n.method == "textDocument/publishDiagnostics"
            {
                return;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> (Duration, Value) {
        let started = Instant::now();
        let id = self.send(method, params);
        let response = self.wait(&id);
        (started.elapsed(), response.response_result.unwrap())
    }
}

fn summary(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "p50 {:7.2} ms  p99 {:7.2} ms  max {:7.2} ms  (n={})",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(*times.last().unwrap()),
        times.len()
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let zotero_items: Option<usize> = args.iter().position(|a| a == "--zotero").map(|i| {
        args.get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(10_000)
    });
    let entries: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let zotero = zotero_items.map(zotero_library);
    let env = match &zotero {
        Some(z) => json!({"CITEPROOF_ZOTERO_URL": z.url()}),
        None => json!({"CITEPROOF_ZOTERO": "0"}),
    };
    let dir = tempfile::tempdir().unwrap();
    let bib = bibliography(entries);
    std::fs::write(dir.path().join("refs.bib"), &bib).unwrap();
    let base = "---\nbibliography: refs.bib\n---\n\nAs shown by [@";
    let tail = "] in the literature.\n";
    let paper = dir.path().join("paper.md");
    std::fs::write(&paper, format!("{base}{tail}")).unwrap();
    let uri = url::Url::from_file_path(&paper).unwrap().to_string();

    let (client_side, server_side) = Connection::memory();
    let server = std::thread::spawn(move || serve(server_side));
    let mut client = Client {
        connection: client_side,
        next: 1,
    };
    let init = client.send(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {},
               "initializationOptions": {"citeproof": {"resolve": "off", "env": env}}}),
    );
    client.wait(&init);
    client.notify("initialized", json!({}));
    if zotero.is_some() {
        let read = Instant::now();
        let status = client.wait_notification("citeproof/zotero");
        println!(
            "Zotero library: {} items read in the background in {:.0} ms ({status})",
            status["items"],
            read.elapsed().as_secs_f64() * 1000.0
        );
    }
    let opened = Instant::now();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                                "text": format!("{base}{tail}")}}),
    );
    client.wait_diagnostics();
    println!(
        "{entries} entries ({:.1} MB .bib); open → first diagnostics {:.1} ms",
        bib.len() as f64 / 1e6,
        opened.elapsed().as_secs_f64() * 1000.0
    );

    let line = 4;
    let column = "As shown by [@".len() as u32;
    let reps = 60;
    // The prefix is typed into the document first (one check), then asked for repeatedly.
    let mut version = 1;
    for prefix in ["", "s", "sm", "smi", "vas", "deep", "2019", "zsm"] {
        version += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": format!("{base}{prefix}{tail}")}]}),
        );
        let position = json!({"line": line, "character": column + prefix.chars().count() as u32});
        // A hover waits for the check of the edit, so that no timed request does.
        client.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        let params = json!({"textDocument": {"uri": uri}, "position": position});
        // The first request after a check indexes the entries: timed on its own.
        let (indexing, first) = client.request("textDocument/completion", params.clone());
        let bytes = first.to_string().len();
        let items = first["items"].as_array().map_or(0, Vec::len);
        let times: Vec<Duration> = (0..reps)
            .map(|_| client.request("textDocument/completion", params.clone()).0)
            .collect();
        println!(
            "completion `[@{prefix}`{:pad$} {}  items {items:3} (incomplete: {}), {bytes} bytes; first after the check {:.1} ms",
            "",
            summary(times),
            first["isIncomplete"],
            indexing.as_secs_f64() * 1000.0,
            pad = 5 - prefix.len().min(5),
        );
    }

    // A keystroke and the completion it triggers.
    let mut times = Vec::new();
    for i in 0..30 {
        version += 1;
        let prefix = if i % 2 == 0 { "sm" } else { "smi" };
        let started = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": format!("{base}{prefix}{tail}")}]}),
        );
        let position = json!({"line": line, "character": column + prefix.len() as u32});
        let id = client.send(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        client.wait(&id);
        times.push(started.elapsed());
    }
    println!("edit + completion           {}", summary(times));

    let (_, list) = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": column + 3}}),
    );
    let items = list["items"].as_array().unwrap().clone();
    let times: Vec<Duration> = items
        .iter()
        .cycle()
        .take(reps)
        .map(|item| client.request("completionItem/resolve", item.clone()).0)
        .collect();
    println!("completionItem/resolve      {}", summary(times));

    let id = client.send("shutdown", Value::Null);
    client.wait(&id);
    client.notify("exit", Value::Null);
    server.join().unwrap().unwrap();
}
