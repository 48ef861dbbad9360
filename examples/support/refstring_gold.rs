//! Gold data for measuring the reference-string parser: readers for the annotated
//! datasets in `../shared` (the normalisations and the scores are in
//! `refstring_scores.rs`).
//! Shared by `examples/refstring_eval.rs` (the report) and `tests/refstring_tuning.rs`
//! (regression floors on the tuning files).
//!
//! Gold definitions, per dataset:
//! - anystyle XML (`<sequence>` of tagged fields): the raw string is the children's text
//!   joined by single spaces in document order (how anystyle's own tooling reads it).
//!   Title = the text of the `<title>` children (joined; `container-title`, `journal` and
//!   `collection-title` are venues, not titles). Authors = the `<author>` children's text
//!   split into names by [`gold_families`] (`<editor>`, `<translator>` … are not
//!   authors). Year = the first `YYYY` in the first `<date>` that holds one. DOI = `<doi>`.
//! - GROBID TEI (`<bibl>` mixed content): the raw string is all text inside the `<bibl>`
//!   in document order (`<lb/>` read as a space). Title = the first `<title level="a">`,
//!   else the first `<title level="m">` (journal `level="j"` and series `level="s"`
//!   titles are venues). Authors = every `<author>` (its `<surname>`s when it has
//!   `<persName>`, otherwise its text split by [`gold_families`]). Year = first `<date>`
//!   with a year (its `when` attribute or text). DOI = `<idno type="DOI">`.
//! - refs_dev.jsonl (reference strings only; VERIFIED, RETRACTED and MISCITED cases, a
//!   field counted only when it is not the one `fields_wrong` names): the world work's
//!   title; its family names that are written in the string (the styles truncate lists
//!   with "et al."); its year unless the case is cited as the arXiv preprint with the
//!   arXiv year; its DOI when the string carries it.
//! - Crossref artificial APA/IEEE pairs (the same 2,500 works rendered in both styles):
//!   the strings carry no DOI, so the gold comes from the pair: title = the IEEE string's
//!   quoted title, year = the APA string's `(YYYY)`, family names = the IEEE list's
//!   `I. I. Family` names (no author gold when a name is not in that form or the names
//!   are editors); the APA rendering is scored on the names it writes (APA lists drop
//!   the middle of long lists with `…`).
//!
//! Normalisation (titles and family names): NFKD, accents dropped, lowercase, every run of
//! non-alphanumerics one space, trimmed; name suffixes (jr, sr, ii, iii, iv) dropped; on
//! both sides a PDF line-break hyphen between lowercase word parts (`un- certain`) and
//! the broken `ff` ligature `↵` are undone, as the gold strings copy them from the raw text.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use citeproof::parse::ids::normalize_doi;
use quick_xml::events::Event;
use quick_xml::reader::Reader;

use super::refstring_scores::{normalize_family, normalize_text};

/// One reference string with what the annotation says about it.
#[derive(Debug, Clone, Default)]
pub struct Case {
    pub raw: String,
    pub title: Option<String>,
    /// Normalised family names; `None` when the dataset gives no author gold.
    pub families: Option<Vec<String>>,
    pub year: Option<i32>,
    pub doi: Option<String>,
}

/// `../shared` next to the crate root.
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn first_year(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    (0..b.len().saturating_sub(3)).find_map(|i| {
        let w = &b[i..i + 4];
        let digits = w.iter().all(u8::is_ascii_digit);
        let alone = (i == 0 || !b[i - 1].is_ascii_digit())
            && (i + 4 == b.len() || !b[i + 4].is_ascii_digit());
        let y: i32 = if digits && alone {
            s[i..i + 4].parse().ok()?
        } else {
            return None;
        };
        (1400..=2099).contains(&y).then_some(y)
    })
}

fn is_initials(w: &str) -> bool {
    let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.is_empty() || !letters.iter().all(|c| c.is_uppercase()) {
        // `Ch.`, `Th.`: an abbreviated given name.
        return w.ends_with('.')
            && letters.len() <= 3
            && letters.first().is_some_and(|c| c.is_uppercase());
    }
    w.contains('.') || letters.len() <= 3
}

const PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "la", "le", "du", "da", "di", "del", "della", "dos", "das",
    "ter", "ten", "st", "bin", "al", "el", "mac", "y",
];

/// Family names of an author field as written (`Romero, C., Paunesku, D., & Dweck, C.`,
/// `D. Callahan, S. Carr, and K. Kennedy`, `Martin WF, Garg S`, `Lakoff, George, and
/// Mark Johnson`). An independent, deliberately plain splitter: it is the yardstick,
/// not the parser's own name code.
pub fn gold_families(field: &str) -> Vec<String> {
    let mut text = field.replace(['\u{a0}', '\n'], " ");
    for cut in [
        "et al",
        "and others",
        "(eds",
        "(ed",
        ", eds",
        ", ed.",
        "[",
        "(Hrsg",
        "(dir",
    ] {
        if let Some(i) = text.to_lowercase().find(&cut.to_lowercase()) {
            text.truncate(i);
        }
    }
    let semi = text.contains(';');
    let mut chunks: Vec<String> = Vec::new();
    for part in text.split(if semi { ';' } else { ',' }) {
        let mut rest = part.trim().to_string();
        for sep in [" and ", " & ", " und ", " et ", " y ", " – ", " e "] {
            rest = rest.replace(sep, "\u{1}");
        }
        for piece in rest.split('\u{1}') {
            let p = piece
                .trim()
                .trim_start_matches("and ")
                .trim_start_matches("& ")
                .trim_matches(|c: char| c == '.' || c == ':' || c.is_whitespace());
            if !p.is_empty() {
                chunks.push(p.to_string());
            }
        }
    }
    // The list is inverted (`Family, Given`) when its second chunk is only initials or
    // given names following a one-name first chunk.
    let words = |c: &str| c.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let mut families = Vec::new();
    let mut i = 0;
    while i < chunks.len() {
        let w = words(&chunks[i]);
        let single = |ws: &[String]| {
            ws.iter()
                .filter(|x| !PARTICLES.contains(&x.to_lowercase().as_str()))
                .count()
                == 1
                && !ws.iter().any(|x| is_initials(x))
        };
        let inverted_list = single(&words(&chunks[0]));
        let next_given = chunks.get(i + 1).is_some_and(|n| {
            let nw = words(n);
            nw.iter().all(|x| is_initials(x))
                || (!semi
                    && inverted_list
                    && single(&w)
                    && nw.len() <= 3
                    && nw
                        .iter()
                        .all(|x| x.chars().next().is_some_and(char::is_uppercase)))
        });
        if semi && w.len() > 1 && chunks[i].contains(',') {
            families.push(normalize_family(chunks[i].split(',').next().unwrap_or("")));
            i += 1;
            continue;
        }
        if next_given && !w.iter().all(|x| is_initials(x)) {
            families.push(normalize_family(&chunks[i]));
            i += 2;
            continue;
        }
        // One name in direct order: leading initials/given names, then the family.
        let w: Vec<String> = w
            .into_iter()
            .filter(|x| x.to_lowercase() != "jr.")
            .collect();
        let trailing_initials =
            w.len() > 1 && is_initials(w.last().unwrap()) && !is_initials(&w[0]);
        let family: Vec<String> = if trailing_initials {
            let end = w.iter().rposition(|x| !is_initials(x)).unwrap_or(0);
            w[..=end].to_vec()
        } else if let Some(last_init) = w.iter().rposition(|x| is_initials(x)) {
            w[last_init + 1..].to_vec()
        } else if w.len() > 1 {
            let mut start = w.len() - 1;
            while start > 1 && PARTICLES.contains(&w[start - 1].to_lowercase().as_str()) {
                start -= 1;
            }
            w[start..].to_vec()
        } else {
            w
        };
        let f = normalize_family(&family.join(" "));
        if !f.is_empty() {
            families.push(f);
        }
        i += 1;
    }
    families
}

/// Where an XML element's text goes while a reference is read.
#[derive(Default)]
struct Collect {
    raw: String,
    fields: Vec<(String, String, String)>, // (tag, level/type attribute, text)
}

fn read_xml_refs(path: &Path, record: &str) -> Option<Vec<Collect>> {
    let xml = std::fs::read_to_string(path).ok()?;
    let mut reader = Reader::from_str(&xml);
    let mut out = Vec::new();
    let mut cur: Option<Collect> = None;
    let mut stack: Vec<(String, String, usize)> = Vec::new(); // (tag, attr, raw start)
    let push = |cur: &mut Option<Collect>, s: &str| {
        if let Some(c) = cur.as_mut() {
            c.raw.push_str(s);
        }
    };
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = e.local_name().as_ref().to_string();
                if name == record {
                    cur = Some(Collect::default());
                    stack.clear();
                } else if let Some(c) = cur.as_mut() {
                    let attr = e
                        .attributes()
                        .flatten()
                        .find(|a| matches!(a.key.local_name().as_ref(), "level" | "type" | "when"))
                        .and_then(|a| {
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .ok()
                                .map(|v| v.to_string())
                        })
                        .unwrap_or_default();
                    if record == "sequence" && !c.raw.is_empty() {
                        c.raw.push(' ');
                    }
                    stack.push((name, attr, c.raw.len()));
                }
            }
            Ok(Event::Empty(_)) => push(&mut cur, " "),
            Ok(Event::Text(t)) if record == "bibl" || !stack.is_empty() => {
                push(&mut cur, &t.xml10_content());
            }
            Ok(Event::CData(t)) => push(&mut cur, t.as_ref()),
            Ok(Event::GeneralRef(r)) => {
                let s = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => quick_xml::escape::resolve_predefined_entity(&r)
                        .unwrap_or("")
                        .to_string(),
                };
                if record == "bibl" || !stack.is_empty() {
                    push(&mut cur, &s);
                }
            }
            Ok(Event::End(e)) => {
                let name = e.local_name().as_ref().to_string();
                if name == record {
                    if let Some(c) = cur.take() {
                        out.push(c);
                    }
                } else if let (Some(c), Some((tag, attr, start))) = (cur.as_mut(), stack.pop()) {
                    let text = c.raw[start..].trim().to_string();
                    c.fields.push((tag, attr, text));
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    Some(out)
}

/// Drop inline markup left in annotated text (`<italic>…</italic>`).
fn strip_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        match rest[i..].find('>') {
            Some(j) if j < 12 => rest = &rest[i + j + 1..],
            _ => {
                out.push('<');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// anystyle `<dataset><sequence>…` files (core.xml, gold.xml).
pub fn anystyle(path: &Path) -> Option<Vec<Case>> {
    let refs = read_xml_refs(path, "sequence")?;
    Some(
        refs.into_iter()
            .map(|r| {
                let get = |tag: &'static str| {
                    r.fields
                        .iter()
                        .filter(move |f| f.0 == tag)
                        .map(|f| f.2.as_str())
                };
                let title: Vec<&str> = get("title").collect();
                let families: Vec<String> = get("author").flat_map(gold_families).collect();
                Case {
                    raw: collapse(&r.raw),
                    title: (!title.is_empty()).then(|| strip_markup(&title.join(" "))),
                    families: Some(families),
                    year: get("date").find_map(first_year),
                    doi: get("doi").find_map(normalize_doi),
                }
            })
            .collect(),
    )
}

/// GROBID TEI files of `<bibl>` elements.
pub fn grobid(path: &Path) -> Option<Vec<Case>> {
    let refs = read_xml_refs(path, "bibl")?;
    Some(
        refs.into_iter()
            .map(|r| {
                let titled = |level: &str| {
                    r.fields
                        .iter()
                        .find(|f| f.0 == "title" && f.1 == level)
                        .map(|f| f.2.clone())
                };
                let surnames: Vec<String> = r
                    .fields
                    .iter()
                    .filter(|f| f.0 == "surname")
                    .map(|f| normalize_family(&f.2))
                    .collect();
                let families = if surnames.is_empty() {
                    r.fields
                        .iter()
                        .filter(|f| f.0 == "author")
                        .flat_map(|f| gold_families(&f.2))
                        .collect()
                } else {
                    surnames
                };
                Case {
                    raw: collapse(&r.raw),
                    title: titled("a").or_else(|| titled("m")),
                    families: Some(families),
                    year: r
                        .fields
                        .iter()
                        .filter(|f| f.0 == "date")
                        .find_map(|f| first_year(&f.1).or_else(|| first_year(&f.2))),
                    doi: r
                        .fields
                        .iter()
                        .filter(|f| f.0 == "idno" && f.1.eq_ignore_ascii_case("doi"))
                        .find_map(|f| {
                            let compact: String = f.2.split_whitespace().collect();
                            normalize_doi(&compact)
                        }),
                }
            })
            .collect(),
    )
}

/// Reference strings of `bench/refs_dev.jsonl`, gold from `data/world/works.jsonl`.
pub fn refs_dev(bench: &Path, works: &Path) -> Option<Vec<Case>> {
    let bench = std::fs::read_to_string(bench).ok()?;
    let mut wanted: HashMap<String, serde_json::Value> = HashMap::new();
    let rows: Vec<serde_json::Value> = bench
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &serde_json::Value| {
            v["input_kind"] == "reference_string"
                && v["truth"] != "FABRICATED"
                && v["world_id"].is_string()
        })
        .collect();
    for r in &rows {
        wanted.insert(r["world_id"].as_str()?.to_string(), serde_json::Value::Null);
    }
    for line in std::fs::read_to_string(works).ok()?.lines() {
        let Ok(w) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(slot) = w["id"].as_str().and_then(|id| wanted.get_mut(id)) {
            *slot = w;
        }
    }
    let mut cases = Vec::new();
    for r in rows {
        let w = &wanted[r["world_id"].as_str()?];
        if w.is_null() {
            continue;
        }
        let raw = r["input"].as_str()?.to_string();
        let wrong = |f: &str| {
            r["fields_wrong"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == f))
        };
        let note = r["note"].as_str().unwrap_or("");
        let norm_raw = format!(" {} ", normalize_text(&raw));
        let families: Vec<String> = w["authors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p["family"].as_str())
                    .map(normalize_family)
                    .filter(|f| !f.is_empty() && norm_raw.contains(&format!(" {f} ")))
                    .collect()
            })
            .unwrap_or_default();
        let doi = w["doi"]
            .as_str()
            .and_then(normalize_doi)
            .filter(|d| raw.to_lowercase().contains(d.as_str()));
        cases.push(Case {
            title: (!wrong("title"))
                .then(|| w["title"].as_str().map(str::to_string))
                .flatten(),
            families: (!wrong("authors")).then_some(families),
            year: (!wrong("year") && !note.contains("arxiv_year"))
                .then(|| w["year"].as_i64().map(|y| y as i32))
                .flatten(),
            doi,
            raw,
        });
    }
    Some(cases)
}

/// The Crossref artificial APA and IEEE files, gold taken from the pair (see above).
pub fn crossref_pairs(apa: &Path, ieee: &Path) -> Option<(Vec<Case>, Vec<Case>)> {
    let load = |p: &Path| -> Option<Vec<String>> {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
        Some(
            v["dataset"]
                .as_array()?
                .iter()
                .filter_map(|r| r["ref_string"].as_str().map(str::to_string))
                .collect(),
        )
    };
    let (apa, ieee) = (load(apa)?, load(ieee)?);
    let mut out_apa = Vec::new();
    let mut out_ieee = Vec::new();
    for (a, i) in apa.into_iter().zip(ieee) {
        let title = i
            .split_once('“')
            .and_then(|(_, rest)| rest.rsplit_once('”'))
            .map(|(t, _)| t.trim_end_matches(',').to_string());
        let year = a
            .find(" (")
            .and_then(|p| a[p + 2..].get(..4))
            .and_then(|y| y.parse().ok());
        let families = ieee_families(&i);
        let case = |raw: String| Case {
            // The APA rendering leaves the middle of long lists out (`A, B, … Z`).
            families: families.as_ref().map(|fs| {
                let written = format!(" {} ", normalize_text(&raw));
                fs.iter()
                    .filter(|f| written.contains(&format!(" {f} ")))
                    .cloned()
                    .collect()
            }),
            raw,
            title: title.clone(),
            year,
            doi: None,
        };
        out_apa.push(case(a.clone()));
        out_ieee.push(case(i));
    }
    Some((out_apa, out_ieee))
}

/// Family names of an IEEE rendering `[1]I. I. Family, I. Family, and I. Family, “…`:
/// the words after the last initial of each name. `None` when a name is not in that
/// form (so it cannot be split without guessing) or the names are editors.
fn ieee_families(ieee: &str) -> Option<Vec<String>> {
    let start = ieee.find(']')? + 1;
    let end = ieee.find(", “")?;
    let list = ieee.get(start..end)?;
    if list.ends_with(", Eds.") || list.ends_with(", Ed.") {
        return None;
    }
    let mut out = Vec::new();
    for chunk in list.split(", ").flat_map(|c| c.split(" and ")) {
        let chunk = chunk.trim().trim_start_matches("and ").trim();
        if chunk.is_empty() {
            continue;
        }
        let words: Vec<&str> = chunk.split_whitespace().collect();
        let last_initial = words
            .iter()
            .rposition(|w| is_initials(w) && w.ends_with('.'))?;
        if last_initial + 1 >= words.len() {
            return None;
        }
        out.push(normalize_family(&words[last_initial + 1..].join(" ")));
    }
    Some(out)
}
