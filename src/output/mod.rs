//! Emitters: render diagnostics (and what the run learned about each citation) in
//! every output format. Renderers are generic over the rule table: a new rule needs
//! no change here.

pub mod extract;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod text;

use std::fmt;
use std::str::FromStr;

use crate::baseline;
use crate::diagnostic::{Diagnostic, Severity};
use crate::load::Project;
use crate::model::{FileId, Span};
use crate::policy::FailOn;
use crate::report::Facts;
use crate::source::SourceMap;

/// An output format of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Jsonl,
    Sarif,
    Github,
    Junit,
    Gitlab,
    Html,
}

impl Format {
    pub const ALL: [Format; 8] = [
        Format::Text,
        Format::Json,
        Format::Jsonl,
        Format::Sarif,
        Format::Github,
        Format::Junit,
        Format::Gitlab,
        Format::Html,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Junit => "junit",
            Format::Gitlab => "gitlab",
            Format::Html => "html",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                format!("unknown format `{s}` (expected {})", names.join(", "))
            })
    }
}

/// Everything a renderer may show.
pub struct Report<'a> {
    pub project: &'a Project,
    pub diagnostics: &'a [Diagnostic],
    pub facts: &'a Facts,
    /// Which findings fail the run (JUnit marks only those as failures).
    pub fail_on: &'a FailOn,
    /// Colour the text format.
    pub colour: bool,
    /// One stable fingerprint per diagnostic (see [`crate::baseline`]).
    pub fingerprints: Vec<String>,
}

impl<'a> Report<'a> {
    pub fn new(
        project: &'a Project,
        diagnostics: &'a [Diagnostic],
        facts: &'a Facts,
        fail_on: &'a FailOn,
    ) -> Report<'a> {
        Report {
            project,
            diagnostics,
            facts,
            fail_on,
            colour: false,
            fingerprints: baseline::fingerprints(&project.sources, diagnostics),
        }
    }

    pub fn sources(&self) -> &'a SourceMap {
        &self.project.sources
    }

    /// The venue policy's class of a finding (`--policy`), if a policy is chosen and
    /// its criteria name the finding.
    pub fn policy_class(&self, d: &Diagnostic) -> Option<&str> {
        self.fail_on.policy_class(d)
    }

    /// Findings per class of the chosen venue policy, in the policy's order.
    pub fn policy_counts(&self) -> Vec<(&str, usize)> {
        self.fail_on
            .venue
            .as_deref()
            .map(|p| p.counts(self.diagnostics))
            .unwrap_or_default()
    }

    /// Number of findings of one severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

/// Render a report in one format.
pub fn render(format: Format, report: &Report) -> String {
    match format {
        Format::Text => text::render(report.sources(), report.diagnostics, report.colour),
        Format::Json => json::render(report),
        Format::Jsonl => json::render_lines(report),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
        Format::Junit => junit::render(report),
        Format::Gitlab => gitlab::render(report),
        Format::Html => html::render(report),
    }
}

/// Where a span starts, as reports write it: `paper.md:12:5` for a text file,
/// `paper.pdf: page 3, line 12` for a file converted from another format.
pub fn place_label(sources: &SourceMap, file: FileId, span: Span) -> String {
    let f = sources.get(file);
    let path = f.display_path();
    match f.location(span.start) {
        Some(location) => format!("{path}: {location}"),
        None if f.is_converted() => path,
        None => {
            let at = f.line_col(span.start);
            format!("{path}:{}:{}", at.line, at.column)
        }
    }
}
