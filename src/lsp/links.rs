//! `textDocument/documentLink`: DOIs, arXiv ids, PMIDs, PMCIDs and URLs as links to
//! their landing pages (found with the parsers' own identifier reader, plus the
//! BibTeX fields that hold a bare id), and the names of files a document reads.

use lsp_server::ResponseError;
use lsp_types::{DocumentLink, DocumentLinkParams, Uri};

use super::view::View;
use crate::model::{IdScheme, Reference, Span};
use crate::parse::ids;
use crate::parse::inline::web::{self, WebKind};

pub fn document_links(
    view: &View,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>, ResponseError> {
    let Some(read) = view.read(&params.text_document.uri) else {
        return Ok(None);
    };
    let source = read.source();
    let text = &source.text;
    let mut found: Vec<(Span, String, String)> = Vec::new();
    for m in web::find(text) {
        let written = without_closing_braces(&text[m.zone.start..m.zone.end]);
        let zone = Span::new(m.zone.start, m.zone.start + written.len());
        if let Some((scheme, value)) = identifier(m.kind, written)
            && let Some(url) = scheme.landing_url(&value)
        {
            found.push((zone, url, tooltip(scheme, &value)));
        }
    }
    let defined = read
        .documents()
        .flat_map(|d| &d.references)
        .filter(|r| r.file == read.file);
    for reference in defined {
        for (span, scheme, value) in bare_id_fields(reference) {
            if let Some(url) = scheme.landing_url(&value)
                && !found.iter().any(|(s, ..)| overlaps(*s, span))
            {
                found.push((span, url, tooltip(scheme, &value)));
            }
        }
    }
    let mut links: Vec<DocumentLink> = found
        .into_iter()
        .filter_map(|(span, url, tip)| {
            Some(DocumentLink {
                range: view.range(source, span),
                target: Some(url.parse::<Uri>().ok()?),
                tooltip: Some(tip),
                data: None,
            })
        })
        .collect();
    let files = read
        .documents()
        .flat_map(|d| &d.file_links)
        .filter(|l| l.file == read.file);
    for link in files {
        let target = &read.project().sources.get(link.target).path;
        if let Some(uri) = view.uri_of(target)
            && !links
                .iter()
                .any(|l| l.range == view.range(source, link.span))
        {
            links.push(DocumentLink {
                range: view.range(source, link.span),
                target: Some(uri),
                tooltip: Some(target.display().to_string()),
                data: None,
            });
        }
    }
    links.sort_by_key(|l| (l.range.start.line, l.range.start.character));
    Ok(Some(links))
}

/// A URL or DOI without the `}` that closes the LaTeX or BibTeX group around it
/// (`\url{…}`, `url = {…}`): braces it does not open are not part of it.
fn without_closing_braces(mut written: &str) -> &str {
    while written.ends_with('}') && written.matches('{').count() < written.matches('}').count() {
        written = &written[..written.len() - 1];
    }
    written
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// The identifier a match of the web pattern writes.
fn identifier(kind: WebKind, written: &str) -> Option<(IdScheme, String)> {
    match kind {
        WebKind::Url => {
            Some(ids::identifier_from_url(written).unwrap_or((IdScheme::Url, written.to_string())))
        }
        WebKind::Doi => ids::normalize_doi(written).map(|d| (IdScheme::Doi, d)),
        WebKind::Arxiv => ids::normalize_arxiv(written).map(|a| (IdScheme::Arxiv, a)),
        WebKind::Pmid => {
            ids::normalize_pmid(written.trim_start_matches(|c: char| !c.is_ascii_digit()))
                .map(|p| (IdScheme::Pmid, p))
        }
        WebKind::Pmcid => ids::normalize_pmcid(written).map(|p| (IdScheme::Pmcid, p)),
    }
}

fn tooltip(scheme: IdScheme, value: &str) -> String {
    match scheme {
        IdScheme::Doi => format!("doi:{value} at doi.org"),
        IdScheme::Arxiv => format!("arXiv:{value}"),
        IdScheme::Pmid => format!("PMID {value} at PubMed"),
        IdScheme::Pmcid => format!("{value} at PubMed Central"),
        _ => value.to_string(),
    }
}

/// Reads a written identifier in its normalised form.
type Normalize = fn(&str) -> Option<String>;

/// BibTeX fields that hold an identifier without its prefix: `eprint` (when it is
/// the entry's arXiv id), `pmid`, `pmcid`.
fn bare_id_fields(reference: &Reference) -> Vec<(Span, IdScheme, String)> {
    let f = &reference.fields;
    let written = |span: Span| {
        let base = reference.span.start;
        reference
            .raw
            .get(span.start.checked_sub(base)?..span.end.checked_sub(base)?)
    };
    let fields: [(&str, IdScheme, &Option<String>, Normalize); 3] = [
        ("eprint", IdScheme::Arxiv, &f.arxiv, ids::normalize_arxiv),
        ("pmid", IdScheme::Pmid, &f.pmid, ids::normalize_pmid),
        ("pmcid", IdScheme::Pmcid, &f.pmcid, ids::normalize_pmcid),
    ];
    fields
        .into_iter()
        .filter_map(|(name, scheme, value, normalize)| {
            let span = reference.field_span(name)?.value;
            let value = value.as_ref()?;
            // Only where the field itself is that identifier.
            (normalize(written(span)?).as_ref() == Some(value))
                .then(|| (span, scheme, value.clone()))
        })
        .collect()
}
