//! `citeproof check --zotero [COLLECTION]` against a mock of Zotero 7's local API
//! and Better BibTeX: every item of the library (or collection) is checked as a
//! bibliography entry, each finding naming the item's zotero:// URI.

mod bin_support;
mod support;

use std::path::Path;
use std::process::{Command, Output};

use support::zotero::{MockCollection, MockItem, MockZotero};

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/demo");

fn library() -> MockZotero {
    let items = vec![
        MockItem::article(
            "HE2016AA",
            Some("he2016deep"),
            "Deep Residual Learning for Image Recognition",
            &[
                ("He", "Kaiming"),
                ("Zhang", "Xiangyu"),
                ("Ren", "Shaoqing"),
                ("Sun", "Jian"),
            ],
            "2016-06",
            "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        )
        .with("itemType", "conferencePaper".into())
        .with(
            "proceedingsTitle",
            "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)".into(),
        )
        .in_collection("THESIS01"),
        MockItem::article(
            "FAKE2023",
            None,
            "Gradient Folding: Pruning Sparse Transformers through Attention Curvature",
            &[("Lee", "Minji"), ("Novak", "Petr")],
            "2023",
            "Transactions on Machine Learning Research",
        )
        .with("extra", "Citation Key: lee2023folding".into())
        .in_collection("THESIS01"),
        MockItem::article(
            "OTHER999",
            Some("other2020"),
            "A Work Outside the Collection That Nobody Has",
            &[("Nobody", "N.")],
            "2020",
            "Journal of Nothing",
        ),
    ];
    MockZotero::start(
        items,
        vec![MockCollection {
            key: "THESIS01".into(),
            name: "Thesis".into(),
        }],
    )
}

fn check(dir: &Path, zotero: &MockZotero, extra: &[&str]) -> Output {
    let mut command = Command::new(bin_support::BIN);
    bin_support::isolate(&mut command)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CITEPROOF_CACHE_DIR", dir.join(".cache"))
        .env("CITEPROOF_ZOTERO_URL", zotero.url())
        .args(["check", "--offline", "--corpus"])
        .arg(Path::new(DEMO).join("corpus.jsonl"))
        .arg("--corpus-complete")
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_collection_is_checked_item_by_item_with_zotero_uris() {
    let zotero = library();
    let dir = tempfile::tempdir().unwrap();
    let out = check(
        dir.path(),
        &zotero,
        &["--zotero", "Thesis", "--format", "json"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("read 2 item(s) of the Zotero collection `Thesis`"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = &findings(&report);
    let fabricated = findings
        .iter()
        .find(|d| d["code"] == "CP201")
        .unwrap_or_else(|| panic!("no CP201 in {report:#}"));
    let message = fabricated["message"].as_str().unwrap();
    assert!(message.contains("`lee2023folding`"), "{message}");
    assert!(
        message.contains("zotero://select/library/items/FAKE2023"),
        "{message}"
    );
    // The real paper resolves (its key from Better BibTeX); the item outside the
    // collection is not read.
    assert!(
        findings
            .iter()
            .all(|d| !d["message"].as_str().unwrap().contains("other2020")),
        "{report:#}"
    );
    assert!(
        findings
            .iter()
            .all(|d| !(d["code"] == "CP201"
                && d["message"].as_str().unwrap().contains("he2016deep"))),
        "{report:#}"
    );
    let asked = zotero.requests();
    assert!(
        asked
            .iter()
            .any(|r| r.starts_with("/api/users/0/collections/THESIS01/items/top")),
        "{asked:?}"
    );
    assert!(
        asked
            .iter()
            .any(|r| r == "/better-bibtex/json-rpc item.citationkey"),
        "{asked:?}"
    );
}

#[test]
fn the_whole_library_and_an_unknown_collection() {
    let zotero = library();
    let dir = tempfile::tempdir().unwrap();
    let out = check(dir.path(), &zotero, &["--zotero"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("read 3 item(s) of the Zotero library"),
        "{stderr}"
    );
    assert!(
        stdout.contains("zotero://select/library/items/OTHER999"),
        "{stdout}"
    );
    assert!(stdout.contains("zotero/library.bib"), "{stdout}");

    let missing = check(dir.path(), &zotero, &["--zotero", "Nope"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no collection is named or keyed `Nope`")
    );
}

#[test]
fn the_configured_zotero_url_is_used_and_the_flag_wins() {
    let zotero = library();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("citeproof.toml"),
        format!("[sources.zotero]\nurl = \"{}\"\n", zotero.url()),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut command = Command::new(bin_support::BIN);
        bin_support::isolate(&mut command)
            .current_dir(dir.path())
            .args(["check", "--no-resolve", "--zotero"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "read 3 item(s) of the Zotero library from {}",
            zotero.url()
        )),
        "{stderr}"
    );
    // A port nothing listens on, given as the flag, is the one asked.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = run(&["--zotero-url", &format!("http://127.0.0.1:{port}")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Zotero is not reachable"), "{stderr}");
}

#[test]
fn zotero_not_running_is_a_clear_error() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(bin_support::BIN);
    let out = bin_support::isolate(&mut command)
        .current_dir(dir.path())
        .args(["check", "--no-resolve", "--zotero", "--zotero-url"])
        .arg(format!("http://127.0.0.1:{port}"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Zotero is not reachable"), "{stderr}");
}

/// Every finding object (one with a rule `code`) anywhere in a JSON report.
fn findings(value: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    match value {
        serde_json::Value::Object(map) => {
            if map.get("code").is_some_and(|c| c.is_string()) && map.contains_key("message") {
                out.push(value.clone());
            }
            for v in map.values() {
                out.extend(findings(v));
            }
        }
        serde_json::Value::Array(list) => list.iter().for_each(|v| out.extend(findings(v))),
        _ => {}
    }
    out
}
