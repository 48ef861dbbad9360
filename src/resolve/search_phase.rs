//! The title search of one reference: the plan's tiers in order, the sources of a tier
//! asked in parallel, stopping at the first tier that yields an accepted record.
//!
//! Crossref, OpenAlex and Semantic Scholar index (nearly) everything, so each of them
//! must answer before absence can be concluded. PubMed, Europe PMC and arXiv are
//! specialists: asked when the reference cites one of their identifiers, or to rescue
//! a search in which a general source failed. DBLP and OpenReview are the computing
//! specialists: asked when the reference names a computer-science venue (or links
//! OpenReview, DBLP or the ACL Anthology), where the general indexes lag behind the
//! proceedings and OpenReview is often the only record for months.
//!
//! One exception: a reference whose cited identifier does not exist claims a registered
//! work, and every registered DOI is in Crossref or OpenAlex (which indexes DataCite
//! too). Semantic Scholar — the one place for works without any identifier, and the
//! slowest source at one request per second — is not asked for it. Should such a
//! reference describe a real work without an identifier, it is reported not found with
//! its dead identifier: wrong either way, just named differently.

use futures::future::join_all;

use crate::model::IdScheme;
use crate::resolve::compare::CompareOptions;
use crate::resolve::evidence::{Evidence, IdConclusion};
use crate::resolve::gate::GateThresholds;
use crate::resolve::lookup::{Lookups, searches};
use crate::resolve::options::SourcePlan;
use crate::resolve::query::RefQuery;
use crate::resolve::sources::SourceName;
use crate::resolve::venues::names_computing_venue;
use crate::resolve::verdict;

/// Whether a source indexes scholarly works of every field.
pub fn is_general(source: SourceName) -> bool {
    matches!(
        source,
        SourceName::Crossref | SourceName::OpenAlex | SourceName::S2
    )
}

/// Whether a source must answer before absence can be concluded.
fn needed(source: SourceName, q: &RefQuery, dead_identifier: bool) -> bool {
    match source {
        SourceName::S2 => !dead_identifier,
        s if is_general(s) => true,
        s => relevant(s, q),
    }
}

/// Whether a specialist source is relevant to this reference on its own account.
fn relevant(source: SourceName, q: &RefQuery) -> bool {
    match source {
        SourceName::Pubmed | SourceName::EuropePmc => {
            q.cites_scheme(IdScheme::Pmid) || q.cites_scheme(IdScheme::Pmcid)
        }
        SourceName::Arxiv => q.cites_scheme(IdScheme::Arxiv),
        SourceName::Dblp | SourceName::OpenReview => cites_computing(q),
        _ => false,
    }
}

/// Whether a reference cites a computer-science venue (DBLP and OpenReview are then
/// needed: proceedings the general indexes have not caught up with, submissions that
/// exist only on OpenReview) or links one of the computing records.
pub fn cites_computing(q: &RefQuery) -> bool {
    let f = &q.fields;
    let on_platform = |text: &str| {
        let lower = text.to_ascii_lowercase();
        [
            "openreview.net",
            "dblp.org",
            "aclanthology.org",
            "aclweb.org/anthology",
        ]
        .iter()
        .any(|host| lower.contains(host))
    };
    f.venue.as_deref().is_some_and(names_computing_venue)
        || f.url.as_deref().is_some_and(on_platform)
        || on_platform(&q.raw)
}

/// Search for `q`, adding hits to `ev` and setting `ev.search_complete`.
pub async fn run(
    lookups: &Lookups,
    plan: &SourcePlan,
    q: &RefQuery,
    ev: &mut Evidence,
    t: &GateThresholds,
    compare: &CompareOptions,
) {
    let mut complete = true;
    let mut general_failed = false;
    let dead_identifier = ev
        .ids
        .iter()
        .any(|i| i.conclusion == IdConclusion::NotFound);
    for tier in &plan.search {
        let asked: Vec<SourceName> = tier
            .iter()
            .copied()
            .filter(|&s| searches(s) && (needed(s, q, dead_identifier) || general_failed))
            .collect();
        if asked.is_empty() {
            continue;
        }
        let answers = join_all(asked.iter().map(|&s| lookups.search(s, q))).await;
        for (source, answer) in asked.into_iter().zip(answers) {
            let (_, answered) = ev.add_hits(q, source.as_str(), answer, t);
            if !answered {
                // A rescue source failing changes nothing: coverage is already lost.
                complete &= !needed(source, q, dead_identifier);
                general_failed |= is_general(source);
            }
        }
        // A record accepted with a different title may be another version of the
        // work; the next tier may hold the exact one.
        if ev.has_accepted() && verdict::title_settled(q, ev, t, compare) {
            break;
        }
    }
    ev.search_complete = Some(complete);
}
