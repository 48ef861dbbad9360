//! `--format html`: one self-contained page (inline CSS, no scripts, no external
//! resources; a Content-Security-Policy makes sure of it) with summary counts, one
//! section per document, every citation with its claim, resolved record, verdict,
//! evidence and links, and the findings not tied to a citation.

mod citation;

use std::collections::HashSet;

use quick_xml::escape::escape;

use super::Report;
use super::text::summary;
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::Document;
use crate::model::FileId;

const STYLE: &str = include_str!("style.css");

pub(super) fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "sev-error",
        Severity::Warning => "sev-warning",
        Severity::Info => "sev-info",
        Severity::Hint => "sev-hint",
    }
}

/// One finding as a list item: severity, the venue policy's class (`--policy`), code
/// and name, place, message, fix.
fn finding_item(report: &Report, d: &Diagnostic) -> String {
    let class = match report.policy_class(d) {
        Some(class) => format!(
            "<span class=\"policy\" title=\"venue policy class\">{}</span>",
            escape(class)
        ),
        None => String::new(),
    };
    let mut out = format!(
        "<li><span class=\"sev {sev}\">{sev}</span>{class}<code>{}</code> <code>{}</code> \
         <span class=\"where\">{}</span> — {}",
        d.rule.code,
        d.rule.name,
        escape(super::place_label(report.sources(), d.file, d.span)),
        escape(&d.message),
        sev = d.severity.as_str(),
    );
    for related in &d.related {
        out.push_str(&format!(
            "<span class=\"fix\">{}</span>",
            escape(&related.message)
        ));
    }
    if let Some(fix) = &d.fix {
        let kind = fix.applicability.label();
        out.push_str(&format!(
            "<span class=\"fix\">{kind}: {}</span>",
            escape(&fix.description)
        ));
    }
    out.push_str("</li>\n");
    out
}

/// A list of findings (each with its place) not shown in a citation card.
pub(super) fn findings_list(report: &Report, findings: &[&Diagnostic], out: &mut String) {
    out.push_str("<ul class=\"findings\">\n");
    for d in findings {
        out.push_str(&finding_item(report, d));
    }
    out.push_str("</ul>\n");
}

fn counts(report: &Report, out: &mut String) {
    let citations: usize = report
        .project
        .documents
        .iter()
        .map(|d| d.citations.len())
        .sum();
    let references: HashSet<(FileId, usize)> = report
        .project
        .documents
        .iter()
        .flat_map(|d| d.references.iter().map(|r| (r.file, r.span.start)))
        .collect();
    let mut items: Vec<(String, usize, &str)> = vec![
        ("errors".into(), report.count(Severity::Error), "error"),
        (
            "warnings".into(),
            report.count(Severity::Warning),
            "warning",
        ),
        ("info".into(), report.count(Severity::Info), "info"),
        ("hints".into(), report.count(Severity::Hint), "hint"),
    ];
    items.extend(
        report
            .policy_counts()
            .into_iter()
            .map(|(class, n)| (class.replace('-', " "), n, "policy")),
    );
    items.extend([
        ("documents".into(), report.project.documents.len(), ""),
        ("citations".into(), citations, ""),
        ("references".into(), references.len(), ""),
    ]);
    if !report.facts.is_empty() {
        let mut statuses: Vec<(String, usize)> = Vec::new();
        let mut labels: Vec<(String, usize)> = Vec::new();
        let bump = |list: &mut Vec<(String, usize)>, name: String| match list
            .iter_mut()
            .find(|(n, _)| *n == name)
        {
            Some((_, c)) => *c += 1,
            None => list.push((name, 1)),
        };
        let mut seen = HashSet::new();
        for doc in &report.project.documents {
            for r in &doc.references {
                if let Some(f) = report
                    .facts
                    .reference(r)
                    .filter(|_| seen.insert((r.file, r.span)))
                {
                    let name = serde_json::to_value(f.status)
                        .ok()
                        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                        .unwrap_or_default();
                    bump(&mut statuses, name);
                }
            }
            for c in &doc.citations {
                if let Some(v) = report.facts.citation(c).and_then(|f| f.verdict.as_ref()) {
                    bump(&mut labels, v.label.as_str().to_string());
                }
            }
        }
        for (name, n) in statuses.into_iter().chain(labels) {
            items.push((name, n, ""));
        }
    }
    out.push_str("<ul class=\"counts\">\n");
    for (label, n, class) in items {
        out.push_str(&format!(
            "<li class=\"{class}\"><span class=\"n\">{n}</span><span class=\"label\">{}</span></li>\n",
            escape(&label)
        ));
    }
    out.push_str("</ul>\n");
}

fn document(report: &Report, index: usize, doc: &Document, out: &mut String) {
    let sources = report.sources();
    let files: HashSet<FileId> = doc.files.iter().copied().collect();
    let in_doc: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| files.contains(&d.file))
        .collect();
    out.push_str(&format!(
        "<section class=\"document\" id=\"doc-{index}\">\n<h2>{}</h2>\n<p class=\"lead\">{} · {} citations · {} references · {}</p>\n",
        escape(sources.get(doc.root).display_path()),
        doc.files
            .iter()
            .map(|&f| format!("<code>{}</code>", escape(sources.get(f).display_path())))
            .collect::<Vec<_>>()
            .join(", "),
        doc.citations.len(),
        doc.references.len(),
        escape(summary(in_doc.iter().copied())),
    ));
    out.push_str("<h3>Citations</h3>\n");
    if doc.citations.is_empty() {
        out.push_str("<p class=\"none\">No citations.</p>\n");
    }
    for c in &doc.citations {
        citation::card(report, doc, c, out);
    }
    let others: Vec<&Diagnostic> = in_doc
        .into_iter()
        .filter(|d| {
            !doc.citations
                .iter()
                .any(|c| citation::concerns(d, c, c.reference.map(|r| &doc.references[r])))
        })
        .collect();
    if !others.is_empty() {
        out.push_str("<h3>Other findings</h3>\n");
        findings_list(report, &others, out);
    }
    out.push_str("</section>\n");
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>citeproof report</title>\n<style>\n",
    );
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<header class=\"page\">\n<h1>citeproof report</h1>\n");
    out.push_str(&format!(
        "<p class=\"lead\">{}</p>\n",
        escape(summary(report.diagnostics))
    ));
    counts(report, &mut out);
    if report.project.documents.len() > 1 {
        out.push_str("<nav><ul>\n");
        for (i, doc) in report.project.documents.iter().enumerate() {
            out.push_str(&format!(
                "<li><a href=\"#doc-{i}\">{}</a></li>\n",
                escape(report.sources().get(doc.root).display_path())
            ));
        }
        out.push_str("</ul></nav>\n");
    }
    out.push_str("</header>\n<main>\n");
    for (i, doc) in report.project.documents.iter().enumerate() {
        document(report, i, doc, &mut out);
    }
    let in_documents: HashSet<FileId> = report
        .project
        .documents
        .iter()
        .flat_map(|d| d.files.iter().copied())
        .collect();
    let loose: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| !in_documents.contains(&d.file))
        .collect();
    if !loose.is_empty() {
        out.push_str(
            "<section class=\"document\" id=\"other\">\n<h2>Files outside any document</h2>\n",
        );
        findings_list(report, &loose, &mut out);
        out.push_str("</section>\n");
    }
    out.push_str(&format!(
        "</main>\n<footer>citeproof {}</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    ));
    out
}
