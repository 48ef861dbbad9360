//! The kind of a cited work — journal article, book, thesis, RFC, software package … —
//! read from what the reference itself says: a BibTeX/BibLaTeX entry type and its
//! fields, a CSL type, or the words of a formatted string. With the kind come the
//! number that names the work in its series (an RFC, a standard, a patent), the cited
//! version and the registry package of software.
//!
//! Nothing here guesses from the title's topic: a paper *about* RFC 2119 or about
//! software engineering is still a paper. Cues are read outside the title, except for
//! the designations that only a standard's, an RFC's or a law's own title carries.

mod cues;
mod entry;
mod package;
mod string;

pub use cues::{rfc_number, standard_number};
pub use entry::{of_csl, of_entry};
pub use string::of_string;

use crate::model::{PackageRef, RefFields, WorkKind};

/// What a reference says about the kind of its work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindInfo {
    pub kind: Option<WorkKind>,
    pub number: Option<String>,
    pub version: Option<String>,
    pub package: Option<PackageRef>,
}

impl KindInfo {
    fn of(kind: WorkKind) -> KindInfo {
        KindInfo {
            kind: Some(kind),
            ..KindInfo::default()
        }
    }

    fn numbered(kind: WorkKind, number: Option<String>) -> KindInfo {
        KindInfo {
            kind: Some(kind),
            number,
            ..KindInfo::default()
        }
    }

    /// Write the kind into the parsed fields (fields already set are kept).
    pub fn apply(self, f: &mut RefFields) {
        f.kind = f.kind.or(self.kind);
        if f.number.is_none() {
            f.number = self.number;
        }
        if f.version.is_none() {
            f.version = self.version;
        }
        if f.package.is_none() {
            f.package = self.package;
        }
    }
}

/// Words that make a venue a conference's: `Proceedings of …`, `… Workshop`, the
/// acronyms the major venues are cited by.
pub fn is_conference_venue(venue: &str) -> bool {
    const WORDS: &[&str] = &[
        "proceedings",
        "proc.",
        "conference",
        "conf.",
        "symposium",
        "symp.",
        "workshop",
        "congress",
        "colloquium",
        "findings of the association",
        "annual meeting",
    ];
    const ACRONYMS: &[&str] = &[
        "NeurIPS",
        "NIPS",
        "ICML",
        "ICLR",
        "CVPR",
        "ICCV",
        "ECCV",
        "ACL",
        "EMNLP",
        "NAACL",
        "EACL",
        "COLING",
        "AAAI",
        "IJCAI",
        "KDD",
        "SIGIR",
        "SIGMOD",
        "VLDB",
        "CHI",
        "ICSE",
        "OSDI",
        "SOSP",
        "NSDI",
        "INTERSPEECH",
        "ICASSP",
        "MICCAI",
        "AISTATS",
        "UAI",
        "COLT",
        "WACV",
        "BMVC",
        "ICRA",
        "IROS",
        "RSS",
        "CoRL",
    ];
    let lower = venue.to_lowercase();
    WORDS.iter().any(|w| lower.contains(w))
        || venue
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|token| ACRONYMS.contains(&token))
}

/// A venue that only names a preprint server.
pub fn is_preprint_venue(venue: &str) -> bool {
    let lower = venue.trim().to_lowercase();
    [
        "arxiv",
        "biorxiv",
        "medrxiv",
        "chemrxiv",
        "ssrn",
        "research square",
        "preprints.org",
        "techrxiv",
        "psyarxiv",
        "osf preprints",
        "corr",
        "preprint",
    ]
    .iter()
    .any(|p| {
        lower == *p || lower.starts_with(&format!("{p} ")) || lower.starts_with(&format!("{p}:"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conference_and_preprint_venues() {
        assert!(is_conference_venue(
            "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"
        ));
        assert!(is_conference_venue("Advances in NeurIPS"));
        assert!(is_conference_venue(
            "Findings of the Association for Computational Linguistics: ACL 2024"
        ));
        assert!(!is_conference_venue("Nature Communications"));
        assert!(!is_conference_venue("Journal of Oracle Studies"));
        assert!(is_preprint_venue("arXiv preprint"));
        assert!(is_preprint_venue("bioRxiv"));
        assert!(!is_preprint_venue("Nature"));
    }
}
