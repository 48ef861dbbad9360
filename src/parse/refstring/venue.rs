//! The text after the title: where the venue ends, and the volume, issue, pages and
//! publisher.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::is_publisher_word;
use super::tokens::{Kind, Tok, Tokenized};
use super::year::YEAR;

static VOLUME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:vol(?:ume)?s?|bd|tome|t|v)\.?\s*(\d+[A-Za-z]?|[IVXLC]+(?-u:\b))")
        .expect("volume regex")
});
static ISSUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:(?-u:\b)(?:no|nr|num|issue|iss|heft|h)\.?|n°|№)\s*(\d+[A-Za-z]?(?:\s*[-–/]\s*\d+)?)",
    )
    .expect("issue regex")
});
static PAGES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:pp?|pages?|s|págs?)\.?\s*([A-Za-z]?\d+\s*(?:[-–—]+|to)\s*[A-Za-z]?\d+|[A-Za-z]?\d+)(?-u:\b)").expect("pages regex")
});
/// `6(1):166-170`, `106, 4894–4899`, `97:633-641`, `341:239`, `8(3), 27–38`.
static VOL_ISSUE_PAGES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(\d{1,5}[A-Z]?)\s*(?:\(\s*([\w/–-]{1,12})\s*\))?\s*(?:[:,]\s*(?:pp?\.\s*)?([A-Za-z]?\d+(?:\s*[-–—]+\s*[A-Za-z]?\d+)?))?")
        .expect("vol(issue):pages regex")
});
static PUBLISHER_AFTER_PLACE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.,;)]\s*)\p{Lu}[\p{L} .,'&-]{1,40}?\s*:\s*(\p{Lu}[^:;()]{1,80}?)\s*(?:[,.;]\s|[,.;]?$|\()")
        .expect("place: publisher regex")
});

/// Venue, volume, issue, pages and publisher from the text after the title.
pub struct Tail {
    pub venue: Option<String>,
    pub volume: Option<String>,
    pub issue: Option<String>,
    pub pages: Option<String>,
    pub publisher: Option<String>,
}

pub fn venue_end<'a>(tokens: &Tokenized<'a>, s: &'a str) -> usize {
    let toks = tokens.of(s);
    for (k, t) in toks.iter().enumerate() {
        let next = toks.get(k + 1);
        match t.kind {
            Kind::Num => {
                let glued = next.is_some_and(|n| n.start == t.end && n.kind == Kind::Word);
                let word_follows = next.is_some_and(|n| n.kind == Kind::Word);
                if k > 0 && !glued && !word_follows {
                    return trim_sep_end(s, t.start);
                }
            }
            Kind::Punct => match t.text {
                ";" | "(" | "[" | ":" if k > 0 => return trim_sep_end(s, t.start),
                "." if k > 0 => return trim_sep_end(s, t.start),
                "," if next
                    .is_some_and(|n| is_field_word(n) || n.kind == Kind::Num || n.is('(')) =>
                {
                    return trim_sep_end(s, t.start);
                }
                _ => {}
            },
            Kind::Word => {
                if k > 0 && is_field_word(t) {
                    return trim_sep_end(s, t.start);
                }
                if t.dot && k + 1 < toks.len() {
                    let n = &toks[k + 1];
                    let ends = n.kind != Kind::Word
                        || !n.capitalised()
                        || is_field_word(n)
                        || (t.text.chars().count() > 7 && !n.dot)
                        || is_publisher_word(&n.lower());
                    if ends && !(n.kind == Kind::Num || n.is('(')) {
                        return trim_sep_end(s, t.end - 1);
                    }
                }
            }
        }
    }
    trim_sep_end(s, s.len())
}

fn trim_sep_end(s: &str, end: usize) -> usize {
    s[..end].trim_end_matches([' ', ',', '.', ';', ':']).len()
}

fn is_field_word(t: &Tok) -> bool {
    let lower = t.lower();
    let l = lower.as_str();
    (matches!(
        l,
        "vol" | "volume" | "no" | "pp" | "p" | "pages" | "issue" | "nr" | "bd" | "v" | "s"
    ) && (t.dot || l.len() > 2))
        || matches!(
            l,
            "retrieved"
                | "available"
                | "accessed"
                | "doi"
                | "isbn"
                | "pmid"
                | "edited"
                | "ed"
                | "eds"
        )
}

/// Read volume, issue, pages and publisher from the text after the venue.
pub fn tail(rest: &str) -> Tail {
    let mut out = Tail {
        venue: None,
        volume: None,
        issue: None,
        pages: None,
        publisher: None,
    };
    if let Some(c) = VOLUME.captures(rest) {
        out.volume = Some(c[1].to_string());
    }
    if let Some(c) = ISSUE.captures(rest) {
        out.issue = Some(c[1].split_whitespace().collect());
    }
    if let Some(c) = PAGES.captures(rest) {
        out.pages = Some(normalise_pages(&c[1]));
    }
    if out.volume.is_none() || out.pages.is_none() {
        for c in VOL_ISSUE_PAGES.captures_iter(rest) {
            let v = &c[1];
            let is_year = v.len() == 4 && YEAR.is_match(v);
            if is_year && c.get(2).is_none() && c.get(3).is_none() {
                continue;
            }
            if c.get(2).is_none() && c.get(3).is_none() && out.volume.is_some() {
                continue;
            }
            if out.volume.is_none() && !is_year {
                out.volume = Some(v.to_string());
            }
            if out.issue.is_none() {
                out.issue = c.get(2).map(|m| m.as_str().to_string());
            }
            if out.pages.is_none() {
                out.pages = c.get(3).map(|m| normalise_pages(m.as_str()));
            }
            if out.volume.is_some() {
                break;
            }
        }
    }
    if let Some(c) = PUBLISHER_AFTER_PLACE.captures(rest) {
        out.publisher = Some(c[1].trim().to_string());
    } else {
        out.publisher = rest
            .split([',', '.', ';', '(', ')'])
            .map(|seg| seg.trim().trim_start_matches([':', ' ']))
            .find(|seg| {
                seg.split_whitespace()
                    .any(|w| is_publisher_word(&w.to_lowercase()))
                    && seg.len() > 2
            })
            .map(str::to_string);
    }
    out
}

fn normalise_pages(p: &str) -> String {
    let compact: String = p.split_whitespace().collect();
    compact
        .replace("to", "-")
        .replace(['–', '—'], "-")
        .replace("--", "-")
}
