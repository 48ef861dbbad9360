//! Containers are not papers: a proceedings volume, a journal, a journal issue or the
//! book a chapter appears in is never the work a paper-level reference cites, however
//! well its title matches the reference's text. A fabricated paper "in Proceedings of
//! the AAAI Conference on Artificial Intelligence" must not be verified against the
//! record of that volume, which a search for the reference's words finds.

use std::cell::RefCell;

use crate::model::{RefFields, Work, WorkKind};
use crate::resolve::normalize::{compact, content_words, fold, spelling_variant};
use crate::resolve::title_score::{GateMethod, title_similarity};
use crate::resolve::venues::{VenueMatch, compare_venues, is_series_or_publisher, is_venue_name};

/// Record types (Crossref, OpenAlex, DataCite, DBLP vocabularies) that are only ever
/// containers of papers, or their front matter.
const CONTAINER_TYPES: &[&str] = &[
    "proceedings",
    "proceedings-series",
    "journal",
    "journal-issue",
    "journal-volume",
    "book-series",
    "book-set",
    "report-series",
    "series",
    "paratext",
    // DBLP's type of a proceedings volume.
    "editorship",
];

/// Record types of books, which contain chapters but may also be cited whole.
const BOOK_TYPES: &[&str] = &[
    "book",
    "edited-book",
    "monograph",
    "reference-book",
    "books and theses",
];

fn type_of(work: &Work) -> String {
    work.work_type
        .as_deref()
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Whether the record is a container-only type (a volume, a journal, an issue).
pub fn is_container_type(work: &Work) -> bool {
    CONTAINER_TYPES.contains(&type_of(work).as_str())
}

/// Whether the record is a container whatever type its source gave it: a
/// container-only type, or a title that reads as a venue (a proceedings volume typed
/// as an article by one index is still the volume).
pub fn is_container_record(work: &Work) -> bool {
    is_container_type(work) || reads_as_venue(&work.title)
}

/// Whether the record is a book.
fn is_book(work: &Work) -> bool {
    BOOK_TYPES.contains(&type_of(work).as_str())
}

/// Whether two names are the same: close titles, or the same venue.
fn same_name(a: &str, b: &str) -> bool {
    title_similarity(a, b) >= 0.8 || compare_venues(a, b) == VenueMatch::Same
}

/// The reference's venue, when it names a container other than the reference itself
/// (a BibTeX `booktitle` repeating the title names nothing).
fn container_of(fields: &RefFields) -> Option<&str> {
    let venue = fields.venue.as_deref().filter(|v| !fold(v).is_empty())?;
    match fields.title.as_deref() {
        Some(title) if same_name_remembered(title, venue) => None,
        _ => Some(venue),
    }
}

thread_local! {
    /// The last title and venue compared, and the answer: every candidate of one
    /// reference asks the same question, one after the other on one thread.
    static LAST_SAME_NAME: RefCell<Option<(String, String, bool)>> = const { RefCell::new(None) };
}

fn same_name_remembered(title: &str, venue: &str) -> bool {
    LAST_SAME_NAME.with(|last| {
        if let Some((t, v, same)) = &*last.borrow()
            && t == title
            && v == venue
        {
            return *same;
        }
        let same = same_name(title, venue);
        *last.borrow_mut() = Some((title.to_string(), venue.to_string(), same));
        same
    })
}

/// A record title that reads as a venue: `Proceedings of …`, a book series or a
/// publisher, a known venue's name (`Findings of the Association for Computational
/// Linguistics: ACL 2024`).
fn reads_as_venue(title: &str) -> bool {
    let folded = fold(title);
    folded.starts_with("proceedings ")
        || folded.starts_with("proc ")
        || is_series_or_publisher(title)
        || is_venue_name(title)
}

/// Whether the reference cites the container itself (a volume, a journal, a book
/// cited whole): its title names the record, adding at most one word of its own (an
/// acronym). A text that carries another title too — a paper in the volume, however
/// the string was parsed — does not.
fn cites_the_container(fields: &RefFields, work: &Work) -> bool {
    let Some(title) = fields.title.as_deref() else {
        return false;
    };
    let record: Vec<String> = content_words(&work.title);
    let own = content_words(title)
        .into_iter()
        .filter(|w| !record.iter().any(|r| r == w || spelling_variant(w, r)))
        .count();
    own == 0 || (own == 1 && same_name(title, &work.title))
}

/// Whether a record's title is the reference's venue: the same venue, or a close
/// title that reads as a venue. A paper's title inside a venue the parser read badly
/// (`& R, H. Semantically enriched …`) is not.
fn names_the_venue(venue: &str, title: &str) -> bool {
    compare_venues(venue, title) == VenueMatch::Same
        || (title_similarity(venue, title) >= 0.8 && reads_as_venue(title))
}

/// Whether the record's title is the reference's title followed by its venue: a
/// subtitle the reference string put after a `?` or `!` (`Can AI Make Art?: Folk
/// Intuitions …`) was read as the venue, and the record is the cited paper itself.
fn split_title(fields: &RefFields, venue: &str, work: &Work) -> bool {
    let Some(title) = fields.title.as_deref() else {
        return false;
    };
    let (title, venue, record) = (compact(title), compact(venue), compact(&work.title));
    !title.is_empty() && !venue.is_empty() && record == format!("{title}{venue}")
}

/// Whether `work` is a container of the cited work rather than the cited work: a
/// record of a container-only type cited by a paper (a reference with its own venue
/// or its own authors), a record whose title is the reference's venue, or — when the
/// record was found by its title in the raw text — a record of a container type or
/// whose title reads as a venue.
pub fn is_container_of(fields: &RefFields, work: &Work, method: GateMethod) -> bool {
    // A volume cited whole with its editors (`Ku, L.-W. (Eds.). (2024). Findings of
    // …`) is the record, whatever the parser took its publisher for.
    if fields.kind == Some(WorkKind::EditedVolume) && cites_the_container(fields, work) {
        return false;
    }
    let venue = container_of(fields);
    if venue.is_some_and(|v| names_the_venue(v, &work.title) && !split_title(fields, v, work)) {
        return true;
    }
    // A volume, a journal or a record named like a venue is the cited work only when
    // the reference cites it whole; a book only when the reference names no other
    // container it appeared in.
    let container = is_container_type(work) || reads_as_venue(&work.title);
    if container && !cites_the_container(fields, work) {
        return true;
    }
    if is_book(work) && venue.is_some() && !cites_the_container(fields, work) {
        return true;
    }
    let paper_level = venue.is_some() || !fields.authors.is_empty();
    if is_container_type(work) && (paper_level || method == GateMethod::RawContainment) {
        return true;
    }
    method == GateMethod::RawContainment
        && (reads_as_venue(&work.title) || (is_book(work) && venue.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;

    fn work(title: &str, kind: Option<&str>) -> Work {
        Work {
            title: title.into(),
            work_type: kind.map(str::to_string),
            ..Work::default()
        }
    }

    #[test]
    fn a_paper_is_not_its_volume_journal_or_book() {
        let paper = RefFields {
            title: Some("Temporal graph distillation".into()),
            authors: vec![Person::new(Some("L."), "Chen")],
            venue: Some("Proc. AAAI Conf. Artif. Intell.".into()),
            ..RefFields::default()
        };
        let volume = work(
            "Proceedings of the AAAI Conference on Artificial Intelligence",
            Some("proceedings"),
        );
        assert!(is_container_of(&paper, &volume, GateMethod::RawContainment));
        // Whatever its type: the title is the reference's venue.
        let mistyped = work(&volume.title, Some("article"));
        assert!(is_container_of(&paper, &mistyped, GateMethod::Exact));
        let journal = work("Nature Communications", Some("journal"));
        assert!(is_container_of(&paper, &journal, GateMethod::Exact));
        // The paper's own record is not a container.
        let own = work("Temporal Graph Distillation", Some("proceedings-article"));
        assert!(!is_container_of(&paper, &own, GateMethod::Exact));
        // A paper's title inside a venue read badly is still the paper.
        let garbled = RefFields {
            title: Some("K, P".into()),
            venue: Some("& R, H. Semantically enriched feature driven ensemble learning".into()),
            ..RefFields::default()
        };
        let own = work(
            "Semantically enriched feature driven ensemble learning",
            None,
        );
        assert!(!is_container_of(&garbled, &own, GateMethod::RawContainment));
    }

    #[test]
    fn a_subtitle_read_as_the_venue_does_not_make_the_paper_its_container() {
        let split = RefFields {
            title: Some("Can Artificial Intelligence Make Art?".into()),
            venue: Some(
                "Folk Intuitions as to whether AI-driven Robots Can Be Viewed as Artists".into(),
            ),
            authors: vec![Person::new(Some("E."), "Mikalonytė")],
            ..RefFields::default()
        };
        let paper = work(
            "Can Artificial Intelligence Make Art?: Folk Intuitions as to whether AI-driven \
             Robots Can Be Viewed as Artists",
            Some("journal-article"),
        );
        assert!(!is_container_of(&split, &paper, GateMethod::Corroborated));
        // A record whose title is only the venue still is the container.
        let venue = work(split.venue.as_deref().unwrap(), None);
        assert!(is_container_of(&split, &venue, GateMethod::Corroborated));
    }

    #[test]
    fn a_container_never_verifies_a_paper_whatever_the_parse() {
        let mut findings = work(
            "Findings of the Association for Computational Linguistics: ACL 2024",
            Some("proceedings"),
        );
        // A string whose parse ran the paper's title into the volume's name, with no
        // authors and no venue left.
        let garbled = RefFields {
            title: Some(
                "Rethinking Priors for Sparse Retrieval - Okafor et al., Findings of the \
                 Association for Computational Linguistics: ACL 2024"
                    .into(),
            ),
            ..RefFields::default()
        };
        for method in [
            GateMethod::Exact,
            GateMethod::WordOverlap,
            GateMethod::Subtitle,
        ] {
            assert!(is_container_of(&garbled, &findings, method), "{method:?}");
        }
        // The same volume typed as a book or an article: its title is a venue's name.
        for kind in ["book", "article", "other"] {
            findings.work_type = Some(kind.into());
            assert!(
                is_container_of(&garbled, &findings, GateMethod::Exact),
                "{kind}"
            );
        }
        // A chapter is not its book.
        let chapter = RefFields {
            title: Some("Learning internal representations by error propagation".into()),
            venue: Some("Parallel Distributed Processing".into()),
            ..RefFields::default()
        };
        let book = work("Parallel distributed processing", Some("book"));
        assert!(is_container_of(&chapter, &book, GateMethod::Exact));
        // The volume cited whole, by its acronym too.
        let whole = RefFields {
            title: Some(
                "Findings of the Association for Computational Linguistics: ACL 2024".into(),
            ),
            ..RefFields::default()
        };
        assert!(!is_container_of(&whole, &findings, GateMethod::Exact));
    }

    #[test]
    fn a_volume_or_book_cited_whole_is_its_record() {
        let volume = RefFields {
            title: Some("Proceedings of the 2019 Conference of NAACL".into()),
            editors: vec![Person::new(Some("J."), "Burstein")],
            ..RefFields::default()
        };
        let record = work(volume.title.as_deref().unwrap(), Some("proceedings"));
        assert!(!is_container_of(&volume, &record, GateMethod::Exact));
        let book = RefFields {
            title: Some("Deep Learning".into()),
            authors: vec![Person::new(Some("I."), "Goodfellow")],
            // A BibTeX booktitle that repeats the title.
            venue: Some("Deep Learning".into()),
            ..RefFields::default()
        };
        assert!(!is_container_of(
            &book,
            &work("Deep learning", Some("book")),
            GateMethod::Exact
        ));
    }
}
