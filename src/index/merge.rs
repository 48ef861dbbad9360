//! Which records describe the same work: records sharing a DOI, an arXiv id, a PMID
//! or a PMCID, else records with the same normalised title, year and first author
//! (unless both carry different DOIs: two registered works).

use crate::model::{IdScheme, Work};
use crate::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmcid, normalize_pmid};
use crate::resolve::normalize::{fold, strip_retraction_prefix};

/// The identifier schemes an index stores, with their stable numbers on disk.
pub const SCHEMES: [(IdScheme, i64); 4] = [
    (IdScheme::Doi, 1),
    (IdScheme::Arxiv, 2),
    (IdScheme::Pmid, 3),
    (IdScheme::Pmcid, 4),
];

pub fn scheme_code(scheme: IdScheme) -> Option<i64> {
    SCHEMES.iter().find(|(s, _)| *s == scheme).map(|(_, c)| *c)
}

pub fn scheme_of(code: i64) -> Option<IdScheme> {
    SCHEMES.iter().find(|(_, c)| *c == code).map(|(s, _)| *s)
}

/// The record column (in both backends) holding an identifier scheme's value.
pub fn id_column(scheme: IdScheme) -> &'static str {
    match scheme {
        IdScheme::Doi => "doi",
        IdScheme::Arxiv => "arxiv",
        IdScheme::Pmid => "pmid",
        _ => "pmcid",
    }
}

/// A work's identifiers, normalised, strongest first. An arXiv DataCite DOI
/// (`10.48550/arxiv.…`) is the arXiv id written another way and counts as both.
pub fn ids_of(work: &Work) -> Vec<(IdScheme, String)> {
    let mut out = Vec::new();
    if let Some(doi) = work.doi.as_deref().and_then(normalize_doi) {
        out.push((IdScheme::Doi, doi));
    }
    if let Some(arxiv) = work.arxiv.as_deref().and_then(normalize_arxiv) {
        out.push((IdScheme::Arxiv, arxiv));
    }
    if let Some(pmid) = work.pmid.as_deref().and_then(normalize_pmid) {
        out.push((IdScheme::Pmid, pmid));
    }
    if let Some(pmcid) = work.pmcid.as_deref().and_then(normalize_pmcid) {
        out.push((IdScheme::Pmcid, pmcid));
    }
    out
}

/// The folded title without a retraction prefix (`RETRACTED: …`).
pub fn folded_title(title: &str) -> String {
    fold(strip_retraction_prefix(title).0)
}

/// The title + year + first author key of a work, hashed to 64 bits; `None` for
/// a work without title, year or author (too little to merge on).
pub fn title_key(work: &Work) -> Option<i64> {
    let title = folded_title(&work.title);
    let year = work.year?;
    let first = fold(&work.authors.first()?.family);
    if title.is_empty() || first.is_empty() {
        return None;
    }
    Some(fnv1a(&format!("{title}|{year}|{first}")) as i64)
}

/// FNV-1a, 64 bits: stable across platforms and releases (what is on disk must not
/// change with the compiler).
pub fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Whether a record whose title key matched an existing work may join it: not when
/// both carry DOIs and they differ (an arXiv DOI is no registration of its own).
pub fn may_join_by_title(record_doi: Option<&str>, work_doi: Option<&str>) -> bool {
    fn registered(d: Option<&str>) -> Option<&str> {
        d.filter(|d| !d.starts_with("10.48550/"))
    }
    match (registered(record_doi), registered(work_doi)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;

    fn work(title: &str, year: i32, family: &str, doi: Option<&str>) -> Work {
        Work {
            title: title.into(),
            year: Some(year),
            authors: vec![Person::new(Some("A."), family)],
            doi: doi.map(str::to_string),
            ..Work::default()
        }
    }

    #[test]
    fn title_keys_ignore_case_accents_punctuation_and_retraction_prefixes() {
        let a = work("Über Graph-Networks!", 2020, "Müller", None);
        let b = work("RETRACTED: uber graph networks", 2020, "Muller", None);
        assert_eq!(title_key(&a), title_key(&b));
        let c = work("Uber graph networks", 2021, "Muller", None);
        assert_ne!(title_key(&a), title_key(&c));
        let mut d = a.clone();
        d.authors.clear();
        assert_eq!(title_key(&d), None);
    }

    #[test]
    fn ids_are_normalised_and_different_dois_do_not_join() {
        let mut w = work("T", 2020, "X", Some("https://doi.org/10.1000/ABC"));
        w.arxiv = Some("arXiv:1706.03762v5".into());
        w.pmcid = Some("123".into());
        let ids = ids_of(&w);
        assert!(ids.contains(&(IdScheme::Doi, "10.1000/abc".into())));
        assert!(ids.contains(&(IdScheme::Arxiv, "1706.03762".into())));
        assert!(ids.contains(&(IdScheme::Pmcid, "PMC123".into())));
        assert!(!may_join_by_title(Some("10.1/a"), Some("10.1/b")));
        assert!(may_join_by_title(Some("10.48550/arxiv.1"), Some("10.1/b")));
        assert!(may_join_by_title(None, Some("10.1/b")));
    }
}
