//! A preprint record cannot confirm the venue a reference cites. A reference that names
//! a journal or a conference and is found as an arXiv (or other preprint) record — by
//! its arXiv id, or by a search — is looked up again by title for the published
//! version, and when that version is found it is the record the reference is compared
//! with: a paper cited "in NeurIPS" that appeared at AAAI is cited with a wrong venue,
//! which its arXiv record, having no venue, would never show.

use crate::model::{RefFields, Work};
use crate::resolve::compare::record_is_preprint;
use crate::resolve::evidence::Evidence;
use crate::resolve::venues::{
    is_placeholder_venue, is_preprint_venue, is_repository_venue, is_series_or_publisher,
};

/// A venue that names where a work appeared: not a placeholder, a preprint server, a
/// repository, a book series or a publisher.
fn is_venue_of_record(venue: &str) -> bool {
    !is_placeholder_venue(venue)
        && !is_preprint_venue(venue)
        && !is_repository_venue(venue)
        && !is_series_or_publisher(venue)
}

/// Whether the reference names a journal or a conference.
pub fn cites_venue_of_record(fields: &RefFields) -> bool {
    fields.venue.as_deref().is_some_and(is_venue_of_record)
}

/// Whether a record says where the work appeared.
fn has_venue_of_record(work: &Work) -> bool {
    work.venue.as_deref().is_some_and(is_venue_of_record)
}

/// A preprint record that cannot check a cited venue.
fn venueless_preprint(work: &Work) -> bool {
    record_is_preprint(work) && !has_venue_of_record(work)
}

/// Whether the reference should be searched for its published version: it names a
/// venue of record, and every record accepted so far is a preprint without one.
pub fn wants_published_version(fields: &RefFields, ev: &Evidence) -> bool {
    cites_venue_of_record(fields)
        && ev.has_accepted()
        && ev
            .candidates
            .iter()
            .filter(|c| c.decision.accepted)
            .all(|c| venueless_preprint(&c.work))
}

/// Whether the accepted candidate `i` is set aside for the published version: it is
/// a preprint without a venue, the reference names a venue of record, and another
/// accepted candidate (the same title, by the gate) says where the work appeared.
pub fn set_aside(fields: &RefFields, ev: &Evidence, i: usize) -> bool {
    cites_venue_of_record(fields)
        && venueless_preprint(&ev.candidates[i].work)
        && ev.candidates.iter().any(|c| {
            c.decision.accepted && !record_is_preprint(&c.work) && has_venue_of_record(&c.work)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::evidence::{Candidate, Via};
    use crate::resolve::gate::GateDecision;
    use crate::resolve::title_score::GateMethod;

    fn candidate(work: Work) -> Candidate {
        Candidate {
            work,
            via: Via::Search,
            decision: GateDecision {
                accepted: true,
                similarity: 1.0,
                method: GateMethod::Exact,
            },
        }
    }

    #[test]
    fn a_preprint_gives_way_to_the_published_version_for_a_cited_venue() {
        let preprint = Work {
            title: "T".into(),
            arxiv: Some("2203.04567".into()),
            venue: Some("arXiv (Cornell University)".into()),
            ..Work::default()
        };
        let published = Work {
            title: "T".into(),
            venue: Some("Proceedings of the AAAI Conference on Artificial Intelligence".into()),
            doi: Some("10.1609/aaai.v37i6.25901".into()),
            ..Work::default()
        };
        let cited = RefFields {
            venue: Some("NeurIPS".into()),
            ..RefFields::default()
        };
        let mut ev = Evidence::default();
        ev.candidates.push(candidate(preprint));
        assert!(wants_published_version(&cited, &ev));
        let as_preprint = RefFields {
            venue: Some("arXiv preprint arXiv:2203.04567".into()),
            ..RefFields::default()
        };
        assert!(!wants_published_version(&as_preprint, &ev));
        assert!(!wants_published_version(&RefFields::default(), &ev));
        ev.candidates.push(candidate(published));
        assert!(!wants_published_version(&cited, &ev));
        assert!(set_aside(&cited, &ev, 0));
        assert!(!set_aside(&cited, &ev, 1));
        assert!(!set_aside(&as_preprint, &ev, 0));
    }
}
