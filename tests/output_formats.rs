//! Every output format on a fixture with findings of every kind: snapshots, the
//! SARIF log validated against the official OASIS schema, and the properties each
//! format promises (escaping, columns, fingerprints, failures).

mod output_support;

use citeproof::diagnostic::Severity;
use citeproof::output::{self, Format, Report};
use citeproof::policy::FailOn;
use output_support::{Fixture, fixture};
use serde_json::Value;

fn rendered(format: Format, fixture: &Fixture) -> String {
    let fail_on = FailOn::default();
    let report = Report::new(
        &fixture.project,
        &fixture.diagnostics,
        &fixture.facts,
        &fail_on,
    );
    output::render(format, &report)
}

#[test]
fn fixture_covers_every_rule() {
    let f = fixture();
    assert_eq!(
        output_support::rules_covered(&f.diagnostics),
        output_support::all_rules()
    );
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(rendered(Format::Text, &fixture()));
}

#[test]
fn json_snapshot() {
    insta::assert_snapshot!(rendered(Format::Json, &fixture()));
}

#[test]
fn jsonl_snapshot() {
    insta::assert_snapshot!(rendered(Format::Jsonl, &fixture()));
}

#[test]
fn sarif_snapshot() {
    insta::assert_snapshot!(rendered(Format::Sarif, &fixture()));
}

#[test]
fn github_snapshot() {
    insta::assert_snapshot!(rendered(Format::Github, &fixture()));
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!(rendered(Format::Junit, &fixture()));
}

#[test]
fn gitlab_snapshot() {
    insta::assert_snapshot!(rendered(Format::Gitlab, &fixture()));
}

#[test]
fn html_snapshot() {
    insta::assert_snapshot!(rendered(Format::Html, &fixture()));
}

/// The documented JSON fields, in docs/ci.md.
const JSON_FIELDS: &[&str] = &[
    "code",
    "name",
    "family",
    "severity",
    "message",
    "help",
    "file",
    "line",
    "column",
    "end_line",
    "end_column",
    "span",
    "key",
    "record",
    "fix",
    "related",
    "fingerprint",
];

#[test]
fn json_objects_have_the_documented_fields_and_jsonl_agrees() {
    let f = fixture();
    let array: Vec<Value> = serde_json::from_str(&rendered(Format::Json, &f)).unwrap();
    assert_eq!(array.len(), f.diagnostics.len());
    for object in &array {
        let mut keys: Vec<&str> = object
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort();
        let mut want = JSON_FIELDS.to_vec();
        want.sort();
        assert_eq!(keys, want);
    }
    let lines: Vec<Value> = rendered(Format::Jsonl, &f)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, array);
    let fixed = array.iter().find(|o| o["code"] == "CP108").unwrap();
    assert_eq!(fixed["fix"]["applicability"], "safe");
    assert_eq!(
        fixed["fix"]["edits"][0]["replacement"],
        "doi = {10.1000/sleep.2017}"
    );
    let contradicted = array.iter().find(|o| o["code"] == "CP301").unwrap();
    assert_eq!(contradicted["key"], "smith2020");
    assert_eq!(contradicted["record"]["doi"], "10.1000/vitd");
}

/// The official schema compiled with `boon` (which also checks the schema against
/// the draft-07 meta-schema).
fn sarif_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/sarif/sarif-schema-2.1.0.json"
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler
        .add_resource("urn:sarif-schema-2.1.0", schema)
        .unwrap();
    let index = compiler
        .compile("urn:sarif-schema-2.1.0", &mut schemas)
        .expect("the SARIF schema compiles");
    (schemas, index)
}

fn sarif_errors(log: &Value) -> Option<String> {
    let (schemas, index) = sarif_schema();
    schemas.validate(log, index).err().map(|e| format!("{e:#}"))
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let f = fixture();
    let log: Value = serde_json::from_str(&rendered(Format::Sarif, &f)).unwrap();
    if let Some(errors) = sarif_errors(&log) {
        panic!("SARIF schema errors:\n{errors}");
    }
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(
        run["results"].as_array().unwrap().len(),
        f.diagnostics.len()
    );
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().unwrap().len(),
        citeproof::rules::RULES.len()
    );
    // The schema is strict enough to catch a broken log.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(sarif_errors(&broken).is_some());
}

#[test]
fn sarif_of_a_clean_run_validates_too() {
    let f = fixture();
    let fail_on = FailOn::default();
    let report = Report::new(&f.project, &[], &f.facts, &fail_on);
    let log: Value = serde_json::from_str(&output::render(Format::Sarif, &report)).unwrap();
    assert_eq!(sarif_errors(&log), None);
}

#[test]
fn github_columns_only_on_single_line_findings_and_properties_escaped() {
    let f = fixture();
    let out = rendered(Format::Github, &f);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), f.diagnostics.len() + 1);
    for (line, d) in lines.iter().zip(&f.diagnostics) {
        let file = f.project.sources.get(d.file);
        let one_line = file.line_col(d.span.start).line == file.line_col(d.span.end).line;
        assert_eq!(line.contains(",col="), one_line, "{line}");
        let (props, message) = line.split_once("::").unwrap().1.split_once("::").unwrap();
        assert!(!message.contains('\n') && !props.contains(": "), "{line}");
    }
    let (summary, annotations) = lines.split_last().unwrap();
    assert!(summary.starts_with("citeproof: Found "));
    // A multi-line finding exists in the fixture (the malformed entry).
    assert!(annotations.iter().any(|l| !l.contains(",col=")));
}

#[test]
fn junit_fails_only_what_fails_the_run() {
    let f = fixture();
    let out = rendered(Format::Junit, &f);
    let errors = f
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    assert_eq!(out.matches("<failure ").count(), errors);
    assert!(out.contains(&format!("failures=\"{errors}\"")));
    assert_eq!(
        out.matches("<testcase ").count(),
        f.diagnostics.len()
            + f.project
                .sources
                .files()
                .iter()
                .filter(|file| f.diagnostics.iter().all(|d| d.file != file.id))
                .count()
    );
}

#[test]
fn gitlab_fingerprints_are_unique_and_survive_line_shifts() {
    let f = fixture();
    let issues: Vec<Value> = serde_json::from_str(&rendered(Format::Gitlab, &f)).unwrap();
    let mut prints: Vec<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    prints.sort();
    prints.dedup();
    assert_eq!(prints.len(), issues.len());
    for issue in &issues {
        let severity = issue["severity"].as_str().unwrap();
        assert!(["info", "minor", "major", "critical", "blocker"].contains(&severity));
        assert!(
            issue["location"]["positions"]["begin"]["line"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }
    // Two blank lines before everything: every line number moves, no fingerprint does.
    let mut shifted = fixture();
    for file in shifted.project.sources.files().to_vec() {
        shifted
            .project
            .sources
            .set_text(file.id, format!("\n\n{}", file.text));
    }
    for d in &mut shifted.diagnostics {
        d.span = d.span.offset(2);
        for r in &mut d.related {
            r.span = r.span.offset(2);
        }
    }
    let moved: Vec<Value> = serde_json::from_str(&rendered(Format::Gitlab, &shifted)).unwrap();
    for (a, b) in issues.iter().zip(&moved) {
        assert_eq!(a["fingerprint"], b["fingerprint"]);
        assert_ne!(a["location"], b["location"]);
    }
}

#[test]
fn html_is_self_contained_and_escapes_document_text() {
    let out = rendered(Format::Html, &fixture());
    assert!(!out.contains("<script"));
    assert!(!out.contains("src=\"http"));
    assert!(!out.contains("<link "));
    assert!(out.contains("&lt;angle&gt;"));
    assert!(!out.contains("<angle>"));
}

#[test]
fn formats_parse_by_name() {
    for format in Format::ALL {
        assert_eq!(format.as_str().parse::<Format>().unwrap(), format);
    }
    assert!("xml".parse::<Format>().unwrap_err().contains("sarif"));
}
