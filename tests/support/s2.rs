//! api.semanticscholar.org Graph API v1: `/graph/v1/paper/{id}` (paperId, `DOI:`, `ARXIV:`,
//! `PMID:`, `PMCID:`, `CorpusId:`, `URL:`, bare DOI) honouring `fields`,
//! `POST /graph/v1/paper/batch` (≤ 500 ids, `null` for unknown ones), `/paper/search`,
//! `/paper/search/match` (404 "Title match not found"). Shapes follow
//! `api_responses/semanticscholar/`.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Map, Value, json};

use super::search::{Fields, terms};
use super::service::{AppState, Source, json as json_reply};
use super::text::{param, percent_decode, query_pairs};
use super::world::{Entry, Kind};

const MAX_BATCH: usize = 500;

const VALID_FIELDS: &[&str] = &[
    "paperId",
    "corpusId",
    "externalIds",
    "url",
    "title",
    "abstract",
    "venue",
    "publicationVenue",
    "year",
    "referenceCount",
    "citationCount",
    "influentialCitationCount",
    "isOpenAccess",
    "openAccessPdf",
    "fieldsOfStudy",
    "s2FieldsOfStudy",
    "publicationTypes",
    "publicationDate",
    "journal",
    "citationStyles",
    "authors",
    "citations",
    "references",
    "embedding",
    "tldr",
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/graph/v1/paper/batch", post(batch))
        .route("/graph/v1/paper/search", get(search))
        .route("/graph/v1/paper/search/match", get(search_match))
        .route("/graph/v1/paper/{*id}", get(paper))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "Not found") })
}

fn error(status: StatusCode, message: &str) -> Response {
    json_reply(status, "application/json", &json!({"error": message}))
}

/// Top-level field names requested (`authors.name` → `authors`); 400 for unknown ones.
fn parse_fields(raw: Option<&str>) -> Result<Vec<String>, Box<Response>> {
    let Some(raw) = raw.filter(|r| !r.is_empty()) else {
        return Ok(vec!["title".into()]);
    };
    let mut fields = Vec::new();
    let mut unknown = Vec::new();
    for f in raw.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let top = f.split('.').next().unwrap_or(f);
        if VALID_FIELDS.contains(&top) {
            if !fields.iter().any(|x| x == top) {
                fields.push(top.to_string());
            }
        } else {
            unknown.push(f.to_string());
        }
    }
    if unknown.is_empty() {
        Ok(fields)
    } else {
        Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            &format!(
                "Unrecognized or unsupported fields: [{}]",
                unknown.join(", ")
            ),
        )))
    }
}

/// Resolve a Graph API paper id to a world entry.
fn lookup(state: &AppState, raw: &str) -> Option<usize> {
    let world = &state.world;
    let (scheme, value) = match raw.split_once(':') {
        Some((s, v)) if !s.contains('/') && s.len() <= 8 => (s.to_uppercase(), v.to_string()),
        _ => (String::new(), raw.to_string()),
    };
    let found = match scheme.as_str() {
        "DOI" => world.by_doi(&value),
        "ARXIV" => world.by_arxiv(&value),
        "PMID" => world.by_pmid(&value),
        "PMCID" => world.by_pmcid(&value),
        "CORPUSID" => value.parse().ok().and_then(|c| world.by_corpus_id(c)),
        "URL" => {
            let v = value.to_lowercase();
            if let Some(i) = v.find("arxiv.org/abs/").map(|i| &value[i + 14..]) {
                world.by_arxiv(i)
            } else if let Some(i) = v.find("doi.org/").map(|i| &value[i + 8..]) {
                world.by_doi(i)
            } else {
                None
            }
        }
        "" if value.starts_with("10.") => world.by_doi(&value),
        "" if value.len() == 40 && value.chars().all(|c| c.is_ascii_hexdigit()) => {
            world.by_s2(&value)
        }
        _ => None,
    };
    found.filter(|&i| world.entry(i).held_by(Source::S2))
}

async fn paper(State(state): State<AppState>, uri: Uri) -> Response {
    let id = percent_decode(uri.path().trim_start_matches("/graph/v1/paper/"));
    let pairs = query_pairs(uri.query());
    let fields = match parse_fields(param(&pairs, "fields")) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    match lookup(&state, &id) {
        Some(i) => json_reply(
            StatusCode::OK,
            "application/json",
            &paper_object(state.world.entry(i), &fields),
        ),
        None => error(
            StatusCode::NOT_FOUND,
            &format!("Paper with id {id} not found"),
        ),
    }
}

async fn batch(State(state): State<AppState>, uri: Uri, body: String) -> Response {
    let pairs = query_pairs(uri.query());
    let fields = match parse_fields(param(&pairs, "fields")) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let ids: Vec<String> = match serde_json::from_str::<Value>(&body) {
        Ok(v) => match v.get("ids").and_then(Value::as_array) {
            Some(list) => list
                .iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect(),
            None => return error(StatusCode::BAD_REQUEST, "Unacceptable JSON body"),
        },
        Err(_) => return error(StatusCode::BAD_REQUEST, "Unacceptable JSON body"),
    };
    if ids.len() > MAX_BATCH {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("Cannot process more than {MAX_BATCH} ids in a single request"),
        );
    }
    let papers: Vec<Value> = ids
        .iter()
        .map(|id| {
            lookup(&state, id).map_or(Value::Null, |i| paper_object(state.world.entry(i), &fields))
        })
        .collect();
    json_reply(StatusCode::OK, "application/json", &Value::Array(papers))
}

async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let fields = match parse_fields(param(&pairs, "fields")) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let Some(query) = param(&pairs, "query").filter(|q| !q.trim().is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "Missing required parameter: 'query'",
        );
    };
    let limit = match param(&pairs, "limit").map_or(Ok(100), str::parse::<usize>) {
        Ok(n) if (1..=100).contains(&n) => n,
        _ => return error(StatusCode::BAD_REQUEST, "'limit' must be <= 100"),
    };
    let offset = param(&pairs, "offset")
        .and_then(|o| o.parse().ok())
        .unwrap_or(0usize);
    let world = &state.world;
    let hits = world.index.rank(&terms(query, Fields::ALL), |i| {
        world.entry(i).held_by(Source::S2)
    });
    let total = hits.len();
    if total == 0 {
        return json_reply(
            StatusCode::OK,
            "application/json",
            &json!({"total": 0, "offset": offset}),
        );
    }
    let data: Vec<Value> = hits
        .iter()
        .skip(offset)
        .take(limit)
        .map(|h| paper_object(world.entry(h.entry), &fields))
        .collect();
    let mut body = json!({"total": total, "offset": offset, "data": data});
    if offset + limit < total {
        body["next"] = json!(offset + limit);
    }
    json_reply(StatusCode::OK, "application/json", &body)
}

async fn search_match(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let fields = match parse_fields(param(&pairs, "fields")) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    let Some(query) = param(&pairs, "query").filter(|q| !q.trim().is_empty()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "Missing required parameter: 'query'",
        );
    };
    let world = &state.world;
    let best = world
        .index
        .rank(&terms(query, Fields::TITLE), |i| {
            world.entry(i).held_by(Source::S2)
        })
        .into_iter()
        .next()
        .filter(|h| world.index.title_similarity(h.entry, query) >= 0.5);
    match best {
        Some(hit) => {
            let mut paper = paper_object(world.entry(hit.entry), &fields);
            paper["matchScore"] = json!((hit.score * 1000.0).round() / 100.0);
            json_reply(
                StatusCode::OK,
                "application/json",
                &json!({"data": [paper]}),
            )
        }
        None => error(StatusCode::NOT_FOUND, "Title match not found"),
    }
}

fn publication_types(e: &Entry) -> Value {
    const S2_TYPES: &[&str] = &[
        "JournalArticle",
        "Review",
        "Conference",
        "CaseReport",
        "ClinicalTrial",
        "Dataset",
        "Editorial",
        "LettersAndComments",
        "MetaAnalysis",
        "News",
        "Study",
        "Book",
        "BookSection",
    ];
    if let Some(t) = e.work.kind.as_deref().filter(|t| S2_TYPES.contains(t)) {
        return json!([t]);
    }
    match e.kind {
        Kind::Journal => json!(["JournalArticle"]),
        Kind::Proceedings => json!(["Conference"]),
        Kind::Chapter => json!(["BookSection"]),
        Kind::Book => json!(["Book"]),
        Kind::Dataset => json!(["Dataset"]),
        Kind::Preprint | Kind::Thesis | Kind::Other => Value::Null,
    }
}

fn bibtex(e: &Entry) -> String {
    let w = &e.work;
    let first = w
        .authors
        .first()
        .map_or("Anonymous".to_string(), |a| a.family.clone());
    let key_words: String = super::text::tokens(&w.title)
        .iter()
        .take(2)
        .map(|t| t.chars().take(1).collect::<String>().to_uppercase())
        .collect();
    let key = format!(
        "{}{}{}",
        super::text::ascii_letters(&first),
        w.year.map(|y| y.to_string()).unwrap_or_default(),
        key_words
    );
    let authors: Vec<String> = w.authors.iter().map(|a| a.display_name()).collect();
    let mut s = format!(
        "@Article{{{key},\n author = {{{}}},\n",
        authors.join(" and ")
    );
    if let Some(v) = &w.venue {
        s.push_str(&format!(" journal = {{{v}}},\n"));
    }
    s.push_str(&format!(" title = {{{}}}", w.title));
    if let Some(y) = w.year {
        s.push_str(&format!(",\n year = {{{y}}}"));
    }
    s.push_str("\n}\n");
    s
}

fn field_value(e: &Entry, field: &str) -> Value {
    let w = &e.work;
    let from_s2 = w.sources.iter().any(|s| s.starts_with("semantic_scholar"));
    match field {
        "paperId" => json!(e.s2_id),
        "corpusId" => json!(e.corpus_id),
        "externalIds" => {
            let mut ids = Map::new();
            if let Some(d) = e.any_doi() {
                let d = d
                    .strip_prefix("10.48550/arxiv.")
                    .map_or(d.to_string(), |a| format!("10.48550/arXiv.{a}"));
                ids.insert("DOI".into(), json!(d));
            }
            if let Some(a) = &w.arxiv {
                ids.insert("ArXiv".into(), json!(a));
            }
            if let Some(p) = &w.pmid {
                ids.insert("PubMed".into(), json!(p));
            }
            if let Some(p) = &w.pmcid {
                ids.insert("PubMedCentral".into(), json!(p.trim_start_matches("PMC")));
            }
            if let Some(d) = &w.dblp {
                ids.insert("DBLP".into(), json!(d));
            }
            ids.insert("CorpusId".into(), json!(e.corpus_id));
            Value::Object(ids)
        }
        "url" => json!(format!("https://www.semanticscholar.org/paper/{}", e.s2_id)),
        "title" => json!(w.title),
        "abstract" => w
            .abstract_text
            .as_ref()
            .filter(|_| from_s2)
            .map_or(Value::Null, |a| json!(a)),
        "venue" => json!(w.venue.clone().unwrap_or_default()),
        "year" => json!(w.year),
        "referenceCount" => json!(0),
        "citationCount" => json!(e.salt("s2-cites") % 500),
        "influentialCitationCount" => json!(e.salt("s2-influential") % 20),
        "isOpenAccess" => json!(e.is_open_access()),
        "openAccessPdf" => w.oa_url.as_ref().map_or(Value::Null, |u| {
            let status = if w.arxiv.is_some() || u.contains("arxiv.org") {
                "GREEN"
            } else {
                "GOLD"
            };
            json!({"url": u, "status": status})
        }),
        "s2FieldsOfStudy" | "citations" | "references" => json!([]),
        "publicationTypes" => publication_types(e),
        "journal" => w.venue.as_ref().map_or(Value::Null, |v| json!({"name": v})),
        "citationStyles" => json!({"bibtex": bibtex(e)}),
        "authors" => Value::Array(
            w.authors
                .iter()
                .map(|a| {
                    let name = a.display_name();
                    json!({"authorId": super::ids::synth_s2_author(&name), "name": name})
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// The paper object with `paperId` and the requested fields.
pub fn paper_object(e: &Entry, fields: &[String]) -> Value {
    let mut o = Map::new();
    o.insert("paperId".into(), json!(e.s2_id));
    for f in fields {
        o.insert(f.clone(), field_value(e, f));
    }
    Value::Object(o)
}
