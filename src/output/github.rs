//! `--format github`: GitHub Actions workflow commands, which GitHub shows as
//! annotations on the pull request's changed files, then a plain summary line.
//!
//! Escaping follows the Actions toolkit (`@actions/core`, `command.ts`): in the
//! message `%`, CR and LF are percent-encoded; in properties also `:` and `,`.
//! Columns are given only when a finding starts and ends on one line, because
//! GitHub ignores or misplaces multi-line column ranges.

use super::Report;
use super::text::summary;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::SourceMap;

/// `error`, `warning` or `notice`.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "notice",
    }
}

/// Escape a command's message.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a command property value.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command for one finding.
pub fn annotation(sources: &SourceMap, d: &Diagnostic, class: Option<&str>) -> String {
    let file = sources.get(d.file);
    let mut props = vec![format!("file={}", escape_property(&file.display_path()))];
    let mut message = d.message.clone();
    match file.location(d.span.start) {
        // GitHub places annotations on text lines; a PDF's page and line go in
        // the message.
        Some(location) => message = format!("{location}: {message}"),
        None => {
            let start = file.line_col(d.span.start);
            let end = file.line_col(d.span.end);
            props.push(format!("line={}", start.line));
            props.push(format!("endLine={}", end.line));
            if start.line == end.line {
                props.push(format!("col={}", start.column));
                props.push(format!("endColumn={}", end.column));
            }
        }
    }
    props.push(format!(
        "title={}",
        escape_property(&match class {
            Some(class) => format!("citeproof {} ({}) [{class}]", d.rule.code, d.rule.name),
            None => format!("citeproof {} ({})", d.rule.code, d.rule.name),
        })
    ));
    if let Some(fix) = &d.fix {
        let label = fix.applicability.label();
        message.push_str(&format!("\n{label}: {}", fix.description));
    }
    format!(
        "::{} {}::{}",
        command(d.severity),
        props.join(","),
        escape_data(&message)
    )
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in report.diagnostics {
        out.push_str(&annotation(report.sources(), d, report.policy_class(d)));
        out.push('\n');
    }
    out.push_str(&format!("citeproof: {}\n", summary(report.diagnostics)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_toolkit() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
