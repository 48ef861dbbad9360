//! The text after the title: where the venue ends, and the volume, issue, pages and
//! publisher.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::is_publisher_word;
use super::tokens::{Kind, Lower, Tok, Tokenized};
use super::words::{split_ascii, words};
use super::year::YEAR;
use crate::parse::is_space;

const VOLUME_PATTERN: &str =
    r"(?i)(?-u:\b)(?:vol(?:ume)?s?|bd|tome|t|v)\.?\s*(\d+[A-Za-z]?|[IVXLC]+(?-u:\b))";
const ISSUE_PATTERN: &str =
    r"(?i)(?:(?-u:\b)(?:no|nr|num|issue|iss|heft|h)\.?|n°|№)\s*(\d+[A-Za-z]?(?:\s*[-–/]\s*\d+)?)";
const PAGES_PATTERN: &str = r"(?i)(?-u:\b)(?:pp?|pages?|s|págs?)\.?\s*([A-Za-z]?\d+\s*(?:[-–—]+|to)\s*[A-Za-z]?\d+|[A-Za-z]?\d+)(?-u:\b)";
static VOLUME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(VOLUME_PATTERN).expect("volume regex"));
static ISSUE: LazyLock<Regex> = LazyLock::new(|| Regex::new(ISSUE_PATTERN).expect("issue regex"));
static PAGES: LazyLock<Regex> = LazyLock::new(|| Regex::new(PAGES_PATTERN).expect("pages regex"));
/// Any of the three, so that the text after most venues (`, 12(3), 45–67.`) is
/// searched once rather than three times.
static LABELLED_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("{VOLUME_PATTERN}|{ISSUE_PATTERN}|{PAGES_PATTERN}"))
        .expect("labelled number regex")
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
                // `Proc. 2023 6th International Conference on …`: the edition's number
                // goes on with the venue's name.
                let ordinal_follows = next.is_some_and(|n| {
                    n.kind == Kind::Num
                        && toks.get(k + 2).is_some_and(|o| {
                            o.start == n.end && matches!(o.text, "st" | "nd" | "rd" | "th")
                        })
                });
                if k > 0 && !glued && !word_follows && !ordinal_follows {
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
    if LABELLED_NUMBER.is_match(rest) {
        if let Some(c) = VOLUME.captures(rest) {
            out.volume = Some(c[1].to_string());
        }
        if let Some(c) = ISSUE.captures(rest) {
            out.issue = Some(c[1].split_whitespace().collect());
        }
        if let Some(c) = PAGES.captures(rest) {
            out.pages = Some(normalise_pages(&c[1]));
        }
    }
    if out.volume.is_none() || out.pages.is_none() {
        for m in VOL_ISSUE_PAGES.find_iter(rest) {
            let (v, issue, pages) = numbering_groups(rest, m.start(), m.as_str());
            let is_year = v.len() == 4 && YEAR.is_match(v);
            if is_year && issue.is_none() && pages.is_none() {
                continue;
            }
            if issue.is_none() && pages.is_none() && out.volume.is_some() {
                continue;
            }
            if out.volume.is_none() && !is_year {
                out.volume = Some(v.to_string());
            }
            if out.issue.is_none() {
                out.issue = issue.map(str::to_string);
            }
            if out.pages.is_none() {
                out.pages = pages.map(normalise_pages);
            }
            if out.volume.is_some() {
                break;
            }
        }
    }
    if let Some(c) = colon_before_capital(rest)
        .then(|| PUBLISHER_AFTER_PLACE.captures(rest))
        .flatten()
    {
        out.publisher = Some(c[1].trim().to_string());
    } else {
        out.publisher = split_ascii(rest, |c| matches!(c, b',' | b'.' | b';' | b'(' | b')'))
            .map(|seg| seg.trim().trim_start_matches([':', ' ']))
            .find(|seg| seg.len() > 2 && words(seg).any(may_be_publisher_word))
            .map(str::to_string);
    }
    out
}

/// Volume, issue and pages: [`VOL_ISSUE_PAGES`]'s groups of the match `m` at
/// `start` of `rest`. Its captures are costly (the backtracker clears a table as
/// large as the program, which `\w` makes large, on every call), so a match of ASCII
/// and dashes is read by hand: the pattern leaves one way to read it.
fn numbering_groups<'a>(
    rest: &'a str,
    start: usize,
    m: &'a str,
) -> (&'a str, Option<&'a str>, Option<&'a str>) {
    if let Some(groups) = numbering_by_hand(m) {
        return groups;
    }
    let c = VOL_ISSUE_PAGES
        .captures_at(rest, start)
        .expect("the match is found again from its start");
    let group = |k: usize| c.get(k).map(|g| g.as_str());
    (group(1).unwrap_or(""), group(2), group(3))
}

fn numbering_by_hand(m: &str) -> Option<(&str, Option<&str>, Option<&str>)> {
    if !m.chars().all(|c| c.is_ascii() || c == '–' || c == '—') {
        return None;
    }
    let b = m.as_bytes();
    let skip_space = |mut i: usize| {
        while b.get(i).is_some_and(|&c| is_space(c)) {
            i += 1;
        }
        i
    };
    // `\d{1,5}[A-Z]?`
    let mut i = b.iter().take_while(|c| c.is_ascii_digit()).count().min(5);
    if b.get(i).is_some_and(u8::is_ascii_uppercase) {
        i += 1;
    }
    let volume = &m[..i];
    i = skip_space(i);
    // `\(\s*([\w/–-]{1,12})\s*\)`: a `(` here can only open it.
    let mut issue = None;
    if b.get(i) == Some(&b'(') {
        let from = skip_space(i + 1);
        let len = m[from..]
            .chars()
            .take_while(|&c| c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '–' | '-'))
            .map(char::len_utf8)
            .sum::<usize>();
        issue = Some(&m[from..from + len]);
        i = skip_space(from + len);
        if b.get(i) != Some(&b')') {
            return None;
        }
        i = skip_space(i + 1);
    }
    // `[:,]\s*(?:pp?\.\s*)?` and the pages, which end the match.
    let mut pages = None;
    if matches!(b.get(i), Some(b':' | b',')) {
        i = skip_space(i + 1);
        for label in ["pp.", "p."] {
            if m[i..].starts_with(label) {
                i = skip_space(i + label.len());
                break;
            }
        }
        pages = Some(&m[i..]);
    } else if i != m.len() {
        return None;
    }
    Some((volume, issue, pages))
}

/// Whether some `:` is followed, after ASCII spaces, by an ASCII capital or a
/// non-ASCII character: what [`PUBLISHER_AFTER_PLACE`] needs (`: \p{Lu}`).
fn colon_before_capital(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(b':', b).any(|at| {
        b[at + 1..]
            .iter()
            .find(|&&c| !is_space(c))
            .is_some_and(|c| c.is_ascii_uppercase() || !c.is_ascii())
    })
}

/// [`is_publisher_word`] of a word in any case. An ASCII word is looked up only when
/// it is as long as one of them: 2 (`up`) to 14 (`addison-wesley`) letters.
fn may_be_publisher_word(w: &str) -> bool {
    if w.is_ascii() && !(2..=14).contains(&w.len()) {
        return false;
    }
    is_publisher_word(&Lower::of(w))
}

fn normalise_pages(p: &str) -> String {
    // Most pages (`45-67`, `e1002`) have nothing to change.
    if p.bytes()
        .all(|c| c.is_ascii_alphanumeric() && c != b't' || c == b'-')
        && !p.contains("--")
    {
        return p.to_string();
    }
    let compact: String = p.split_whitespace().collect();
    compact
        .replace("to", "-")
        .replace(['–', '—'], "-")
        .replace("--", "-")
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{any_text, numbering_like};
    use super::*;
    use proptest::prelude::*;

    fn by_captures(rest: &str) -> Vec<(&str, Option<&str>, Option<&str>)> {
        VOL_ISSUE_PAGES
            .captures_iter(rest)
            .map(|c| {
                let group = |k: usize| c.get(k).map(|g| g.as_str());
                (group(1).unwrap_or(""), group(2), group(3))
            })
            .collect()
    }

    fn by_hand(rest: &str) -> Vec<(&str, Option<&str>, Option<&str>)> {
        VOL_ISSUE_PAGES
            .find_iter(rest)
            .map(|m| numbering_groups(rest, m.start(), m.as_str()))
            .collect()
    }

    proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn numbering_groups_agree_with_captures(s in prop_oneof![any_text(), numbering_like()]) {
            prop_assert_eq!(by_hand(&s), by_captures(&s));
        }

        #[test]
        fn publisher_words_by_length(s in any_text()) {
            for w in s.split_whitespace() {
                prop_assert_eq!(may_be_publisher_word(w), is_publisher_word(&Lower::of(w)));
            }
        }

        #[test]
        fn publisher_prefilter_never_hides_a_match(s in any_text()) {
            if PUBLISHER_AFTER_PLACE.is_match(&s) {
                prop_assert!(colon_before_capital(&s));
            }
        }
    }

    #[test]
    fn numbering_read_by_hand() {
        assert_eq!(
            numbering_by_hand("6(1):166-170"),
            Some(("6", Some("1"), Some("166-170")))
        );
        assert_eq!(
            numbering_by_hand("106, pp. 4894–4899"),
            Some(("106", None, Some("4894–4899")))
        );
        assert_eq!(numbering_by_hand("12 "), Some(("12", None, None)));
    }
}
