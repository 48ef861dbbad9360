//! `--format gitlab`: a GitLab Code Quality report (a JSON array of issues with
//! description, check name, fingerprint, severity and location). Fingerprints are
//! the stable ones of [`crate::baseline`], so GitLab tracks an issue across pushes
//! even when lines move.

use serde_json::{Value, json};

use super::Report;
use crate::diagnostic::Severity;

/// Code Quality severities: `info`, `minor`, `major`, `critical`, `blocker`.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info | Severity::Hint => "info",
    }
}

pub fn render(report: &Report) -> String {
    let issues: Vec<Value> = report
        .diagnostics
        .iter()
        .zip(&report.fingerprints)
        .map(|(d, fingerprint)| {
            let file = report.sources().get(d.file);
            let mut description = format!("{} {}: {}", d.rule.code, d.rule.name, d.message);
            // GitLab wants a line; a converted file (a PDF) has none of its own:
            // the page and line go in the description, and the file's first line
            // is the place.
            let (start, end) = match file.location(d.span.start) {
                Some(location) => {
                    description = format!("{description} ({location})");
                    let first = crate::source::LineCol { line: 1, column: 1 };
                    (first, first)
                }
                None => (file.line_col(d.span.start), file.line_col(d.span.end)),
            };
            json!({
                "type": "issue",
                "description": description,
                "check_name": d.rule.code,
                "categories": ["Bug Risk"],
                "fingerprint": fingerprint,
                "severity": severity(d.severity),
                "location": {
                    "path": file.display_path().trim_start_matches("./"),
                    "positions": {
                        "begin": { "line": start.line, "column": start.column },
                        "end": { "line": end.line, "column": end.column },
                    },
                },
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&issues).expect("report serialises");
    out.push('\n');
    out
}
