//! Identifier accessibility: each article's DOI, PMCID, PMID and arXiv id are
//! resolved with the resolver's cascade (cache, corpora, batched requests), together
//! with its title, so that an identifier that names no work, or another work, is told
//! apart from one that could not be checked because a source failed.

use crate::clean::{Identifier, Record};
use crate::model::{IdScheme, RefFields};
use crate::resolve::cascade::Resolver;
use crate::resolve::outcome::Status;
use crate::resolve::query::{QueryKind, RefQuery};
use crate::resolve::resolution::{Resolution, TryOutcome};
use crate::rules::resolution::{describe, explain};

use super::Article;
use super::report::{Access, IdentifierCheck};

/// The strongest identifier an article carries: DOI, PMCID, PMID, then arXiv id.
pub fn strongest(article: &Article) -> Option<Identifier> {
    let ids = article.ids();
    [
        (IdScheme::Doi, ids.doi),
        (IdScheme::Pmcid, ids.pmcid),
        (IdScheme::Pmid, ids.pmid),
        (IdScheme::Arxiv, ids.arxiv),
    ]
    .into_iter()
    .find_map(|(scheme, value)| value.map(|value| Identifier { scheme, value }))
}

/// The article as a reference to resolve: its identifiers with its title, year,
/// journal and authors, as a bibliography entry is.
pub fn query(article: &Article) -> RefQuery {
    let work = article.to_work();
    let fields = RefFields {
        title: Some(work.title.clone()).filter(|t| !t.is_empty()),
        authors: work.authors,
        year: work.year,
        venue: work.venue,
        doi: work.doi,
        arxiv: work.arxiv,
        pmid: work.pmid,
        pmcid: work.pmcid,
        ..RefFields::default()
    };
    RefQuery::new(fields, work.title, QueryKind::Entry)
}

/// Check every article's identifiers; `None` for the resolver leaves them unchecked
/// with `why_not` as the explanation.
pub async fn check_all(
    articles: &[Article],
    resolver: Option<&Resolver>,
    why_not: &str,
) -> Vec<IdentifierCheck> {
    let identifiers: Vec<Option<Identifier>> = articles.iter().map(strongest).collect();
    let wanted: Vec<usize> = (0..articles.len())
        .filter(|&i| identifiers[i].is_some())
        .collect();
    let mut resolutions: Vec<Option<Resolution>> = vec![None; articles.len()];
    if let Some(resolver) = resolver {
        let queries: Vec<RefQuery> = wanted.iter().map(|&i| query(&articles[i])).collect();
        for (&i, r) in wanted.iter().zip(resolver.resolve(&queries).await) {
            resolutions[i] = Some(r);
        }
    }
    identifiers
        .into_iter()
        .zip(resolutions)
        .map(|(identifier, resolution)| match (identifier, resolution) {
            (None, _) => IdentifierCheck {
                status: Access::NoIdentifier,
                identifier: None,
                record: None,
                sources: Vec::new(),
                explanation: "no DOI, PMCID, PMID or arXiv id to check".into(),
            },
            (Some(identifier), None) => IdentifierCheck {
                status: Access::NotChecked,
                identifier: Some(identifier),
                record: None,
                sources: Vec::new(),
                explanation: why_not.to_string(),
            },
            (Some(identifier), Some(r)) => judge(identifier, &r),
        })
        .collect()
}

/// What one resolution says about the article's identifiers.
pub fn judge(identifier: Identifier, r: &Resolution) -> IdentifierCheck {
    let sources: Vec<String> = r.sources_tried.iter().map(|t| t.source.clone()).collect();
    let asked = if sources.is_empty() {
        String::new()
    } else {
        format!(" (asked: {})", sources.join(", "))
    };
    let record = |work: Option<&crate::model::Work>| work.map(|w| Record::from_work(w, None));
    let (status, record, explanation) = if let Some((field, value)) = r.unresolved.first() {
        (
            Access::NotFound,
            None,
            format!("the {} {value} does not resolve{asked}", field.as_str()),
        )
    } else if let Some(other) = &r.identifier_work {
        (
            Access::OtherWork,
            record(Some(other)),
            format!(
                "the {} {} names another work: {}",
                identifier.scheme.prefix(),
                identifier.value,
                describe(other)
            ),
        )
    } else {
        match r.status {
            Status::Verified | Status::Miscited => {
                let work = r.work.as_deref();
                let source = work.map_or("", |w| w.source.as_str());
                let mut why = format!("resolved by {source}");
                let wrong = explain(r);
                if !wrong.is_empty() {
                    why.push_str(&format!(
                        " (the article's metadata differs: {})",
                        wrong.join("; ")
                    ));
                }
                (Access::Resolved, record(work), why)
            }
            Status::NotFound => (
                Access::NotFound,
                None,
                format!("no source has the {}{asked}", identifier.scheme.prefix()),
            ),
            Status::Retracted => {
                let source = r.work.as_ref().map_or("the record", |w| w.source.as_str());
                (
                    Access::Retracted,
                    record(r.work.as_deref()),
                    format!("retracted according to {source}"),
                )
            }
            Status::NotIndexed => (
                Access::Unverified,
                None,
                format!(
                    "no source that was asked has it, and they hold works of its kind only partly{asked}"
                ),
            ),
            Status::Unverified => {
                let offline = r
                    .sources_tried
                    .iter()
                    .all(|t| t.outcome == TryOutcome::Offline);
                if offline {
                    (
                        Access::NotChecked,
                        None,
                        "offline, and not in the cache or a local corpus".to_string(),
                    )
                } else if r.failures.is_empty() {
                    let note = r
                        .notes
                        .first()
                        .map_or("no source could decide", String::as_str);
                    (Access::Unverified, None, note.to_string())
                } else {
                    (Access::Unverified, None, r.failures.join("; "))
                }
            }
        }
    };
    IdentifierCheck {
        status,
        identifier: Some(identifier),
        record,
        sources,
        explanation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Work;
    use crate::resolve::mismatch::Field;
    use crate::resolve::resolution::SourceTry;

    fn doi() -> Identifier {
        Identifier {
            scheme: IdScheme::Doi,
            value: "10.1/x".into(),
        }
    }

    fn tried(outcome: TryOutcome) -> Vec<SourceTry> {
        vec![SourceTry {
            source: "crossref".into(),
            outcome,
        }]
    }

    #[test]
    fn outcomes_map_to_access() {
        let mut r = Resolution::unresolvable();
        r.sources_tried = tried(TryOutcome::Failed);
        r.failures = vec!["crossref: timed out after 5s".into()];
        let check = judge(doi(), &r);
        assert_eq!(check.status, Access::Unverified);
        assert!(check.explanation.contains("timed out"));

        r.sources_tried = tried(TryOutcome::Offline);
        r.failures.clear();
        assert_eq!(judge(doi(), &r).status, Access::NotChecked);

        r.status = Status::NotFound;
        r.sources_tried = tried(TryOutcome::NotFound);
        r.unresolved = vec![(Field::Doi, "10.1/x".into())];
        let check = judge(doi(), &r);
        assert_eq!(check.status, Access::NotFound);
        assert!(
            check
                .explanation
                .contains("does not resolve (asked: crossref)")
        );

        r.unresolved.clear();
        r.status = Status::Verified;
        r.identifier_work = Some(Work {
            title: "Something else".into(),
            ..Work::default()
        });
        assert_eq!(judge(doi(), &r).status, Access::OtherWork);

        r.identifier_work = None;
        r.work = Some(std::sync::Arc::new(Work {
            source: "crossref".into(),
            title: "T".into(),
            ..Work::default()
        }));
        let check = judge(doi(), &r);
        assert_eq!(check.status, Access::Resolved);
        assert_eq!(check.record.unwrap().title, "T");

        r.status = Status::Retracted;
        let check = judge(doi(), &r);
        assert_eq!(check.status, Access::Retracted);
        assert!(check.explanation.contains("crossref"));
    }

    #[test]
    fn the_strongest_identifier_and_the_query() {
        let article = Article {
            pmcid: Some("PMC42".into()),
            doi: Some("https://doi.org/10.1038/S41564".into()),
            title: Some("A title".into()),
            year: Some(2020),
            ..Article::default()
        };
        let id = strongest(&article).unwrap();
        assert_eq!(
            (id.scheme, id.value.as_str()),
            (IdScheme::Doi, "10.1038/s41564")
        );
        let q = query(&article);
        assert_eq!(q.kind, QueryKind::Entry);
        assert_eq!(q.fields.pmcid.as_deref(), Some("PMC42"));
        assert_eq!(q.fields.title.as_deref(), Some("A title"));
        assert!(strongest(&Article::default()).is_none());
    }
}
