//! eutils.ncbi.nlm.nih.gov `/entrez/eutils/{esearch,efetch,esummary}.fcgi` for db=pubmed
//! (and efetch db=pmc): esearch by `"…"[doi]`, `…[Title]`, `…[pmid]`, `[au]`, `[dp]`,
//! free text, combined with AND/OR/NOT (all terms required, as Entrez does); XML as
//! recorded in `api_responses/pubmed_eutils/`, JSON with `retmode=json`.

use std::collections::HashSet;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::json;

use super::fulltext;
use super::pubmed_records::{docsum_json, docsum_xml, pubmed_article};
use super::search::{Fields, Term};
use super::service::{AppState, Source, json as json_reply, reply};
use super::text::{param, query_pairs, xml_escape};
use super::world::World;

const XML: &str = "text/xml; charset=UTF-8";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/entrez/eutils/esearch.fcgi", get(esearch))
        .route("/entrez/eutils/efetch.fcgi", get(efetch))
        .route("/entrez/eutils/esummary.fcgi", get(esummary))
}

fn id_list(pairs: &[(String, String)]) -> Vec<String> {
    param(pairs, "id")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn wants_json(pairs: &[(String, String)]) -> bool {
    param(pairs, "retmode").is_some_and(|m| m.eq_ignore_ascii_case("json"))
}

async fn esearch(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let term = param(&pairs, "term").unwrap_or("").trim().to_string();
    let retmax = param(&pairs, "retmax")
        .and_then(|v| v.parse().ok())
        .unwrap_or(20usize);
    let retstart = param(&pairs, "retstart")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0usize);
    let world = &state.world;
    let (matched, rank_terms) = evaluate(world, &term);
    let mut ranked: Vec<usize> = world
        .index
        .rank(&rank_terms, |i| matched.contains(&i))
        .into_iter()
        .map(|h| h.entry)
        .collect();
    let ranked_set: HashSet<usize> = ranked.iter().copied().collect();
    let mut rest: Vec<usize> = matched
        .iter()
        .copied()
        .filter(|i| !ranked_set.contains(i))
        .collect();
    rest.sort_by_key(|&i| {
        std::cmp::Reverse(
            world
                .entry(i)
                .work
                .pmid
                .as_deref()
                .and_then(|p| p.parse::<u64>().ok()),
        )
    });
    ranked.extend(rest);
    let pmids: Vec<String> = ranked
        .iter()
        .skip(retstart)
        .take(retmax)
        .filter_map(|&i| world.entry(i).work.pmid.clone())
        .collect();
    let count = ranked.len();
    if wants_json(&pairs) {
        let mut result = json!({
            "count": count.to_string(), "retmax": pmids.len().to_string(),
            "retstart": retstart.to_string(), "idlist": pmids,
            "translationset": [], "querytranslation": term,
        });
        if count == 0 {
            result["errorlist"] = json!({"phrasesnotfound": [term], "fieldsnotfound": []});
            result["warninglist"] = json!({"phrasesignored": [], "quotedphrasesnotfound": [], "outputmessages": ["No items found."]});
        }
        return json_reply(
            StatusCode::OK,
            "application/json; charset=UTF-8",
            &json!({"header": {"type": "esearch", "version": "0.3"}, "esearchresult": result}),
        );
    }
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<!DOCTYPE eSearchResult PUBLIC \"-//NLM//DTD esearch 20060628//EN\" \"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd\">\n",
    );
    s.push_str(&format!(
        "<eSearchResult><Count>{count}</Count><RetMax>{}</RetMax><RetStart>{retstart}</RetStart>",
        pmids.len()
    ));
    if pmids.is_empty() {
        s.push_str("<IdList/>");
    } else {
        s.push_str("<IdList>\n");
        for p in &pmids {
            s.push_str(&format!("<Id>{p}</Id>\n"));
        }
        s.push_str("</IdList>");
    }
    s.push_str(&format!(
        "<TranslationSet/><QueryTranslation>{}</QueryTranslation>",
        xml_escape(&term)
    ));
    if count == 0 {
        s.push_str(&format!(
            "<ErrorList><PhraseNotFound>{}</PhraseNotFound></ErrorList><WarningList><OutputMessage>No items found.</OutputMessage></WarningList>",
            xml_escape(&term)
        ));
    }
    s.push_str("</eSearchResult>\n");
    reply(StatusCode::OK, XML, s)
}

async fn efetch(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let ids = id_list(&pairs);
    let db = param(&pairs, "db").unwrap_or("pubmed");
    if ids.is_empty() {
        return reply(
            StatusCode::BAD_REQUEST,
            XML,
            "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<eFetchResult>\n\t<ERROR>Empty id list - nothing todo</ERROR>\n</eFetchResult>\n",
        );
    }
    let world = &state.world;
    if db == "pmc" {
        let articles: Vec<String> = ids
            .iter()
            .filter_map(|id| world.by_pmcid(id))
            .filter(|&i| world.entry(i).work.pmcid.is_some())
            .map(|i| fulltext::jats_article(world, world.entry(i)))
            .collect();
        let body = format!(
            "<?xml version=\"1.0\" ?>\n<!DOCTYPE pmc-articleset PUBLIC \"-//NLM//DTD ARTICLE SET 2.0//EN\" \"https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd\">\n<pmc-articleset>{}</pmc-articleset>\n",
            articles.join("\n")
        );
        return reply(StatusCode::OK, XML, body);
    }
    let mut s = String::from(
        "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC \"-//NLM//DTD PubMedArticle, 1st January 2019//EN\" \"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd\">\n<PubmedArticleSet>\n",
    );
    for id in &ids {
        if let Some(i) = world
            .by_pmid(id)
            .filter(|&i| world.entry(i).held_by(Source::Pubmed))
        {
            s.push_str(&pubmed_article(world.entry(i)));
        }
    }
    s.push_str("\n</PubmedArticleSet>\n");
    reply(StatusCode::OK, XML, s)
}

async fn esummary(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let ids = id_list(&pairs);
    let world = &state.world;
    let found: Vec<(String, Option<usize>)> = ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                world
                    .by_pmid(id)
                    .filter(|&i| world.entry(i).held_by(Source::Pubmed)),
            )
        })
        .collect();
    if wants_json(&pairs) {
        let mut result = serde_json::Map::new();
        let uids: Vec<&String> = found
            .iter()
            .filter(|(_, i)| i.is_some())
            .map(|(id, _)| id)
            .collect();
        result.insert("uids".into(), json!(uids));
        for (id, i) in &found {
            let value = match i {
                Some(i) => docsum_json(world.entry(*i)),
                None => json!({"uid": id, "error": "cannot get document summary"}),
            };
            result.insert(id.clone(), value);
        }
        return json_reply(
            StatusCode::OK,
            "application/json; charset=UTF-8",
            &json!({"header": {"type": "esummary", "version": "0.3"}, "result": result}),
        );
    }
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<!DOCTYPE eSummaryResult PUBLIC \"-//NLM//DTD esummary v1 20041029//EN\" \"https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20041029/esummary-v1.dtd\">\n<eSummaryResult>\n",
    );
    if ids.is_empty() {
        s.push_str("\t<ERROR>Neither query_key nor id specified</ERROR>\n");
    }
    for (id, i) in &found {
        match i {
            Some(i) => s.push_str(&docsum_xml(world.entry(*i))),
            None => s.push_str(&format!(
                "<ERROR>UID={}: cannot get document summary</ERROR>\n",
                xml_escape(id)
            )),
        }
    }
    s.push_str("</eSummaryResult>\n");
    reply(StatusCode::OK, XML, s)
}

/// Evaluate an Entrez query over the works PubMed holds: the matching set, and the terms
/// to rank it by.
pub fn evaluate(world: &World, term: &str) -> (HashSet<usize>, Vec<Term>) {
    let held: HashSet<usize> = (0..world.len())
        .filter(|&i| world.entry(i).held_by(Source::Pubmed))
        .collect();
    let mut rank_terms = Vec::new();
    let mut acc: Option<HashSet<usize>> = None;
    let mut op = "AND";
    for piece in split_boolean(term) {
        if matches!(piece.as_str(), "AND" | "OR" | "NOT") {
            op = if piece == "AND" {
                "AND"
            } else if piece == "OR" {
                "OR"
            } else {
                "NOT"
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

/// Split at top-level AND/OR/NOT, keeping quoted phrases and `[tag]`s with their clause.
fn split_boolean(term: &str) -> Vec<String> {
    let cleaned: String = term
        .chars()
        .map(|c| if c == '(' || c == ')' { ' ' } else { c })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut in_tag = false;
    let mut word = String::new();
    let flush_word = |word: &mut String, current: &mut String, out: &mut Vec<String>| {
        if matches!(word.as_str(), "AND" | "OR" | "NOT") {
            if !current.trim().is_empty() {
                out.push(current.trim().to_string());
            }
            out.push(word.clone());
            current.clear();
        } else if !word.is_empty() {
            current.push_str(word);
            current.push(' ');
        }
        word.clear();
    };
    for c in cleaned.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                word.push(c);
            }
            '[' => {
                in_tag = true;
                word.push(c);
            }
            ']' => {
                in_tag = false;
                word.push(c);
            }
            c if c.is_whitespace() && !in_quotes && !in_tag => {
                flush_word(&mut word, &mut current, &mut out)
            }
            c => word.push(c),
        }
    }
    flush_word(&mut word, &mut current, &mut out);
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// One clause: `value[tag]`, `"phrase"[tag]` or untagged words (all required).
fn clause(
    world: &World,
    held: &HashSet<usize>,
    clause: &str,
    rank_terms: &mut Vec<Term>,
) -> HashSet<usize> {
    let (value, tag) = match (clause.rfind('['), clause.ends_with(']')) {
        (Some(open), true) => (
            clause[..open].trim(),
            clause[open + 1..clause.len() - 1].to_lowercase(),
        ),
        _ => (clause.trim(), "all fields".to_string()),
    };
    let phrase = value.starts_with('"') && value.ends_with('"') && value.len() >= 2;
    let value = value.trim_matches('"').trim();
    let keep = |i: &usize| held.contains(i);
    match tag.as_str() {
        "doi" | "aid" | "lid" | "location id" => {
            world.by_doi(value).into_iter().filter(keep).collect()
        }
        "pmid" | "uid" | "pubmed id" => world.by_pmid(value).into_iter().filter(keep).collect(),
        "pmcid" | "pmc" => world.by_pmcid(value).into_iter().filter(keep).collect(),
        "dp" | "pdat" | "publication date" => {
            let year: Option<i32> = value.get(0..4).and_then(|y| y.parse().ok());
            held.iter()
                .copied()
                .filter(|&i| world.entry(i).work.year == year && year.is_some())
                .collect()
        }
        _ => {
            let fields = match tag.as_str() {
                "ti" | "title" => Fields::TITLE,
                "tiab" | "title/abstract" => Fields::TITLE.union(Fields::ABSTRACT),
                "au" | "author" | "1au" | "lastau" => Fields::AUTHOR,
                "ta" | "journal" | "jour" => Fields::VENUE,
                _ => Fields::ALL,
            };
            world
                .index
                .fielded_clause(held, value, fields, phrase, rank_terms)
        }
    }
}
