//! JSON for `citeproof extract`: documents, references and claim–citation pairs.
//! The schema is documented in README.md ("extract JSON"); keep the two in step.

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::load::Project;
use crate::model::{
    Citation, CitationKind, Claim, FileId, IdScheme, RefFields, Reference, ReferenceOrigin, Span,
};
use crate::source::SourceMap;

#[derive(Serialize)]
pub struct ExtractOutput<'a> {
    pub documents: Vec<DocumentJson<'a>>,
    /// Problems met while reading (also present per document).
    pub problems: Vec<ProblemJson<'a>>,
}

#[derive(Serialize)]
pub struct DocumentJson<'a> {
    pub root: String,
    pub files: Vec<String>,
    pub citations: Vec<CitationJson<'a>>,
    pub references: Vec<ReferenceJson<'a>>,
    pub claims: Vec<ClaimJson<'a>>,
    pub bibliographies: Vec<String>,
}

/// Where something is: file, 1-based start/end line and column (characters), bytes.
/// For a file converted from another format (a PDF, a Word file) these count in
/// the converted text, and `location` says where the start is in the original:
/// `{"page": 3, "line": 12, "label": "page 3, line 12"}` or `{"part": "body",
/// "paragraph": 14, "character": 5, "label": …}`.
#[derive(Serialize)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub span: [usize; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::read::Location>,
}

impl Place {
    pub fn new(sources: &SourceMap, file: FileId, span: Span) -> Place {
        let f = sources.get(file);
        let start = f.line_col(span.start);
        let end = f.line_col(span.end);
        Place {
            file: f.display_path(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            span: [span.start, span.end],
            location: f.location(span.start),
        }
    }
}

#[derive(Serialize)]
pub struct IdJson<'a> {
    pub scheme: IdScheme,
    pub value: &'a str,
}

#[derive(Serialize)]
pub struct CitationJson<'a> {
    pub key: &'a str,
    pub kind: CitationKind,
    #[serde(flatten)]
    pub place: Place,
    pub command: Option<&'a str>,
    pub narrative: bool,
    pub id: Option<IdJson<'a>>,
    /// Index into this document's `claims`.
    pub claim: Option<usize>,
    /// Index into this document's `references`.
    pub reference: Option<usize>,
}

#[derive(Serialize)]
pub struct ReferenceJson<'a> {
    pub key: &'a str,
    pub origin: ReferenceOrigin,
    pub entry_type: Option<&'a str>,
    #[serde(flatten)]
    pub place: Place,
    pub raw: &'a str,
    #[serde(flatten)]
    pub fields: &'a RefFields,
    /// Indices of the citations that point here.
    pub cited_by: Vec<usize>,
}

#[derive(Serialize)]
pub struct ClaimJson<'a> {
    pub text: &'a str,
    #[serde(flatten)]
    pub place: Place,
    /// Indices of the citations the sentence carries.
    pub citations: Vec<usize>,
}

#[derive(Serialize)]
pub struct ProblemJson<'a> {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: crate::diagnostic::Severity,
    pub message: &'a str,
    #[serde(flatten)]
    pub place: Place,
}

impl<'a> ProblemJson<'a> {
    pub fn new(sources: &SourceMap, d: &'a Diagnostic) -> ProblemJson<'a> {
        ProblemJson {
            code: d.rule.code,
            name: d.rule.name,
            severity: d.severity,
            message: &d.message,
            place: Place::new(sources, d.file, d.span),
        }
    }
}

/// Build the extraction output of a linked project.
pub fn build<'a>(project: &'a Project, problems: &'a [Diagnostic]) -> ExtractOutput<'a> {
    let sources = &project.sources;
    ExtractOutput {
        documents: project
            .documents
            .iter()
            .map(|doc| document(sources, doc))
            .collect(),
        problems: problems
            .iter()
            .map(|d| ProblemJson::new(sources, d))
            .collect(),
    }
}

fn document<'a>(sources: &SourceMap, doc: &'a Document) -> DocumentJson<'a> {
    DocumentJson {
        root: sources.get(doc.root).display_path(),
        files: doc
            .files
            .iter()
            .map(|&f| sources.get(f).display_path())
            .collect(),
        citations: doc.citations.iter().map(|c| citation(sources, c)).collect(),
        references: doc
            .references
            .iter()
            .enumerate()
            .map(|(i, r)| reference(sources, doc, i, r))
            .collect(),
        claims: doc
            .claims
            .iter()
            .enumerate()
            .map(|(i, c)| claim(sources, doc, i, c))
            .collect(),
        bibliographies: doc.bibliographies.iter().map(|b| b.path.clone()).collect(),
    }
}

fn citation<'a>(sources: &SourceMap, c: &'a Citation) -> CitationJson<'a> {
    CitationJson {
        key: &c.key,
        kind: c.kind,
        place: Place::new(sources, c.file, c.span),
        command: c.command.as_deref(),
        narrative: c.narrative,
        id: c.id.as_ref().map(|(scheme, value)| IdJson {
            scheme: *scheme,
            value,
        }),
        claim: c.claim,
        reference: c.reference,
    }
}

fn reference<'a>(
    sources: &SourceMap,
    doc: &Document,
    i: usize,
    r: &'a Reference,
) -> ReferenceJson<'a> {
    ReferenceJson {
        key: &r.key,
        origin: r.origin,
        entry_type: r.entry_type.as_deref(),
        place: Place::new(sources, r.file, r.span),
        raw: &r.raw,
        fields: &r.fields,
        cited_by: doc
            .citations
            .iter()
            .enumerate()
            .filter(|(_, c)| c.reference == Some(i))
            .map(|(n, _)| n)
            .collect(),
    }
}

fn claim<'a>(sources: &SourceMap, doc: &Document, i: usize, c: &'a Claim) -> ClaimJson<'a> {
    ClaimJson {
        text: &c.text,
        place: Place::new(sources, c.file, c.span),
        citations: doc
            .citations
            .iter()
            .enumerate()
            .filter(|(_, cit)| cit.claim == Some(i))
            .map(|(n, _)| n)
            .collect(),
    }
}
