//! Configuration files: discovery, `extend`, per-file rules and globs, error
//! messages that name the key and the file, `citeproof config`, and the mapping onto
//! the settings of sources, the title gate and verification.

mod cli_support;

use std::collections::HashMap;
use std::time::Duration;

use citeproof::config::{ConfigSet, Overrides};
use citeproof::net::Rate;
use citeproof::resolve::sources::SourceName;
use cli_support::Project;

fn check_json(p: &Project, args: &[&str]) -> cli_support::Run {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    p.run(&all)
}

#[test]
fn config_errors_name_the_key_the_file_and_the_line() {
    let p = Project::copy();
    let cases = [
        (
            "fail-on = \"error\"\ncolour = true\n",
            vec!["unknown field `colour`", "citeproof.toml", "line 2"],
        ),
        (
            "[sources.crossref]\nurll = \"http://x\"\n",
            vec!["unknown field `urll`", "line 2"],
        ),
        (
            "[sources.scholar]\n",
            vec!["unknown field `scholar`", "crossref"],
        ),
        (
            "[rules]\nCP999 = \"off\"\n",
            vec!["unknown rule `CP999`", "line 2"],
        ),
        (
            "[rules]\nundefined-citation = \"loud\"\n",
            vec!["unknown level `loud`"],
        ),
        (
            "fail-on = \"sometimes\"\n",
            vec!["unknown severity or rule `sometimes`"],
        ),
        (
            "[sources.s2]\nurl = \"ftp://x\"\n",
            vec!["not an http(s) base URL"],
        ),
        (
            "[sources.arxiv]\nrate-limit = \"fast\"\n",
            vec!["not a rate"],
        ),
        (
            "[resolve]\ntitle-similarity = 1.5\n",
            vec!["not between 0 and 1"],
        ),
        (
            "extend = \"base.toml\"\n",
            vec!["base.toml", "no such file"],
        ),
        ("exclude = [\"[\"]\n", vec!["not a glob"]),
    ];
    for (text, wanted) in cases {
        p.write("citeproof.toml", text);
        let run = p.run(&["check"]);
        assert_eq!(run.code(), 2, "{text}");
        for want in wanted {
            assert!(
                run.stderr().contains(want),
                "{text}: `{want}` not in\n{}",
                run.stderr()
            );
        }
        assert!(run.stdout().is_empty());
    }
}

#[test]
fn a_broken_config_deeper_down_is_an_error_not_a_skipped_folder() {
    let p = Project::copy();
    p.write("drafts/citeproof.toml", "[rules]\nCP101 = \"offf\"\n");
    p.write("drafts/draft.md", "A draft [@x].\n");
    let run = p.run(&["check"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("drafts/citeproof.toml"),
        "{}",
        run.stderr()
    );
}

#[test]
fn two_config_names_in_one_folder_are_refused() {
    let p = Project::copy();
    p.write("citeproof.toml", "");
    p.write(".citeproof.toml", "");
    let run = p.run(&["check"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("keep one"), "{}", run.stderr());
}

#[test]
fn environment_overrides_are_checked_and_named() {
    let p = Project::copy();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_citeproof"));
    let out = Project::local(&mut command)
        .args(["check"])
        .current_dir(p.dir.path())
        .env("CITEPROOF_S2_URL", "ftp://nowhere")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("CITEPROOF_S2_URL"), "{stderr}");
}

#[test]
fn rule_levels_apply_per_file_from_the_nearest_config() {
    let p = Project::copy();
    p.write("sub/notes.md", "Notes cite [@nothere].\n");
    p.write("sub/.citeproof.toml", "[rules]\nCP101 = \"off\"\n");
    p.write(
        "citeproof.toml",
        "[rules]\ndoi-as-url = \"error\"\nCP107 = \"off\"\n",
    );
    let run = check_json(&p, &[]);
    let findings = run.findings();
    let codes: Vec<&str> = findings
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    // The root config's levels apply at the root; sub/ has its own (nearest) file.
    assert!(!codes.contains(&"CP107"), "{codes:?}");
    let doi = findings.iter().find(|f| f["code"] == "CP108").unwrap();
    assert_eq!(doi["severity"], "error");
    assert!(findings.iter().any(|f| f["key"] == "missing2021"));
    assert!(!findings.iter().any(|f| f["key"] == "nothere"), "{codes:?}");
}

#[test]
fn extend_builds_on_a_base_and_the_command_line_wins() {
    let p = Project::copy();
    p.write(
        "shared/base.toml",
        "fail-on = \"hint\"\n[rules]\nCP101 = \"warning\"\n",
    );
    p.write(
        "citeproof.toml",
        "extend = \"shared/base.toml\"\n[rules]\nCP107 = \"off\"\n",
    );
    let run = check_json(&p, &[]);
    let findings = run.findings();
    assert!(
        findings
            .iter()
            .filter(|f| f["code"] == "CP101")
            .all(|f| f["severity"] == "warning")
    );
    assert!(!findings.iter().any(|f| f["code"] == "CP107"));
    assert_eq!(
        run.code(),
        1,
        "fail-on = hint from the base fails on the hints"
    );
    assert_eq!(check_json(&p, &["--fail-on", "error"]).code(), 0);
}

#[test]
fn include_and_exclude_globs_choose_searched_files() {
    let p = Project::copy();
    p.write("drafts/old.md", "Old draft [@gone].\n");
    p.write("citeproof.toml", "exclude = [\"drafts\", \"thesis.*\"]\n");
    let findings = check_json(&p, &[]).findings();
    let files: Vec<&str> = findings
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert!(
        !files
            .iter()
            .any(|f| f.contains("drafts") || f.contains("thesis")),
        "{files:?}"
    );
    assert!(files.contains(&"paper.md"));
    // A file named on the command line is checked whatever the globs say.
    let named = check_json(&p, &["drafts/old.md"]).findings();
    assert_eq!(named.len(), 1);
    p.write("citeproof.toml", "include = [\"thesis.*\"]\n");
    let findings = check_json(&p, &[]).findings();
    assert!(
        findings
            .iter()
            .all(|f| f["file"].as_str().unwrap().starts_with("thesis."))
    );
    assert!(!findings.is_empty());
}

#[test]
fn config_command_prints_values_with_their_origins() {
    let p = Project::copy();
    p.write(
        "base.toml",
        "fail-on = \"warning\"\n[rules]\nCP102 = \"off\"\n",
    );
    p.write(
        "citeproof.toml",
        "extend = \"base.toml\"\ncite-commands = [\"citepos\"]\n[sources.crossref]\nmailto = \"me@example.org\"\n",
    );
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_citeproof"));
    let out = Project::local(&mut command)
        .args(["config"])
        .current_dir(p.dir.path())
        .env("CITEPROOF_S2_URL", "http://127.0.0.1:9/s2")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no `{key}` in\n{text}"))
            .to_string()
    };
    assert!(
        text.starts_with("# configuration file: citeproof.toml"),
        "{text}"
    );
    assert!(line("fail-on").contains("\"warning\"") && line("fail-on").ends_with("# base.toml"));
    assert!(
        line("rules.CP102").contains("\"off\"") && line("rules.CP102").ends_with("# base.toml")
    );
    assert!(line("rules.CP101").ends_with("# default"));
    assert!(line("cite-commands").ends_with("# citeproof.toml"));
    assert!(line("sources.s2.url").contains("127.0.0.1:9/s2"));
    assert!(line("sources.s2.url").ends_with("# environment CITEPROOF_S2_URL"));
    assert!(line("sources.crossref.api-key-env").contains("variable not set"));
    // The mailto raises Crossref's published limit to its polite pool.
    assert!(line("sources.crossref.rate-limit").contains("\"10/s\""));
    assert!(text.contains("no model configured"));
}

#[test]
fn configuration_maps_onto_sources_gate_and_verification_settings() {
    let p = Project::copy();
    p.write(
        "citeproof.toml",
        r#"
[resolve]
title-similarity = 0.9
corroborated-title-similarity = 0.6

[sources]
mailto = "team@example.org"

[sources.crossref]
url = "http://127.0.0.1:8080/crossref/"
api-key-env = "MY_CROSSREF_KEY"
rate-limit = "2/s"
max-concurrency = 2
timeout = "10s"

[sources.arxiv]
disabled = true

[verify]
url = "http://127.0.0.1:11434/v1"
model = "small"
stage2-model = "large"
max-requests-per-minute = 30
full-text = false
fulltext-title-similarity = 0.7
min-full-text-chars = 5000
chunk-size = 600
chunk-overlap = 100
passages = 5
"#,
    );
    let overrides = Overrides {
        env: HashMap::from([("MY_CROSSREF_KEY".to_string(), "secret".to_string())]),
        ..Overrides::default()
    };
    let set = ConfigSet::load(Some(p.dir.path()), overrides).unwrap();
    let run = set.run();
    let sources = run.sources_settings();
    let crossref = sources.get(SourceName::Crossref);
    assert_eq!(crossref.base_url, "http://127.0.0.1:8080/crossref");
    assert_eq!(crossref.api_key.as_deref(), Some("secret"));
    assert_eq!(crossref.mailto.as_deref(), Some("team@example.org"));
    assert_eq!(crossref.effective_rate(), Rate::per_second(2));
    assert_eq!(crossref.policy().max_concurrency, 2);
    assert_eq!(crossref.timeout, Duration::from_secs(10));
    assert!(!sources.get(SourceName::Arxiv).enabled);
    assert!(sources.get(SourceName::S2).enabled);
    assert_eq!(
        sources.get(SourceName::S2).mailto.as_deref(),
        Some("team@example.org")
    );
    let gate = run.gate_thresholds();
    assert_eq!((gate.accept, gate.corroborated), (0.9, 0.6));
    let verify = run.verify_config().expect("a model is configured");
    assert_eq!(verify.stage1.base_url, "http://127.0.0.1:11434/v1");
    assert_eq!(verify.stage1.model, "small");
    assert_eq!(verify.stage2.as_ref().unwrap().model, "large");
    assert_eq!(verify.stage1.limits.max_requests, Some(30));
    let settings = run.verify_settings().unwrap();
    assert!(!settings.full_text);
    assert_eq!(settings.fulltext.min_title_similarity, 0.7);
    let works = url::Url::parse("http://127.0.0.1:8080/crossref/works").unwrap();
    assert!(settings.fulltext.policy.is_trusted(&works));
    assert_eq!(settings.fulltext.min_chars, 5000);
    let p = settings.passages;
    assert_eq!((p.size, p.overlap, p.top), (600, 100, 5));
}

#[test]
fn zotero_settings_come_from_the_file_and_the_environment() {
    let p = Project::copy();
    let defaults = ConfigSet::load(Some(p.dir.path()), Overrides::default()).unwrap();
    let zotero = defaults.run().zotero();
    assert_eq!(zotero.url, "http://localhost:23119");
    assert_eq!(zotero.enabled, None, "unset: on when Zotero answers");
    p.write(
        "citeproof.toml",
        "[sources.zotero]\nurl = \"http://127.0.0.1:9999/\"\nenabled = false\n",
    );
    let set = ConfigSet::load(Some(p.dir.path()), Overrides::default()).unwrap();
    let zotero = set.run().zotero();
    assert_eq!(zotero.url, "http://127.0.0.1:9999");
    assert_eq!(zotero.enabled, Some(false));
    let overrides = Overrides {
        env: HashMap::from([
            (
                "CITEPROOF_ZOTERO_URL".to_string(),
                "http://127.0.0.1:7777".to_string(),
            ),
            ("CITEPROOF_ZOTERO".to_string(), "1".to_string()),
        ]),
        ..Overrides::default()
    };
    let set = ConfigSet::load(Some(p.dir.path()), overrides).unwrap();
    let zotero = set.run().zotero();
    assert_eq!(zotero.url, "http://127.0.0.1:7777");
    assert_eq!(zotero.enabled, Some(true));
    // An unknown key of the table is named.
    p.write("citeproof.toml", "[sources.zotero]\ncolour = \"blue\"\n");
    let error = ConfigSet::load(Some(p.dir.path()), Overrides::default()).unwrap_err();
    assert!(format!("{error:#}").contains("colour"), "{error:#}");
    let bad = Overrides {
        env: HashMap::from([("CITEPROOF_ZOTERO_URL".to_string(), "nonsense".to_string())]),
        ..Overrides::default()
    };
    p.write("citeproof.toml", "");
    let error = ConfigSet::load(Some(p.dir.path()), bad).unwrap_err();
    assert!(
        format!("{error:#}").contains("CITEPROOF_ZOTERO_URL"),
        "{error:#}"
    );
}

#[test]
fn passage_settings_that_cannot_work_are_refused() {
    for (keys, says) in [
        ("chunk-size = 500\nchunk-overlap = 500", "chunk-overlap"),
        ("passages = 0", "passages"),
    ] {
        let p = Project::copy();
        p.write("citeproof.toml", &format!("[verify]\n{keys}\n"));
        let set = ConfigSet::load(Some(p.dir.path()), Overrides::default()).unwrap();
        let err = set.run().verify_settings().unwrap_err().to_string();
        assert!(err.contains(says), "{keys}: {err}");
    }
}

#[test]
fn resolution_cache_and_verification_keys_reach_the_run_settings() {
    let p = Project::copy();
    let demo = include_str!("../fixtures/demo/corpus.jsonl");
    p.write("corpus/works.jsonl", demo.lines().next().unwrap());
    p.write(
        "citeproof.toml",
        r#"
[resolve]
offline = true
corpora = ["corpus/works.jsonl"]
corpus-complete = true
search-order = "openalex,crossref+s2"
allow-private-urls = true

[cache]
dir = "cache"

[sources.crossref]
retries = 0
breaker-failures = 1
breaker-cooldown = "5s"

[verify]
enabled = true
url = "http://127.0.0.1:11434/v1"
model = "small"
stage2-url = "http://127.0.0.1:8000/v1"
stage2-model = "large"
local-embedding-model = "models/minilm"
scoring = "lexical"
parallel = 2
arxiv-web-url = "http://127.0.0.1:9/arxiv-web"
"#,
    );
    let env = HashMap::from([
        ("CITEPROOF_TIMEOUT".to_string(), "7".to_string()),
        ("CITEPROOF_S2_RATE".to_string(), "0.5".to_string()),
    ]);
    let set = ConfigSet::load(
        Some(p.dir.path()),
        Overrides {
            env,
            ..Overrides::default()
        },
    )
    .unwrap();
    let run = set.run();
    assert!(run.resolve_enabled() && run.verify_enabled());
    let root = p.dir.path().canonicalize().unwrap();
    let setup = run.resolve_options().unwrap();
    let options = setup.options;
    assert!(options.offline && options.corpus_complete && options.allow_private_urls);
    assert!(options.corpus.is_some());
    assert_eq!(
        options.plan.search,
        vec![
            vec![SourceName::OpenAlex],
            vec![SourceName::Crossref, SourceName::S2]
        ]
    );
    let cache = options.cache.expect("the configured cache opens");
    assert_eq!(
        cache.path().canonicalize().unwrap().parent(),
        Some(root.join("cache").as_path())
    );
    let crossref = options.sources.get(SourceName::Crossref);
    assert_eq!(crossref.retry.max_retries, 0);
    assert_eq!(crossref.policy().breaker.failures, 1);
    assert_eq!(crossref.policy().breaker.cooldown, Duration::from_secs(5));
    // Sources the file does not name keep the default breaker.
    let openalex = options.sources.get(SourceName::OpenAlex).policy().breaker;
    assert_eq!(openalex.failures, 3);
    assert_eq!(openalex.cooldown, Duration::from_secs(60));
    // CITEPROOF_TIMEOUT (seconds) sets every source; CITEPROOF_S2_RATE is per second.
    assert_eq!(crossref.timeout, Duration::from_secs(7));
    assert_eq!(
        options.sources.get(SourceName::Arxiv).timeout,
        Duration::from_secs(7)
    );
    assert_eq!(
        options
            .sources
            .get(SourceName::S2)
            .effective_rate()
            .interval(),
        Duration::from_secs(2)
    );
    let verify = run.verify_settings().unwrap();
    let llm = verify.llm.expect("a model is configured");
    let stage2 = llm.stage2.expect("a stage-2 model");
    assert_eq!(
        (stage2.base_url.as_str(), stage2.model.as_str()),
        ("http://127.0.0.1:8000/v1", "large")
    );
    assert_eq!(
        verify.embedding_model.as_deref(),
        Some(p.dir.path().join("models/minilm").as_path())
    );
    assert_eq!(verify.parallel, 2);
    assert_eq!(
        verify.scoring,
        Some(citeproof::verify::hybrid::ScoringMode::Lexical)
    );
    assert!(
        verify
            .fulltext
            .arxiv_web
            .starts_with("http://127.0.0.1:9/arxiv-web")
    );
}

#[test]
fn flags_and_environment_override_the_file_and_config_names_them() {
    let p = Project::copy();
    p.write(
        "citeproof.toml",
        "[resolve]\noffline = false\n[verify]\nenabled = true\n[sources]\nmailto = \"file@example.org\"\n",
    );
    let run = p.run(&[
        "config",
        "--no-verify",
        "--mailto",
        "flag@example.org",
        "--timeout",
        "3",
        "--disable-source",
        "s2",
    ]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let text = run.stdout();
    let line = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no `{key}` in\n{text}"))
            .to_string()
    };
    assert!(
        line("verify.enabled").contains("false")
            && line("verify.enabled").ends_with("# command line --no-verify")
    );
    assert!(line("sources.mailto").contains("flag@example.org"));
    assert!(
        line("sources.crossref.timeout").contains("\"3s\"")
            && line("sources.crossref.timeout").ends_with("# command line --timeout")
    );
    assert!(line("sources.s2.disabled").contains("true"));
    // tests/bin_support runs the binary with CITEPROOF_OFFLINE=1 and CITEPROOF_NO_RESOLVE=1:
    // the environment beats the file.
    assert!(line("resolve.offline").ends_with("# environment CITEPROOF_OFFLINE"));
    assert!(
        line("resolve.enabled").contains("false")
            && line("resolve.enabled").ends_with("# environment CITEPROOF_NO_RESOLVE")
    );
    let bad = p.run(&["config", "--search-order", "crossref+scholar"]);
    assert_eq!(bad.code(), 2);
    assert!(
        bad.stderr().contains("--search-order") && bad.stderr().contains("scholar"),
        "{}",
        bad.stderr()
    );
}
