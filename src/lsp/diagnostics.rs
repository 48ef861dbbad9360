//! citeproof's diagnostics as the protocol's: the rule code with a link to its
//! documentation, the related places (the citation ↔ its entry), and the fix in
//! `data`, so a code action can be built from the diagnostic alone. With a venue
//! policy (`policy` in `citeproof.toml` or the settings), the finding's class from
//! [`VenuePolicy::class_name`] — the function `check` classifies by — is in `data`
//! and in the message.

use lsp_types::{
    CodeDescription, Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location, NumberOrString, TextEdit, Uri,
};
use serde::{Deserialize, Serialize};

use super::documents::path_to_uri;
use super::encoding::Encoding;
use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::model::{FileId, Span};
use crate::source::SourceMap;
use crate::venue_policy::VenuePolicy;

/// The protocol's `source` of every diagnostic.
pub const SOURCE: &str = "citeproof";

/// What a diagnostic's `data` holds: its fix with every edit placed by URI and range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FixData {
    pub applicability: Applicability,
    pub description: String,
    pub edits: Vec<FileEdit>,
}

/// One edit of a fix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEdit {
    pub uri: Uri,
    pub edit: TextEdit,
}

/// The `data` of a diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnosticData {
    /// The citation key or reference key the finding is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<FixData>,
    /// The venue policy's class of the finding (as `policy_class` in JSON): absent
    /// without a policy, null when its criteria say nothing of the finding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_class: Option<Option<String>>,
    /// The venue policy classified by (`iclr-2026` …), with a policy only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
}

pub fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// The place of a span of a file, for the client.
pub fn location(
    sources: &SourceMap,
    file: FileId,
    span: Span,
    encoding: Encoding,
) -> Option<Location> {
    let source = sources.get(file);
    let uri = path_to_uri(&source.path)?;
    Some(Location::new(
        uri,
        encoding.range(&source.text, &source.index, span),
    ))
}

/// Convert one diagnostic; ranges are computed on the text that was checked.
pub fn to_lsp(
    d: &Diagnostic,
    sources: &SourceMap,
    encoding: Encoding,
    policy: Option<&VenuePolicy>,
) -> LspDiagnostic {
    let file = sources.get(d.file);
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            Some(DiagnosticRelatedInformation {
                location: location(sources, r.file, r.span, encoding)?,
                message: r.message.clone(),
            })
        })
        .collect();
    let fix = d.fix.as_ref().map(|fix| FixData {
        applicability: fix.applicability,
        description: fix.description.clone(),
        edits: fix
            .edits
            .iter()
            .filter_map(|e| {
                let place = location(sources, e.file, e.span, encoding)?;
                Some(FileEdit {
                    uri: place.uri,
                    edit: TextEdit::new(place.range, e.replacement.clone()),
                })
            })
            .collect(),
    });
    let class = policy.map(|p| p.class_name(d));
    let data = DiagnosticData {
        key: d.key.clone(),
        fix,
        policy_class: class.map(|c| c.map(str::to_string)),
        policy: policy.map(|p| p.name.clone()),
    };
    let message = match (policy, class.flatten()) {
        (Some(p), Some(class)) => format!("{} ({}; {}: {class})", d.message, d.rule.name, p.name),
        _ => format!("{} ({})", d.message, d.rule.name),
    };
    LspDiagnostic {
        range: encoding.range(&file.text, &file.index, d.span),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.rule.code.to_string())),
        code_description: d
            .rule
            .docs_url()
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: serde_json::to_value(data).ok(),
    }
}
