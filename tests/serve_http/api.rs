//! `citeproof serve` as the real binary on 127.0.0.1 against the mock scholarly world:
//! every route answers what its OpenAPI description says (responses validated against
//! the document's schemas), and each POST route answers exactly what the command
//! line prints for the same input and configuration.

use std::path::Path;

use serde_json::{Value, json};

use crate::serve_support::{Server, isolated, local_env, world_env};
use crate::support::{MockConfig, MockWorld};

const PAPER: &str = "---\nbibliography: refs.bib\n---\n\
    # Minds\n\nConsciousness has no agreed definition [@oliveira2022].\n\
    Sourdough starters are entangled [@fake2021].\n";

const REFS: &str = "@article{oliveira2022, title={A blueprint for conscious machines},\n\
    author={Oliveira, Arlindo L.}, year={2022}, journal={PNAS}, doi={10.1073/pnas.2205971119}}\n\
    @article{fake2021, title={Quantum entanglement of sourdough starters},\n\
    author={Nobody, Anne}, year={2021}, doi={10.9999/fake.2021.1}}\n";

fn articles() -> Value {
    json!([
        {"doi": "10.1073/pnas.2205971119", "pmcid": "PMC9191771",
         "title": "A blueprint for conscious machines",
         "abstract": "Consciousness remains a mysterious and controversial topic; we propose a blueprint for conscious machines.",
         "journal": "PNAS", "year": 2022, "citation_count": 40, "is_peer_reviewed": true,
         "is_retracted": false, "retrieval_rank": 1},
        {"doi": "10.9999/fake.2021.1", "title": "Machine consciousness made easy",
         "abstract": "We show machines are conscious.", "journal": "Journal of Everything",
         "year": 2021, "citation_count": 2, "is_peer_reviewed": false},
        {"title": "Sleep and exercise in older adults", "abstract": "Exercise improves sleep.",
         "journal": "Sleep", "year": 2010}
    ])
}

fn answer() -> (String, Value) {
    let answer = "Consciousness remains a controversial topic, and blueprints for conscious \
                  machines have been proposed [1]. Exercise cures baldness [2].\n\n\
                  References:\n\
                  [1] Oliveira AL. A blueprint for conscious machines. PNAS. 2022. \
                  doi:10.1073/pnas.2205971119\n\
                  [2] Doe J. A miracle cure. 2021. doi:10.9999/invented.42\n";
    let sources = json!([articles()[0].clone()]);
    (answer.to_string(), sources)
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// The command line's standard output as JSON.
fn cli_json(dir: &Path, env: &[(String, String)], args: &[&str]) -> Value {
    let out = isolated(dir)
        .envs(env.iter().cloned())
        .env("CITEPROOF_CACHE_DIR", dir.join(".cache-cli"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The schemas of the OpenAPI document, compiled with boon.
struct Schemas {
    doc: Value,
    schemas: boon::Schemas,
    compiler: boon::Compiler,
}

impl Schemas {
    fn load() -> Schemas {
        let doc: Value = serde_json::from_str(citeproof::serve::OPENAPI).unwrap();
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        compiler.add_resource("urn:openapi", doc.clone()).unwrap();
        Schemas {
            doc,
            schemas: boon::Schemas::new(),
            compiler,
        }
    }

    /// Validate `value` against the schema at `pointer` (`/components/schemas/X`).
    fn check(&mut self, pointer: &str, value: &Value) {
        let index = self
            .compiler
            .compile(&format!("urn:openapi#{pointer}"), &mut self.schemas)
            .unwrap_or_else(|e| panic!("{pointer} does not compile: {e:#}"));
        if let Err(e) = self.schemas.validate(value, index) {
            panic!("answer does not match {pointer}: {e:#}\n{value:#}");
        }
    }

    /// Validate a route's answer against the schema of its status.
    fn check_answer(&mut self, method: &str, path: &str, status: u16, value: &Value) {
        let content = &self.doc["paths"][path][method]["responses"][status.to_string()]["content"];
        let reference = content["application/json"]["schema"]["$ref"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path} {status} has no JSON schema"))
            .trim_start_matches('#')
            .to_string();
        self.check(&reference, value);
    }
}

#[test]
fn every_route_is_described_and_answers_as_described() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &world_env(world.env()), &[]);
    let mut schemas = Schemas::load();

    let described: Vec<(String, String)> = schemas.doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.clone(), path.clone()))
        })
        .collect();
    let routes: Vec<(String, String)> = citeproof::serve::ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    for route in &routes {
        assert!(
            described.contains(route),
            "{route:?} is not in openapi.json"
        );
    }
    assert_eq!(described.len(), routes.len(), "{described:?}");

    let check = server.post(
        "/v1/check",
        &json!({"text": PAPER, "name": "paper.md", "files": {"refs.bib": REFS}}),
    );
    assert_eq!(check.status, 200, "{}", check.body);
    schemas.check_answer("post", "/v1/check", 200, &check.json());
    let codes: Vec<String> = check
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    assert!(
        codes.iter().any(|c| c == "CP201" || c == "CP204"),
        "the fabricated DOI is found out: {codes:?}"
    );
    assert_eq!(check.header("x-citeproof-failing"), Some("true"));

    let resolve = server.post(
        "/v1/resolve",
        &json!({"references": [
            "Oliveira AL. A blueprint for conscious machines. PNAS. 2022. doi:10.1073/pnas.2205971119",
            {"id": "bib", "bibtex": REFS}
        ]}),
    );
    assert_eq!(resolve.status, 200, "{}", resolve.body);
    schemas.check_answer("post", "/v1/resolve", 200, &resolve.json());
    assert_eq!(resolve.json()["results"][0]["status"], "verified");
    assert_eq!(resolve.json()["results"][1]["id"], "bib");

    let validate = server.post(
        "/v1/validate",
        &json!({"query": "How could machines become conscious?", "articles": articles(),
                "options": {"current_year": 2025}}),
    );
    assert_eq!(validate.status, 200, "{}", validate.body);
    schemas.check_answer("post", "/v1/validate", 200, &validate.json());

    let (answer, sources) = answer();
    let clean = server.post("/v1/clean", &json!({"answer": answer, "sources": sources}));
    assert_eq!(clean.status, 200, "{}", clean.body);
    schemas.check_answer("post", "/v1/clean", 200, &clean.json());

    let health = server.get("/healthz").unwrap();
    schemas.check_answer("get", "/healthz", 200, &health.json());
    let openapi = server.get("/openapi.json").unwrap();
    assert_eq!(openapi.json(), schemas.doc);
    let page = server.get("/").unwrap();
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.body.contains("/v1/check"));
    let metrics = server.get("/metrics").unwrap();
    assert!(
        metrics
            .header("content-type")
            .unwrap()
            .starts_with("text/plain")
    );
    for route in ["/v1/check", "/v1/resolve", "/v1/validate", "/v1/clean"] {
        let line = format!(
            "citeproof_http_requests_total{{route=\"{route}\",method=\"POST\",status=\"200\"}} 1"
        );
        assert!(
            metrics.body.contains(&line),
            "`{line}` missing:\n{}",
            metrics.body
        );
    }

    let bad = server.post("/v1/clean", &json!({"answr": "x"}));
    assert_eq!(bad.status, 422);
    schemas.check_answer("post", "/v1/clean", 422, &bad.json());
}

#[test]
fn check_answers_what_the_command_line_prints() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "paper.md", PAPER);
    write(dir.path(), "refs.bib", REFS);
    write(
        dir.path(),
        "citeproof.toml",
        "[rules]\nCP201 = \"warning\"\nCP204 = \"warning\"\n",
    );
    let env = world_env(world.env());
    let cli = cli_json(dir.path(), &env, &["check", "--format", "json", "paper.md"]);
    assert!(!cli.as_array().unwrap().is_empty());
    let server = Server::start(dir.path(), &env, &[]);
    let posted = server.post(
        "/v1/check",
        &json!({"text": PAPER, "name": "paper.md", "files": {"refs.bib": REFS}}),
    );
    assert_eq!(posted.status, 200, "{}", posted.body);
    assert_eq!(posted.json(), cli);
    // The configuration of the server's folder applies: the fabricated reference's
    // findings are warnings.
    let fake: Vec<&Value> = cli
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["key"] == "fake2021" && d["code"].as_str().unwrap().starts_with("CP20"))
        .collect();
    assert!(!fake.is_empty(), "{cli:#}");
    assert!(fake.iter().all(|d| d["severity"] == "warning"), "{fake:#?}");

    // HTML for the page, with the summary in a header.
    let html = server.post(
        "/v1/check",
        &json!({"text": PAPER, "name": "paper.md", "files": {"refs.bib": REFS}, "format": "html"}),
    );
    assert!(
        html.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(html.body.contains("oliveira2022"));
    assert!(
        html.header("x-citeproof-summary")
            .unwrap()
            .contains("warning")
    );
}

#[test]
fn a_document_cannot_make_the_server_read_its_disk() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "secret.bib",
        "@article{secret2020, title={Server secret}, author={Admin, A.}, year={2020}}\n",
    );
    let server = Server::start(dir.path(), &local_env(), &[]);
    let text =
        "---\nbibliography: secret.bib\n---\nA claim [@secret2020].\n\n\\input{/etc/passwd}\n";
    let posted = server.post("/v1/check", &json!({"text": text}));
    assert_eq!(posted.status, 200, "{}", posted.body);
    let findings = posted.json();
    let codes: Vec<&str> = findings
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"CP101"),
        "the key stays undefined: {codes:?}"
    );
    assert!(!posted.body.contains("Server secret"));
    let refused = server.post("/v1/check", &json!({"text": "x", "name": "../paper.md"}));
    assert_eq!(refused.status, 422);
    assert!(
        refused.json()["error"]
            .as_str()
            .unwrap()
            .contains("plain file name")
    );
}

#[test]
fn clean_and_validate_answer_what_the_command_line_prints() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let env = world_env(world.env());
    let (answer, sources) = answer();
    write(dir.path(), "answer.txt", &answer);
    let lines: Vec<String> = sources
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    write(dir.path(), "sources.jsonl", &(lines.join("\n") + "\n"));
    let cli = cli_json(
        dir.path(),
        &env,
        &[
            "clean",
            "--format",
            "json",
            "--sources",
            "sources.jsonl",
            "answer.txt",
        ],
    );
    write(dir.path(), "articles.json", &articles().to_string());
    let query = "How could machines become conscious?";
    let cli_validate = cli_json(
        dir.path(),
        &env,
        &[
            "validate-sources",
            "--query",
            query,
            "--format",
            "json",
            "--current-year",
            "2025",
            "articles.json",
        ],
    );

    let server = Server::start(dir.path(), &env, &[]);
    let posted = server.post("/v1/clean", &json!({"answer": answer, "sources": sources}));
    assert_eq!(posted.json(), cli);
    assert_eq!(cli["report"]["citations"][1]["status"], "not_found");
    let posted = server.post(
        "/v1/validate",
        &json!({"query": query, "articles": articles(), "options": {"current_year": 2025}}),
    );
    assert_eq!(posted.json(), cli_validate);
    let kept = cli_validate["articles"].as_array().unwrap();
    assert_eq!(
        kept[0]["retrieval_rank"], 1,
        "fields the client sent come back"
    );
    assert_eq!(kept[0]["validation"]["identifier"]["status"], "resolved");
    let filtered = cli_validate["filtered"].as_array().unwrap();
    assert!(
        filtered
            .iter()
            .any(|a| a["confidence_label"] == "invalid_id"),
        "{cli_validate:#}"
    );
}
