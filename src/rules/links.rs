//! Local rules: citations against the document's own bibliography. No network.

use std::collections::HashMap;
use std::sync::Arc;

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::document::Document;
use crate::model::{Citation, CitationKind, Reference, ReferenceOrigin};
use crate::parse::ids;
use crate::rules::{
    DOI_AS_URL, DUPLICATE_KEY, DUPLICATE_WORK, INVALID_ISBN, MISSING_FIELD, ORPHAN_MARKER,
    UNCITED_REFERENCE, UNDEFINED_CITATION, UNUSED_ENTRY,
};
use crate::source::SourceMap;

/// Entry types that are not works (BibLaTeX data containers).
const NON_WORK_TYPES: &[&str] = &["xdata", "set", "string", "preamble", "comment"];

/// Run every local rule on a linked document.
pub fn check(sources: &SourceMap, doc: &Document) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let has_text = sources.get(doc.root).kind.is_document();
    let cited = cited_references(doc);
    let has_bibliography = has_bibliography(doc);
    out.extend(
        doc.citations
            .iter()
            .filter(|c| c.reference.is_none())
            .filter_map(|c| unlinked_citation(c, has_bibliography)),
    );
    // What each entry as read gets when it is never cited is kept with their index:
    // a keystroke that cites one more of 10,000 entries does not write 10,000
    // findings again.
    let index = doc.entries.kept(&doc.references).filter(|_| has_text);
    let uncited = index.map(|entries| {
        entries.uncited.get_or_init(|| {
            doc.references[..entries.count()]
                .iter()
                .map(|r| never_cited(sources, r).map(Arc::new))
                .collect()
        })
    });
    for (i, reference) in doc.references.iter().enumerate() {
        if cited[i] || !has_text {
            continue;
        }
        out.extend(match uncited.and_then(|list| list.get(i)) {
            Some(finding) => finding.as_deref().cloned(),
            None => never_cited(sources, reference),
        });
    }
    // The entries' own findings are kept with the index of the references as read,
    // which lasts while they do not change; only the inline references (made by
    // linking) are checked again.
    match doc.entries.kept(&doc.references) {
        Some(entries) => {
            let (read, inline) = doc.references.split_at(entries.count());
            let findings = entries
                .findings
                .get_or_init(|| entry_findings(sources, read, &entries.by_folded_key));
            out.extend(findings.iter().cloned());
            for reference in inline {
                invalid_isbn(reference, &mut out);
            }
        }
        None => {
            let folded = crate::document::folded_keys(&doc.references);
            out.extend(entry_findings(sources, &doc.references, &folded));
        }
    }
    out
}

/// The findings of `references` on their own: duplicates among them, and each
/// one's missing fields, DOI given as a URL and invalid ISBN. `folded`: their
/// keys in lower case ([`crate::document::folded_keys`]).
fn entry_findings(
    sources: &SourceMap,
    references: &[Reference],
    folded: &HashMap<String, usize>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    duplicates(references, folded, &mut out);
    for reference in references {
        missing_fields(reference, &mut out);
        doi_as_url(sources, reference, &mut out);
        invalid_isbn(reference, &mut out);
    }
    out
}

/// Whether the document has references of its own (not only those made from
/// inline identifiers): an author–year citation that matches none is then reported.
pub fn has_bibliography(doc: &Document) -> bool {
    doc.references
        .iter()
        .any(|r| r.origin != ReferenceOrigin::Inline)
}

/// The finding on a citation that links to nothing (CP101, or CP106 for a
/// numbered or footnote marker), if its kind has one.
pub fn unlinked_citation(citation: &Citation, has_bibliography: bool) -> Option<Diagnostic> {
    let message = match citation.kind {
        CitationKind::Key if citation.key == "*" => return None,
        CitationKind::Key => format!("undefined citation key `{}`", citation.key),
        CitationKind::Tag => format!(
            "`@{}` has no definition (`[@{}]: doi:…`)",
            citation.key, citation.key
        ),
        CitationKind::AuthorYear if has_bibliography => format!(
            "no reference matches the author–year citation `{}`",
            citation.key
        ),
        CitationKind::Numeric | CitationKind::Footnote => {
            return Some(
                Diagnostic::new(
                    &ORPHAN_MARKER,
                    citation.file,
                    citation.span,
                    format!(
                        "citation marker `[{}]` has no reference-list entry",
                        citation.key
                    ),
                )
                .with_key(&citation.key),
            );
        }
        _ => return None,
    };
    Some(
        Diagnostic::new(&UNDEFINED_CITATION, citation.file, citation.span, message)
            .with_key(&citation.key),
    )
}

/// The finding on a reference that nothing cites, if its kind has one.
fn never_cited(sources: &SourceMap, reference: &Reference) -> Option<Diagnostic> {
    let at = reference.key_span.unwrap_or(reference.span);
    match reference.origin {
        ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson => {
            let d = Diagnostic::new(
                &UNUSED_ENTRY,
                reference.file,
                at,
                format!("bibliography entry `{}` is never cited", reference.key),
            )
            .with_key(&reference.key);
            Some(match entry_removal(sources, reference) {
                Some(fix) => d.with_fix(fix),
                None => d,
            })
        }
        ReferenceOrigin::ReferenceList | ReferenceOrigin::BibItem => Some(
            Diagnostic::new(
                &UNCITED_REFERENCE,
                reference.file,
                at,
                format!("reference `{}` is never cited in the text", reference.key),
            )
            .with_key(&reference.key),
        ),
        _ => None,
    }
}

/// Which references some citation points to (`\nocite{*}` cites every entry).
fn cited_references(doc: &Document) -> Vec<bool> {
    let mut cited = vec![false; doc.references.len()];
    let cite_all = doc
        .citations
        .iter()
        .any(|c| c.kind == CitationKind::Key && c.key == "*");
    for citation in &doc.citations {
        if let Some(r) = citation.reference {
            cited[r] = true;
        }
    }
    // A second entry under a cited key is reported as a duplicate key, not as unused.
    let cited_keys: rustc_hash::FxHashSet<&str> = doc
        .references
        .iter()
        .zip(&cited)
        .filter(|(_, cited)| **cited)
        .map(|(r, _)| r.key.as_str())
        .collect();
    for (i, reference) in doc.references.iter().enumerate() {
        if cited_keys.contains(reference.key.as_str()) {
            cited[i] = true;
        }
    }
    if cite_all {
        for (i, reference) in doc.references.iter().enumerate() {
            if matches!(
                reference.origin,
                ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson
            ) {
                cited[i] = true;
            }
        }
    }
    cited
}

/// Same key twice (CP103); same work under two keys: same DOI or same title (CP104).
fn duplicates(
    references: &[Reference],
    folded: &HashMap<String, usize>,
    out: &mut Vec<Diagnostic>,
) {
    let mut keys: HashMap<(bool, &str), &Reference> = HashMap::new();
    let mut dois: HashMap<&str, &Reference> = HashMap::new();
    let mut titles: HashMap<String, &Reference> = HashMap::new();
    // A tag definition that stands for a bibliography entry is that entry, not a
    // second copy of it.
    let is_alias = |i: usize| crate::link::alias_target(references, i, folded).is_some();
    for (_, reference) in references
        .iter()
        .enumerate()
        .filter(|&(i, r)| r.origin != ReferenceOrigin::Inline && !is_alias(i))
    {
        let at = reference.key_span.unwrap_or(reference.span);
        // Reference-list numbers and bibliography keys live in separate namespaces.
        let namespace = matches!(reference.origin, ReferenceOrigin::ReferenceList);
        if let Some(first) = keys.insert((namespace, &reference.key), reference) {
            keys.insert((namespace, &first.key), first);
            out.push(
                Diagnostic::new(
                    &DUPLICATE_KEY,
                    reference.file,
                    at,
                    format!("key `{}` is defined twice", reference.key),
                )
                .with_key(&reference.key)
                .with_related(
                    first.file,
                    first.key_span.unwrap_or(first.span),
                    "first defined here",
                ),
            );
            continue;
        }
        let by_doi = reference
            .fields
            .doi
            .as_deref()
            .and_then(|doi| dois.get(doi).copied());
        let title_key = reference
            .fields
            .title
            .as_deref()
            .map(title_key)
            .filter(|t| t.len() >= 12);
        let by_title = title_key
            .as_ref()
            .and_then(|t| titles.get(t).copied())
            .filter(|first| same_year_and_first_author(first, reference));
        if let Some((first, why)) = by_doi
            .map(|f| (f, "the same DOI"))
            .or(by_title.map(|f| (f, "the same title")))
        {
            out.push(
                Diagnostic::new(
                    &DUPLICATE_WORK,
                    reference.file,
                    at,
                    format!(
                        "`{}` and `{}` are the same work ({why})",
                        reference.key, first.key
                    ),
                )
                .with_key(&reference.key)
                .with_related(
                    first.file,
                    first.key_span.unwrap_or(first.span),
                    "the other entry",
                ),
            );
            continue;
        }
        if let Some(doi) = reference.fields.doi.as_deref() {
            dois.insert(doi, reference);
        }
        if let Some(title) = title_key {
            titles.insert(title, reference);
        }
    }
}

/// Two entries with one title are one work only if their years and first authors
/// do not disagree: "Deep learning" (Nature 2015) and "Deep Learning" (MIT Press
/// 2016) are two works.
fn same_year_and_first_author(a: &Reference, b: &Reference) -> bool {
    let years_agree = match (a.fields.year, b.fields.year) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    let first_family = |r: &Reference| r.fields.authors.first().map(|p| title_key(&p.family));
    let authors_agree = match (first_family(a), first_family(b)) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    years_agree && authors_agree
}

/// Lowercase alphanumeric words of a title, for duplicate detection.
fn title_key(title: &str) -> String {
    let mut key = String::with_capacity(title.len());
    for word in title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !key.is_empty() {
            key.push(' ');
        }
        // Built in one string: this runs for every entry on every check.
        if word.is_ascii() {
            key.extend(word.chars().map(|c| c.to_ascii_lowercase()));
        } else {
            key.push_str(&word.to_lowercase());
        }
    }
    key
}

/// A bibliography entry without title, author/editor or year (CP107).
fn missing_fields(reference: &Reference, out: &mut Vec<Diagnostic>) {
    if !matches!(
        reference.origin,
        ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson
    ) {
        return;
    }
    if reference
        .entry_type
        .as_deref()
        .is_some_and(|t| NON_WORK_TYPES.contains(&t))
    {
        return;
    }
    let fields = &reference.fields;
    let mut missing = Vec::new();
    if fields.title.as_deref().is_none_or(|t| t.trim().is_empty()) {
        missing.push("title");
    }
    if fields.authors.is_empty() && fields.editors.is_empty() {
        missing.push("author or editor");
    }
    if fields.year.is_none() {
        missing.push("year");
    }
    if missing.is_empty() {
        return;
    }
    out.push(
        Diagnostic::new(
            &MISSING_FIELD,
            reference.file,
            reference.key_span.unwrap_or(reference.span),
            format!("entry `{}` has no {}", reference.key, missing.join(", no ")),
        )
        .with_key(&reference.key),
    );
}

/// The unsafe fix of an unused BibTeX entry: remove it with the blank space of its
/// lines, so that the entries around it stay as they were.
fn entry_removal(sources: &SourceMap, reference: &Reference) -> Option<Fix> {
    if reference.origin != ReferenceOrigin::BibEntry {
        return None;
    }
    let text = &sources.get(reference.file).text;
    let span = reference.span;
    if span.is_empty() || span.end > text.len() {
        return None;
    }
    let before = &text[..span.start];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let start = if before[line_start..].trim().is_empty() {
        line_start
    } else {
        span.start
    };
    let after = &text[span.end..];
    let rest = after.find('\n').map_or(after.len(), |i| i + 1);
    let end = if after[..rest].trim().is_empty() {
        span.end + rest
    } else {
        span.end
    };
    // Entries are usually separated by one blank line: take the one before along,
    // unless the entry is glued to the next one.
    let start = if start == line_start
        && text[..start].ends_with("\n\n")
        && (end == text.len() || text[end..].starts_with('\n'))
    {
        start - 1
    } else {
        start
    };
    Some(Fix {
        applicability: Applicability::Unsafe,
        description: format!("remove the entry `{}`", reference.key),
        edits: vec![Edit {
            file: reference.file,
            span: crate::model::Span::new(start, end),
            replacement: String::new(),
        }],
    })
}

/// `url = {https://doi.org/…}` without a `doi` field (CP108), with a safe fix.
fn doi_as_url(sources: &SourceMap, reference: &Reference, out: &mut Vec<Diagnostic>) {
    if reference.origin != ReferenceOrigin::BibEntry || reference.field_span("doi").is_some() {
        return;
    }
    let Some(url) = reference.field_span("url") else {
        return;
    };
    let written = sources.get(reference.file).slice(url.value);
    let is_doi_link = ids::identifier_from_url(written)
        .is_some_and(|(scheme, _)| scheme == crate::model::IdScheme::Doi);
    let Some(doi) = ids::normalize_doi(written).filter(|_| is_doi_link) else {
        return;
    };
    let fix = Fix {
        applicability: Applicability::Safe,
        description: format!("replace the doi.org URL with `doi = {{{doi}}}`"),
        edits: vec![Edit {
            file: reference.file,
            span: url.whole,
            replacement: format!("doi = {{{doi}}}"),
        }],
    };
    out.push(
        Diagnostic::new(
            &DOI_AS_URL,
            reference.file,
            url.whole,
            format!(
                "`{}` gives its DOI as a URL; use a `doi` field",
                reference.key
            ),
        )
        .with_key(&reference.key)
        .with_fix(fix),
    );
}

/// An ISBN whose length or check digit is wrong (CP109), at the `isbn` field where
/// the entry records it.
fn invalid_isbn(reference: &Reference, out: &mut Vec<Diagnostic>) {
    let Some(digits) = &reference.fields.invalid_isbn else {
        return;
    };
    let span = reference
        .field_span("isbn")
        .map(|f| f.whole)
        .or(reference.key_span)
        .unwrap_or(reference.span);
    let why = match digits.len() {
        10 | 13 => "its check digit is wrong".to_string(),
        n => format!("it has {n} digits, not 10 or 13"),
    };
    out.push(
        Diagnostic::new(
            &INVALID_ISBN,
            reference.file,
            span,
            format!(
                "`{}` cites ISBN {digits}, which names no book: {why}",
                reference.key
            ),
        )
        .with_key(&reference.key),
    );
}
