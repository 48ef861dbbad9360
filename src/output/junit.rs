//! `--format junit`: one test suite per file read, one test case per finding (a
//! failure when it fails the run under `--fail-on`, a passing case with its text in
//! `system-out` otherwise) and one passing case for each file without findings.

use quick_xml::escape::escape;

use super::Report;
use super::text::summary;
use crate::diagnostic::Diagnostic;

fn testcase(report: &Report, d: &Diagnostic, out: &mut String) {
    let file = report.sources().get(d.file);
    let path = file.display_path();
    let place = super::place_label(report.sources(), d.file, d.span);
    // A converted file's text lines are not the file's: its place is named in
    // words (`page 3, line 12`) and no `line` attribute is given.
    let (name, line) = match file.location(d.span.start) {
        Some(location) => (
            format!("{} {} ({location})", d.rule.code, d.rule.name),
            String::new(),
        ),
        None => {
            let at = file.line_col(d.span.start);
            (
                format!(
                    "{} {} (line {}, column {})",
                    d.rule.code, d.rule.name, at.line, at.column
                ),
                format!(" line=\"{}\"", at.line),
            )
        }
    };
    let class = report
        .policy_class(d)
        .map(|c| format!(" ({c})"))
        .unwrap_or_default();
    let body = format!(
        "{place}: {} {} [{}]{class} {}",
        d.severity, d.rule.code, d.rule.name, d.message
    );
    out.push_str(&format!(
        "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\"{line}>\n",
        escape(&name),
        escape(&path),
        escape(&path),
    ));
    if report.fail_on.fails(d) {
        out.push_str(&format!(
            "      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
            escape(&d.message),
            report.policy_class(d).unwrap_or(d.severity.as_str()),
            escape(&body)
        ));
    } else {
        out.push_str(&format!(
            "      <system-out>{}</system-out>\n",
            escape(&body)
        ));
    }
    out.push_str("    </testcase>\n");
}

pub fn render(report: &Report) -> String {
    let failures = report
        .diagnostics
        .iter()
        .filter(|d| report.fail_on.fails(d))
        .count();
    let mut suites = String::new();
    let mut tests = 0;
    for file in report.sources().files() {
        let found: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.file == file.id)
            .collect();
        let path = file.display_path();
        let suite_failures = found.iter().filter(|d| report.fail_on.fails(d)).count();
        let cases = found.len().max(1);
        tests += cases;
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{cases}\" failures=\"{suite_failures}\" errors=\"0\" skipped=\"0\">\n",
            escape(&path)
        ));
        if found.is_empty() {
            suites.push_str(&format!(
                "    <testcase name=\"no findings\" classname=\"{}\" file=\"{}\"/>\n",
                escape(&path),
                escape(&path)
            ));
        }
        for d in found {
            testcase(report, d, &mut suites);
        }
        suites.push_str("  </testsuite>\n");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!-- {} -->\n\
         <testsuites name=\"citeproof\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n\
         {suites}</testsuites>\n",
        escape(summary(report.diagnostics).replace("--", "-"))
    )
}
