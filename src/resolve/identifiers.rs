//! Persistent identifiers of a reference against a record: equal once normalised
//! (the arXiv DataCite DOI `10.48550/arXiv.X` standing for arXiv `X`), a preprint DOI
//! against a published DOI (versions, noted), or a different work altogether.

use crate::model::{PackageRef, RefFields, Registry, Work};
use crate::parse::ids::{is_bare_doi_prefix, normalize_arxiv, normalize_doi, normalize_pmid};
use crate::resolve::mismatch::{Comparison, Field, Mismatch, MismatchKind};
use crate::resolve::normalize::fold;

pub(crate) use crate::parse::ids::is_preprint_doi;

/// The cited DOI, normalised; a DOI cut short (`10.48550/arXiv.`) cites nothing.
pub(crate) fn cited_doi(fields: &RefFields) -> Option<String> {
    fields
        .doi
        .as_deref()
        .and_then(normalize_doi)
        .filter(|d| !is_bare_doi_prefix(d))
}

/// Whether an arXiv id is only a piece of the cited DOI (`2012.00517` in
/// `10.3724/sp.j.1004.2012.00517`): an identifier inside another is not a second one.
pub(crate) fn arxiv_inside_doi(arxiv: &str, doi: Option<&str>) -> bool {
    doi.is_some_and(|d| arxiv_of_doi(d).is_none() && d.contains(arxiv))
}

pub(crate) fn record_doi(work: &Work) -> Option<String> {
    work.doi.as_deref().and_then(normalize_doi)
}

/// The arXiv id a DOI stands for (`10.48550/arXiv.1706.03762`).
pub(crate) fn arxiv_of_doi(doi: &str) -> Option<String> {
    doi.starts_with("10.48550/")
        .then(|| normalize_arxiv(doi))
        .flatten()
}

pub(crate) fn cited_arxiv(fields: &RefFields) -> Option<String> {
    let doi = cited_doi(fields);
    fields
        .arxiv
        .as_deref()
        .and_then(normalize_arxiv)
        .filter(|a| !arxiv_inside_doi(a, doi.as_deref()))
}

pub(crate) fn record_arxiv(work: &Work) -> Option<String> {
    work.arxiv
        .as_deref()
        .and_then(normalize_arxiv)
        .or_else(|| record_doi(work).and_then(|d| arxiv_of_doi(&d)))
}

/// Whether an identifier of the reference is the record's (DOI, arXiv id — the arXiv
/// DataCite DOI counting as the arXiv id — or PMID).
pub fn identifiers_agree(fields: &RefFields, work: &Work) -> bool {
    let doi = matches!((cited_doi(fields), record_doi(work)), (Some(a), Some(b)) if a == b);
    let cited_x = cited_arxiv(fields).or_else(|| cited_doi(fields).and_then(|d| arxiv_of_doi(&d)));
    let arxiv = matches!((cited_x, record_arxiv(work)), (Some(a), Some(b)) if a == b);
    let pmid = matches!(
        (fields.pmid.as_deref().and_then(normalize_pmid), work.pmid.as_deref().and_then(normalize_pmid)),
        (Some(a), Some(b)) if a == b
    );
    doi || arxiv || pmid || kind_identifier(fields, work).is_some()
}

/// The identifier of a book, an RFC or a package that the reference cites and the
/// record carries: `(field, identifier as cited)`.
pub(crate) fn kind_identifier(fields: &RefFields, work: &Work) -> Option<(Field, String)> {
    use crate::parse::ids::isbn13;
    if let Some(cited) = fields.isbn.as_deref().and_then(isbn13)
        && work
            .isbn
            .iter()
            .any(|i| isbn13(i).as_deref() == Some(cited.as_str()))
    {
        return Some((Field::Isbn, fields.isbn.clone().unwrap_or(cited)));
    }
    if fields.kind == Some(crate::model::WorkKind::Rfc)
        && let Some(n) = fields.number.as_deref().and_then(|n| n.parse::<u32>().ok())
        && record_doi(work).as_deref() == Some(crate::resolve::sources::rfc::rfc_doi(n).as_str())
    {
        return Some((Field::Number, n.to_string()));
    }
    if let Some(p) = &fields.package
        && names_package(p, work)
    {
        return Some((
            Field::Package,
            format!("{}:{}", p.registry.as_str(), p.name),
        ));
    }
    None
}

/// Add identifier mismatches (and notes) of a reference against a record.
pub(crate) fn compare_identifiers(fields: &RefFields, work: &Work, out: &mut Comparison) {
    let wrong = |out: &mut Comparison, field, cited: String, record: String| {
        out.mismatches.push(Mismatch {
            field,
            kind: MismatchKind::WrongIdentifier,
            detail: format!("the record's identifier is {record}"),
            cited,
            record,
        });
    };
    let record_x = record_arxiv(work);
    if let Some(cd) = cited_doi(fields) {
        match (record_doi(work), arxiv_of_doi(&cd)) {
            (Some(rd), _) if rd == cd => {}
            (_, Some(cx)) => match &record_x {
                Some(rx) if *rx == cx => {}
                Some(rx) => wrong(out, Field::Doi, cd.clone(), format!("10.48550/arxiv.{rx}")),
                None => out.notes.push(format!(
                    "cited arXiv DOI {cd}: the record lists no arXiv id"
                )),
            },
            (Some(rd), None) if is_preprint_doi(&cd) != is_preprint_doi(&rd) => out.notes.push(
                format!("cited DOI {cd} and record DOI {rd}: preprint and published versions"),
            ),
            (Some(rd), None) => wrong(out, Field::Doi, cd.clone(), rd),
            (None, None) => out
                .notes
                .push(format!("cited DOI {cd}: the record lists no DOI")),
        }
    }
    if let Some(cx) = cited_arxiv(fields) {
        match &record_x {
            Some(rx) if *rx == cx => {}
            Some(rx) => wrong(out, Field::Arxiv, cx, rx.clone()),
            None => out
                .notes
                .push(format!("cited arXiv:{cx}: the record lists no arXiv id")),
        }
    }
    let cited_pmid = fields.pmid.as_deref().and_then(normalize_pmid);
    if let (Some(cp), Some(rp)) = (cited_pmid, work.pmid.as_deref().and_then(normalize_pmid))
        && cp != rp
    {
        wrong(out, Field::Pmid, cp, rp);
    }
}

/// Whether a record is the registry package a reference names.
pub fn names_package(package: &PackageRef, work: &Work) -> bool {
    let registry_source = |r: Registry| r.as_str() == work.source;
    registry_source(package.registry) && fold(&work.title) == fold(&package.name)
}
