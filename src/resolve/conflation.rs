//! An identifier that names another work than the cited title: the DOI or arXiv
//! id of one paper pasted under the title of another.

use crate::model::{RefFields, Work};
use crate::resolve::gate::{GateThresholds, accept};
use crate::resolve::identifiers::{
    arxiv_of_doi, cited_arxiv, cited_doi, kind_identifier, record_arxiv, record_doi,
};
use crate::resolve::mismatch::{Conflation, Field};

/// Decide whether a cited identifier names another work than the cited title: the
/// work it resolves to (`by_id`) fails the title gate while the work found by title
/// (`by_title`, when the search found one) is a different work. A preprint DOI and a
/// published DOI of one work are no conflation: both resolve to records that pass the
/// gate.
pub fn identifier_conflation(
    fields: &RefFields,
    raw: &str,
    by_id: &Work,
    by_title: Option<&Work>,
    thresholds: &GateThresholds,
) -> Option<Conflation> {
    if accept(fields, raw, by_id, thresholds).accepted {
        return None;
    }
    let same_ids = |a: &Work, b: &Work| {
        matches!((record_doi(a), record_doi(b)), (Some(x), Some(y)) if x == y)
            || matches!((record_arxiv(a), record_arxiv(b)), (Some(x), Some(y)) if x == y)
    };
    if by_title.is_some_and(|t| same_ids(t, by_id)) {
        return None;
    }
    let id_doi = record_doi(by_id);
    let id_arxiv = record_arxiv(by_id);
    let cd = cited_doi(fields);
    let cx = cited_arxiv(fields);
    let (field, identifier) = if let Some(found) = kind_identifier(fields, by_id) {
        found
    } else if let Some(d) = cd.clone().filter(|d| {
        Some(d) == id_doi.as_ref() || arxiv_of_doi(d).is_some_and(|x| Some(&x) == id_arxiv.as_ref())
    }) {
        (Field::Doi, d)
    } else if let Some(x) = cx.clone().filter(|x| Some(x) == id_arxiv.as_ref()) {
        (Field::Arxiv, x)
    } else if let Some(d) = cd {
        (Field::Doi, d)
    } else if let Some(x) = cx {
        (Field::Arxiv, x)
    } else {
        (Field::Pmid, fields.pmid.clone()?)
    };
    let title_work_identifier = by_title.and_then(|t| match field {
        Field::Doi => record_doi(t),
        Field::Arxiv => record_arxiv(t),
        Field::Isbn => t.isbn.first().cloned(),
        Field::Number | Field::Package => None,
        _ => t.pmid.clone(),
    });
    Some(Conflation {
        field,
        identifier,
        identifier_work_title: by_id.title.clone(),
        title_work_title: by_title.map(|t| t.title.clone()),
        title_work_identifier,
    })
}
