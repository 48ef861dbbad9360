//! The kind phase: references that the identifier and title phases left without an
//! accepted record are looked up where their kind lives (see [`crate::resolve::kinds`]):
//!
//! - a book or edited volume in Open Library, by its ISBN, then by title and author;
//! - a chapter's book in Open Library (the chapter itself is rarely anywhere);
//! - an RFC in the RFC index, by its number (the series is complete);
//! - software cited as a package in its registry (registries are complete), with the
//!   cited version and year checked against the releases;
//! - a thesis, report, dataset or software in DataCite, where repositories register them.
//!
//! Every lookup goes through the cache, under the source's name.

use crate::model::{PackageRef, Person, Work, WorkKind};
use crate::resolve::evidence::{Evidence, Via, consult_selected};
use crate::resolve::gate::{GateDecision, GateThresholds};
use crate::resolve::lookup::{Answer, Lookups};
use crate::resolve::mismatch::Field;
use crate::resolve::normalize::fold;
use crate::resolve::query::RefQuery;
use crate::resolve::resolution::TryOutcome;
use crate::resolve::sources::registry::{release_year, source_of};
use crate::resolve::sources::{Lookup, SourceError, SourceName};
use crate::resolve::title_score::{GateMethod, title_similarity};

/// Records asked of a title search.
const HITS: usize = 5;

/// References whose kind has its own sources.
fn wants(q: &RefQuery) -> bool {
    use WorkKind as K;
    match q.fields.kind {
        Some(K::Book | K::EditedVolume | K::Rfc | K::Thesis | K::Report | K::Dataset) => true,
        Some(K::Chapter) => q.fields.venue.is_some(),
        Some(K::Software) => true,
        _ => false,
    }
}

/// Consult the kinds' sources for every reference still without an accepted record.
pub async fn run(
    lookups: &Lookups,
    queries: &[&RefQuery],
    evidence: &mut [Evidence],
    t: &GateThresholds,
) {
    consult_selected(
        evidence,
        8,
        |i, ev| !ev.has_accepted() && wants(queries[i]),
        |i, mut ev| async move {
            consult(lookups, queries[i], &mut ev, t).await;
            ev
        },
    )
    .await;
}

async fn consult(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    use WorkKind as K;
    match q.fields.kind {
        Some(K::Book | K::EditedVolume) => book(lookups, q, ev, t).await,
        Some(K::Chapter) => chapter_book(lookups, q, ev, t).await,
        Some(K::Rfc) => rfc(lookups, q, ev, t).await,
        Some(K::Software) if q.fields.package.is_some() => package(lookups, q, ev).await,
        Some(K::Software | K::Thesis | K::Report | K::Dataset) => {
            repository(lookups, q, ev, t).await;
        }
        _ => {}
    }
}

/// Record one source's answer about one record; `accept` gates a found record.
fn record(
    ev: &mut Evidence,
    source: &str,
    answer: Answer<Work>,
    accept: impl FnOnce(&mut Evidence, Work) -> bool,
) {
    let outcome = match answer {
        Answer::Found(work) => {
            if accept(ev, work) {
                TryOutcome::Found
            } else {
                TryOutcome::Rejected
            }
        }
        Answer::NotFound => TryOutcome::NotFound,
        Answer::Failed(why) => {
            ev.failures.push(format!("{source}: {why}"));
            ev.kind_incomplete = true;
            TryOutcome::Failed
        }
        Answer::Offline => {
            ev.kind_incomplete = true;
            TryOutcome::Offline
        }
    };
    ev.tried(source, outcome);
}

/// A search's hits, with "no hits" as "not found" (so it is cached as such).
fn hits(result: Result<Vec<Work>, SourceError>) -> Result<Lookup<Vec<Work>>, SourceError> {
    result.map(|works| {
        if works.is_empty() {
            Lookup::NotFound
        } else {
            Lookup::Found(works)
        }
    })
}

/// The main title (before a colon) for catalogue searches, which match words exactly.
fn main_title(title: &str) -> &str {
    match title.split_once(':') {
        Some((main, _)) if main.split_whitespace().count() >= 2 => main.trim(),
        _ => title.trim(),
    }
}

fn first_family(people: &[Person]) -> Option<&str> {
    people.first().map(|p| p.family.as_str())
}

/// A book: its ISBN's edition, then a title-and-author search.
async fn book(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    let source = SourceName::OpenLibrary.as_str();
    let library = &lookups.sources.openlibrary;
    if let Some(isbn) = &q.fields.isbn {
        let answer = lookups
            .through_cache(source, &format!("isbn:{isbn}"), || {
                library.lookup_isbn(isbn)
            })
            .await;
        record(ev, source, answer, |ev, work| {
            ev.add(q, work, Via::Identifier(Field::Isbn), t)
        });
    }
    let Some(title) = q.fields.title.as_deref().map(main_title) else {
        return;
    };
    let author = first_family(&q.fields.authors).or_else(|| first_family(&q.fields.editors));
    let key = format!(
        "search:{}|{}",
        fold(title),
        author.map(fold).unwrap_or_default()
    );
    let answer = lookups
        .through_cache(source, &key, || async {
            hits(library.search(title, author, HITS).await)
        })
        .await;
    // An edition found by its ISBN is one printing of a work; the work's other
    // editions' years are the book's years too (a book is cited by the edition used).
    if let (Some(edition), Answer::Found(works)) = (accepted_isbn_edition(ev), &answer) {
        let years: Vec<i32> = works
            .iter()
            .filter(|w| title_similarity(&w.title, &edition.title) >= t.accept)
            .flat_map(|w| w.year.into_iter().chain(w.other_years.iter().copied()))
            .collect();
        for year in years {
            if edition.year != Some(year) && !edition.other_years.contains(&year) {
                edition.other_years.push(year);
            }
        }
        return;
    }
    let (_, answered) = ev.add_hits(q, source, answer, t);
    ev.kind_incomplete |= !answered;
}

/// The accepted Open Library edition found by its ISBN, if any.
fn accepted_isbn_edition(ev: &mut Evidence) -> Option<&mut Work> {
    ev.candidates
        .iter_mut()
        .find(|c| c.decision.accepted && c.via == Via::Identifier(Field::Isbn))
        .map(|c| &mut c.work)
}

/// A chapter: the book it is in (its venue), in Open Library.
async fn chapter_book(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    let Some(book_title) = q.fields.venue.as_deref() else {
        return;
    };
    let source = SourceName::OpenLibrary.as_str();
    let library = &lookups.sources.openlibrary;
    let title = main_title(book_title);
    let editor = first_family(&q.fields.editors);
    let key = format!(
        "search:{}|{}",
        fold(title),
        editor.map(fold).unwrap_or_default()
    );
    let answer = lookups
        .through_cache(source, &key, || async {
            hits(library.search(title, editor, HITS).await)
        })
        .await;
    let outcome = match answer {
        Answer::Found(books) => {
            let book = books
                .into_iter()
                .find(|b| title_similarity(book_title, &b.title) >= t.accept);
            match book {
                Some(b) => {
                    ev.container_found = true;
                    ev.notes.push(format!(
                        "the book it is in, \"{}\"{}, is in Open Library{}",
                        b.title,
                        b.year.map(|y| format!(" ({y})")).unwrap_or_default(),
                        b.url
                            .as_deref()
                            .map(|u| format!(": {u}"))
                            .unwrap_or_default()
                    ));
                    TryOutcome::Found
                }
                None => TryOutcome::Rejected,
            }
        }
        Answer::NotFound => TryOutcome::NotFound,
        Answer::Failed(why) => {
            ev.failures.push(format!("{source}: {why}"));
            TryOutcome::Failed
        }
        Answer::Offline => TryOutcome::Offline,
    };
    ev.tried(source, outcome);
}

/// An RFC by its number: the index has every RFC ever issued.
async fn rfc(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    let Some(number) = q.fields.number.as_deref() else {
        return;
    };
    let source = SourceName::Rfc.as_str();
    let index = &lookups.sources.rfc;
    let answer = lookups
        .through_cache(source, &format!("rfc:{number}"), || index.lookup(number))
        .await;
    if answer == Answer::NotFound {
        ev.kind_absent = Some(format!(
            "RFC {number} was never issued: the RFC index has no such number"
        ));
    }
    record(ev, source, answer, |ev, work| {
        ev.add(q, work, Via::Identifier(Field::Number), t)
    });
}

/// Software cited as a package: its registry's record, with the cited version.
async fn package(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence) {
    let Some(package) = &q.fields.package else {
        return;
    };
    let source = source_of(package.registry);
    let registries = &lookups.sources.registries;
    let key = format!("package:{}", package.name.to_lowercase());
    let answer = lookups
        .through_cache(source.as_str(), &key, || registries.lookup(package))
        .await;
    if answer == Answer::NotFound {
        ev.kind_absent = Some(format!(
            "{} has no package named {}",
            package.registry.display(),
            package.name
        ));
    }
    record(ev, source.as_str(), answer, |ev, work| {
        let decision = package_decision(q, package, &work);
        ev.add_decided(
            for_reference(work, q),
            Via::Identifier(Field::Package),
            decision,
        )
    });
}

/// A package record names the cited software when its name is the cited title or
/// leads it (`scikit-learn: Machine Learning in Python`).
fn package_decision(q: &RefQuery, package: &PackageRef, work: &Work) -> GateDecision {
    let name = fold(&work.title);
    let compact = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
    };
    let names_it = |text: &str| {
        let text = fold(text);
        text.contains(&name) || compact(&text).contains(&compact(&name))
    };
    let cited_title = q.fields.title.as_deref().is_some_and(names_it);
    let agrees = name == fold(&package.name) && (cited_title || names_it(&q.raw));
    GateDecision {
        accepted: agrees,
        similarity: if agrees { 1.0 } else { 0.0 },
        method: GateMethod::Identifier,
    }
}

/// The record as this reference is checked against it: the year is the cited
/// version's release year; without a version, the cited year itself when the package
/// had been published by then.
fn for_reference(mut work: Work, q: &RefQuery) -> Work {
    match release_year(&work, q.fields.version.as_deref()) {
        Ok(Some(year)) => work.year = Some(year),
        Err(_) => work.year = None,
        Ok(None) => {
            let published = |y: i32| work.releases.iter().any(|r| r.year.is_some_and(|r| r <= y));
            if let Some(cited) = q.fields.year.filter(|y| published(*y)) {
                work.year = Some(cited);
            }
        }
    }
    work
}

/// A thesis, report, dataset or software in the repositories DataCite registers.
async fn repository(lookups: &Lookups, q: &RefQuery, ev: &mut Evidence, t: &GateThresholds) {
    let Some(title) = q.fields.title.as_deref() else {
        return;
    };
    let source = SourceName::DataCite.as_str();
    let datacite = &lookups.sources.datacite;
    let answer = lookups
        .through_cache(source, &format!("search:{}", fold(title)), || async {
            hits(datacite.search(title, HITS).await)
        })
        .await;
    let (_, answered) = ev.add_hits(q, source, answer, t);
    ev.kind_incomplete |= !answered;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{RefFields, Registry, Release};
    use crate::resolve::identifiers::names_package;
    use crate::resolve::query::QueryKind;

    fn package_query(title: &str, version: Option<&str>, year: Option<i32>) -> RefQuery {
        RefQuery::new(
            RefFields {
                title: Some(title.into()),
                kind: Some(WorkKind::Software),
                version: version.map(str::to_string),
                year,
                package: Some(PackageRef {
                    registry: Registry::Pypi,
                    name: "scikit-learn".into(),
                }),
                ..RefFields::default()
            },
            title,
            QueryKind::Entry,
        )
    }

    fn sklearn() -> Work {
        Work {
            source: "pypi".into(),
            title: "scikit-learn".into(),
            year: Some(2010),
            releases: vec![
                Release {
                    version: "0.9".into(),
                    year: Some(2011),
                },
                Release {
                    version: "1.3.2".into(),
                    year: Some(2023),
                },
            ],
            ..Work::default()
        }
    }

    #[test]
    fn a_package_is_named_by_its_name() {
        let q = package_query("scikit-learn: Machine Learning in Python", None, None);
        let p = q.fields.package.clone().expect("package");
        assert!(package_decision(&q, &p, &sklearn()).accepted);
        let other = package_query("NumPy", None, None);
        assert!(!package_decision(&other, &p, &sklearn()).accepted);
        assert!(names_package(&p, &sklearn()));
    }

    #[test]
    fn the_year_checked_is_the_cited_versions() {
        let cited = for_reference(
            sklearn(),
            &package_query("scikit-learn", Some("1.3.2"), Some(2023)),
        );
        assert_eq!(cited.year, Some(2023));
        let no_version = for_reference(sklearn(), &package_query("scikit-learn", None, Some(2019)));
        assert_eq!(no_version.year, Some(2019), "published by 2019");
        let too_early = for_reference(sklearn(), &package_query("scikit-learn", None, Some(2005)));
        assert_eq!(too_early.year, Some(2010), "not yet published in 2005");
    }
}
