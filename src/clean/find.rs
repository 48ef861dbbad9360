//! What each citation names, before alignment: the article (with its title and
//! abstract), or that there is none (`not_found`), or that we cannot know
//! (`unverified`). In the closed world the request's sources decide; in the open
//! world the resolver's cascade, cache, corpora and offline mode do, and a failure
//! anywhere is `unverified`, never `not_found`.

use std::collections::HashMap;

use crate::link;
use crate::model::{Reference, ReferenceOrigin, Work};
use crate::resolve::cascade::Resolver;
use crate::resolve::outcome::{Status as Resolved, is_retracted};
use crate::resolve::query::RefQuery;
use crate::rules::resolution::explain;
use crate::verify::evidence::Evidence;

use super::article::Article;
use super::closed::{Lookup, Matched, SourceIndex, cited_ids};
use super::read::{Reading, Target};
use super::report::{Identifier, Record};

/// What a citation names.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    Found(Box<FoundWork>),
    NotFound {
        reason: String,
    },
    Unverified {
        reason: String,
    },
    /// No source asked has it, and they hold its kind only partly (a book, a thesis…).
    NotIndexed {
        reason: String,
    },
}

/// An article a citation names.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundWork {
    pub work: Work,
    pub record: Record,
    /// How it was found (`doi 10.1/x is source 3`, `resolved by crossref`).
    pub how: String,
    /// The abstract could not be fetched because a source failed: a low similarity
    /// then proves nothing.
    pub abstract_failed: Option<String>,
}

impl FoundWork {
    pub fn retracted(&self) -> bool {
        is_retracted(&self.work)
    }
}

/// The identifier a citation's report shows: the one it was matched by, else the
/// first its reference (or the citation itself) carries.
pub fn identifier_of(reading: &Reading, cite: usize) -> Option<Identifier> {
    let c = &reading.cites[cite];
    let from_reference = match c.target {
        Target::Reference(r) => cited_ids(&reading.references[r], true).into_iter().next(),
        _ => None,
    };
    from_reference
        .or_else(|| c.citation.id.clone())
        .map(|(scheme, value)| Identifier { scheme, value })
}

/// Findings of the closed world, one per citation.
pub fn closed(reading: &Reading, articles: &[Article]) -> Vec<Finding> {
    let index = SourceIndex::new(articles);
    let mut by_reference: HashMap<usize, Finding> = HashMap::new();
    reading
        .cites
        .iter()
        .map(|cite| match cite.target {
            Target::Reference(r) => by_reference
                .entry(r)
                .or_insert_with(|| lookup(&index, articles, &reading.references[r]))
                .clone(),
            Target::Source(i) => found_source(
                articles,
                i,
                format!("number {} is source {} of the request", i + 1, i + 1),
            ),
            Target::Orphan => Finding::NotFound {
                reason: orphan_reason(reading, cite.citation.key.as_str(), articles.len()),
            },
            Target::Unlinked => by_author_year(articles, &cite.citation.key),
        })
        .collect()
}

fn lookup(index: &SourceIndex, articles: &[Article], reference: &Reference) -> Finding {
    match index.lookup(reference) {
        Lookup::Found { index, by } => {
            let how = match by {
                Matched::Identifier(scheme, value) => {
                    format!("{} {value} is source {}", scheme.prefix(), index + 1)
                }
                Matched::Title(score) => {
                    format!("its title matches source {} ({score:.2})", index + 1)
                }
            };
            found_source(articles, index, how)
        }
        Lookup::NotFound { reason } => Finding::NotFound { reason },
    }
}

fn found_source(articles: &[Article], index: usize, how: String) -> Finding {
    let work = articles[index].to_work();
    Finding::Found(Box::new(FoundWork {
        record: Record::from_work(&work, Some(index)),
        work,
        how,
        abstract_failed: None,
    }))
}

/// Why a marker names nothing.
fn orphan_reason(reading: &Reading, key: &str, sources: usize) -> String {
    if reading.numbers_sources {
        return format!("marker [{key}] names no source (the request has {sources})");
    }
    match key.strip_prefix('^') {
        Some(label) => format!("footnote [^{label}] has no definition"),
        None if key.parse::<u32>().is_ok() => {
            format!("the reference list has no entry [{key}]")
        }
        None => format!("`{key}` names no reference-list entry"),
    }
}

/// An author–year citation without a reference list, matched by the sources' first
/// author and year.
fn by_author_year(articles: &[Article], key: &str) -> Finding {
    if articles.iter().all(|a| a.authors.is_empty()) {
        return Finding::Unverified {
            reason: "author–year citation without a reference list, and the sources \
                     name no authors"
                .into(),
        };
    }
    let Some((family, year, _)) = link::author_year_parts(key) else {
        return Finding::NotFound {
            reason: format!("`{key}` names no author and year"),
        };
    };
    let hit = articles.iter().position(|a| {
        a.year == Some(year)
            && a.to_work().authors.first().is_some_and(|p| {
                let own = link::fold(&p.family);
                own == family || own.ends_with(&format!(" {family}"))
            })
    });
    match hit {
        Some(i) => found_source(
            articles,
            i,
            format!("first author and year match source {}", i + 1),
        ),
        None => Finding::NotFound {
            reason: format!("no source by {family} from {year}"),
        },
    }
}

/// Findings of the open world, one per citation. Without a resolver (resolution
/// turned off) every named reference is `unverified`.
pub async fn open(reading: &Reading, resolver: Option<&Resolver>) -> Vec<Finding> {
    let mut wanted: Vec<usize> = reading
        .cites
        .iter()
        .filter_map(|c| match c.target {
            Target::Reference(r) => Some(r),
            _ => None,
        })
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut by_reference: HashMap<usize, Finding> = HashMap::new();
    match resolver {
        Some(resolver) => {
            let queries: Vec<RefQuery> = wanted
                .iter()
                .map(|&r| RefQuery::from_reference(&reading.references[r]))
                .collect();
            let resolutions = resolver.resolve(&queries).await;
            for (&r, resolution) in wanted.iter().zip(resolutions) {
                let finding = match (resolution.status, resolution.work.as_deref().cloned()) {
                    (Resolved::Verified | Resolved::Miscited | Resolved::Retracted, Some(work)) => {
                        let mut how = format!("resolved by {}", work.source);
                        let wrong = explain(&resolution);
                        if resolution.status == Resolved::Miscited && !wrong.is_empty() {
                            how.push_str(&format!(" (cited with {})", wrong.join("; ")));
                        }
                        with_abstract(resolver, work, how).await
                    }
                    (Resolved::NotFound, _) => Finding::NotFound {
                        reason: not_found_reason(&reading.references[r], &resolution),
                    },
                    (Resolved::NotIndexed, _) => Finding::NotIndexed {
                        reason: format!(
                            "not in the sources that hold its kind only partly: {}",
                            explain(&resolution).join("; ")
                        ),
                    },
                    _ => Finding::Unverified {
                        reason: unverified_reason(&resolution),
                    },
                };
                by_reference.insert(r, finding);
            }
        }
        None => {
            for &r in &wanted {
                by_reference.insert(
                    r,
                    Finding::Unverified {
                        reason: "resolution is off: the reference was not looked up".into(),
                    },
                );
            }
        }
    }
    reading
        .cites
        .iter()
        .map(|cite| match cite.target {
            Target::Reference(r) => by_reference[&r].clone(),
            Target::Source(_) | Target::Orphan => Finding::NotFound {
                reason: orphan_reason(reading, &cite.citation.key, 0),
            },
            Target::Unlinked => Finding::Unverified {
                reason: "author–year citation without a reference list to look it up in".into(),
            },
        })
        .collect()
}

/// A resolved work with its abstract: the record's, else one asked of the sources
/// that carry abstracts (when the resolver may use the network).
async fn with_abstract(resolver: &Resolver, work: Work, how: String) -> Finding {
    let mut abstract_failed = None;
    let mut work = work;
    if resolver.options().uses_network() {
        let mut evidence = Evidence::new(&work);
        if evidence.abstract_text.is_none() {
            evidence.find_abstract(resolver.sources()).await;
            match &evidence.abstract_text {
                Some((text, _)) => work.abstract_text = Some(text.clone()),
                None if !evidence.failures.is_empty() => {
                    abstract_failed = Some(evidence.failures.join("; "));
                }
                None => {}
            }
        }
    }
    Finding::Found(Box::new(FoundWork {
        record: Record::from_work(&work, None),
        work,
        how,
        abstract_failed,
    }))
}

fn not_found_reason(
    reference: &Reference,
    resolution: &crate::resolve::resolution::Resolution,
) -> String {
    let asked: Vec<&str> = resolution
        .sources_tried
        .iter()
        .map(|t| t.source.as_str())
        .collect();
    let what = match reference.origin {
        ReferenceOrigin::Inline => "the identifier names no work",
        _ => "no source has the referenced work",
    };
    if asked.is_empty() {
        what.to_string()
    } else {
        format!("{what} (asked: {})", asked.join(", "))
    }
}

fn unverified_reason(resolution: &crate::resolve::resolution::Resolution) -> String {
    if !resolution.failures.is_empty() {
        return format!("could not be checked: {}", resolution.failures.join("; "));
    }
    match resolution.notes.first() {
        Some(note) => format!("could not be checked: {note}"),
        None => "could not be checked: no source could decide".into(),
    }
}
