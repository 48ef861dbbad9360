//! The real binary on LaTeX + BibTeX projects: `check` reports every local rule at
//! its place (undefined key, unused entry, duplicate key, duplicate work, missing
//! field, DOI as URL, malformed entry, unreadable include, include cycle, half-typed
//! input) and `extract` prints what the parsers found.

mod bin_support;

use std::path::Path;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    bin_support::citeproof()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run citeproof")
}

/// One finding of `check` output: code, file, line, column, message.
#[derive(Debug, Clone, PartialEq)]
struct Finding {
    code: String,
    file: String,
    line: u32,
    column: u32,
    message: String,
}

fn check(path: &str) -> (Vec<Finding>, i32) {
    let output = run(&["check", path]);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let mut findings = Vec::new();
    let mut lines = stdout.lines();
    while let Some(line) = lines.next() {
        let Some((head, message)) = line.split_once("]: ") else {
            continue;
        };
        let Some((_, code)) = head.split_once('[') else {
            continue;
        };
        let place = lines
            .find_map(|l| l.trim_start().strip_prefix("--> "))
            .expect("a place after the header");
        let mut parts = place.rsplitn(3, ':');
        let column = parts.next().unwrap().parse().unwrap();
        let line_no = parts.next().unwrap().parse().unwrap();
        let file = parts.next().unwrap().to_string();
        findings.push(Finding {
            code: code.to_string(),
            file,
            line: line_no,
            column,
            message: message.to_string(),
        });
    }
    (findings, output.status.code().unwrap_or(-1))
}

fn codes_at(findings: &[Finding]) -> Vec<(&str, &str, u32)> {
    let mut out: Vec<(&str, &str, u32)> = findings
        .iter()
        .map(|f| {
            let name = Path::new(&f.file).file_name().unwrap().to_str().unwrap();
            (f.code.as_str(), name, f.line)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_local_rule_on_a_latex_project() {
    let (findings, status) = check("fixtures/latex/rules/paper.tex");
    assert_eq!(
        codes_at(&findings),
        [
            ("CP002", "refs.bib", 67),
            ("CP101", "paper.tex", 5),
            ("CP102", "refs.bib", 8),
            ("CP103", "refs.bib", 48),
            ("CP104", "refs.bib", 21),
            ("CP104", "refs.bib", 35),
            ("CP107", "refs.bib", 54),
            ("CP108", "refs.bib", 62),
        ],
        "{findings:#?}"
    );
    assert_eq!(status, 1, "errors fail the check");
    let message = |code: &str| {
        findings
            .iter()
            .filter(|f| f.code == code)
            .map(|f| f.message.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(message("CP101"), ["undefined citation key `undefined2020`"]);
    assert_eq!(
        message("CP102"),
        ["bibliography entry `neverused` is never cited"]
    );
    assert!(message("CP104")[0].contains("`dupwork2017b` and `dupwork2017a`"));
    assert!(
        message("CP104")[1].contains("`dupdoi2` and `dupdoi1` are the same work (the same DOI)")
    );
    assert!(message("CP107")[0].contains("no title, no author or editor, no year"));
    assert!(message("CP002")[0].contains("expected `=` after the field name `title`"));
    // The undefined key is pointed at exactly: column of the key inside \citep{…}.
    let undefined = findings.iter().find(|f| f.code == "CP101").unwrap();
    assert_eq!(undefined.column, 37);
}

#[test]
fn natbib_project_findings() {
    let (findings, status) = check("fixtures/latex/natbib/paper.tex");
    assert_eq!(
        codes_at(&findings),
        [
            ("CP101", "paper.tex", 17),
            ("CP102", "references.bib", 55),
            ("CP108", "references.bib", 37),
        ],
        "the suppressed undefined key is silent, and two different works called \
         \"Deep learning\" are not a duplicate: {findings:#?}"
    );
    assert_eq!(status, 1);
}

#[test]
fn biblatex_project_is_clean() {
    let (findings, status) = check("fixtures/latex/biblatex/paper.tex");
    assert!(findings.is_empty(), "{findings:#?}");
    assert_eq!(status, 0, "\\nocite{{*}} cites the entry no command names");
}

#[test]
fn multi_file_project_follows_includes() {
    for target in [
        "fixtures/latex/multifile/main.tex",
        "fixtures/latex/multifile",
    ] {
        let (findings, _) = check(target);
        assert_eq!(
            codes_at(&findings),
            [
                ("CP001", "main.tex", 10),
                ("CP001", "main.tex", 12),
                ("CP004", "b.tex", 2),
            ],
            "{target}: {findings:#?}"
        );
        let missing = findings.iter().find(|f| f.line == 10).unwrap();
        assert!(
            missing.message.contains("sections/missing.tex"),
            "{missing:?}"
        );
        let cycle = findings.iter().find(|f| f.code == "CP004").unwrap();
        assert!(cycle.message.contains("loop/a.tex"), "{cycle:?}");
    }
}

#[test]
fn thebibliography_project_findings() {
    let (findings, _) = check("fixtures/latex/thebibliography/paper.tex");
    assert_eq!(
        codes_at(&findings),
        [("CP101", "paper.tex", 4), ("CP106", "paper.tex", 19)],
        "{findings:#?}"
    );
}

#[test]
fn half_typed_project_is_reported_and_still_checked() {
    let (findings, _) = check("fixtures/latex/edge/halftyped/paper.tex");
    let unterminated: Vec<u32> = findings
        .iter()
        .filter(|f| f.code == "CP003")
        .map(|f| f.line)
        .collect();
    assert_eq!(unterminated, [3, 6, 8, 10, 11]);
    let undefined: Vec<u32> = findings
        .iter()
        .filter(|f| f.code == "CP101")
        .map(|f| f.line)
        .collect();
    assert_eq!(
        undefined,
        [4, 9, 10, 12],
        "citations after each broken construct are read"
    );
}

#[test]
fn extract_prints_citations_references_and_claims() {
    let output = run(&["extract", "fixtures/latex/multifile/main.tex"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let doc = &json["documents"][0];
    let files: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(
        files
            .iter()
            .map(|f| f.rsplit('/').next().unwrap())
            .collect::<Vec<_>>(),
        [
            "main.tex",
            "intro.tex",
            "chapter.tex",
            "appendix.tex",
            "a.tex",
            "b.tex",
            "refs.bib"
        ]
    );
    let citations = doc["citations"].as_array().unwrap();
    let wrapped = citations
        .iter()
        .find(|c| c["command"] == "mycite")
        .expect("the wrapper defined in main.tex is a citation in intro.tex");
    assert_eq!(wrapped["key"], "srivastava2014");
    assert!(
        wrapped["file"]
            .as_str()
            .unwrap()
            .ends_with("sections/intro.tex")
    );
    assert_eq!(wrapped["line"], 3);
    assert_eq!(wrapped["column"], 50);
    assert!(
        citations.iter().all(|c| !c["reference"].is_null()),
        "every key is linked"
    );
    let claim = &doc["claims"][wrapped["claim"].as_u64().unwrap() as usize];
    assert_eq!(claim["text"], "Wrapped citations count as citations too.");
    let references = doc["references"].as_array().unwrap();
    let he = references.iter().find(|r| r["key"] == "he2016").unwrap();
    assert_eq!(he["doi"], "10.1109/cvpr.2016.90");
    assert_eq!(he["line"], 1);
    let mut problems: Vec<&str> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    problems.sort();
    assert_eq!(problems, ["CP001", "CP001", "CP004"]);
}

#[test]
fn extract_a_bib_file_alone() {
    let output = run(&["extract", "fixtures/bibtex/malformed.bib"]);
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let keys: Vec<&str> = json["documents"][0]["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["good1", "good2", "good3", "good4", "good5"]);
    assert_eq!(json["problems"].as_array().unwrap().len(), 5);
}
