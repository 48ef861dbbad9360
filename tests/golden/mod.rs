//! Expectations for the recorded bodies, one file per group of services.

use citeproof::model::Work;
use citeproof::net::HttpReply;
use citeproof::resolve::sources::{Lookup, LookupResult, SourceError};

mod biomed;
mod graph;
mod scholarly;

/// Check one recorded body against its expectation; `false` when it has none.
pub fn check_recorded(rel: &str, reply: &HttpReply) -> bool {
    scholarly::check(rel, reply) || graph::check(rel, reply) || biomed::check(rel, reply)
}

pub fn found(rel: &str, r: LookupResult) -> Work {
    match r {
        Ok(Lookup::Found(w)) => w,
        other => panic!("{rel}: expected a found work, got {other:?}"),
    }
}

pub fn not_found(rel: &str, r: LookupResult) {
    assert_eq!(r, Ok(Lookup::NotFound), "{rel}: expected not found");
}

pub fn failure<T: std::fmt::Debug>(rel: &str, r: Result<T, SourceError>) -> SourceError {
    match r {
        Err(e) => e,
        Ok(v) => panic!("{rel}: expected a failure, got {v:?}"),
    }
}

pub fn list(rel: &str, r: Result<Vec<Work>, SourceError>) -> Vec<Work> {
    r.unwrap_or_else(|e| panic!("{rel}: expected a list, got {e:?}"))
}

pub fn families(w: &Work) -> Vec<&str> {
    w.authors.iter().map(|p| p.family.as_str()).collect()
}
