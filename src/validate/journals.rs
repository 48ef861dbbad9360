//! Source reputation: the journal's tier when it is in one (matched the way the
//! resolver compares venues, so ISO 4 abbreviations and well-known acronyms count),
//! else what is known of peer review.

use crate::resolve::venues::{VenueMatch, compare_venues, is_placeholder_venue, is_preprint_venue};

use super::Article;
use super::options::{JournalTier, Settled};

/// The reputation score of an article's source and why.
pub fn reputation(article: &Article, settled: &Settled) -> (f64, String) {
    let journal = article
        .journal
        .as_deref()
        .map(str::trim)
        .filter(|j| !is_placeholder_venue(j));
    if article.is_retracted {
        return (0.0, "the article is retracted".into());
    }
    if let Some(journal) = journal
        && let Some(tier) = tier_of(journal, &settled.journals)
    {
        let named = if tier.name.eq_ignore_ascii_case(journal) {
            String::new()
        } else {
            format!(" (as “{}”)", tier.name)
        };
        return (
            tier.score,
            format!(
                "“{journal}” is in the journal tiers{named} with {}",
                tier.score
            ),
        );
    }
    let preprint = journal.is_some_and(is_preprint_venue);
    let shown = journal.map_or("no journal given".to_string(), |j| format!("“{j}”"));
    match article.is_peer_reviewed {
        Some(true) => (
            settled.peer_reviewed,
            format!("{shown}, peer reviewed, in no tier"),
        ),
        Some(false) => (
            settled.not_peer_reviewed,
            format!("{shown}, not peer reviewed"),
        ),
        None if preprint => (
            settled.not_peer_reviewed,
            format!("{shown} is a preprint server"),
        ),
        None => (
            settled.unknown_review,
            format!("{shown}, in no tier, peer review not known"),
        ),
    }
}

/// The tier a journal is in: the best-scored tier that names the same venue.
pub fn tier_of<'a>(journal: &str, tiers: &'a [JournalTier]) -> Option<&'a JournalTier> {
    tiers
        .iter()
        .filter(|t| {
            t.name.trim().eq_ignore_ascii_case(journal)
                || compare_venues(journal, &t.name) == VenueMatch::Same
        })
        .max_by(|a, b| a.score.total_cmp(&b.score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::options::default_journals;

    fn journal(name: &str, peer_reviewed: Option<bool>) -> Article {
        Article {
            journal: Some(name.to_string()),
            is_peer_reviewed: peer_reviewed,
            ..Article::default()
        }
    }

    #[test]
    fn tiers_match_abbreviations_and_acronyms_but_not_other_journals() {
        let tiers = default_journals();
        let name = |j: &str| tier_of(j, &tiers).map(|t| t.name.as_str());
        assert_eq!(name("Nature Microbiology"), Some("Nature Microbiology"));
        assert_eq!(name("Nat Microbiol"), Some("Nature Microbiology"));
        assert_eq!(
            name("PNAS"),
            Some("Proceedings of the National Academy of Sciences")
        );
        assert_eq!(
            name("Proc Natl Acad Sci U S A"),
            Some("Proceedings of the National Academy of Sciences")
        );
        assert_eq!(name("cell"), Some("Cell"));
        assert_eq!(name("Nature"), None);
        assert_eq!(name("Cell Reports"), None);
        assert_eq!(name("Science Advances"), None);
    }

    #[test]
    fn without_a_tier_peer_review_decides() {
        let s = Settled::default();
        assert_eq!(reputation(&journal("Science", None), &s).0, 1.0);
        let (score, why) = reputation(&journal("J Appl Microbiol", Some(true)), &s);
        assert_eq!(score, 0.7);
        assert!(why.contains("peer reviewed"), "{why}");
        assert_eq!(reputation(&journal("bioRxiv", None), &s).0, 0.3);
        assert_eq!(reputation(&journal("Some Journal", Some(false)), &s).0, 0.3);
        assert_eq!(reputation(&journal("Some Journal", None), &s).0, 0.4);
        let (score, why) = reputation(&Article::default(), &s);
        assert_eq!(score, 0.4);
        assert!(why.contains("no journal"), "{why}");
        let retracted = Article {
            is_retracted: true,
            ..journal("Cell", Some(true))
        };
        assert_eq!(reputation(&retracted, &s).0, 0.0);
    }
}
