//! Field-by-field comparison of what a reference says with the record the gate
//! accepted: title, authors, year, venue and identifiers. Only clear errors become
//! mismatches; benign differences (name forms, "et al.", abbreviated venues, a
//! preprint's year, a missing field) become notes or nothing.

use serde::{Deserialize, Serialize};

use crate::model::{Person, RefFields, Work};
use crate::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmid};
use crate::resolve::authors::{AuthorIssue, compare_authors};
use crate::resolve::gate::{GateThresholds, accept};
use crate::resolve::normalize::{
    compact, content_words, spelling_variant, split_subtitle, strip_retraction_prefix,
};
use crate::resolve::venues::{VenueMatch, compare_venues, is_preprint_venue, is_repository_venue};

/// A compared field (names as in the world schema and the `resolve` output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Field {
    Title,
    Authors,
    Year,
    Venue,
    Doi,
    Arxiv,
    Pmid,
}

/// What kind of error a mismatch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MismatchKind {
    /// The title is close to the record's but content words differ.
    NearMissTitle,
    SwappedAuthors,
    PartialAuthorList,
    PlaceholderAuthors,
    UnknownAuthors,
    WrongYear,
    WrongVenue,
    /// The cited identifier is not the record's.
    WrongIdentifier,
    /// The cited identifier resolves to a different work than the cited title.
    IdentifierNamesAnotherWork,
}

impl From<AuthorIssue> for MismatchKind {
    fn from(issue: AuthorIssue) -> MismatchKind {
        match issue {
            AuthorIssue::SwappedAuthors => MismatchKind::SwappedAuthors,
            AuthorIssue::PartialAuthorList => MismatchKind::PartialAuthorList,
            AuthorIssue::PlaceholderAuthors => MismatchKind::PlaceholderAuthors,
            AuthorIssue::UnknownAuthors => MismatchKind::UnknownAuthors,
        }
    }
}

/// One wrong field: what the reference says and what the record says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub field: Field,
    pub kind: MismatchKind,
    pub cited: String,
    pub record: String,
    pub detail: String,
}

/// The result of comparing a reference with a record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Comparison {
    pub mismatches: Vec<Mismatch>,
    /// Benign differences worth showing (preprint year, omitted subtitle, …).
    pub notes: Vec<String>,
}

impl Comparison {
    pub fn is_clean(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// The wrong fields, each once, in field order.
    pub fn fields_wrong(&self) -> Vec<Field> {
        let mut fields: Vec<Field> = self.mismatches.iter().map(|m| m.field).collect();
        fields.sort_unstable();
        fields.dedup();
        fields
    }

    pub fn mismatch(&self, field: Field) -> Option<&Mismatch> {
        self.mismatches.iter().find(|m| m.field == field)
    }

    /// Record that the cited identifier names another work (see
    /// [`identifier_conflation`]); replaces a plain identifier mismatch on that field.
    pub fn add_conflation(&mut self, conflation: &Conflation) {
        self.mismatches.retain(|m| m.field != conflation.field);
        let detail = match &conflation.title_work_title {
            Some(t) => format!(
                "{} resolves to \"{}\"; the cited title is \"{t}\"",
                conflation.identifier, conflation.identifier_work_title
            ),
            None => format!(
                "{} resolves to \"{}\"",
                conflation.identifier, conflation.identifier_work_title
            ),
        };
        self.mismatches.push(Mismatch {
            field: conflation.field,
            kind: MismatchKind::IdentifierNamesAnotherWork,
            cited: conflation.identifier.clone(),
            record: conflation.title_work_identifier.clone().unwrap_or_default(),
            detail,
        });
    }
}

/// Tolerances of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompareOptions {
    /// Years may differ by this much for any work.
    pub year_slack: i32,
    /// Years may differ by this much when either side is a preprint (the published
    /// year is often one after the arXiv year).
    pub preprint_year_slack: i32,
}

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            year_slack: 0,
            preprint_year_slack: 1,
        }
    }
}

/// DOI prefixes of preprint servers (bioRxiv/medRxiv only with a numeric suffix:
/// `10.1101/gr.…` is Genome Research).
fn is_preprint_doi(doi: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "10.48550/",
        "10.21203/rs",
        "10.20944/preprints",
        "10.2139/ssrn",
        "10.31219/osf",
        "10.31234/osf",
        "10.31235/osf",
        "10.31223/",
        "10.36227/techrxiv",
        "10.26434/chemrxiv",
        "10.22541/au",
        "10.32388/",
        "10.1002/essoar",
    ];
    PREFIXES.iter().any(|p| doi.starts_with(p))
        || doi
            .strip_prefix("10.1101/")
            .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit()))
}

fn cited_doi(fields: &RefFields) -> Option<String> {
    fields.doi.as_deref().and_then(normalize_doi)
}

fn record_doi(work: &Work) -> Option<String> {
    work.doi.as_deref().and_then(normalize_doi)
}

/// The arXiv id a DOI stands for (`10.48550/arXiv.1706.03762`).
fn arxiv_of_doi(doi: &str) -> Option<String> {
    doi.starts_with("10.48550/")
        .then(|| normalize_arxiv(doi))
        .flatten()
}

fn cited_arxiv(fields: &RefFields) -> Option<String> {
    fields.arxiv.as_deref().and_then(normalize_arxiv)
}

fn record_arxiv(work: &Work) -> Option<String> {
    work.arxiv
        .as_deref()
        .and_then(normalize_arxiv)
        .or_else(|| record_doi(work).and_then(|d| arxiv_of_doi(&d)))
}

/// Whether the reference cites a preprint: an arXiv id, a preprint DOI, or a
/// preprint server as venue.
pub fn cites_preprint(fields: &RefFields) -> bool {
    fields.arxiv.is_some()
        || cited_doi(fields).is_some_and(|d| is_preprint_doi(&d))
        || fields.venue.as_deref().is_some_and(is_preprint_venue)
}

/// Whether the record is (or has) a preprint version: preprint/posted-content type,
/// an arXiv id, a preprint DOI, or a repository venue.
pub fn record_is_preprint(work: &Work) -> bool {
    let type_is_preprint = work.work_type.as_deref().is_some_and(|t| {
        let t = t.to_ascii_lowercase();
        t.contains("preprint") || t == "posted-content"
    });
    type_is_preprint
        || record_arxiv(work).is_some()
        || record_doi(work).is_some_and(|d| is_preprint_doi(&d))
        || work.venue.as_deref().is_some_and(is_repository_venue)
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
    doi || arxiv || pmid
}

/// Whether the years agree under the default tolerances (true when either is missing).
pub fn years_agree(fields: &RefFields, work: &Work) -> bool {
    year_check(fields, work, &CompareOptions::default()).is_ok()
}

/// `Ok(note)` when the years agree (perhaps only as a preprint year), `Err(detail)`.
fn year_check(
    fields: &RefFields,
    work: &Work,
    options: &CompareOptions,
) -> Result<Option<String>, String> {
    let (Some(cited), Some(record)) = (fields.year, work.year) else {
        return Ok(None);
    };
    let diff = (cited - record).abs();
    if diff <= options.year_slack {
        return Ok(None);
    }
    if diff <= options.preprint_year_slack && (cites_preprint(fields) || record_is_preprint(work)) {
        return Ok(Some(format!(
            "year {cited} vs {record}: preprint and published versions"
        )));
    }
    Err(format!("cited {cited}, record {record}"))
}

/// Content words of one title missing from the other, both ways.
fn word_differences(cited: &str, record: &str) -> (Vec<String>, Vec<String>) {
    let (c, r) = (content_words(cited), content_words(record));
    let unmatched = |a: &[String], b: &[String]| -> Vec<String> {
        let mut used = vec![false; b.len()];
        let mut out = Vec::new();
        for w in a {
            let exact = (0..b.len()).find(|&j| !used[j] && b[j] == *w);
            match exact.or_else(|| (0..b.len()).find(|&j| !used[j] && spelling_variant(w, &b[j]))) {
                Some(j) => used[j] = true,
                None => out.push(w.clone()),
            }
        }
        out
    };
    (unmatched(&c, &r), unmatched(&r, &c))
}

/// `Ok(note)` when the titles are the same title (formatting, spelling variants, an
/// omitted or added subtitle), `Err(detail)` for a near miss.
fn title_check(cited: &str, record: &str) -> Result<Option<String>, String> {
    let record = strip_retraction_prefix(record).0;
    let (extra, missing) = word_differences(cited, record);
    if compact(cited) == compact(record) || (extra.is_empty() && missing.is_empty()) {
        return Ok(None);
    }
    let same = |a: &str, b: &str| {
        let (x, y) = word_differences(a, b);
        compact(a) == compact(b) || (x.is_empty() && y.is_empty())
    };
    if split_subtitle(record).is_some_and(|(main, _)| same(cited, main)) {
        return Ok(Some("the cited title omits the record's subtitle".into()));
    }
    if split_subtitle(cited).is_some_and(|(main, _)| same(main, record)) {
        return Ok(Some(
            "the cited title adds a subtitle the record does not have".into(),
        ));
    }
    let mut parts = Vec::new();
    if !extra.is_empty() {
        parts.push(format!("not in the record's title: {}", extra.join(", ")));
    }
    if !missing.is_empty() {
        parts.push(format!(
            "missing from the cited title: {}",
            missing.join(", ")
        ));
    }
    Err(parts.join("; "))
}

fn names(people: &[Person], truncated: bool) -> String {
    let mut out: Vec<String> = people
        .iter()
        .map(|p| match &p.given {
            Some(g) => format!("{}, {g}", p.family),
            None => p.family.clone(),
        })
        .collect();
    if truncated {
        out.push("et al.".into());
    }
    out.join("; ")
}

/// Compare what a reference says with the accepted record.
pub fn compare(fields: &RefFields, work: &Work, options: &CompareOptions) -> Comparison {
    let mut out = Comparison::default();
    let mismatch =
        |out: &mut Comparison, field, kind, cited: String, record: String, detail: String| {
            out.mismatches.push(Mismatch {
                field,
                kind,
                cited,
                record,
                detail,
            });
        };
    if let Some(title) = fields.title.as_deref() {
        match title_check(title, &work.title) {
            Ok(note) => out.notes.extend(note),
            Err(detail) => mismatch(
                &mut out,
                Field::Title,
                MismatchKind::NearMissTitle,
                title.into(),
                work.title.clone(),
                detail,
            ),
        }
    }
    let authors = compare_authors(&fields.authors, fields.authors_truncated, &work.authors);
    out.notes.extend(authors.notes);
    if let Some((issue, detail)) = authors.issue {
        let cited = names(&fields.authors, fields.authors_truncated);
        mismatch(
            &mut out,
            Field::Authors,
            issue.into(),
            cited,
            names(&work.authors, false),
            detail,
        );
    }
    match year_check(fields, work, options) {
        Ok(note) => out.notes.extend(note),
        Err(detail) => {
            let (c, r) = (
                fields.year.unwrap_or_default(),
                work.year.unwrap_or_default(),
            );
            mismatch(
                &mut out,
                Field::Year,
                MismatchKind::WrongYear,
                c.to_string(),
                r.to_string(),
                detail,
            );
        }
    }
    if let (Some(cited), Some(record)) = (fields.venue.as_deref(), work.venue.as_deref())
        && compare_venues(cited, record) == VenueMatch::Different
    {
        mismatch(
            &mut out,
            Field::Venue,
            MismatchKind::WrongVenue,
            cited.into(),
            record.into(),
            "a different journal or conference".into(),
        );
    }
    compare_identifiers(fields, work, &mut out);
    out
}

fn compare_identifiers(fields: &RefFields, work: &Work, out: &mut Comparison) {
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

/// An identifier that names a different work than the cited title.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflation {
    pub field: Field,
    /// The identifier as cited (normalised).
    pub identifier: String,
    /// Title of the work the identifier resolves to.
    pub identifier_work_title: String,
    /// Title of the work the cited title matched, when one did.
    pub title_work_title: Option<String>,
    /// That work's identifier of the same scheme, when it has one.
    pub title_work_identifier: Option<String>,
}

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
    let (field, identifier) = if let Some(d) = cd.clone().filter(|d| {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cited(title: &str) -> RefFields {
        RefFields {
            title: Some(title.into()),
            ..RefFields::default()
        }
    }

    fn record(title: &str) -> Work {
        Work {
            title: title.into(),
            ..Work::default()
        }
    }

    fn wrong(fields: &RefFields, work: &Work) -> Vec<Field> {
        compare(fields, work, &CompareOptions::default()).fields_wrong()
    }

    #[test]
    fn titles_differing_only_in_form_are_not_mismatches() {
        let work = record("Modelling colour constancy: a review");
        for title in [
            "Modeling color constancy: A review",
            "MODELLING COLOUR CONSTANCY - A REVIEW",
            "Modelling colour constancy",
        ] {
            assert!(wrong(&cited(title), &work).is_empty(), "{title}");
        }
        let near_miss = compare(
            &cited("Modelling colour perception: a review"),
            &work,
            &CompareOptions::default(),
        );
        let m = near_miss.mismatch(Field::Title).expect("title mismatch");
        assert_eq!(m.kind, MismatchKind::NearMissTitle);
        assert!(
            m.detail.contains("perception") && m.detail.contains("constancy"),
            "{}",
            m.detail
        );
    }

    #[test]
    fn preprint_years_may_be_one_off() {
        let work = Work {
            year: Some(2022),
            arxiv: Some("2106.11959".into()),
            ..record("T")
        };
        let arxiv_year = RefFields {
            year: Some(2021),
            ..cited("T")
        };
        assert!(wrong(&arxiv_year, &work).is_empty());
        let two_off = RefFields {
            year: Some(2020),
            ..cited("T")
        };
        assert_eq!(wrong(&two_off, &work), vec![Field::Year]);
        let journal = Work {
            year: Some(2022),
            ..record("T")
        };
        assert_eq!(wrong(&arxiv_year, &journal), vec![Field::Year]);
        let slack = CompareOptions {
            year_slack: 1,
            ..CompareOptions::default()
        };
        assert!(compare(&arxiv_year, &journal, &slack).is_clean());
    }

    #[test]
    fn identifiers_compare_normalised() {
        let work = Work {
            doi: Some("10.1038/NATURE14539".into()),
            pmid: Some("26017442".into()),
            ..record("T")
        };
        let same = RefFields {
            doi: Some("https://doi.org/10.1038/nature14539".into()),
            ..cited("T")
        };
        assert!(wrong(&same, &work).is_empty());
        let other = RefFields {
            doi: Some("10.1038/nature14540".into()),
            pmid: Some("1".into()),
            ..cited("T")
        };
        assert_eq!(wrong(&other, &work), vec![Field::Doi, Field::Pmid]);
        // A bioRxiv DOI against the published DOI is a version difference, noted.
        let preprint = RefFields {
            doi: Some("10.1101/2022.07.20.500902".into()),
            ..cited("T")
        };
        let c = compare(&preprint, &work, &CompareOptions::default());
        assert!(
            c.is_clean() && c.notes.iter().any(|n| n.contains("preprint")),
            "{c:?}"
        );
        // Genome Research shares the 10.1101 prefix but is a journal.
        let journal = RefFields {
            doi: Some("10.1101/gr.123".into()),
            ..cited("T")
        };
        assert_eq!(wrong(&journal, &work), vec![Field::Doi]);
    }

    #[test]
    fn missing_fields_are_never_mismatches() {
        let work = Work {
            year: Some(2020),
            venue: Some("Nature".into()),
            ..record("A title")
        };
        assert!(wrong(&RefFields::default(), &work).is_empty());
        let fields = RefFields {
            year: Some(1990),
            venue: Some("Cell".into()),
            ..cited("A title")
        };
        assert!(wrong(&fields, &record("A title")).is_empty());
    }
}
