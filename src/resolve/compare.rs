//! Field-by-field comparison of what a reference says with the record the gate
//! accepted: title, authors, year, venue and identifiers. Only clear errors become
//! mismatches; benign differences (name forms, "et al.", abbreviated venues, a
//! preprint's year, a missing field) become notes or nothing.

use serde::{Deserialize, Serialize};

use crate::model::{Person, RefFields, Work};
use crate::resolve::authors::{RecordAuthors, compare_authors};
use crate::resolve::identifiers::{
    cited_doi, compare_identifiers, is_preprint_doi, record_arxiv, record_doi,
};
use crate::resolve::mismatch::{Comparison, Field, Mismatch, MismatchKind};
use crate::resolve::normalize::{
    compact, content_words, fold, spelling_variant, split_subtitle, strip_retraction_prefix,
};
use crate::resolve::venues::{VenueMatch, compare_venues, is_preprint_venue, is_repository_venue};

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
    // Online first in one year, in print (or in an issue) the next: either year is
    // the work's.
    if let Some(other) = work
        .other_years
        .iter()
        .find(|y| (cited - **y).abs() <= options.year_slack)
    {
        return Ok(Some(format!(
            "year {cited}: the record's {other} (its main year is {record})"
        )));
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

/// Words that change what a title says when one is dropped or swapped, though they
/// are stop words: negations.
const NEGATIONS: &[&str] = &["not", "no", "nor", "never", "cannot"];

/// The first word of a title once a leading article is dropped (`The`, `A`, `An`):
/// `Why`, `How`, `Does` open a question that the rest of the title does not state.
fn leading_word(title: &str) -> Option<String> {
    let folded = fold(title);
    let mut words = folded.split(' ').filter(|w| !w.is_empty());
    let first = words.next()?;
    let first = if matches!(first, "a" | "an" | "the") {
        words.next()?
    } else {
        first
    };
    Some(first.to_string())
}

/// What differs between two titles whose content words agree: a different first
/// word (`Why deep networks generalize` / `Deep networks generalize`) or a negation
/// present in one only (`Attention is not explanation`).
fn function_word_difference(cited: &str, record: &str) -> Option<String> {
    let (a, b) = (leading_word(cited), leading_word(record));
    if let (Some(a), Some(b)) = (&a, &b)
        && a != b
        && !spelling_variant(a, b)
    {
        return Some(format!("the title starts \"{a}\", the record's \"{b}\""));
    }
    let negations = |t: &str| fold(t).split(' ').filter(|w| NEGATIONS.contains(w)).count();
    (negations(cited) != negations(record))
        .then(|| "a negation (not, no, never) is in one title only".to_string())
}

/// Whether two titles are the same title: equal once compacted, or the same content
/// words with the same first word and negations.
fn same_title(a: &str, b: &str) -> bool {
    let (x, y) = word_differences(a, b);
    compact(a) == compact(b)
        || (x.is_empty() && y.is_empty() && function_word_difference(a, b).is_none())
}

/// A multi-volume work's title and its volume (`The Feynman Lectures on Physics, Vol.
/// I` → `The Feynman Lectures on Physics`, `i`), an alternative title dropped (`On the
/// Origin of Species…, or the Preservation of Favoured Races…`).
fn volume_and_base(title: &str) -> (String, Option<String>) {
    static VOLUME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)[,.:;(]?\s*\b(?:vol(?:ume)?|bd|band|tome|tomo|part)\.?\s*([ivxlc]+|\d+)\b.*$",
        )
        .expect("volume regex")
    });
    static ALTERNATIVE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)[,;]\s*or,?\s+(?:the|a|an)\s+.*$").expect("alternative regex")
    });
    let title = ALTERNATIVE.replace(title, "");
    match VOLUME.captures(&title) {
        Some(c) => {
            let start = c.get(0).map_or(title.len(), |m| m.start());
            let volume = c[1].to_ascii_lowercase();
            let volume = match volume.as_str() {
                "i" => "1".to_string(),
                "ii" => "2".to_string(),
                "iii" => "3".to_string(),
                "iv" => "4".to_string(),
                "v" => "5".to_string(),
                _ => volume,
            };
            (title[..start].to_string(), Some(volume))
        }
        None => (title.into_owned(), None),
    }
}

/// Titles of one book that differ by a volume one of them leaves out (or writes
/// differently) or by an alternative title: the same work.
fn same_book_title(cited: &str, record: &str) -> Option<String> {
    let (a, va) = volume_and_base(cited);
    let (b, vb) = volume_and_base(record);
    let stripped = a.len() != cited.len() || b.len() != record.len();
    if !stripped || !same_title(&a, &b) {
        return None;
    }
    match (va, vb) {
        (Some(x), Some(y)) if x != y => None,
        _ => Some(
            "the titles differ only in how the volume or an alternative title is written".into(),
        ),
    }
}

/// `Ok(note)` when the titles are the same title (formatting, spelling variants, an
/// omitted or added subtitle), `Err(detail)` for a near miss.
fn title_check(cited: &str, record: &str) -> Result<Option<String>, String> {
    let record = strip_retraction_prefix(record).0;
    if same_title(cited, record) {
        return Ok(None);
    }
    let (extra, missing) = word_differences(cited, record);
    if extra.is_empty()
        && missing.is_empty()
        && let Some(detail) = function_word_difference(cited, record)
    {
        return Err(detail);
    }
    let same = same_title;
    if let Some(note) = same_book_title(cited, record) {
        return Ok(Some(note));
    }
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

/// Whether a cited venue claims publication in a journal or conference: not a
/// preprint server, repository or placeholder, and not a submission cited as one
/// (`Submitted to ICLR 2025`, `under review at …`).
fn names_venue_of_record(cited: &str) -> bool {
    let folded = crate::resolve::normalize::fold(cited);
    !(crate::resolve::venues::is_placeholder_venue(cited)
        || is_preprint_venue(cited)
        || is_repository_venue(cited)
        || folded.starts_with("submitted to")
        || folded.contains("under review")
        || folded.contains("openreview"))
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
    // A registry's record is titled by its package name, and a page by whatever its
    // site prints: neither says the cited title is wrong.
    let curated_title = work.releases.is_empty() && work.work_type.as_deref() != Some("web_page");
    if let Some(title) = fields.title.as_deref() {
        match title_check(title, &work.title) {
            Ok(note) => out.notes.extend(note),
            Err(detail) if !curated_title => out.notes.push(format!(
                "the cited title differs from \"{}\" ({detail}), which is not a curated title",
                work.title
            )),
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
    let record_authors = RecordAuthors {
        names: &work.authors,
        truncated: work.authors_truncated,
    };
    let mut authors = compare_authors(&fields.authors, fields.authors_truncated, record_authors);
    if authors.issue.is_some()
        && let Some(note) = crate::resolve::name_variants::agree_after_all(
            &fields.authors,
            fields.authors_truncated,
            record_authors,
        )
    {
        authors.issue = None;
        authors.notes.push(note);
    }
    out.notes.extend(authors.notes);
    if let Some((issue, detail)) = authors.issue {
        let cited = names(&fields.authors, fields.authors_truncated);
        mismatch(
            &mut out,
            Field::Authors,
            issue.into(),
            cited,
            names(&work.authors, work.authors_truncated),
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
    if let (Some(cited), Some(not_accepted)) = (fields.venue.as_deref(), &work.not_accepted)
        && crate::resolve::kinds::has_comparable_venue(fields.kind)
        && names_venue_of_record(cited)
    {
        mismatch(
            &mut out,
            Field::Venue,
            MismatchKind::WrongVenue,
            cited.into(),
            format!(
                "{} ({})",
                not_accepted.submitted_to,
                not_accepted.outcome.describe()
            ),
            format!(
                "the review platform records {} to {}, not a paper of that venue",
                not_accepted.outcome.describe(),
                not_accepted.submitted_to
            ),
        );
    } else if let (Some(cited), Some(record)) = (fields.venue.as_deref(), work.venue.as_deref())
        && crate::resolve::kinds::has_comparable_venue(fields.kind)
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
    if let Err(detail) =
        crate::resolve::sources::registry::release_year(work, fields.version.as_deref())
    {
        mismatch(
            &mut out,
            Field::Version,
            MismatchKind::UnknownVersion,
            fields.version.clone().unwrap_or_default(),
            work.releases
                .last()
                .map(|r| r.version.clone())
                .unwrap_or_default(),
            detail,
        );
    }
    out
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
