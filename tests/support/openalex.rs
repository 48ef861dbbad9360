//! api.openalex.org: `/works/{W…|doi:…|https://doi.org/…|pmid:…|pmcid:…}`,
//! `/works?filter=doi:a|b…`, `/works?search=…` with `relevance_score`. The work object
//! follows the recorded `api_responses/openalex/work_W2741809807.json`; the list envelope
//! (`meta`, `results`, `group_by`) and the 404 follow the OpenAlex documentation.

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Map, Value, json};

use super::crossref::crossref_type;
use super::ids::{self, Agency};
use super::search::{Fields, Term, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{param, percent_decode, query_pairs};
use super::world::{Entry, Kind};

const MAX_OR_VALUES: usize = 100;

type Predicate = Box<dyn Fn(&Entry) -> bool>;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/works", get(list))
        .route("/works/{*id}", get(single))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        "application/json",
        &json!({"error": "404 Not Found",
                "message": "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again."}),
    )
}

fn bad_request(message: &str) -> Response {
    json_reply(
        StatusCode::BAD_REQUEST,
        "application/json",
        &json!({"error": "Invalid query parameters error.", "message": message}),
    )
}

/// Resolve one OpenAlex work key to a world entry held by OpenAlex.
fn lookup(state: &AppState, key: &str) -> Option<usize> {
    let world = &state.world;
    let key = key.trim();
    let lower = key.to_lowercase();
    let found = if let Some(rest) = lower
        .strip_prefix("https://openalex.org/")
        .or_else(|| lower.strip_prefix("openalex:"))
    {
        world.by_openalex(rest)
    } else if lower.starts_with('w') && lower[1..].chars().all(|c| c.is_ascii_digit()) {
        world.by_openalex(&lower)
    } else if let Some(rest) = lower.strip_prefix("pmid:") {
        world.by_pmid(rest.trim_start_matches("https://pubmed.ncbi.nlm.nih.gov/"))
    } else if let Some(rest) = lower.strip_prefix("pmcid:") {
        world.by_pmcid(rest)
    } else {
        let doi = lower
            .strip_prefix("doi:")
            .or_else(|| lower.strip_prefix("https:/doi.org/"))
            .map(str::to_string)
            .unwrap_or_else(|| ids::normalize_doi(&lower));
        world
            .by_doi(&doi)
            .filter(|&i| world.entry(i).any_doi() == Some(doi.as_str()))
    };
    found.filter(|&i| world.entry(i).held_by(Source::OpenAlex))
}

async fn single(State(state): State<AppState>, uri: Uri) -> Response {
    let key = percent_decode(uri.path().trim_start_matches("/works/"));
    match lookup(&state, &key) {
        Some(i) => json_reply(
            StatusCode::OK,
            "application/json",
            &work_object(&state, state.world.entry(i), None),
        ),
        None => not_found(),
    }
}

async fn list(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let per_page = param(&pairs, "per-page")
        .or_else(|| param(&pairs, "per_page"))
        .map_or(Ok(25), str::parse::<usize>);
    let per_page = match per_page {
        Ok(n) if (1..=200).contains(&n) => n,
        _ => return bad_request("per-page parameter must be an integer between 1 and 200"),
    };
    let page = param(&pairs, "page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1usize)
        .max(1);
    let mut query_terms: Vec<Term> = param(&pairs, "search")
        .map(|s| terms(s, Fields::TITLE.union(Fields::ABSTRACT)))
        .unwrap_or_default();
    let mut id_sets: Vec<Vec<usize>> = Vec::new();
    let mut predicates: Vec<Predicate> = Vec::new();
    for filter in param(&pairs, "filter")
        .unwrap_or("")
        .split(',')
        .filter(|f| !f.is_empty())
    {
        let (name, value) = filter.split_once(':').unwrap_or((filter, ""));
        let values: Vec<&str> = value.split('|').collect();
        if values.len() > MAX_OR_VALUES {
            return bad_request(&format!(
                "Maximum number of values exceeded for {name}. Decrease values to {MAX_OR_VALUES} or below, or consider downloading the full dataset"
            ));
        }
        match name {
            "doi" | "ids.openalex" | "openalex" | "openalex_id" | "ids.pmid" | "pmid"
            | "ids.pmcid" | "pmcid" => {
                let prefix = match name {
                    "doi" => "doi:",
                    n if n.contains("pmid") => "pmid:",
                    n if n.contains("pmcid") => "pmcid:",
                    _ => "",
                };
                let found = values
                    .iter()
                    .filter_map(|v| {
                        let v = percent_decode(v);
                        let key = if prefix == "doi:" && v.to_lowercase().starts_with("https://") {
                            v
                        } else {
                            format!("{prefix}{v}")
                        };
                        lookup(&state, &key)
                    })
                    .collect();
                id_sets.push(found);
            }
            "title.search" | "display_name.search" => {
                query_terms.extend(terms(value, Fields::TITLE))
            }
            "default.search" | "title_and_abstract.search" => {
                query_terms.extend(terms(value, Fields::TITLE.union(Fields::ABSTRACT)))
            }
            "publication_year" => {
                let years: Vec<i32> = values.iter().filter_map(|v| v.parse().ok()).collect();
                predicates.push(Box::new(move |e: &Entry| {
                    e.work.year.is_some_and(|y| years.contains(&y))
                }));
            }
            "is_retracted" => {
                let want = value == "true";
                predicates.push(Box::new(move |e: &Entry| e.work.is_retracted == want));
            }
            "type" => {
                let types: Vec<String> = values.iter().map(|s| s.to_string()).collect();
                predicates.push(Box::new(move |e: &Entry| {
                    types.iter().any(|t| t == openalex_type(e))
                }));
            }
            other => {
                return bad_request(&format!(
                    "{other} is not a valid field. Valid fields are underscore or hyphenated versions of: doi, ids.openalex, ids.pmid, ids.pmcid, title.search, display_name.search, default.search, title_and_abstract.search, publication_year, is_retracted, type"
                ));
            }
        }
    }
    let world = &state.world;
    let admitted = |i: usize| {
        let e = world.entry(i);
        e.held_by(Source::OpenAlex)
            && id_sets.iter().all(|set| set.contains(&i))
            && predicates.iter().all(|p| p(e))
    };
    let searching = !query_terms.is_empty();
    let hits: Vec<(usize, Option<f64>)> = if searching {
        world
            .index
            .rank(&query_terms, admitted)
            .into_iter()
            .map(|h| (h.entry, Some((h.score * 100.0).round() / 100.0)))
            .collect()
    } else {
        (0..world.len())
            .filter(|&i| admitted(i))
            .map(|i| (i, None))
            .collect()
    };
    let select: Option<Vec<&str>> = param(&pairs, "select").map(|s| s.split(',').collect());
    let results: Vec<Value> = hits
        .iter()
        .skip((page - 1) * per_page)
        .take(per_page)
        .map(|&(i, score)| {
            let mut full = work_object(&state, world.entry(i), score.map(|s| s.max(0.01)));
            cap_authorships(&mut full);
            match (&select, full) {
                (Some(keys), Value::Object(map)) => Value::Object(
                    map.into_iter()
                        .filter(|(k, _)| keys.contains(&k.as_str()))
                        .collect::<Map<_, _>>(),
                ),
                (_, full) => full,
            }
        })
        .collect();
    let body = json!({
        "meta": {"count": hits.len(), "db_response_time_ms": 12, "page": page, "per_page": per_page, "groups_count": null},
        "results": results,
        "group_by": [],
    });
    json_reply(StatusCode::OK, "application/json", &body)
}

/// OpenAlex work type: the recorded one for OpenAlex records, else mapped from the kind.
/// Lists and searches give the first 100 authorships of a work and, only when they cut
/// the list, say so (`is_authors_truncated: true`, as OpenAlex documents it); the
/// single-work endpoint gives them all.
const LISTED_AUTHORSHIPS: usize = 100;

fn cap_authorships(work: &mut Value) {
    let Some(authorships) = work.get_mut("authorships").and_then(Value::as_array_mut) else {
        return;
    };
    if authorships.len() > LISTED_AUTHORSHIPS {
        authorships.truncate(LISTED_AUTHORSHIPS);
        work["is_authors_truncated"] = json!(true);
    }
}

fn openalex_type(e: &Entry) -> &'static str {
    const TYPES: &[&str] = &[
        "article",
        "preprint",
        "review",
        "book-chapter",
        "book",
        "dataset",
        "dissertation",
        "paratext",
        "letter",
        "editorial",
        "erratum",
        "other",
    ];
    if e.work.sources.iter().any(|s| s == "openalex")
        && let Some(t) = e
            .work
            .kind
            .as_deref()
            .and_then(|t| TYPES.iter().find(|k| **k == t))
    {
        return t;
    }
    match e.kind {
        Kind::Journal | Kind::Proceedings => "article",
        Kind::Preprint => "preprint",
        Kind::Chapter => "book-chapter",
        Kind::Book => "book",
        Kind::Dataset => "dataset",
        Kind::Thesis => "dissertation",
        Kind::Other => "other",
    }
}

/// `{"word": [positions…]}` from the abstract text.
pub fn inverted_index(text: &str) -> Value {
    let mut map: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (pos, word) in text.split_whitespace().enumerate() {
        map.entry(word).or_default().push(pos);
    }
    json!(map)
}

fn source_object(name: &str, kind: &str) -> Value {
    json!({
        "id": format!("https://openalex.org/{}", ids::synth_openalex_source(name)),
        "display_name": name, "issn_l": null, "issn": null, "is_oa": kind == "repository",
        "is_in_doaj": false, "is_indexed_in_scopus": false, "is_core": kind != "repository",
        "host_organization": null, "host_organization_name": null,
        "host_organization_lineage": [], "host_organization_lineage_names": [], "type": kind,
    })
}

fn location(
    landing: String,
    pdf: Option<&str>,
    source: Value,
    is_oa: bool,
    version: &str,
) -> Value {
    json!({
        "is_oa": is_oa, "landing_page_url": landing, "pdf_url": pdf, "source": source,
        "license": null, "license_id": null, "version": version,
        "is_accepted": version != "submittedVersion", "is_published": version == "publishedVersion",
    })
}

/// The OpenAlex work object of an entry (`relevance_score` only in searches).
pub fn work_object(state: &AppState, e: &Entry, relevance: Option<f64>) -> Value {
    let w = &e.work;
    let oa_id = format!("https://openalex.org/{}", e.openalex_id);
    let doi_url = e.any_doi().map(|d| format!("https://doi.org/{d}"));
    let venue_kind = match (e.kind, w.venue.as_deref()) {
        (_, Some(v)) if v.to_lowercase().contains("arxiv") || v == "CoRR" => "repository",
        (Kind::Proceedings, _) => "conference",
        _ => "journal",
    };
    let is_oa = e.is_open_access();
    let mut locations = Vec::new();
    let primary_source = w
        .venue
        .as_deref()
        .map_or(Value::Null, |v| source_object(v, venue_kind));
    locations.push(location(
        doi_url.clone().unwrap_or_else(|| state.landing_url(e)),
        w.oa_url.as_deref().filter(|_| w.arxiv.is_none()),
        primary_source,
        is_oa && w.arxiv.is_none(),
        if e.kind == Kind::Preprint {
            "submittedVersion"
        } else {
            "publishedVersion"
        },
    ));
    if let Some(a) = &w.arxiv {
        let pdf = format!("https://arxiv.org/pdf/{a}");
        locations.push(location(
            format!("https://arxiv.org/abs/{a}"),
            Some(&pdf),
            source_object("arXiv (Cornell University)", "repository"),
            true,
            "submittedVersion",
        ));
    }
    let best = locations
        .iter()
        .find(|l| l["is_oa"] == json!(true))
        .cloned();
    let datacite = ids::agency(w.doi.as_deref().unwrap_or("")) == Agency::DataCite;
    let oa_status = if !is_oa && w.arxiv.is_none() {
        "closed"
    } else if w.arxiv.is_some() || datacite {
        "green"
    } else {
        "gold"
    };
    let mut ids_obj = json!({"openalex": oa_id});
    if let Some(d) = &doi_url {
        ids_obj["doi"] = json!(d);
    }
    if let Some(p) = &w.pmid {
        ids_obj["pmid"] = json!(format!("https://pubmed.ncbi.nlm.nih.gov/{p}"));
    }
    if let Some(p) = &w.pmcid {
        ids_obj["pmcid"] = json!(format!(
            "https://www.ncbi.nlm.nih.gov/pmc/articles/{}",
            p.trim_start_matches("PMC")
        ));
    }
    let authorships: Vec<Value> = w
        .authors
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let name = a.display_name();
            let position = match i {
                0 => "first",
                _ if i + 1 == w.authors.len() => "last",
                _ => "middle",
            };
            json!({
                "author_position": position,
                "author": {"id": format!("https://openalex.org/{}", ids::synth_openalex_author(&name)), "display_name": name, "orcid": null},
                "institutions": [], "countries": [], "is_corresponding": false,
                "raw_author_name": name, "raw_affiliation_strings": [], "affiliations": [],
            })
        })
        .collect();
    let mut indexed_in = Vec::new();
    if w.doi
        .as_deref()
        .is_some_and(|d| ids::agency(d) == Agency::Crossref)
    {
        indexed_in.push("crossref");
    }
    if w.arxiv.is_some() {
        indexed_in.push("arxiv");
    }
    if w.pmid.is_some() {
        indexed_in.push("pubmed");
    }
    let year = w.year;
    let mut o = json!({
        "id": oa_id,
        "doi": doi_url,
        "title": w.title,
        "display_name": w.title,
        "publication_year": year,
        "publication_date": year.map(|y| format!("{y}-01-01")),
        "ids": ids_obj,
        "language": "en",
        "primary_location": locations[0].clone(),
        "type": openalex_type(e),
        "type_crossref": crossref_type(e),
        "indexed_in": indexed_in,
        "open_access": {"is_oa": best.is_some(), "oa_status": oa_status,
                        "oa_url": w.oa_url.clone().or_else(|| best.as_ref().and_then(|b| b["pdf_url"].as_str().map(String::from))),
                        "any_repository_has_fulltext": w.arxiv.is_some()},
    });
    let rest = json!({
        "authorships": authorships,
        "institution_assertions": [],
        "countries_distinct_count": 0,
        "institutions_distinct_count": 0,
        "corresponding_author_ids": [],
        "corresponding_institution_ids": [],
        "apc_list": null,
        "apc_paid": null,
        "fwci": null,
        "has_fulltext": false,
        "cited_by_count": e.salt("openalex-cites") % 500,
        "citation_normalized_percentile": null,
        "cited_by_percentile_year": null,
        "biblio": {"volume": null, "issue": null, "first_page": null, "last_page": null},
        "is_retracted": w.is_retracted,
        "is_paratext": false,
        "primary_topic": null,
        "topics": [],
        "keywords": [],
        "concepts": [],
        "mesh": [],
        "locations_count": locations.len(),
        "locations": locations,
        "best_oa_location": best,
        "sustainable_development_goals": [],
        "grants": [],
        "datasets": [],
        "versions": [],
        "referenced_works_count": 0,
        "referenced_works": [],
        "related_works": [],
        "abstract_inverted_index": w.abstract_text.as_deref().map_or(Value::Null, inverted_index),
        "abstract_inverted_index_v3": null,
        "cited_by_api_url": format!("https://api.openalex.org/works?filter=cites:{}", e.openalex_id),
        "counts_by_year": [],
        "updated_date": "2026-01-15T00:00:00.000000",
        "created_date": format!("{}-01-01", year.unwrap_or(2020)),
    });
    if let (Some(o), Value::Object(r)) = (o.as_object_mut(), rest) {
        o.extend(r);
    }
    if let Some(score) = relevance {
        o["relevance_score"] = json!(score);
    }
    o
}
