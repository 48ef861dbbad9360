//! `--format sarif`: SARIF 2.1.0, one run, every rule in `tool.driver.rules`, columns
//! counted in Unicode code points, fixes as artifact changes, stable fingerprints.
//! A test validates the output against the official OASIS schema.

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::{Value, json};

use super::Report;
use crate::diagnostic::Severity;
use crate::model::{FileId, Span};
use crate::rules::RULES;
use crate::source::SourceMap;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Characters escaped in relative URI references (RFC 3986 path characters stay).
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// SARIF levels: `error`, `warning`, `note`.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// A file's URI: relative paths relative to `%SRCROOT%`, absolute ones as `file://`.
fn artifact(sources: &SourceMap, file: FileId) -> Value {
    let path = sources.get(file).display_path();
    if path.starts_with('/') {
        let uri = url::Url::from_file_path(&path)
            .map(String::from)
            .unwrap_or_else(|_| format!("file://{}", utf8_percent_encode(&path, PATH)));
        json!({ "uri": uri })
    } else {
        let relative = path.strip_prefix("./").unwrap_or(&path);
        json!({ "uri": utf8_percent_encode(relative, PATH).to_string(), "uriBaseId": "%SRCROOT%" })
    }
}

fn region(sources: &SourceMap, file: FileId, span: Span) -> Value {
    let f = sources.get(file);
    let start = f.line_col(span.start);
    let end = f.line_col(span.end);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
        "byteOffset": span.start,
        "byteLength": span.len(),
    })
}

fn location(sources: &SourceMap, file: FileId, span: Span) -> Value {
    let f = sources.get(file);
    if let Some(place) = f.location(span.start) {
        // A converted file's text lines are not the file's: the place is a
        // logical location (`page 3, line 12`), also given as numbers.
        let kind = match place {
            crate::read::Location::Page { .. } => "page",
            crate::read::Location::Paragraph { .. } => "paragraph",
        };
        return json!({
            "physicalLocation": { "artifactLocation": artifact(sources, file) },
            "logicalLocations": [{
                "name": place.to_string(),
                "fullyQualifiedName": format!("{}: {place}", f.display_path()),
                "kind": kind,
            }],
            "properties": { "location": place },
        });
    }
    json!({
        "physicalLocation": {
            "artifactLocation": artifact(sources, file),
            "region": region(sources, file, span),
        }
    })
}

fn rules() -> Vec<Value> {
    RULES
        .iter()
        .map(|rule| {
            json!({
                "id": rule.code,
                "name": rule.name,
                "shortDescription": { "text": rule.summary },
                "fullDescription": { "text": rule.docs },
                "help": { "text": rule.docs },
                "helpUri": rule.docs_url(),
                "defaultConfiguration": { "level": level(rule.severity) },
                "properties": {
                    "family": rule.family,
                    "severity": rule.severity.as_str(),
                    "tags": [rule.family],
                },
            })
        })
        .collect()
}

/// The whole SARIF log as JSON.
pub fn log(report: &Report) -> Value {
    let sources = report.sources();
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .zip(&report.fingerprints)
        .map(|(d, fingerprint)| {
            let rule_index = RULES.iter().position(|r| r.code == d.rule.code);
            let mut result = json!({
                "ruleId": d.rule.code,
                "level": level(d.severity),
                "message": { "text": d.message },
                "locations": [location(sources, d.file, d.span)],
                "partialFingerprints": { "citeproof/v1": fingerprint },
                "properties": { "severity": d.severity.as_str(), "name": d.rule.name },
            });
            if let Some(index) = rule_index {
                result["ruleIndex"] = json!(index);
            }
            if let Some(key) = &d.key {
                result["properties"]["key"] = json!(key);
            }
            if report.fail_on.venue.is_some() {
                result["properties"]["policy_class"] = json!(report.policy_class(d));
            }
            if let Some(record) = &d.record {
                result["properties"]["record"] = json!(record);
            }
            if !d.related.is_empty() {
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut loc = location(sources, r.file, r.span);
                        loc["id"] = json!(i);
                        loc["message"] = json!({ "text": r.message });
                        loc
                    })
                    .collect();
                result["relatedLocations"] = json!(related);
            }
            if let Some(fix) = &d.fix {
                let changes: Vec<Value> = fix
                    .edits
                    .iter()
                    .map(|e| {
                        json!({
                            "artifactLocation": artifact(sources, e.file),
                            "replacements": [{
                                "deletedRegion": region(sources, e.file, e.span),
                                "insertedContent": { "text": e.replacement },
                            }],
                        })
                    })
                    .collect();
                let applicability = fix.applicability.as_str();
                result["fixes"] = json!([{
                    "description": { "text": fix.description },
                    "artifactChanges": changes,
                    "properties": { "applicability": applicability },
                }]);
            }
            result
        })
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "citeproof",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules(),
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

pub fn render(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(&log(report)).expect("SARIF serialises");
    out.push('\n');
    out
}
