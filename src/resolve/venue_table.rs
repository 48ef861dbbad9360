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
}

const TABLE: &str = include_str!("venues.tsv");

/// Every venue of `venues.tsv`, in file order.
pub static KNOWN_VENUES: LazyLock<Vec<KnownVenue>> = LazyLock::new(|| {
    TABLE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(acronyms, names)| {
            let list = |s: &str| -> Vec<String> {
                s.split('|')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            };
            KnownVenue {
                acronyms: list(acronyms),
                names: list(names),
            }
        })
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

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
