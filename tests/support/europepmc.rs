//! www.ebi.ac.uk/europepmc `/webservices/rest/search` (DOI:"…", EXT_ID:…, PMCID:…, PMID:…,
//! TITLE:"…", AUTH:…, PUB_YEAR:…, free text; AND by default, OR/NOT; resultType
//! lite/core/idlist; JSON or XML) and `/webservices/rest/{PMCID}/fullTextXML`. Shapes follow
//! `api_responses/europepmc/`.

use std::collections::HashSet;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Map, Value, json};

use super::fulltext;
use super::search::{Fields, Term};
use super::service::{AppState, Source, json as json_reply, reply};
use super::text::{param, query_pairs, url_encode, xml_escape};
use super::world::{Entry, World};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/webservices/rest/search", get(search))
        .route("/webservices/rest/{id}/fullTextXML", get(full_text_xml))
}

async fn full_text_xml(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let world = &state.world;
    match world.by_pmcid(&id).map(|i| world.entry(i)) {
        Some(e) if e.held_by(Source::EuropePmc) && fulltext::full_text(world, e).is_some() => {
            reply(
                StatusCode::OK,
                "application/xml",
                format!(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE article PUBLIC \"-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD with MathML3 v1.3 20210610//EN\" \"JATS-archivearticle1-mathml3.dtd\">\n{}\n",
                    fulltext::jats_article(world, e)
                ),
            )
        }
        _ => reply(StatusCode::NOT_FOUND, "application/xml", ""),
    }
}

async fn search(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let query = param(&pairs, "query").unwrap_or("").trim().to_string();
    let result_type = param(&pairs, "resultType").unwrap_or("lite").to_string();
    let page_size = param(&pairs, "pageSize")
        .and_then(|p| p.parse().ok())
        .unwrap_or(25usize)
        .clamp(1, 1000);
    let format_json = param(&pairs, "format").is_some_and(|f| f.eq_ignore_ascii_case("json"));
    let world = &state.world;
    let (matched, rank_terms) = evaluate(world, &query);
    let mut hits: Vec<usize> = world
        .index
        .rank(&rank_terms, |i| matched.contains(&i))
        .into_iter()
        .map(|h| h.entry)
        .collect();
    let ranked: HashSet<usize> = hits.iter().copied().collect();
    let mut rest: Vec<usize> = matched
        .iter()
        .copied()
        .filter(|i| !ranked.contains(i))
        .collect();
    rest.sort_unstable();
    hits.extend(rest);
    let results: Vec<Value> = hits
        .iter()
        .take(page_size)
        .map(|&i| result(world.entry(i), &result_type))
        .collect();
    let mut body = Map::new();
    body.insert("version".into(), json!("6.9"));
    body.insert("hitCount".into(), json!(hits.len()));
    if hits.len() > page_size {
        let cursor = "AoIIP4ZawSg1MzEyODI1MA==";
        body.insert("nextCursorMark".into(), json!(cursor));
        body.insert(
            "nextPageUrl".into(),
            json!(format!(
                "https://www.ebi.ac.uk/europepmc/webservices/rest/search?query={}&cursorMark={cursor}&resultType={result_type}&format={}",
                url_encode(&query),
                if format_json { "json" } else { "xml" }
            )),
        );
    }
    body.insert(
        "request".into(),
        json!({"queryString": query, "resultType": result_type, "cursorMark": "%2A",
               "pageSize": page_size, "sort": "", "synonym": false}),
    );
    body.insert("resultList".into(), json!({"result": results}));
    let body = Value::Object(body);
    if format_json {
        json_reply(StatusCode::OK, "application/json;charset=UTF-8", &body)
    } else {
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><responseWrapper xmlns:slx=\"http://www.scholix.org\" xmlns:epmc=\"https://www.europepmc.org/data\">",
        );
        if let Value::Object(map) = &body {
            for (k, v) in map {
                to_xml(k, v, &mut xml);
            }
        }
        xml.push_str("</responseWrapper>");
        reply(StatusCode::OK, "application/xml;charset=UTF-8", xml)
    }
}

/// Europe PMC's XML mirrors its JSON: objects become elements, arrays repeat their key.
fn to_xml(key: &str, value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| to_xml(key, v, out)),
        Value::Object(map) => {
            out.push_str(&format!("<{key}>"));
            for (k, v) in map {
                to_xml(k, v, out);
            }
            out.push_str(&format!("</{key}>"));
        }
        Value::Null => {}
        Value::String(s) => out.push_str(&format!("<{key}>{}</{key}>", xml_escape(s))),
        other => out.push_str(&format!("<{key}>{other}</{key}>")),
    }
}

fn yn(b: bool) -> &'static str {
    if b { "Y" } else { "N" }
}

fn title_with_period(title: &str) -> String {
    if title.ends_with(['.', '?', '!']) {
        title.to_string()
    } else {
        format!("{title}.")
    }
}

fn author_string(e: &Entry) -> String {
    let names: Vec<String> = e
        .work
        .authors
        .iter()
        .map(|a| {
            if a.is_organisation() {
                a.family.clone()
            } else {
                format!("{} {}", a.family, a.initials())
            }
        })
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("{}.", names.join(", "))
    }
}

fn pub_types(e: &Entry) -> Vec<&'static str> {
    let mut types = vec!["journal article"];
    if e.work.is_retracted {
        types.insert(0, "retracted publication");
    }
    types
}

/// One search result in the requested `resultType`.
fn result(e: &Entry, result_type: &str) -> Value {
    let w = &e.work;
    let (id, source) = match (&w.pmid, &w.pmcid) {
        (Some(p), _) => (p.clone(), "MED"),
        (None, Some(c)) => (c.clone(), "PMC"),
        (None, None) => (e.work.id.clone(), "MED"),
    };
    let mut r = Map::new();
    r.insert("id".into(), json!(id));
    r.insert("source".into(), json!(source));
    if let Some(p) = &w.pmid {
        r.insert("pmid".into(), json!(p));
    }
    if let Some(c) = &w.pmcid {
        r.insert("pmcid".into(), json!(c));
        r.insert("fullTextIdList".into(), json!({"fullTextId": [c]}));
    }
    if result_type != "idlist"
        && let Some(d) = &w.doi
    {
        r.insert("doi".into(), json!(d));
    }
    if result_type == "idlist" {
        return Value::Object(r);
    }
    let in_pmc = w.pmcid.is_some();
    let year = w.year.map(|y| y.to_string()).unwrap_or_default();
    r.insert("title".into(), json!(title_with_period(&w.title)));
    r.insert("authorString".into(), json!(author_string(e)));
    if result_type == "core" {
        let authors: Vec<Value> = w
            .authors
            .iter()
            .map(|a| match &a.given {
                Some(g) => {
                    json!({"fullName": format!("{} {}", a.family, a.initials()), "firstName": g,
                                  "lastName": a.family, "initials": a.initials()})
                }
                None => json!({"collectiveName": a.family}),
            })
            .collect();
        r.insert("authorList".into(), json!({"author": authors}));
        r.insert(
            "journalInfo".into(),
            json!({"yearOfPublication": w.year, "dateOfPublication": year,
                   "journal": {"title": w.venue, "medlineAbbreviation": w.venue, "isoabbreviation": w.venue}}),
        );
        r.insert("pubYear".into(), json!(year));
        if let Some(a) = &w.abstract_text {
            r.insert("abstractText".into(), json!(a));
        }
        r.insert("language".into(), json!("eng"));
        r.insert("pubModel".into(), json!("Print-Electronic"));
        let mut types: Vec<&str> = vec!["Journal Article"];
        if w.is_retracted {
            types.push("Retracted Publication");
        }
        r.insert("pubTypeList".into(), json!({"pubType": types}));
        let mut urls = Vec::new();
        if let Some(d) = &w.doi {
            urls.push(json!({"availability": "Subscription required", "availabilityCode": "S",
                             "documentStyle": "doi", "site": "DOI", "url": format!("https://doi.org/{d}")}));
        }
        if let Some(u) = &w.oa_url {
            let style = if u.ends_with(".pdf") || u.contains("/pdf") {
                "pdf"
            } else {
                "html"
            };
            urls.push(
                json!({"availability": "Open access", "availabilityCode": "OA",
                             "documentStyle": style, "site": "Europe_PMC", "url": u}),
            );
        }
        r.insert("fullTextUrlList".into(), json!({"fullTextUrl": urls}));
        let notices: Vec<Value> = e
            .updates
            .iter()
            .filter_map(|u| {
                let kind = match u.kind.as_str() {
                    "retraction" => "Retraction in",
                    "expression_of_concern" => "Expression of concern in",
                    "correction" => "Erratum in",
                    _ => return None,
                };
                Some(json!({"source": "MED", "reference": format!("{}. {}. doi: {}", w.venue.as_deref().unwrap_or(""), u.date, u.doi),
                            "type": kind, "orderIn": 1}))
            })
            .collect();
        if !notices.is_empty() {
            r.insert(
                "commentCorrectionList".into(),
                json!({"commentCorrection": notices}),
            );
        }
        r.insert("publicationStatus".into(), json!("ppublish"));
    } else {
        r.insert(
            "journalTitle".into(),
            json!(w.venue.clone().unwrap_or_default()),
        );
        r.insert("pubYear".into(), json!(year));
        r.insert("pubType".into(), json!(pub_types(e).join("; ")));
    }
    r.insert(
        "isOpenAccess".into(),
        json!(yn(e.is_open_access() && in_pmc)),
    );
    r.insert("inEPMC".into(), json!(yn(in_pmc)));
    r.insert("inPMC".into(), json!(yn(in_pmc)));
    r.insert("hasPDF".into(), json!(yn(in_pmc)));
    r.insert("hasBook".into(), json!("N"));
    r.insert("hasSuppl".into(), json!("N"));
    r.insert("citedByCount".into(), json!(e.salt("epmc-cites") % 200));
    r.insert("hasReferences".into(), json!("N"));
    r.insert("hasTextMinedTerms".into(), json!("N"));
    r.insert("hasDbCrossReferences".into(), json!("N"));
    r.insert("hasLabsLinks".into(), json!("N"));
    r.insert("hasTMAccessionNumbers".into(), json!("N"));
    r.insert("firstIndexDate".into(), json!(format!("{year}-01-05")));
    r.insert(
        "firstPublicationDate".into(),
        json!(format!("{year}-01-01")),
    );
    Value::Object(r)
}

/// Clauses and operators of a Europe PMC query.
fn lex(query: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let (mut quotes, mut depth) = (false, 0i32);
    for c in query.chars() {
        match c {
            '"' => {
                quotes = !quotes;
                current.push(c);
            }
            '(' if !quotes => {
                depth += 1;
                current.push(c);
            }
            ')' if !quotes => {
                depth -= 1;
                current.push(c);
            }
            c if c.is_whitespace() && !quotes && depth <= 0 => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Evaluate a query over the works Europe PMC holds (every clause required unless OR/NOT).
fn evaluate(world: &World, query: &str) -> (HashSet<usize>, Vec<Term>) {
    let held: HashSet<usize> = (0..world.len())
        .filter(|&i| world.entry(i).held_by(Source::EuropePmc))
        .collect();
    let mut rank_terms = Vec::new();
    let mut acc: Option<HashSet<usize>> = None;
    let mut op = "AND";
    for piece in lex(query) {
        if matches!(piece.as_str(), "AND" | "OR" | "NOT") {
            op = match piece.as_str() {
                "OR" => "OR",
                "NOT" => "NOT",
                _ => "AND",
            };
            continue;
        }
        let set = clause(world, &held, &piece, &mut rank_terms);
        acc = Some(match acc {
            None => set,
            Some(a) => match op {
                "OR" => a.union(&set).copied().collect(),
                "NOT" => a.difference(&set).copied().collect(),
                _ => a.intersection(&set).copied().collect(),
            },
        });
        op = "AND";
    }
    (acc.unwrap_or_default(), rank_terms)
}

fn clause(
    world: &World,
    held: &HashSet<usize>,
    piece: &str,
    rank_terms: &mut Vec<Term>,
) -> HashSet<usize> {
    let (field, value) = match piece.split_once(':') {
        Some((f, v)) if f.chars().all(|c| c.is_ascii_uppercase() || c == '_') && !f.is_empty() => {
            (f, v)
        }
        _ => ("", piece),
    };
    let phrase = value.starts_with('"') && value.ends_with('"') && value.len() >= 2;
    let value = value
        .trim_matches(|c| c == '"' || c == '(' || c == ')')
        .trim();
    let keep = |i: &usize| held.contains(i);
    match field {
        "DOI" => world
            .by_doi(value)
            .filter(|&i| world.entry(i).work.doi.as_deref() == Some(value.to_lowercase().as_str()))
            .into_iter()
            .filter(keep)
            .collect(),
        "EXT_ID" | "PMID" => world.by_pmid(value).into_iter().filter(keep).collect(),
        "PMCID" => world.by_pmcid(value).into_iter().filter(keep).collect(),
        "SRC" => match value {
            "MED" => held
                .iter()
                .copied()
                .filter(|&i| world.entry(i).work.pmid.is_some())
                .collect(),
            "PMC" => held
                .iter()
                .copied()
                .filter(|&i| world.entry(i).work.pmcid.is_some())
                .collect(),
            _ => HashSet::new(),
        },
        "PUB_YEAR" => held
            .iter()
            .copied()
            .filter(|&i| world.entry(i).work.year.map(|y| y.to_string()).as_deref() == Some(value))
            .collect(),
        _ => {
            let fields = match field {
                "TITLE" => Fields::TITLE,
                "AUTH" => Fields::AUTHOR,
                "JOURNAL" => Fields::VENUE,
                "ABSTRACT" => Fields::ABSTRACT,
                _ => Fields::ALL,
            };
            world
                .index
                .fielded_clause(held, value, fields, phrase, rank_terms)
        }
    }
}
