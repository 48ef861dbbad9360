//! Venue knowledge: when do two venue strings name the same journal or conference?
//!
//! Three kinds of knowledge, none of it a list of particular journals:
//! - word-level abbreviation rules in the manner of the ISSN List of Title Word
//!   Abbreviations (LTWA) and ISO 4: an abbreviated word keeps the first letter and a
//!   subsequence of the word (`J.` Journal, `Natl.` National, `Secur.` Security,
//!   `Comput.` Computing), function words and publisher names are dropped, and an
//!   acronym may stand for consecutive words (`BMJ` British Medical Journal);
//! - the acronyms of well-known venues (`venue_table`);
//! - what is not a venue of record at all: preprint servers and repositories,
//!   book series that host many conferences, publisher names, placeholders.

use serde::{Deserialize, Serialize};

use crate::resolve::normalize::fold;
use crate::resolve::venue_align::{
    contains_phrase, folded_words, forms, forms_align, forms_align_with_subtitle, has_any_phrase,
    key_words, known_ids, skippable,
};
use crate::resolve::venue_table::KNOWN_VENUES;

/// How two venue strings relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VenueMatch {
    /// The same venue (equal, abbreviated, acronym, with or without year/edition).
    Same,
    /// Clearly different venues.
    Different,
    /// Cannot be told: a repository, preprint server, book series or publisher name
    /// on either side, or a missing/placeholder venue.
    Unknown,
}

/// Preprint servers (folded word sequences); `arXiv preprint arXiv:…` included.
const PREPRINT_SERVERS: &[&str] = &[
    "arxiv",
    "corr",
    "biorxiv",
    "medrxiv",
    "chemrxiv",
    "techrxiv",
    "psyarxiv",
    "socarxiv",
    "eartharxiv",
    "engrxiv",
    "edarxiv",
    "ssrn",
    "social science research network",
    "research square",
    "preprints",
    "preprint",
    "authorea",
    "qeios",
    "jxiv",
    "osf",
];

/// Word sequences that mark a repository or an aggregator rather than a venue of
/// record (OpenAlex gives these as the "venue" of repository copies).
const REPOSITORY_MARKERS: &[&str] = &[
    "repository",
    "eprints",
    "e prints",
    "digital commons",
    "escholarship",
    "scholarworks",
    "dspace",
    "research portal",
    "open portal",
    "research online",
    "research information",
    "research output",
    "zenodo",
    "figshare",
    "hal",
    "europe pmc",
    "pubmed central",
    "researchgate",
    "semantic scholar",
    "reports server",
    "cran",
    "faculty opinions",
    "f1000",
    "dialnet",
    "archive ouverte",
];

/// Words of an institution named in a trailing parenthesis (`Deep Blue (University of
/// Michigan)`): OpenAlex's way of naming an institutional repository.
const INSTITUTION_WORDS: &[&str] = &[
    "university",
    "universidad",
    "universite",
    "universita",
    "universitat",
    "institute",
    "college",
    "school",
    "laboratory",
    "library",
    "cern",
    "cornell",
    "nasa",
];

/// Series and proceedings collections that publish many conferences: a citation may
/// name the conference while the record names the series.
const SERIES: &[&str] = &[
    "lecture notes in",
    "communications in computer and information science",
    "advances in intelligent systems and computing",
    "studies in computational intelligence",
    "smart innovation systems and technologies",
    "ifip advances in",
    "proceedings of machine learning research",
    "ceur workshop proceedings",
    "acm international conference proceeding series",
    "conference series",
    "aip conference proceedings",
    "web of conferences",
    "procedia",
    "springer proceedings in",
    "advances in neural computation",
    "book series",
    "springer series",
    "leibniz international proceedings in informatics",
    "lipics",
    "dagstuhl",
    "open access series in informatics",
    "electronic proceedings in theoretical computer science",
    "frontiers in artificial intelligence and applications",
];

/// Publisher names given where a venue is expected.
const PUBLISHERS: &[&str] = &[
    "springer",
    "elsevier",
    "wiley",
    "ieee",
    "acm",
    "taylor and francis",
    "sage",
    "mdpi",
    "oxford university press",
    "cambridge university press",
    "mit press",
    "crc press",
    "routledge",
    "frontiers media",
    "world scientific",
    "de gruyter",
    "ios press",
    "nature publishing group",
    "openreview",
    "openreview net",
    "pmlr",
    "hindawi",
    "ieee xplore",
    "association for computing machinery",
    "institute of electrical and electronics engineers",
    "ieee computer society",
    "springer nature",
    "springer international publishing",
    "curran associates",
    "curran associates inc",
    "aaai press",
    "morgan kaufmann",
    "jmlr org",
    "association for computational linguistics",
    "international joint conferences on artificial intelligence organization",
    "international joint conferences on artificial intelligence",
];

/// A venue string that stands for no venue: empty, `(No Title)`, `Unknown`, `N/A`.
pub fn is_placeholder_venue(v: &str) -> bool {
    matches!(
        fold(v).as_str(),
        "" | "no title" | "unknown" | "n a" | "na" | "none" | "null" | "untitled" | "nan"
    )
}

/// A preprint server: `arXiv`, `arXiv preprint arXiv:2106.11959`, `CoRR`, `bioRxiv`,
/// `SSRN Electronic Journal`, `Research Square`.
pub fn is_preprint_venue(v: &str) -> bool {
    let words = folded_words(v);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    PREPRINT_SERVERS.iter().any(|p| contains_phrase(&refs, p))
        || refs
            .iter()
            .any(|w| w.starts_with("arxiv") || w.ends_with("rxiv"))
}

/// A repository or aggregator named as the venue: a preprint server, an
/// institutional repository (`Deep Blue (University of Michigan)`,
/// `ePrints Soton`), Zenodo, Europe PMC, a post-publication review service.
pub fn is_repository_venue(v: &str) -> bool {
    if is_preprint_venue(v) || has_any_phrase(v, REPOSITORY_MARKERS) {
        return true;
    }
    // `Name (Institution)`: OpenAlex names repositories after their institution.
    match (v.rfind('('), v.trim_end().ends_with(')')) {
        (Some(open), true) => has_any_phrase(&v[open..], INSTITUTION_WORDS),
        _ => false,
    }
}

/// A book series or proceedings collection (`Lecture Notes in Computer Science`,
/// `Proceedings of Machine Learning Research`) or a publisher name.
pub fn is_series_or_publisher(v: &str) -> bool {
    let folded = fold(v);
    PUBLISHERS.contains(&folded.as_str()) || has_any_phrase(v, SERIES)
}

/// Whether a title is the name of a known venue and nothing else: a full name of the
/// venue table with only what names of editions add around it (years, ordinals,
/// `Proceedings`, `Findings`, meeting words, publishers, the acronym) —
/// `Findings of the Association for Computational Linguistics: ACL 2024`,
/// `Proceedings of the AAAI Conference on Artificial Intelligence`.
pub fn is_venue_name(title: &str) -> bool {
    let words = key_words(title);
    let form: Vec<String> = words.clone();
    known_ids(&form)
        .into_iter()
        .filter(|k| !k.by_acronym)
        .any(|k| {
            let venue = &KNOWN_VENUES[k.id];
            let own: Vec<String> = venue
                .names
                .iter()
                .flat_map(|n| key_words(n))
                .chain(venue.acronyms.iter().cloned())
                .collect();
            words.iter().all(|w| own.contains(w) || skippable(w))
        })
}

/// Whether a venue string names a computer-science venue of the known-venue table
/// (`ICLR 2025`, `Advances in Neural Information Processing Systems`, `Findings of
/// EMNLP`), or the OpenReview platform itself.
pub fn names_computing_venue(venue: &str) -> bool {
    if fold(venue).contains("openreview") {
        return true;
    }
    forms(venue)
        .iter()
        .flat_map(|f| known_ids(f))
        .any(|k| KNOWN_VENUES[k.id].computing)
}

/// Venues whose submissions and decisions OpenReview hosts (by their acronyms in the
/// known-venue table).
const OPENREVIEW_VENUES: &[&str] = &["iclr", "neurips", "icml", "tmlr", "colm", "corl", "midl"];

/// Whether a venue string names a venue that reviews on OpenReview.
pub fn names_openreview_venue(venue: &str) -> bool {
    forms(venue).iter().flat_map(|f| known_ids(f)).any(|k| {
        KNOWN_VENUES[k.id]
            .acronyms
            .iter()
            .any(|a| OPENREVIEW_VENUES.contains(&a.as_str()))
    })
}

/// Whether two venue strings name the same venue. `Unknown` when either is missing or
/// a placeholder, when the record's venue is a repository or preprint server, when
/// the cited venue is a preprint server, or when either is a series or publisher;
/// `Different` when the cited venue is an institutional repository for a record in a
/// journal or proceedings, or when no rule relates two venues of record.
pub fn compare_venues(cited: &str, record: &str) -> VenueMatch {
    if is_placeholder_venue(cited) || is_placeholder_venue(record) || is_repository_venue(record) {
        return VenueMatch::Unknown;
    }
    if is_series_or_publisher(cited) || is_series_or_publisher(record) || is_preprint_venue(cited) {
        return VenueMatch::Unknown;
    }
    // An institutional repository cited for a work the record places in a journal or
    // proceedings names where a copy sits, not where the work appeared.
    if is_repository_venue(cited) {
        return VenueMatch::Different;
    }
    if fold(cited).replace(' ', "") == fold(record).replace(' ', "") {
        return VenueMatch::Same;
    }
    let (fa, fb) = (forms(cited), forms(record));
    let ids = |forms: &[Vec<String>], acronyms_only: bool| -> Vec<usize> {
        let mut ids: Vec<usize> = forms
            .iter()
            .flat_map(|f| known_ids(f))
            .filter(|k| k.by_acronym || !acronyms_only)
            .map(|k| k.id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let (ia, ib) = (ids(&fa, false), ids(&fb, false));
    if ia.iter().any(|id| ib.contains(id)) {
        return VenueMatch::Same;
    }
    if fa.iter().any(|x| fb.iter().any(|y| forms_align(x, y))) {
        return VenueMatch::Same;
    }
    // Both name a known venue, and not the same one (`ICCV` against `Computer Vision –
    // ECCV 2022`, `IEEE/CVF Conference on Computer Vision and Pattern Recognition`
    // against `… International Conference on Computer Vision (ICCV)`): the full names'
    // shared words (`computer vision`) must not make them one.
    if !ia.is_empty() && !ib.is_empty() {
        return VenueMatch::Different;
    }
    // A known venue's full name against an abbreviation of it (`NIPS` vs `Adv.
    // Neural Inf. Process. Syst.`).
    let expanded = |ids: &[usize]| -> Vec<Vec<String>> {
        ids.iter()
            .flat_map(|&id| KNOWN_VENUES[id].names.iter().map(|n| key_words(n)))
            .collect()
    };
    let (ea, eb) = (expanded(&ia), expanded(&ib));
    let aligned = |xs: &[Vec<String>], ys: &[Vec<String>]| {
        xs.iter().any(|x| ys.iter().any(|y| forms_align(x, y)))
    };
    if aligned(&ea, &fb) || aligned(&fa, &eb) {
        return VenueMatch::Same;
    }
    if fa
        .iter()
        .any(|x| fb.iter().any(|y| forms_align_with_subtitle(x, y)))
    {
        return VenueMatch::Same;
    }
    VenueMatch::Different
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computing_venues_are_recognised() {
        for v in [
            "ICLR 2025",
            "Advances in Neural Information Processing Systems 36",
            "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics",
            "Findings of EMNLP",
            "OpenReview",
        ] {
            assert!(names_computing_venue(v), "{v}");
        }
        for v in ["Nature", "Proc. Natl. Acad. Sci. U.S.A.", "The Lancet", ""] {
            assert!(!names_computing_venue(v), "{v}");
        }
    }

    #[test]
    fn iso4_abbreviations_are_the_same_venue() {
        for (a, b) in [
            ("J. Neural Eng.", "Journal of Neural Engineering"),
            (
                "Proc. Natl. Acad. Sci. U.S.A.",
                "Proceedings of the National Academy of Sciences",
            ),
            (
                "Proc Natl Acad Sci U S A",
                "Proceedings of the National Academy of Sciences of the United States of America",
            ),
            (
                "IEEE Trans. Dependable Secur. Comput.",
                "IEEE Transactions on Dependable and Secure Computing",
            ),
            (
                "IEEE Trans. Neural Netw. Learn. Syst.",
                "IEEE Transactions on Neural Networks and Learning Systems",
            ),
            ("Sci Rep", "Scientific Reports"),
            ("Manag. Sci.", "Management Science"),
            ("BMJ", "British medical journal"),
            ("Berl J Fur Soziol", "Berliner Journal für Soziologie"),
            ("Ophthalmology", "Ophthalmology (Rochester, Minn.)"),
            (
                "Physical review. B",
                "Physical review. B./Physical review. B",
            ),
            (
                "IEEE Transactions on Control Systems and Technology",
                "IEEE Transactions on Control Systems Technology",
            ),
            (
                "Trans. Mach. Learn. Res.",
                "Transactions on Machine Learning Research",
            ),
            (
                "Am J Geriatr Psychiatry",
                "The American journal of geriatric psychiatry",
            ),
            (
                "IEEE Int Symp Qual Electron Des",
                "IEEE International Symposium on Quality Electronic Design",
            ),
            (
                "Rev Médica Clínica Condes",
                "Revista Médica Clínica Las Condes",
            ),
            ("SIGDIAL", "SIGDIAL Conferences"),
            ("Surg Endosc Other Interv Tech", "Surgical Endoscopy"),
            ("Anat Rec Integr Anat Evol Biology", "The Anatomical Record"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Same, "{a} | {b}");
            assert_eq!(compare_venues(b, a), VenueMatch::Same, "{b} | {a}");
        }
    }

    #[test]
    fn conference_acronyms_and_full_names_are_the_same_venue() {
        for (a, b) in [
            (
                "NeurIPS",
                "Advances in Neural Information Processing Systems 36",
            ),
            ("NIPS", "Neural Information Processing Systems"),
            ("Proc. NIPS", "Adv. Neural Inf. Process. Syst."),
            (
                "CVPR",
                "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
            ),
            (
                "Computer Vision and Pattern Recognition",
                "2024 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
            ),
            (
                "ICASSP",
                "ICASSP 2021 - 2021 IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)",
            ),
            (
                "ACL",
                "Findings of the Association for Computational Linguistics: ACL 2023",
            ),
            (
                "STOC",
                "Proceedings of the 55th Annual ACM Symposium on Theory of Computing",
            ),
            (
                "AAAI",
                "Proceedings of the AAAI Conference on Artificial Intelligence",
            ),
            ("PNAS", "Proceedings of the National Academy of Sciences"),
            ("ICLR", "ICLR 2026 Poster"),
            (
                "ICARM",
                "2025 International Conference on Advanced Robotics and Mechatronics (ICARM)",
            ),
            (
                "BIBM",
                "IEEE International Conference on Bioinformatics and Biomedicine",
            ),
            (
                "FAccT",
                "The 2024 ACM Conference on Fairness, Accountability, and Transparency",
            ),
            ("TREC", "Text Retrieval Conference"),
            ("Int Conf Optim Appl", "OPTIMA"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Same, "{a} | {b}");
        }
    }

    #[test]
    fn different_venues_are_different() {
        for (a, b) in [
            ("Nature", "Nature Communications"),
            ("Physical Review B", "Physical Review Letters"),
            (
                "CVPR",
                "2017 IEEE International Conference on Computer Vision (ICCV)",
            ),
            ("Quality & Quantity", "Protein Science"),
            (
                "IEEE/ACM Transactions on Audio, Speech, and Language Processing",
                "Perception & Psychophysics",
            ),
            (
                "Neural Networks",
                "IEEE Transactions on Neural Networks and Learning Systems",
            ),
            ("J. Neural Eng.", "Journal of Neuroscience"),
            ("Nature Reviews Neuroscience", "Nature"),
            ("Phys. Rev. Lett.", "Physical Review"),
            ("J Neurosci Methods", "Journal of Neuroscience"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Different, "{a} | {b}");
        }
        // Two conferences' full names that share words, either way round.
        for (a, b) in [
            (
                "2023 IEEE/CVF International Conference on Computer Vision (ICCV)",
                "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
            ),
            (
                "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
                "2021 IEEE/CVF International Conference on Computer Vision (ICCV)",
            ),
            ("Water Resources Research", "Journal of Hydrology"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Different, "{a} | {b}");
            assert_eq!(compare_venues(b, a), VenueMatch::Different, "{b} | {a}");
        }
    }

    #[test]
    fn venue_names_are_told_from_paper_titles() {
        for v in [
            "Findings of the Association for Computational Linguistics: ACL 2024",
            "Proceedings of the AAAI Conference on Artificial Intelligence",
            "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
            "Advances in Neural Information Processing Systems 36",
        ] {
            assert!(is_venue_name(v), "{v}");
        }
        for t in [
            "Rethinking priors for sparse retrieval",
            "Rethinking Priors for Sparse Retrieval - Okafor et al., Findings of the Association \
             for Computational Linguistics: ACL 2024",
            "A history of the Association for Computational Linguistics",
            "Computer vision",
        ] {
            assert!(!is_venue_name(t), "{t}");
        }
    }

    #[test]
    fn repositories_preprints_series_and_placeholders_are_unknown() {
        for v in [
            "arXiv preprint arXiv:2106.11959",
            "CoRR",
            "arXiv (Cornell University)",
            "bioRxiv (Cold Spring Harbor Laboratory)",
            "Deep Blue (University of Michigan)",
            "ePrints Soton (University of Southampton)",
            "University of Canberra Research Portal",
            "Zenodo (CERN European Organization for Nuclear Research)",
            "SSRN Electronic Journal",
            "Lecture Notes in Computer Science",
            "Proceedings of Machine Learning Research",
            "Springer",
            "(No Title)",
        ] {
            assert_eq!(compare_venues("Nature", v), VenueMatch::Unknown, "{v}");
        }
        assert_eq!(
            compare_venues("arXiv preprint arXiv:2106.11959", "Nature"),
            VenueMatch::Unknown
        );
        assert_eq!(
            compare_venues(
                "CaltechAUTHORS (California Institute of Technology)",
                "ACM Computing Surveys"
            ),
            VenueMatch::Different
        );
        assert!(!is_repository_venue("Ophthalmology (Rochester, Minn.)"));
        assert!(!is_repository_venue(
            "Journal of King Saud University - Computer and Information Sciences"
        ));
        assert!(is_preprint_venue("arXiv [Preprint]"));
        assert!(!is_preprint_venue("Nature"));
    }
}
