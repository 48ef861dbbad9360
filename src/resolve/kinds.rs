//! What the scholarly record can establish about each kind of work.
//!
//! Crossref, OpenAlex and Semantic Scholar (and the offline index built from their
//! dumps) hold journal articles, conference papers and preprints thoroughly: when all
//! of them answer and none has such a work, it most likely does not exist. They hold
//! books partly, and theses, reports, standards, RFCs, patents, software, datasets,
//! web pages, legal texts and talks barely or not at all: their silence about those
//! says nothing. Each such kind has its own places — Open Library for books, the RFC
//! index for RFCs, the package registries for software, the cited URL for a page — and
//! only an authority that holds *every* work of its kind (the RFC series, a package
//! registry) can say that one does not exist.
//!
//! Titles in other languages than English, and in non-Latin scripts above all, are
//! held partly too, whatever their kind.

use crate::model::{RefFields, WorkKind};

/// Whether the general scholarly indexes hold works like the cited one thoroughly
/// enough that their silence is evidence that it does not exist.
/// `raw` is the reference as written, for its title when none was parsed.
pub fn absence_is_evidence(fields: &RefFields, raw: &str) -> bool {
    let thorough = match fields.kind {
        None | Some(WorkKind::Article | WorkKind::ConferencePaper | WorkKind::Preprint) => true,
        // Chapters of scholarly books are deposited with their DOIs since the 2000s;
        // an older chapter is held as seldom as its book.
        Some(WorkKind::Chapter) => fields.year.is_none_or(|y| y >= 2000),
        Some(_) => false,
    };
    thorough && !foreign_title(fields.title.as_deref().unwrap_or(raw))
}

/// The kind a record's type names (Crossref, OpenAlex, DataCite, Semantic Scholar and
/// PubMed vocabularies alike), where it names one.
pub fn record_kind(work: &crate::model::Work) -> Option<WorkKind> {
    use WorkKind as K;
    let t = work
        .work_type
        .as_deref()?
        .to_ascii_lowercase()
        .replace(['_', ' '], "-");
    Some(match t.as_str() {
        "journal-article" | "article" | "journalarticle" | "journal-articles" | "review"
        | "letter" | "editorial" => K::Article,
        "proceedings-article"
        | "conference"
        | "conference-and-workshop-papers"
        | "inproceedings" => K::ConferencePaper,
        "book-chapter" | "chapter" | "book-section" | "book-part" | "reference-entry" => K::Chapter,
        "book" | "monograph" | "reference-book" => K::Book,
        "edited-book" | "book-set" | "proceedings" => K::EditedVolume,
        "dissertation" | "thesis" => K::Thesis,
        "posted-content" | "preprint" => K::Preprint,
        "report" | "report-component" => K::Report,
        "dataset" => K::Dataset,
        "standard" => K::Standard,
        "software" => K::Software,
        _ => return None,
    })
}

/// Whether a record of one kind cannot be the cited work of another: a book, a
/// thesis or a standard is not the journal article, paper or chapter that shares its
/// title (Shannon's 1949 book and his 1948 article; a thesis and its later reprint).
pub fn kinds_conflict(cited: Option<WorkKind>, record: Option<WorkKind>) -> bool {
    use WorkKind as K;
    let (Some(cited), Some(record)) = (cited, record) else {
        return false;
    };
    let standalone = matches!(
        cited,
        K::Book | K::EditedVolume | K::Thesis | K::Standard | K::Rfc
    );
    let part_of_something = matches!(
        record,
        K::Article | K::ConferencePaper | K::Chapter | K::Preprint
    );
    standalone && part_of_something
}

/// A thesis, report or talk exists once, in its year: a record of the same title
/// decades apart is a reprint or another work, not the one cited.
pub fn reprint_of_unique_work(fields: &RefFields, work: &crate::model::Work) -> bool {
    use WorkKind as K;
    let unique = matches!(fields.kind, Some(K::Thesis | K::Report | K::Talk));
    let (Some(cited), Some(record)) = (fields.year, work.year) else {
        return false;
    };
    unique && (cited - record).abs() > 2 && !work.other_years.contains(&cited)
}

/// Whether the cited venue is a journal's or a conference's (or a chapter's book): the
/// one thing a record's venue can be compared with. For the other kinds the "venue" a
/// reference gives is a school, a publisher, a series or a registry.
pub fn has_comparable_venue(kind: Option<WorkKind>) -> bool {
    matches!(
        kind,
        None | Some(
            WorkKind::Article | WorkKind::ConferencePaper | WorkKind::Preprint | WorkKind::Chapter
        )
    )
}

/// Where a reader can confirm a work of this kind by hand.
pub fn how_to_confirm(kind: Option<WorkKind>) -> &'static str {
    use WorkKind as K;
    match kind {
        Some(K::Book | K::EditedVolume | K::Chapter) => {
            "check the publisher's catalogue, WorldCat (worldcat.org) or a national library"
        }
        Some(K::Thesis) => {
            "check the university's repository, ProQuest Dissertations or the national library's thesis catalogue"
        }
        Some(K::Report) => "check the issuing institution's publication series",
        Some(K::Standard) => "check the standards body's catalogue (iso.org, ieee.org, …)",
        Some(K::Rfc) => "check the RFC index at rfc-editor.org",
        Some(K::Patent) => "check a patent register (patents.google.com, Espacenet, USPTO)",
        Some(K::Software) => {
            "check the project's repository or its package registry, and the cited version's release"
        }
        Some(K::Dataset) => "check the repository that hosts the dataset (Zenodo, Dryad, …)",
        Some(K::WebPage) => "open the cited URL, or an archived copy at web.archive.org",
        Some(K::Legal) => "check the official journal or legal database (EUR-Lex, govinfo.gov, …)",
        Some(K::Talk) => "check the event's programme or the recording's host",
        Some(K::Other) => "check the work where it was published",
        Some(K::Article | K::ConferencePaper | K::Preprint) | None => {
            "check the venue's own archive or a library catalogue in the work's language"
        }
    }
}

/// A title mostly in a non-Latin script (Chinese, Japanese, Korean, Cyrillic, Greek,
/// Arabic, Hebrew, Indic scripts …), or in a Latin-script language other than English.
pub fn foreign_title(title: &str) -> bool {
    let letters: Vec<char> = title.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.is_empty() {
        return false;
    }
    let non_latin = letters.iter().filter(|c| !is_latin(**c)).count();
    if non_latin * 10 >= letters.len() * 3 {
        return true;
    }
    other_language(title)
}

fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF | 0x0250..=0x02AF)
}

/// Function words of other languages written in Latin script, and no English ones:
/// `Zur Theorie der Gravitation`, `La théorie des jeux`, `Análisis de la pobreza`.
fn other_language(title: &str) -> bool {
    const ENGLISH: &[&str] = &[
        "the", "of", "and", "in", "on", "for", "with", "to", "a", "an", "from", "by", "is", "are",
        "at", "via", "using", "towards", "toward", "its", "their", "how", "what", "why", "when",
        "between", "under", "into", "through", "after",
    ];
    const OTHER: &[&str] = &[
        // German
        "der",
        "die",
        "das",
        "und",
        "zur",
        "zum",
        "über",
        "für",
        "mit",
        "von",
        "eine",
        "einer",
        "eines",
        "im",
        "auf",
        "bei",
        "aus",
        "durch",
        "zwischen",
        // French
        "le",
        "la",
        "les",
        "des",
        "du",
        "et",
        "pour",
        "sur",
        "une",
        "dans",
        "aux",
        "au",
        "entre",
        "chez",
        "sous",
        "vers",
        // Spanish, Portuguese, Italian
        "el",
        "los",
        "las",
        "del",
        "y",
        "para",
        "por",
        "una",
        "con",
        "en",
        "sobre",
        "da",
        "do",
        "dos",
        "das",
        "em",
        "uma",
        "e",
        "il",
        "lo",
        "gli",
        "della",
        "delle",
        "di",
        "nel",
        "nella",
        "per",
        "tra",
        "como",
        "uso",
        "estudio",
        "análisis",
        "avaliação",
        // Dutch, Scandinavian
        "het",
        "een",
        "van",
        "voor",
        "met",
        "op",
        "och",
        "og",
        "av",
        "för",
        "på",
        "ett",
        "det",
        "om",
        "til",
        "af",
        // Polish, Czech, Turkish, Indonesian, Vietnamese
        "w",
        "z",
        "na",
        "i",
        "oraz",
        "ve",
        "bir",
        "ile",
        "dan",
        "yang",
        "dengan",
        "pada",
        "untuk",
        "và",
        "của",
        "trong",
    ];
    let words: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.len() < 3 {
        return false;
    }
    let english = words.iter().any(|w| ENGLISH.contains(&w.as_str()));
    let other = words.iter().filter(|w| OTHER.contains(&w.as_str())).count();
    !english && other >= 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the indexes' silence about a reference of `kind` is evidence.
    fn absent(kind: Option<WorkKind>, title: &str, year: Option<i32>) -> bool {
        let fields = RefFields {
            kind,
            title: Some(title.into()),
            year,
            ..RefFields::default()
        };
        absence_is_evidence(&fields, title)
    }

    #[test]
    fn the_indexes_settle_papers_not_books() {
        assert!(absent(
            None,
            "Deep residual learning for image recognition",
            None
        ));
        assert!(absent(Some(WorkKind::Article), "A study", None));
        for kind in [
            WorkKind::Book,
            WorkKind::Thesis,
            WorkKind::Rfc,
            WorkKind::Software,
            WorkKind::WebPage,
            WorkKind::Standard,
        ] {
            assert!(!absent(Some(kind), "A work", None), "{kind}");
        }
        assert!(absent(Some(WorkKind::Chapter), "A chapter", Some(2015)));
        assert!(!absent(Some(WorkKind::Chapter), "A chapter", Some(1975)));
    }

    #[test]
    fn foreign_titles() {
        assert!(foreign_title("深度学习在医学图像分析中的应用"));
        assert!(foreign_title("Теория игр и экономическое поведение"));
        assert!(foreign_title("Zur Elektrodynamik bewegter Körper"));
        assert!(foreign_title("La théorie des jeux et ses applications"));
        assert!(!foreign_title("Attention is all you need"));
        assert!(!foreign_title("Learning in the presence of noise"));
        assert!(!foreign_title("BERT"));
        assert!(!foreign_title("Über-parameterised networks for the win"));
    }
}
