//! Resolution rules: each resolved reference as diagnostics at its entry (the wrong
//! field's value where the entry records field positions), with the resolved record
//! attached, the citing places as related information, and fixes for BibTeX entries.

use crate::diagnostic::{Applicability, Diagnostic};
use crate::document::Document;
use crate::model::{FileId, Reference, ReferenceOrigin, Span, Work};
use crate::resolve::mismatch::{Field, Mismatch, MismatchKind};
use crate::resolve::outcome::Status;
use crate::resolve::resolution::{Resolution, TryOutcome};
use crate::resolve::run::ProjectResolution;
use crate::rules::resolution_fix::{add_doi, field_span, record_value, replace_value};
use crate::rules::{
    EXPRESSION_OF_CONCERN, IDENTIFIER_NAMES_ANOTHER_WORK, IDENTIFIER_NOT_FOUND, MISSING_DOI,
    REFERENCE_NOT_FOUND, REFERENCE_UNVERIFIED, RETRACTED_WORK, Rule, WORK_NOT_INDEXED,
    WRONG_AUTHORS, WRONG_IDENTIFIER, WRONG_TITLE, WRONG_VENUE, WRONG_VERSION, WRONG_YEAR,
};
use crate::source::SourceMap;

/// Citing places shown with a finding.
const MAX_RELATED: usize = 3;

/// Every resolution finding of a project's documents (`sources`: where their files
/// are, for fixes).
pub fn diagnostics(
    sources: &SourceMap,
    documents: &[Document],
    resolved: &ProjectResolution,
) -> Vec<Diagnostic> {
    diagnostics_of(
        sources,
        documents,
        resolved
            .entries
            .iter()
            .map(|e| (e.document, e.reference, &e.resolution)),
    )
}

/// The findings of each `(document, reference, resolution)`.
pub fn diagnostics_of<'r>(
    sources: &SourceMap,
    documents: &[Document],
    resolved: impl IntoIterator<Item = (usize, usize, &'r Resolution)>,
) -> Vec<Diagnostic> {
    // The citing places of every reference, gathered once per document (not one
    // pass over the citations per reference).
    let mut citing: Vec<Option<CitingPlaces>> = vec![None; documents.len()];
    resolved
        .into_iter()
        .flat_map(|(document, index, resolution)| {
            let doc = &documents[document];
            let places = citing[document].get_or_insert_with(|| citing_places(doc));
            let related = places.get(index).cloned().unwrap_or_default();
            let reference = &doc.references[index];
            reference_diagnostics(sources, reference, related, resolution)
        })
        .collect()
}

/// Per reference of a document, the places that cite it.
type CitingPlaces = Vec<Vec<(FileId, Span)>>;

/// Per reference of a document, the first [`MAX_RELATED`] places that cite it.
fn citing_places(doc: &Document) -> CitingPlaces {
    let mut out = vec![Vec::new(); doc.references.len()];
    for c in &doc.citations {
        if let Some(places) = c.reference.and_then(|r| out.get_mut(r))
            && places.len() < MAX_RELATED
        {
            places.push((c.file, c.span));
        }
    }
    out
}

/// `"Title" (Family et al., 2018)`.
pub fn describe(work: &Work) -> String {
    let who = match work.authors.as_slice() {
        [] => String::new(),
        [one] => one.family.clone(),
        [a, b] => format!("{} and {}", a.family, b.family),
        [first, ..] => format!("{} et al.", first.family),
    };
    let when = work.year.map(|y| y.to_string()).unwrap_or_default();
    let sep = if who.is_empty() || when.is_empty() {
        ""
    } else {
        ", "
    };
    if who.is_empty() && when.is_empty() {
        format!("\"{}\"", work.title)
    } else {
        format!("\"{}\" ({who}{sep}{when})", work.title)
    }
}

/// What a resolution found beyond its status, in short phrases: the wrong fields
/// with the record's values, an expression of concern, the work a cited identifier
/// names, identifiers that do not resolve, which sources were asked for a work none
/// has, and why sources failed for an unverified one.
pub fn explain(r: &Resolution) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for m in &r.mismatches {
        let record = if m.record.is_empty() {
            "none"
        } else {
            &m.record
        };
        parts.push(format!(
            "{}: cited \"{}\", record \"{record}\"",
            m.field.as_str(),
            m.cited
        ));
    }
    if r.expression_of_concern {
        parts.push("expression of concern".into());
    }
    if let Some(other) = &r.identifier_work {
        parts.push(format!("its identifier names {}", describe(other)));
    }
    for (field, value) in &r.unresolved {
        parts.push(format!("{} {value} does not resolve", field.as_str()));
    }
    if r.status == Status::NotFound {
        parts.push(format!("no source has it (asked {})", sources_answering(r)));
        parts.extend(
            r.notes
                .iter()
                .filter(|n| n.contains("never issued") || n.contains("has no package named"))
                .cloned(),
        );
    }
    if r.status == Status::NotIndexed {
        parts.push(format!(
            "not in the sources that hold its kind only partly (asked {})",
            sources_answering(r)
        ));
        parts.extend(r.notes.iter().take(2).cloned());
    }
    if r.status == Status::Unverified {
        parts.extend(r.failures.iter().take(3).cloned());
        parts.extend(r.notes.iter().take(1).cloned());
    }
    parts
}

/// `DOI 10.1/x`, `arXiv:1706.03762`, `PMID 123`.
pub fn identifier(field: Field, value: &str) -> String {
    match field {
        Field::Arxiv => format!("arXiv:{value}"),
        Field::Pmid => format!("PMID {value}"),
        Field::Isbn => format!("ISBN {value}"),
        Field::Number => format!("RFC {value}"),
        Field::Package => format!("the package {value}"),
        Field::Version => format!("version {value}"),
        _ if value.starts_with("10.48550/") || !value.starts_with("10.") => {
            format!("arXiv:{value}")
        }
        _ => format!("DOI {value}"),
    }
}

struct Place<'a> {
    sources: &'a SourceMap,
    reference: &'a Reference,
    related: Vec<(FileId, Span)>,
    record: Option<&'a Work>,
}

impl Place<'_> {
    /// A diagnostic at the entry's key (or the whole entry), or at `field`'s value.
    fn at(&self, rule: &'static Rule, field: Option<Field>, message: String) -> Diagnostic {
        let r = self.reference;
        let span = field
            .and_then(|f| field_span(r, f))
            .map(|f| f.whole)
            .or(r.key_span)
            .unwrap_or(r.span);
        let mut d = Diagnostic::new(rule, r.file, span, message).with_key(&r.key);
        for &(file, at) in &self.related {
            d = d.with_related(file, at, format!("`{}` is cited here", r.key));
        }
        match self.record {
            Some(work) => d.with_record(work.clone()),
            None => d,
        }
    }
}

fn reference_diagnostics(
    sources: &SourceMap,
    reference: &Reference,
    related: Vec<(FileId, Span)>,
    res: &Resolution,
) -> Vec<Diagnostic> {
    let place = Place {
        sources,
        reference,
        related,
        record: res.work.as_deref(),
    };
    let key = &reference.key;
    let mut out = Vec::new();
    match res.status {
        Status::NotFound => {
            out.push(place.at(&REFERENCE_NOT_FOUND, None, not_found_message(key, res)))
        }
        Status::Retracted => {
            let work = res.work.as_deref().map(describe).unwrap_or_default();
            out.push(place.at(
                &RETRACTED_WORK,
                None,
                format!("`{key}` cites a retracted work: {work}"),
            ));
        }
        Status::NotIndexed => match &res.identifier_work {
            Some(other) => {
                let id = cited_identifier(reference, res);
                out.push(place.at(
                    &IDENTIFIER_NAMES_ANOTHER_WORK,
                    None,
                    format!("`{key}`: {id} names another work, {}", describe(other)),
                ));
            }
            None => out.push(place.at(
                &WORK_NOT_INDEXED,
                None,
                not_indexed_message(key, reference, res),
            )),
        },
        Status::Unverified if !res.sources_tried.is_empty() => {
            out.push(place.at(&REFERENCE_UNVERIFIED, None, unverified_message(key, res)));
            if let Some(other) = &res.identifier_work {
                let id = cited_identifier(reference, res);
                out.push(place.at(
                    &IDENTIFIER_NAMES_ANOTHER_WORK,
                    None,
                    format!("`{key}`: {id} names another work, {}", describe(other)),
                ));
            }
        }
        _ => {}
    }
    if res.expression_of_concern
        && let Some(work) = &res.work
    {
        out.push(place.at(
            &EXPRESSION_OF_CONCERN,
            None,
            format!(
                "`{key}`: an expression of concern is attached to {}",
                describe(work)
            ),
        ));
    }
    if let Some(work) = &res.work {
        for m in &res.mismatches {
            out.push(mismatch(&place, res, work, m));
        }
    }
    let covered = |field: Field| res.mismatches.iter().any(|m| m.field == field);
    if res.status != Status::NotFound {
        for (field, value) in res.unresolved.iter().filter(|(f, _)| !covered(*f)) {
            out.push(place.at(
                &IDENTIFIER_NOT_FOUND,
                Some(*field),
                format!("`{key}`: {} does not resolve", identifier(*field, value)),
            ));
        }
    }
    out.extend(missing_doi(&place, res));
    out
}

fn cited_identifier(reference: &Reference, res: &Resolution) -> String {
    let f = &reference.fields;
    if let Some(isbn) = &f.isbn {
        return identifier(Field::Isbn, isbn);
    }
    if f.kind == Some(crate::model::WorkKind::Rfc)
        && let Some(n) = &f.number
    {
        return identifier(Field::Number, n);
    }
    if let Some(p) = &f.package {
        return format!("the {} package {}", p.registry.display(), p.name);
    }
    match (&f.doi, &f.arxiv, &f.pmid) {
        (Some(d), _, _) => identifier(Field::Doi, d),
        (None, Some(a), _) => identifier(Field::Arxiv, a),
        (None, None, Some(p)) => identifier(Field::Pmid, p),
        _ => res
            .identifier_work
            .as_ref()
            .and_then(|w| w.doi.clone())
            .map_or_else(
                || "its identifier".to_string(),
                |d| identifier(Field::Doi, &d),
            ),
    }
}

/// The sources that answered without the work (each once, in the order asked): a
/// source that failed or was not asked did not "not find" it.
pub fn sources_answering(res: &Resolution) -> String {
    let mut unique: Vec<&str> = Vec::new();
    for t in &res.sources_tried {
        let answered = matches!(t.outcome, TryOutcome::NotFound | TryOutcome::Rejected);
        if answered && !unique.contains(&t.source.as_str()) {
            unique.push(&t.source);
        }
    }
    unique.join(", ")
}

/// The sources that failed, each once.
fn sources_failing(res: &Resolution) -> Vec<&str> {
    let mut unique: Vec<&str> = Vec::new();
    for t in &res.sources_tried {
        if t.outcome == TryOutcome::Failed && !unique.contains(&t.source.as_str()) {
            unique.push(&t.source);
        }
    }
    unique
}

fn not_found_message(key: &str, res: &Resolution) -> String {
    let mut message = format!(
        "`{key}` was not found in any source ({}): the reference is likely fabricated",
        sources_answering(res)
    );
    if let Some(absent) = res
        .notes
        .iter()
        .find(|n| n.contains("never issued") || n.contains("has no package named"))
    {
        message = format!("`{key}`: {absent}: the reference is likely fabricated");
    }
    let failing = sources_failing(res);
    if !failing.is_empty() {
        message.push_str(&format!(" ({} could not be asked)", failing.join(", ")));
    }
    for (field, value) in &res.unresolved {
        message.push_str(&format!("; {} does not resolve", identifier(*field, value)));
    }
    if let Some(other) = &res.identifier_work {
        message.push_str(&format!(
            "; its identifier names another work, {}",
            describe(other)
        ));
    }
    message
}

fn not_indexed_message(key: &str, reference: &Reference, res: &Resolution) -> String {
    let kind = reference.fields.kind;
    let what = match kind {
        Some(k) => k.phrase(),
        None => "a work in a language or venue the indexes hold only partly",
    };
    let foreign = kind.is_none()
        || matches!(
            kind,
            Some(
                crate::model::WorkKind::Article
                    | crate::model::WorkKind::ConferencePaper
                    | crate::model::WorkKind::Preprint
            )
        );
    let what = if foreign {
        "a work in a language or venue the indexes hold only partly"
    } else {
        what
    };
    let mut message = format!(
        "`{key}` is {what}, and none of the sources asked has it ({}); they hold such works only \
         partly, so this is no evidence of fabrication: {}",
        sources_answering(res),
        crate::resolve::kinds::how_to_confirm(kind)
    );
    for note in res.notes.iter().take(2) {
        message.push_str(&format!("; {note}"));
    }
    message
}

fn unverified_message(key: &str, res: &Resolution) -> String {
    let offline = res
        .sources_tried
        .iter()
        .any(|t| t.outcome == TryOutcome::Offline);
    if offline && res.failures.is_empty() {
        return format!(
            "`{key}` could not be verified offline: it is neither in the cache nor in a local corpus"
        );
    }
    let mut reasons: Vec<&str> = Vec::new();
    for f in &res.failures {
        let source = f.split(':').next().unwrap_or("");
        if !reasons.iter().any(|r| r.split(':').next() == Some(source)) {
            reasons.push(f);
        }
    }
    reasons.truncate(3);
    let mut message = format!(
        "`{key}` could not be verified ({}); nothing is concluded, rerun later",
        if reasons.is_empty() {
            "a source did not answer".to_string()
        } else {
            reasons.join("; ")
        }
    );
    if let Some(closest) = res
        .notes
        .iter()
        .find(|n| n.starts_with("the closest record"))
    {
        message.push_str(&format!(" ({closest})"));
    }
    message
}

fn mismatch(place: &Place<'_>, res: &Resolution, work: &Work, m: &Mismatch) -> Diagnostic {
    let key = &place.reference.key;
    let value = record_value(m.field, work);
    let fix_to = |v: &str, what: Applicability| {
        replace_value(place.sources, place.reference, m.field, v, what)
    };
    let (rule, message, fix) = match m.field {
        Field::Title => (
            &WRONG_TITLE,
            format!(
                "`{key}`: the title differs from the record's, \"{}\" ({})",
                m.record, m.detail
            ),
            value
                .as_deref()
                .and_then(|v| fix_to(v, Applicability::Unsafe)),
        ),
        Field::Authors => (
            &WRONG_AUTHORS,
            format!(
                "`{key}`: the authors differ from the record's ({}); the record lists {}",
                m.detail, m.record
            ),
            value
                .as_deref()
                .and_then(|v| fix_to(v, Applicability::Unsafe)),
        ),
        Field::Year => (
            &WRONG_YEAR,
            format!(
                "`{key}`: the year is {} but the record says {}",
                m.cited, m.record
            ),
            value
                .as_deref()
                .and_then(|v| fix_to(v, Applicability::Unsafe)),
        ),
        Field::Venue => (
            &WRONG_VENUE,
            format!(
                "`{key}`: the venue is \"{}\" but the record says \"{}\"",
                m.cited, m.record
            ),
            value
                .as_deref()
                .and_then(|v| fix_to(v, Applicability::Unsafe)),
        ),
        Field::Version => (&WRONG_VERSION, format!("`{key}`: {}", m.detail), None),
        Field::Doi | Field::Arxiv | Field::Pmid | Field::Isbn | Field::Number | Field::Package => {
            let cited = identifier(m.field, &m.cited);
            let theirs = if m.record.is_empty() {
                String::new()
            } else {
                format!("; the cited work's is {}", identifier(m.field, &m.record))
            };
            let fix = (!m.record.is_empty())
                .then(|| fix_to(&m.record, Applicability::Unsafe))
                .flatten();
            let unresolved = res
                .unresolved
                .iter()
                .any(|(f, v)| *f == m.field && *v == m.cited);
            if m.kind == MismatchKind::IdentifierNamesAnotherWork {
                let other = res
                    .identifier_work
                    .as_ref()
                    .map(describe)
                    .unwrap_or_else(|| "another work".into());
                (
                    &IDENTIFIER_NAMES_ANOTHER_WORK,
                    format!(
                        "`{key}`: {cited} names another work, {other}; the cited title is {}{theirs}",
                        describe(work)
                    ),
                    fix,
                )
            } else if unresolved {
                (
                    &IDENTIFIER_NOT_FOUND,
                    format!("`{key}`: {cited} does not resolve{theirs}"),
                    fix,
                )
            } else {
                (
                    &WRONG_IDENTIFIER,
                    format!(
                        "`{key}`: {cited} is not the identifier of {}{theirs}",
                        describe(work)
                    ),
                    fix,
                )
            }
        }
    };
    let mut d = place.at(rule, Some(m.field), message);
    d.mismatch = Some(m.kind);
    match fix {
        Some(f) => d.with_fix(f),
        None => d,
    }
}

fn missing_doi(place: &Place<'_>, res: &Resolution) -> Option<Diagnostic> {
    let r = place.reference;
    let work = res.work.as_ref()?;
    let doi = work.doi.as_deref()?;
    let cites_url_doi = r
        .fields
        .url
        .as_deref()
        .is_some_and(|u| u.contains("doi.org/"));
    let arxiv_alias = doi.starts_with("10.48550/") && r.fields.arxiv.is_some();
    let eligible = r.origin == ReferenceOrigin::BibEntry
        && !r.field_spans.is_empty()
        && r.fields.doi.is_none()
        && !cites_url_doi
        && !arxiv_alias
        && res.identified_work().is_some();
    if !eligible {
        return None;
    }
    let applicability = if res.status == Status::Verified {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    let fix = add_doi(place.sources, r, doi, applicability)?;
    Some(
        place
            .at(
                &MISSING_DOI,
                None,
                format!(
                    "`{}`: the cited work has DOI {doi}; the entry gives none",
                    r.key
                ),
            )
            .with_fix(fix),
    )
}
