//! `citeproof verify` and `citeproof check --verify` through a real local model server:
//! llama-cpp-python's OpenAI-compatible server with Gemma 3 270M (installed by
//! `scripts/install-llama-server.sh`, which `.ci/run` runs; skipped with a message
//! when the install is absent). A recording proxy on 127.0.0.1 sits between citeproof
//! and the server, so the test sees every request and the server's `usage` fields.
//!
//! The model is tiny: the test asserts mechanics, not accuracy. Every pair gets a
//! verdict, or an UNVERIFIABLE that says what the model returned (never "unreachable"
//! while the server answers); the usage citeproof reports is the server's; the
//! structured-output form negotiated on the first request (llama-cpp-python refuses
//! `json_schema` with a 500) is used for every later one, in this run and the next
//! command's; a rerun is answered from the verdict cache without a model request.

mod support_llm;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use citeproof::net::{HttpRequest, Net, NetConfig, Rate, RetryPolicy, SourceHandle, SourcePolicy};
use serde_json::{Value, json};
use support_llm::local_server::{Install, LocalServer, MODEL_ALIAS};
use support_llm::servers::mode_of;

/// One exchange through the proxy.
#[derive(Debug, Clone)]
struct Exchange {
    request: Value,
    status: u16,
    response: Value,
}

#[derive(Clone)]
struct Proxy {
    upstream: String,
    http: SourceHandle,
    log: Arc<Mutex<Vec<Exchange>>>,
}

async fn forward(State(proxy): State<Proxy>, uri: Uri, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let url = format!("{}{}", proxy.upstream, uri.path()).parse().unwrap();
    // Every reply passes as it came, a 5xx included.
    let reply = proxy
        .http
        .send_unless(&HttpRequest::post_json(url, &request), |_| true)
        .await;
    let (status, bytes) = match reply {
        Ok(r) => (r.status, r.body),
        Err(e) => {
            eprintln!("proxy: {e}");
            (502, e.to_string().into_bytes())
        }
    };
    let response = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    proxy.log.lock().unwrap().push(Exchange {
        request,
        status,
        response,
    });
    (
        StatusCode::from_u16(status).unwrap(),
        [(header::CONTENT_TYPE, "application/json")],
        bytes,
    )
        .into_response()
}

/// Start the proxy to `upstream` (the server's origin) on its own runtime thread;
/// returns its `/v1` base URL and the log.
fn start_proxy(upstream: &str) -> (String, Arc<Mutex<Vec<Exchange>>>) {
    let net = Net::new(&NetConfig::default()).unwrap();
    let http = net.source(
        "proxy",
        SourcePolicy {
            rate: Rate::per_second(1000),
            max_concurrency: 8,
            timeout: Duration::from_secs(600),
            retry: RetryPolicy {
                max_retries: 0,
                ..RetryPolicy::default()
            },
            ..SourcePolicy::default()
        },
    );
    let log = Arc::new(Mutex::new(Vec::new()));
    let proxy = Proxy {
        upstream: upstream.to_string(),
        http,
        log: log.clone(),
    };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let app = Router::new().fallback(forward).with_state(proxy);
            axum::serve(listener, app).await.unwrap();
        });
    });
    (format!("http://{addr}/v1"), log)
}

const SLEEP_TITLE: &str =
    "Acute sleep deprivation impairs contextual fear memory consolidation in adult mice";
const SLEEP_ABSTRACT: &str = "Sleep supports the consolidation of recently acquired memories. \
    We deprived adult mice of sleep for five hours after contextual fear conditioning. \
    Sleep-deprived mice froze 41% less than undisturbed controls when tested 24 hours later, \
    showing that sleep deprivation impairs the consolidation of contextual fear memory.";
const FEVER_TITLE: &str =
    "A single residue in the yellow fever virus envelope protein modulates virion architecture";
const FEVER_ABSTRACT: &str = "Yellow fever virus is a re-emerging flavivirus that causes severe \
    hepatic disease. Using cryo-electron microscopy we resolved the structure of the virion and \
    show that a single envelope residue modulates virion morphology and antigenicity.";
const COFFEE_TITLE: &str = "Coffee consumption and the risk of type 2 diabetes in adults";
const COFFEE_ABSTRACT: &str = "In a cohort of 40,000 adults followed for ten years, drinking \
    three or more cups of coffee per day was associated with a 25% lower risk of type 2 \
    diabetes compared with drinking none, after adjustment for age, body mass index and \
    physical activity.";

/// The corpus, the `verify` input, a Markdown paper with its bibliography, and a
/// configuration that keeps replies short (a tiny model on two CPU cores).
fn write_project(dir: &Path) {
    let works = [
        ("10.5555/sleep.1", SLEEP_TITLE, SLEEP_ABSTRACT, "Kim"),
        ("10.5555/fever.2", FEVER_TITLE, FEVER_ABSTRACT, "Lee"),
        ("10.5555/coffee.3", COFFEE_TITLE, COFFEE_ABSTRACT, "Park"),
    ];
    let corpus: Vec<String> = works
        .iter()
        .map(|(doi, title, abs, family)| {
            json!({"doi": doi, "title": title, "abstract": abs, "year": 2023,
                   "authors": [{"given": "Hana", "family": family}]})
            .to_string()
        })
        .collect();
    std::fs::write(dir.join("works.jsonl"), corpus.join("\n")).unwrap();
    let pairs = [
        (
            "p1",
            "Sleep deprivation after learning impairs fear memory consolidation in mice.",
            0,
        ),
        (
            "p2",
            "Drinking coffee lowers the risk of type 2 diabetes.",
            2,
        ),
        ("p3", "Sleep deprivation improves fear memory in mice.", 1),
    ];
    let input: Vec<String> = pairs
        .iter()
        .map(|(id, claim, w)| json!({"id": id, "claim": claim, "doi": works[*w].0}).to_string())
        .collect();
    std::fs::write(dir.join("input.jsonl"), input.join("\n")).unwrap();
    let bib: String = works
        .iter()
        .enumerate()
        .map(|(i, (doi, title, _, family))| {
            format!("@article{{w{i},\n  title = {{{title}}},\n  author = {{{family}, Hana}},\n  year = {{2023}},\n  doi = {{{doi}}}\n}}\n")
        })
        .collect();
    std::fs::write(dir.join("refs.bib"), bib).unwrap();
    std::fs::write(
        dir.join("paper.md"),
        "---\nbibliography: refs.bib\n---\n# Notes\n\n\
         Five hours without sleep after conditioning reduced freezing in mice [@w0].\n\n\
         A single envelope residue changes how yellow fever virions look [@w1].\n",
    )
    .unwrap();
    std::fs::write(dir.join("citeproof.toml"), "[verify]\nmax-tokens = 200\n").unwrap();
}

/// The binary with the model at `llm_url`, the cache in `dir/cache`, offline against
/// the corpus (its model requests time out by themselves).
fn run(dir: &Path, llm_url: &str, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_citeproof"));
    for (key, _) in std::env::vars() {
        if key.starts_with("CITEPROOF_") {
            command.env_remove(key);
        }
    }
    let child = command
        .current_dir(dir)
        .env("CITEPROOF_CACHE_DIR", dir.join("cache"))
        .env("CITEPROOF_LLM_URL", llm_url)
        .env("CITEPROOF_LLM_MODEL", MODEL_ALIAS)
        .args(args)
        .args(["--offline", "--corpus", "works.jsonl"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `verify` of the three pairs, abstracts only, as one JSON object.
const VERIFY: &[&str] = &[
    "verify",
    "input.jsonl",
    "--format",
    "json",
    "--no-full-text",
];

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exchanges logged since `from`.
fn since(log: &Arc<Mutex<Vec<Exchange>>>, from: usize) -> Vec<Exchange> {
    log.lock().unwrap()[from..].to_vec()
}

/// Requests, failures and tokens as the server's replies report them.
fn server_usage(exchanges: &[Exchange]) -> (u64, u64, u64, u64) {
    let ok: Vec<&Exchange> = exchanges.iter().filter(|e| e.status == 200).collect();
    let sum = |k: &str| {
        ok.iter()
            .map(|e| e.response["usage"][k].as_u64().expect("usage field"))
            .sum::<u64>()
    };
    (
        exchanges.len() as u64,
        (exchanges.len() - ok.len()) as u64,
        sum("prompt_tokens"),
        sum("completion_tokens"),
    )
}

fn assert_verdict_or_model_output_reason(label: &str, rationale: &str) {
    assert!(!rationale.contains("unreachable"), "{rationale}");
    match label {
        "SUPPORTS" | "CONTRADICTS" | "NOT_ENOUGH_INFO" => {}
        "UNVERIFIABLE" => assert!(
            rationale.contains("the model's answer could not be read (the model returned"),
            "{rationale}"
        ),
        other => panic!("unexpected label {other}: {rationale}"),
    }
}

#[test]
fn verify_and_check_through_llama_cpp_python_server() {
    let install = match Install::find() {
        Ok(install) => install,
        Err(why) => {
            eprintln!("skipping: no local model server: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    write_project(dir.path());
    let server = LocalServer::start(&install, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("server ready after {:?}", server.ready_after);
    let origin = server.base_url.trim_end_matches("/v1").to_string();
    let (proxy_url, log) = start_proxy(&origin);

    // verify: the first request is refused (json_schema), every later one uses the
    // form that worked.
    let started = Instant::now();
    let out = run(dir.path(), &proxy_url, VERIFY);
    eprintln!("verify of 3 pairs: {:?}", started.elapsed());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}\n{}", server.log_tail());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts = report["verdicts"].as_array().unwrap();
    assert_eq!(verdicts.len(), 3, "{report:#}");
    for v in verdicts {
        assert_verdict_or_model_output_reason(
            v["label"].as_str().unwrap(),
            v["rationale"].as_str().unwrap(),
        );
    }
    let exchanges = since(&log, 0);
    let modes: Vec<&str> = exchanges.iter().map(|e| mode_of(&e.request)).collect();
    assert_eq!(modes[0], "json_schema", "{modes:?}");
    assert_eq!(
        exchanges[0].status, 500,
        "llama-cpp-python refuses json_schema"
    );
    assert!(
        modes[1..].iter().all(|m| *m == "json_object+schema"),
        "the negotiated form is used for every later request: {modes:?}"
    );
    assert!(modes.len() >= 4, "one request per pair at least: {modes:?}");
    let usage = &report["usage"]["models"][0];
    let (requests, failures, prompt, completion) = server_usage(&exchanges);
    assert_eq!(usage["model"], MODEL_ALIAS);
    assert_eq!(usage["requests"].as_u64(), Some(requests), "{usage}");
    assert_eq!(usage["failures"].as_u64(), Some(failures), "{usage}");
    assert_eq!(usage["prompt_tokens"].as_u64(), Some(prompt), "{usage}");
    assert_eq!(
        usage["completion_tokens"].as_u64(),
        Some(completion),
        "{usage}"
    );
    assert_eq!(
        err.matches("structured output for gemma3-270m").count(),
        1,
        "said once: {err}"
    );
    assert!(
        err.contains(": json_object+schema; json_schema refused (HTTP 500"),
        "{err}"
    );

    // A rerun: every verdict from the cache, no model request.
    let before = log.lock().unwrap().len();
    let again = run(dir.path(), &proxy_url, VERIFY);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let rerun: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(rerun["verdicts"], report["verdicts"]);
    assert_eq!(
        since(&log, before).len(),
        0,
        "no model request on the rerun"
    );
    assert_eq!(rerun["usage"]["cache_hits"].as_u64(), Some(3));

    // check --verify on a paper: the form remembered in the cache is used at once.
    let before = log.lock().unwrap().len();
    let started = Instant::now();
    let checked = run(
        dir.path(),
        &proxy_url,
        &[
            "check",
            "--verify",
            "--no-full-text",
            "--format",
            "json",
            "--exit-zero",
            "paper.md",
        ],
    );
    eprintln!("check --verify of 2 citations: {:?}", started.elapsed());
    let err = stderr(&checked);
    assert_eq!(checked.status.code(), Some(0), "{err}");
    assert!(err.contains("verified 2 claim"), "{err}");
    let findings: Vec<Value> = serde_json::from_slice(&checked.stdout).unwrap();
    for f in &findings {
        let message = f["message"].as_str().unwrap();
        if f["code"] == "CP305" {
            assert!(
                message.contains("the model returned") || message.contains("the abstract does not"),
                "{f}"
            );
        }
        assert!(!message.contains("unreachable"), "{f}");
    }
    let exchanges = since(&log, before);
    assert!(exchanges.len() >= 2, "one request per citation at least");
    assert!(
        exchanges
            .iter()
            .all(|e| mode_of(&e.request) == "json_object+schema" && e.status == 200),
        "remembered from the verify run: {:?}",
        exchanges
            .iter()
            .map(|e| (mode_of(&e.request), e.status))
            .collect::<Vec<_>>()
    );
    let (requests, _, prompt, completion) = server_usage(&exchanges);
    let line = format!(
        "{MODEL_ALIAS}: {requests} requests (0 failed), {prompt} prompt + {completion} completion tokens"
    );
    assert!(err.contains(&line), "expected `{line}` in:\n{err}");
    assert!(err.contains("negotiated in an earlier run"), "{err}");
}
