//! A test-local reader for the benchmark's formatted reference strings (APA, IEEE,
//! Vancouver, Nature and LLM-style renderings). When the title the string carries is
//! known (the world title of a faithful rendering, or the changed title a note
//! quotes), it anchors the split into authors / title / venue; otherwise quotes,
//! emphasis and the style's punctuation do.

use std::sync::LazyLock;

use citeproof::model::{Person, RefFields};
use citeproof::parse::ids::{find_arxiv_ids, find_dois};
use citeproof::resolve::normalize::words;
use regex::Regex;

static IDENTIFIER_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:preprint at\s+|available:\s*)?(?:https?://\S+|\bdoi:?\s*10\.\S+|\barxiv:\s*[\w./-]+)").unwrap()
});
static NUMBER_PREFIX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*\[\d+\]\s*").unwrap());
static YEAR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\b(1[89]\d\d|20\d\d)\b").unwrap());
static YEAR_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(?\b(?:1[89]\d\d|20\d\d)\b\)?").unwrap());
static VANCOUVER_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\p{L}[\p{L}'’ -]*) ([A-Z]{1,3}(?:-[A-Z])?)$").unwrap());
static INITIALS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\p{Lu}\.?[ -]?)+(?:\p{Lu}\.?)?$|^\p{Lu}\.-\p{Lu}\.$").unwrap()
});
static ET_AL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i),?\s*(?:et al\.?|and others)").unwrap());

/// Words of `text` with the byte span of the chunk each came from.
fn spanned_words(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let flush = |start: &mut Option<usize>, end: usize, out: &mut Vec<(String, usize, usize)>| {
        if let Some(s) = start.take() {
            for w in words(&text[s..end]) {
                out.push((w, s, end));
            }
        }
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() || matches!(c, '\'' | '’') {
            start.get_or_insert(i);
        } else {
            flush(&mut start, i, &mut out);
        }
    }
    flush(&mut start, text.len(), &mut out);
    out
}

/// The byte span of `title` inside `text`, compared word by word once folded.
fn locate(text: &str, title: &str) -> Option<(usize, usize)> {
    let target = words(title);
    let found = spanned_words(text);
    if target.is_empty() || found.len() < target.len() {
        return None;
    }
    (0..=found.len() - target.len())
        .find(|&i| {
            found[i..i + target.len()]
                .iter()
                .zip(&target)
                .all(|(f, t)| f.0 == *t)
        })
        .map(|i| (found[i].1, found[i + target.len() - 1].2))
}

/// Find the title by the string's own punctuation.
fn locate_by_style(text: &str, style: &str) -> Option<(usize, usize)> {
    for (open, close) in [("“", "”"), ("\"", "\""), ("**", "**")] {
        if let Some(s) = text.find(open) {
            let from = s + open.len();
            if let Some(e) = text[from..].find(close) {
                return Some((from, from + e));
            }
        }
    }
    let sentence_end = |from: usize| -> usize {
        let rest = &text[from..];
        let end = [". ", "? ", "! "]
            .iter()
            .filter_map(|p| rest.find(p).map(|i| i + if *p == ". " { 0 } else { 1 }))
            .min()
            .unwrap_or(rest.len());
        from + end
    };
    if let Some(m) = Regex::new(r"\(\d{4}\)\.?\s+\*?").unwrap().find(text) {
        let from = m.end();
        let end = match text[from..].find('*') {
            Some(e) if text[m.start()..from].ends_with('*') => from + e,
            _ => sentence_end(from),
        };
        return Some((from, end));
    }
    if style == "vancouver" {
        let from = text.find(". ")? + 2;
        return Some((from, sentence_end(from)));
    }
    // Nature: the title is the segment before the one that holds "(year)" (the venue,
    // or the year alone when there is no venue).
    let segments: Vec<(usize, usize)> = {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, _) in text.match_indices(". ") {
            out.push((start, i));
            start = i + 2;
        }
        out.push((start, text.len()));
        out
    };
    let year_segment = segments
        .iter()
        .rposition(|(s, e)| YEAR.is_match(&text[*s..*e]))?;
    Some(segments[year_segment.checked_sub(1)?])
}

/// Names of an author list as written in the given style.
pub fn read_authors(text: &str, style: &str) -> (Vec<Person>, bool) {
    let truncated = ET_AL.is_match(text);
    let text = ET_AL.replace_all(text, "");
    let text = text
        .replace(", & ", ", ")
        .replace(" & ", ", ")
        .replace(", and ", ", ")
        .replace(" and ", ", ");
    let parts: Vec<String> = text
        .split(", ")
        .map(|p| {
            p.trim()
                .trim_matches(|c: char| c == ',' || c == '*' || c == '-' || c.is_whitespace())
                .to_string()
        })
        .filter(|p| !p.is_empty())
        .collect();
    let given_family = |p: &str| {
        let tokens: Vec<&str> = p.split_whitespace().collect();
        match tokens.split_last() {
            Some((family, given)) if !given.is_empty() => {
                Person::new(Some(&given.join(" ")), family)
            }
            _ => Person::new(None, p),
        }
    };
    let pairs = |parts: &[String]| {
        parts
            .chunks(2)
            .map(|c| Person::new(c.get(1).map(String::as_str), c[0].trim_end_matches('.')))
            .collect::<Vec<_>>()
    };
    let vancouver = parts
        .iter()
        .all(|p| VANCOUVER_NAME.is_match(p.trim_end_matches('.')));
    let people = if vancouver && style != "apa" && style != "nature" {
        parts
            .iter()
            .map(|p| {
                let c = VANCOUVER_NAME.captures(p.trim_end_matches('.')).unwrap();
                Person::new(Some(&c[2]), &c[1])
            })
            .collect()
    } else if style == "ieee" {
        parts.iter().map(|p| given_family(p)).collect()
    } else if style == "apa"
        || style == "nature"
        || parts.get(1).is_some_and(|p| INITIALS.is_match(p))
    {
        pairs(&parts)
    } else {
        parts.iter().map(|p| given_family(p)).collect()
    };
    (people, truncated)
}

/// Read a reference string; `title_hint` is the title it is known to carry. Returns
/// the fields and whether the hint located the title.
pub fn read(raw: &str, style: &str, title_hint: Option<&str>) -> (RefFields, bool) {
    let mut fields = RefFields {
        doi: find_dois(raw).into_iter().next().map(|(_, d)| d),
        arxiv: find_arxiv_ids(raw).into_iter().next().map(|(_, a)| a),
        ..RefFields::default()
    };
    let cleaned = IDENTIFIER_TEXT.replace_all(raw, "");
    let text = NUMBER_PREFIX.replace(&cleaned, "").to_string();
    let hinted = title_hint.and_then(|t| locate(&text, t));
    let Some((start, end)) = hinted.or_else(|| locate_by_style(&text, style)) else {
        return (fields, false);
    };
    fields.title = Some(text[start..end].trim().to_string());
    let mut pre = text[..start].to_string();
    let mut post = text[end..].to_string();
    // `**Title** - Lee et al., Venue (2023).`: the authors follow the title.
    if text[..start].trim_start().starts_with("**") || pre.trim().is_empty() {
        let rest = post
            .trim_start_matches(['*', ' ', '"', '”'])
            .trim_start_matches(['-', ' ']);
        if let Some((authors, venue)) = rest.split_once(", ") {
            pre = authors.to_string();
            post = venue.to_string();
        }
    }
    fields.year = YEAR
        .captures_iter(&pre)
        .last()
        .or_else(|| YEAR.captures_iter(&post).last())
        .and_then(|c| c[1].parse().ok());
    let pre_names = YEAR_TEXT.replace_all(&pre, "");
    let pre_names = pre_names
        .trim()
        .trim_end_matches(['.', ',', '“', '"', '*', ' ']);
    let (authors, truncated) = read_authors(pre_names, style);
    fields.authors = authors;
    fields.authors_truncated = truncated;
    let venue = YEAR_TEXT.replace_all(&post, "");
    let venue: Vec<&str> = venue
        .split(", ")
        .map(|s| {
            s.trim_matches(|c: char| {
                c.is_whitespace() || matches!(c, ',' | '.' | '*' | '"' | '”' | '“' | ';')
            })
        })
        .filter(|s| !s.is_empty())
        .collect();
    let venue = venue.join(", ");
    let venue = venue
        .strip_prefix("in ")
        .or_else(|| venue.strip_prefix("In "))
        .unwrap_or(&venue)
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | '*' | '-'))
        .to_string();
    fields.venue = (!venue.is_empty() && venue.chars().any(char::is_alphabetic)).then_some(venue);
    (fields, hinted.is_some())
}
