//! Venues known by an acronym: conferences and journals whose records and citations
//! use unrelated strings — `NeurIPS` / `NIPS` / `Advances in Neural Information
//! Processing Systems 36`, `CVPR` / `2023 IEEE/CVF Conference on Computer Vision and
//! Pattern Recognition (CVPR)`, `PNAS` / `Proceedings of the National Academy of
//! Sciences`, `ECIR` / `Advances in Information Retrieval`. Venues with ordinary ISO 4
//! abbreviations need no entry: `venue_align` derives those word by word.
//!
//! The table is data (`venues.tsv`, built in): one venue a line, its acronyms and the
//! phrases of its full names.

use std::sync::LazyLock;

/// One venue: its acronyms (folded, lowercase) and the phrases of its full names
/// (matched as consecutive content words, stop words ignored).
pub struct KnownVenue {
    pub acronyms: Vec<String>,
    pub names: Vec<String>,
    /// A computer-science venue (the table's computing sections), whose papers DBLP,
    /// OpenReview or the ACL Anthology record.
    pub computing: bool,
}

const TABLE: &str = include_str!("venues.tsv");

/// Section headers of the table that open a section of computing venues, and of
/// venues of other fields; other comment lines change nothing.
const COMPUTING_SECTIONS: &[&str] = &[
    "Machine learning",
    "Computer vision",
    "Language and speech",
    "Robotics",
    "Theory",
    "Programming languages",
];
const OTHER_SECTIONS: &[&str] = &["Journals best known", "medicine and the sciences"];

/// Every venue of `venues.tsv`, in file order.
pub static KNOWN_VENUES: LazyLock<Vec<KnownVenue>> = LazyLock::new(|| {
    let mut computing = true;
    let mut venues = Vec::new();
    for line in TABLE.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(header) = line.strip_prefix('#') {
            if OTHER_SECTIONS.iter().any(|s| header.contains(s)) {
                computing = false;
            } else if COMPUTING_SECTIONS.iter().any(|s| header.contains(s)) {
                computing = true;
            }
            continue;
        }
        let Some((acronyms, names)) = line.split_once('\t') else {
            continue;
        };
        let list = |s: &str| -> Vec<String> {
            s.split('|')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        };
        venues.push(KnownVenue {
            acronyms: list(acronyms),
            names: list(names),
            computing,
        });
    }
    venues
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computing_sections_are_marked() {
        let by_acronym = |a: &str| {
            KNOWN_VENUES
                .iter()
                .find(|v| v.acronyms.iter().any(|x| x == a))
                .unwrap_or_else(|| panic!("{a} is in the table"))
        };
        for cs in ["iclr", "neurips", "acl", "emnlp", "cvpr", "sigir"] {
            assert!(by_acronym(cs).computing, "{cs}");
        }
        assert!(!by_acronym("pnas").computing);
    }

    #[test]
    fn every_line_is_a_venue_with_folded_unique_acronyms() {
        let lines = TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(KNOWN_VENUES.len(), lines, "a line without its tab");
        assert!(KNOWN_VENUES.len() > 250);
        let mut seen = std::collections::HashSet::new();
        for venue in KNOWN_VENUES.iter() {
            assert!(!venue.acronyms.is_empty() && !venue.names.is_empty());
            for a in &venue.acronyms {
                assert_eq!(
                    *a,
                    crate::resolve::normalize::fold(a),
                    "acronym {a} not folded"
                );
                assert!(seen.insert(a.clone()), "acronym {a} listed twice");
            }
            for n in &venue.names {
                assert_eq!(
                    *n,
                    crate::resolve::normalize::fold(n),
                    "name {n} not folded"
                );
            }
        }
    }
}
