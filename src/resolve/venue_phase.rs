//! The venue phase, after title search:
//!
//! 1. a reference still without a record that links an OpenReview forum or an ACL
//!    Anthology paper (URL, or the Anthology's DOI) is looked up there by that id —
//!    these platforms are the record of many computing papers;
//! 2. a reference that cites a venue reviewing on OpenReview (ICLR, NeurIPS, ICML,
//!    TMLR …) and whose accepted records are only preprints asks OpenReview what
//!    became of the submission. A rejected, withdrawn or desk-rejected submission (or
//!    one still under review) cited as a paper of that venue is a wrong venue: the
//!    decision is carried over to the preprint records of the same work, so whichever
//!    record is reported, the venue is flagged.
//!
//! Every lookup goes through the cache, under the source's name.

use crate::model::{NotAccepted, Work};
use crate::resolve::compare::record_is_preprint;
use crate::resolve::evidence::{Evidence, Via, consult_selected};
use crate::resolve::gate::GateThresholds;
use crate::resolve::lookup::{Answer, Lookups};
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::TryOutcome;
use crate::resolve::sources::acl::anthology_id_of;
use crate::resolve::sources::{Lookup, SourceName};
use crate::resolve::venues::{VenueMatch, compare_venues, names_openreview_venue};

/// Hits asked of OpenReview's search.
const HITS: usize = 5;

/// A platform id a reference links.
#[derive(Debug, Clone, PartialEq)]
enum PlatformId {
    OpenReview(String),
    Anthology(String),
}

/// The OpenReview forum or Anthology paper a reference links (its URL, DOI or raw text).
fn platform_id(q: &RefQuery) -> Option<PlatformId> {
    let f = &q.fields;
    let texts = f
        .url
        .iter()
        .chain(f.doi.iter())
        .map(String::as_str)
        .chain(q.raw.split_whitespace());
    for text in texts {
        let text = text.trim_matches(|c: char| matches!(c, '<' | '>' | ',' | ';' | '(' | ')'));
        if let Some(id) = crate::parse::ids::openreview_id(text) {
            return Some(PlatformId::OpenReview(id));
        }
        if let Some(id) = anthology_id_of(text.trim_end_matches('.')) {
            return Some(PlatformId::Anthology(id));
        }
    }
    None
}

/// Whether OpenReview's decision is wanted: the reference cites an OpenReview venue as
/// its venue of record, and no accepted record places the work there.
fn wants_decision(q: &RefQuery, ev: &Evidence) -> bool {
    let Some(cited) = q.fields.venue.as_deref() else {
        return false;
    };
    let openreview = SourceName::OpenReview.as_str();
    names_openreview_venue(cited)
        && ev.has_accepted()
        && !ev.tries.iter().any(|t| t.source == openreview)
        && ev
            .candidates
            .iter()
            .filter(|c| c.decision.accepted)
            .all(|c| record_is_preprint(&c.work) || c.work.venue.is_none())
}

/// Run the phase over every reference of the run.
pub async fn run(
    lookups: &Lookups,
    queries: &[&RefQuery],
    evidence: &mut [Evidence],
    t: &GateThresholds,
) {
    consult_selected(
        evidence,
        8,
        |i, ev| {
            let q = queries[i];
            (!ev.has_accepted() && platform_id(q).is_some()) || wants_decision(q, ev)
        },
        |i, mut ev| async move {
            consult(lookups, queries[i], &mut ev, t).await;
            ev
        },
    )
    .await;
}

async fn consult(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    if !ev.has_accepted() {
        if let Some(id) = platform_id(q) {
            by_id(lookups, q, ev, t, id).await;
        }
        return;
    }
    let openreview = SourceName::OpenReview.as_str();
    let Some(title) = q.fields.title.as_deref() else {
        return;
    };
    let key = format!("title:{title}");
    let answer = lookups
        .through_cache(openreview, &key, || async {
            lookups
                .sources
                .openreview
                .search(title, HITS)
                .await
                .map(|works| match works.is_empty() {
                    true => Lookup::NotFound,
                    false => Lookup::Found(works),
                })
        })
        .await;
    ev.add_hits(q, openreview, answer, t);
    carry_decision(q, ev);
}

async fn by_id(
    lookups: &Lookups,
    q: &RefQuery,
    ev: &mut Evidence,
    t: &GateThresholds,
    id: PlatformId,
) {
    let s = &lookups.sources;
    let (source, answer) = match &id {
        PlatformId::OpenReview(id) => {
            let source = SourceName::OpenReview.as_str();
            let key = format!("id:{id}");
            let answer = lookups
                .through_cache(source, &key, || s.openreview.lookup(id))
                .await;
            (source, answer)
        }
        PlatformId::Anthology(id) => {
            let source = SourceName::Acl.as_str();
            let key = format!("id:{id}");
            let answer = lookups
                .through_cache(source, &key, || s.acl.lookup(id))
                .await;
            (source, answer)
        }
    };
    let outcome = match answer {
        Answer::Found(work) => {
            if ev.add(q, work, Via::Url, t) {
                TryOutcome::Found
            } else {
                TryOutcome::Rejected
            }
        }
        Answer::NotFound => TryOutcome::NotFound,
        // A platform that could not be asked establishes nothing either way.
        Answer::Failed(why) => {
            ev.failures.push(format!("{source}: {why}"));
            TryOutcome::Failed
        }
        Answer::Offline => TryOutcome::Offline,
    };
    ev.tried(source, outcome);
}

/// The decision of an accepted OpenReview record submitted to the cited venue, carried
/// over to the accepted preprint records of the same work — unless an accepted record
/// (another OpenReview note, a proceedings record) places the work in the cited venue.
fn carry_decision(q: &RefQuery, ev: &mut Evidence) {
    let Some(cited) = q.fields.venue.as_deref() else {
        return;
    };
    let accepted = || ev.candidates.iter().filter(|c| c.decision.accepted);
    let published_there = accepted().any(|c| {
        c.work.not_accepted.is_none()
            && c.work
                .venue
                .as_deref()
                .is_some_and(|v| compare_venues(cited, v) == VenueMatch::Same)
    });
    if published_there {
        return;
    }
    let decision: Option<NotAccepted> = accepted()
        .filter_map(|c| c.work.not_accepted.clone())
        .find(|na| compare_venues(cited, &na.submitted_to) == VenueMatch::Same);
    let Some(decision) = decision else {
        return;
    };
    for c in ev.candidates.iter_mut().filter(|c| c.decision.accepted) {
        if c.work.not_accepted.is_none() && is_unplaced(&c.work) {
            c.work.not_accepted = Some(decision.clone());
        }
    }
}

/// A record that places the work in no venue of record (a preprint, or no venue).
fn is_unplaced(work: &Work) -> bool {
    record_is_preprint(work) || work.venue.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RefFields;

    fn query(url: Option<&str>, raw: &str) -> RefQuery {
        let fields = RefFields {
            title: Some("A Paper".into()),
            url: url.map(str::to_string),
            ..RefFields::default()
        };
        RefQuery::new(fields, raw, crate::resolve::query::QueryKind::Entry)
    }

    #[test]
    fn platform_ids_from_urls_and_raw_text() {
        assert_eq!(
            platform_id(&query(
                Some("https://openreview.net/forum?id=YicbFdNTTy"),
                ""
            )),
            Some(PlatformId::OpenReview("YicbFdNTTy".into()))
        );
        assert_eq!(
            platform_id(&query(
                None,
                "A. Author. A Paper. In ACL 2023. https://aclanthology.org/2023.acl-long.123."
            )),
            Some(PlatformId::Anthology("2023.acl-long.123".into()))
        );
        assert_eq!(
            platform_id(&query(Some("https://example.org/paper"), "A Paper")),
            None
        );
    }
}
