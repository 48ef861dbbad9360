//! export.arxiv.org `/api/query`: `id_list` lookups and `search_query` searches (field
//! prefixes ti/au/abs/jr/all, AND/OR/ANDNOT, parentheses, quoted phrases), answered with the
//! Atom feed exactly as recorded in `api_responses/arxiv/` (namespaces, opensearch totals,
//! an empty feed for unknown ids, HTTP 400 with an error entry for malformed ids).

use std::collections::HashSet;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;

use super::ids::{self, Agency};
use super::search::{Fields, Term};
use super::service::{AppState, Source, reply};
use super::text::{param, query_pairs, tokens, xml_escape};
use super::world::{Entry, Kind, World};

const ATOM: &str = "application/atom+xml";
const UPDATED: &str = "2026-04-12T22:10:19Z";

pub fn router() -> Router<AppState> {
    Router::new().route("/api/query", get(query))
}

fn feed_head(
    id: &str,
    title: &str,
    link: Option<&str>,
    per_page: usize,
    total: usize,
    start: usize,
) -> String {
    let mut s = String::from(
        "<?xml version='1.0' encoding='UTF-8'?>\n<feed xmlns:opensearch=\"http://a9.com/-/spec/opensearch/1.1/\" xmlns:arxiv=\"http://arxiv.org/schemas/atom\" xmlns=\"http://www.w3.org/2005/Atom\">\n",
    );
    s.push_str(&format!(
        "  <id>{}</id>\n  <title>{}</title>\n  <updated>{UPDATED}</updated>\n",
        xml_escape(id),
        xml_escape(title)
    ));
    if let Some(link) = link {
        s.push_str(&format!(
            "  <link href=\"{}\" type=\"application/atom+xml\"/>\n",
            xml_escape(link)
        ));
    }
    s.push_str(&format!(
        "  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>\n  <opensearch:totalResults>{total}</opensearch:totalResults>\n  <opensearch:startIndex>{start}</opensearch:startIndex>\n"
    ));
    s
}

/// HTTP 400 with the Atom error entry arXiv sends for a malformed request.
fn error_feed(code: &str, message: &str) -> Response {
    let url = format!("https://arxiv.org/api/errors#{code}");
    let mut s = feed_head("https://arxiv.org/", "arXiv Search Results", None, 1, 1, 0);
    s.push_str(&format!(
        "  <entry>\n    <id>{url}</id>\n    <title>Error</title>\n    <updated>{UPDATED}</updated>\n    <link href=\"{url}\" rel=\"alternate\" type=\"text/html\"/>\n    <summary>{}</summary>\n    <author>\n      <name>arXiv api core</name>\n    </author>\n  </entry>\n</feed>\n",
        xml_escape(message)
    ));
    reply(StatusCode::BAD_REQUEST, ATOM, s)
}

async fn query(State(state): State<AppState>, uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    let search_query = param(&pairs, "search_query")
        .unwrap_or("")
        .trim()
        .to_string();
    let id_list = param(&pairs, "id_list").unwrap_or("").trim().to_string();
    let start = match param(&pairs, "start").map_or(Ok(0), str::parse::<usize>) {
        Ok(n) => n,
        Err(_) => return error_feed("start_must_be_an_integer", "start must be an integer"),
    };
    let max_results = match param(&pairs, "max_results").map_or(Ok(10), str::parse::<usize>) {
        Ok(n) if n <= 30_000 => n,
        _ => {
            return error_feed(
                "max_results_must_be_an_integer",
                "max_results must be an integer",
            );
        }
    };
    let world = &state.world;
    let mut selected: Vec<(usize, Option<u32>)> = Vec::new();
    if !id_list.is_empty() {
        for raw in id_list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((id, version)) = ids::parse_arxiv(raw) else {
                return error_feed(
                    &format!("incorrect_id_format_for_{raw}"),
                    &format!("incorrect id format for {raw}"),
                );
            };
            if let Some(i) = world
                .by_arxiv(&id)
                .filter(|&i| world.entry(i).held_by(Source::Arxiv))
            {
                selected.push((i, version));
            }
        }
    }
    if !search_query.is_empty() {
        let mut parser = Parser {
            tokens: lex(&search_query),
            pos: 0,
            terms: Vec::new(),
        };
        let matched = parser.expr(world);
        let ranked: Vec<usize> = world
            .index
            .rank(&parser.terms, |i| matched.contains(&i))
            .into_iter()
            .map(|h| h.entry)
            .collect();
        // Documents matched only by negation-free atoms with no rankable terms keep world order.
        let mut order: Vec<usize> = ranked.clone();
        let ranked_set: HashSet<usize> = ranked.into_iter().collect();
        let mut rest: Vec<usize> = matched
            .iter()
            .copied()
            .filter(|i| !ranked_set.contains(i))
            .collect();
        rest.sort_unstable();
        order.extend(rest);
        if id_list.is_empty() {
            selected = order.into_iter().map(|i| (i, None)).collect();
        } else {
            selected.retain(|(i, _)| matched.contains(i));
        }
    }
    let total = selected.len();
    let shown_query = if search_query.is_empty() || search_query.contains(':') {
        search_query.clone()
    } else {
        format!("all:{search_query}")
    };
    let title = format!(
        "arXiv Query: search_query={shown_query}&id_list={id_list}&start={start}&max_results={max_results}"
    );
    let link = format!(
        "https://arxiv.org/api/query?search_query={shown_query}&start={start}&max_results={max_results}&id_list={id_list}"
    );
    let feed_id = format!("https://arxiv.org/api/{}", feed_hash(&title));
    let mut body = feed_head(&feed_id, &title, Some(&link), max_results, total, start);
    for &(i, version) in selected.iter().skip(start).take(max_results) {
        body.push_str(&entry_xml(world.entry(i), version.unwrap_or(1)));
    }
    body.push_str("</feed>\n");
    reply(StatusCode::OK, ATOM, body)
}

fn feed_hash(s: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut h = ids::stable_hash(&["arxiv-feed", s]);
    let mut out = String::new();
    for round in 0..27 {
        if round % 10 == 9 {
            h = ids::stable_hash(&["arxiv-feed", s, &round.to_string()]);
        }
        out.push(ALPHABET[(h % 64) as usize] as char);
        h /= 64;
    }
    out
}

/// The Atom `<entry>` of a work.
pub fn entry_xml(e: &Entry, version: u32) -> String {
    let w = &e.work;
    let arxiv = w.arxiv.as_deref().unwrap_or_default();
    let (year, month) = ids::arxiv_year_month(arxiv).unwrap_or((w.year.unwrap_or(2020), 1));
    let day = 1 + e.salt("arxiv-day") % 28;
    let hour = e.salt("arxiv-hour") % 24;
    let stamp = format!("{year:04}-{month:02}-{day:02}T{hour:02}:00:00Z");
    let abs = format!("https://arxiv.org/abs/{arxiv}v{version}");
    let mut s = format!(
        "  <entry>\n    <id>http://arxiv.org/abs/{arxiv}v{version}</id>\n    <title>{}</title>\n    <updated>{stamp}</updated>\n    <link href=\"{abs}\" rel=\"alternate\" type=\"text/html\"/>\n    <link href=\"https://arxiv.org/pdf/{arxiv}v{version}\" rel=\"related\" type=\"application/pdf\" title=\"pdf\"/>\n    <summary>{}</summary>\n    <published>{stamp}</published>\n",
        xml_escape(&w.title),
        xml_escape(w.abstract_text.as_deref().unwrap_or("")),
    );
    let published_elsewhere = e.kind != Kind::Preprint;
    if let Some(venue) = w.venue.as_deref().filter(|_| published_elsewhere) {
        s.push_str(&format!(
            "    <arxiv:journal_ref>{}</arxiv:journal_ref>\n",
            xml_escape(venue)
        ));
    }
    for a in &w.authors {
        s.push_str(&format!(
            "    <author>\n      <name>{}</name>\n    </author>\n",
            xml_escape(&a.display_name())
        ));
    }
    if let Some(doi) = w
        .doi
        .as_deref()
        .filter(|d| ids::agency(d) == Agency::Crossref)
    {
        s.push_str(&format!(
            "    <arxiv:doi>{0}</arxiv:doi>\n    <link rel=\"related\" href=\"https://doi.org/{0}\" title=\"doi\"/>\n",
            xml_escape(doi)
        ));
    }
    s.push_str("  </entry>\n");
    s
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    And,
    Or,
    AndNot,
    Atom {
        field: String,
        text: String,
        phrase: bool,
    },
}

fn lex(q: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let chars: Vec<char> = q.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '(' {
            out.push(Tok::Open);
            i += 1;
        } else if c == ')' {
            out.push(Tok::Close);
            i += 1;
        } else {
            let mut word = String::new();
            let mut phrase = false;
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '(' && chars[i] != ')'
            {
                if chars[i] == '"' {
                    phrase = true;
                    i += 1;
                    while i < chars.len() && chars[i] != '"' {
                        word.push(chars[i]);
                        i += 1;
                    }
                    i += 1;
                } else {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            out.push(match word.as_str() {
                "AND" if !phrase => Tok::And,
                "OR" if !phrase => Tok::Or,
                "ANDNOT" if !phrase => Tok::AndNot,
                _ => match word.split_once(':') {
                    Some((f, t))
                        if ["ti", "au", "abs", "jr", "all", "co", "cat", "rn", "id"]
                            .contains(&f) =>
                    {
                        Tok::Atom {
                            field: f.to_string(),
                            text: t.to_string(),
                            phrase,
                        }
                    }
                    _ => Tok::Atom {
                        field: "all".into(),
                        text: word,
                        phrase,
                    },
                },
            });
        }
    }
    out
}

/// Boolean evaluation over the works arXiv holds; operators bind left to right.
struct Parser {
    tokens: Vec<Tok>,
    pos: usize,
    terms: Vec<Term>,
}

impl Parser {
    fn expr(&mut self, world: &World) -> HashSet<usize> {
        let mut acc = self.unary(world);
        while let Some(tok) = self.tokens.get(self.pos).cloned() {
            match tok {
                Tok::Close => break,
                Tok::And | Tok::Or | Tok::AndNot => {
                    self.pos += 1;
                    let rhs = self.unary(world);
                    acc = match tok {
                        Tok::And => acc.intersection(&rhs).copied().collect(),
                        Tok::AndNot => acc.difference(&rhs).copied().collect(),
                        _ => acc.union(&rhs).copied().collect(),
                    };
                }
                _ => {
                    let rhs = self.unary(world);
                    acc = acc.union(&rhs).copied().collect();
                }
            }
        }
        acc
    }

    fn unary(&mut self, world: &World) -> HashSet<usize> {
        match self.tokens.get(self.pos).cloned() {
            Some(Tok::Open) => {
                self.pos += 1;
                let inner = self.expr(world);
                if self.tokens.get(self.pos) == Some(&Tok::Close) {
                    self.pos += 1;
                }
                inner
            }
            Some(Tok::Atom {
                field,
                text,
                phrase,
            }) => {
                self.pos += 1;
                self.atom(world, &field, &text, phrase)
            }
            Some(_) => {
                self.pos += 1;
                HashSet::new()
            }
            None => HashSet::new(),
        }
    }

    fn atom(&mut self, world: &World, field: &str, text: &str, phrase: bool) -> HashSet<usize> {
        let held = |i: &usize| world.entry(*i).held_by(Source::Arxiv);
        if field == "id" {
            return world.by_arxiv(text).into_iter().filter(held).collect();
        }
        let fields = match field {
            "ti" => Fields::TITLE,
            "au" => Fields::AUTHOR,
            "abs" => Fields::ABSTRACT,
            "jr" => Fields::VENUE,
            "all" => Fields::ALL,
            _ => return HashSet::new(),
        };
        let toks = tokens(text);
        let terms: Vec<Term> = toks
            .iter()
            .map(|t| Term {
                token: t.clone(),
                fields,
            })
            .collect();
        let found: HashSet<usize> = world
            .index
            .candidates_all(&toks)
            .into_iter()
            .filter(held)
            .filter(|&i| world.index.matches_all(i, &terms))
            .filter(|&i| {
                !phrase || fields != Fields::TITLE || world.index.title_has_phrase(i, &toks)
            })
            .collect();
        self.terms.extend(terms);
        found
    }
}
