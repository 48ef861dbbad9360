//! A small BibTeX field reader for the benchmark's entries: braced, quoted and bare
//! values, `and`-separated names in `Family, Given` or `Given Family` form. Values keep
//! their LaTeX markup, which the gate and the comparison must cope with.

use citeproof::model::{Person, RefFields};
use citeproof::parse::ids::{find_arxiv_ids, normalize_arxiv, normalize_doi};

/// Field names (lowercase) and raw values of one entry.
pub fn fields_of(entry: &str) -> Vec<(String, String)> {
    let chars: Vec<char> = entry.chars().collect();
    let Some(open) = chars.iter().position(|&c| c == '{') else {
        return Vec::new();
    };
    let mut i = open + 1;
    while i < chars.len() && chars[i] != ',' {
        i += 1;
    }
    let mut out = Vec::new();
    loop {
        while i < chars.len() && (chars[i] == ',' || chars[i].is_whitespace()) {
            i += 1;
        }
        if i >= chars.len() || chars[i] == '}' {
            return out;
        }
        let start = i;
        while i < chars.len() && chars[i] != '=' {
            i += 1;
        }
        let name: String = chars[start..i.min(chars.len())]
            .iter()
            .collect::<String>()
            .trim()
            .to_lowercase();
        i += 1;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let value = match chars.get(i) {
            Some('{') => {
                let mut depth = 0;
                let begin = i + 1;
                while i < chars.len() {
                    match chars[i] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                let v: String = chars[begin..i.min(chars.len())].iter().collect();
                i += 1;
                v
            }
            Some('"') => {
                let begin = i + 1;
                i += 1;
                let mut depth = 0;
                while i < chars.len() && !(chars[i] == '"' && depth == 0 && chars[i - 1] != '\\') {
                    match chars[i] {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                let v: String = chars[begin..i.min(chars.len())].iter().collect();
                i += 1;
                v
            }
            _ => {
                let begin = i;
                while i < chars.len() && chars[i] != ',' && chars[i] != '}' && chars[i] != '\n' {
                    i += 1;
                }
                chars[begin..i]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string()
            }
        };
        out.push((name, value));
    }
}

/// Split at a separator that is outside braces.
fn split_top(s: &str, sep: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut last = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && s.is_char_boundary(i) && s[i..].starts_with(sep) {
            parts.push(s[last..i].to_string());
            i += sep.len();
            last = i;
            continue;
        }
        i += 1;
    }
    parts.push(s[last..].to_string());
    parts
}

/// `Family, Given` or `Given Family` (the last brace-level word is the family name).
fn person(name: &str) -> Person {
    let name = name.trim();
    let comma = split_top(name, ",");
    if comma.len() >= 2 {
        let given = comma[1..].join(",");
        return Person::new(Some(given.trim()), comma[0].trim());
    }
    let words = split_top(name, " ");
    let words: Vec<&str> = words
        .iter()
        .map(|w| w.trim())
        .filter(|w| !w.is_empty())
        .collect();
    match words.split_last() {
        Some((family, given)) if !given.is_empty() => Person::new(Some(&given.join(" ")), family),
        Some((family, _)) => Person::new(None, family),
        None => Person::new(None, name),
    }
}

/// The reference fields of one BibTeX entry.
pub fn read(entry: &str) -> RefFields {
    let fields = fields_of(entry);
    let get = |n: &str| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let mut out = RefFields {
        title: get("title"),
        venue: get("journal").or_else(|| get("booktitle")),
        year: get("year").and_then(|y| y.trim().parse().ok()),
        doi: get("doi").and_then(|d| normalize_doi(&d)),
        ..RefFields::default()
    };
    if out.doi.is_none() {
        out.doi = get("url").and_then(|u| normalize_doi(&u));
    }
    if let Some(authors) = get("author") {
        for name in split_top(&authors.replace('\n', " "), " and ") {
            if name.trim() == "others" {
                out.authors_truncated = true;
            } else if !name.trim().is_empty() {
                out.authors.push(person(&name));
            }
        }
    }
    let eprint_is_arxiv = get("archiveprefix").is_some_and(|p| p.eq_ignore_ascii_case("arxiv"));
    out.arxiv = get("eprint")
        .filter(|_| eprint_is_arxiv)
        .and_then(|e| normalize_arxiv(&e))
        .or_else(|| {
            ["journal", "booktitle", "url", "note"]
                .iter()
                .filter_map(|n| get(n))
                .find_map(|v| find_arxiv_ids(&v).into_iter().next().map(|(_, id)| id))
        });
    out
}
