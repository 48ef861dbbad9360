//! `--format json` (one array) and `--format jsonl` (one object per line). The object
//! shape is documented in docs/ci.md ("JSON output") and is stable: fields may be
//! added, none is renamed or removed without a new major version.

use serde::Serialize;

use super::Report;
use super::extract::Place;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::model::Work;
use crate::rules::Family;
use crate::source::SourceMap;

/// One finding.
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
    pub code: &'static str,
    pub name: &'static str,
    pub family: Family,
    pub severity: &'static str,
    pub message: &'a str,
    /// The rule's one-line summary.
    pub help: &'static str,
    #[serde(flatten)]
    pub place: Place,
    /// The citation key or marker, or the reference key, the finding is about.
    pub key: Option<&'a str>,
    /// The resolved record the finding compares against.
    pub record: Option<&'a Work>,
    pub fix: Option<JsonFix<'a>>,
    pub related: Vec<JsonRelated<'a>>,
    /// Stable across line shifts; the same as in baselines and SARIF.
    pub fingerprint: &'a str,
    /// The class of the chosen venue policy (`hallucinated`, `error-to-report` …);
    /// absent without `--policy`, null when the policy says nothing of the finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_class: Option<Option<&'a str>>,
}

#[derive(Serialize)]
pub struct JsonFix<'a> {
    pub applicability: Applicability,
    pub description: &'a str,
    pub edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
pub struct JsonEdit<'a> {
    #[serde(flatten)]
    pub place: Place,
    pub replacement: &'a str,
}

#[derive(Serialize)]
pub struct JsonRelated<'a> {
    #[serde(flatten)]
    pub place: Place,
    pub message: &'a str,
}

impl<'a> JsonDiagnostic<'a> {
    pub fn new(sources: &SourceMap, d: &'a Diagnostic, fingerprint: &'a str) -> Self {
        JsonDiagnostic {
            code: d.rule.code,
            name: d.rule.name,
            family: d.rule.family,
            severity: d.severity.as_str(),
            message: &d.message,
            help: d.rule.summary,
            place: Place::new(sources, d.file, d.span),
            key: d.key.as_deref(),
            record: d.record.as_deref(),
            fix: d.fix.as_ref().map(|fix| JsonFix {
                applicability: fix.applicability,
                description: &fix.description,
                edits: fix
                    .edits
                    .iter()
                    .map(|e| JsonEdit {
                        place: Place::new(sources, e.file, e.span),
                        replacement: &e.replacement,
                    })
                    .collect(),
            }),
            related: d
                .related
                .iter()
                .map(|r| JsonRelated {
                    place: Place::new(sources, r.file, r.span),
                    message: &r.message,
                })
                .collect(),
            fingerprint,
            policy_class: None,
        }
    }
}

fn objects<'a>(report: &'a Report) -> impl Iterator<Item = JsonDiagnostic<'a>> {
    report
        .diagnostics
        .iter()
        .zip(&report.fingerprints)
        .map(|(d, fp)| {
            let mut object = JsonDiagnostic::new(report.sources(), d, fp);
            if report.fail_on.venue.is_some() {
                object.policy_class = Some(report.policy_class(d));
            }
            object
        })
}

/// A pretty-printed JSON array.
pub fn render(report: &Report) -> String {
    let all: Vec<JsonDiagnostic> = objects(report).collect();
    let mut out = serde_json::to_string_pretty(&all).expect("diagnostics serialise");
    out.push('\n');
    out
}

/// One compact JSON object per line.
pub fn render_lines(report: &Report) -> String {
    let mut out = String::new();
    for object in objects(report) {
        out.push_str(&serde_json::to_string(&object).expect("diagnostics serialise"));
        out.push('\n');
    }
    out
}
