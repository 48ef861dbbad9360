//! The fields after the name list: the year, where the title ends, and the venue,
//! volume, issue, pages and publisher in what follows it.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::{self, is_abbreviation, is_month, is_publisher_word};
use super::tokens::{Kind, Tok, tokenize};

/// A year right at the start of the text: `(2011).`, `1990.`, `(2012, March 4)`, `2004a,`.
static LEADING_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\s,.:]*(?:[(\[]\s*(?:([A-Za-z]{3,9})\.?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:\s*[,/–-][^()\[\]]{0,30})?\s*[)\]]\s*[.,:;]?|(?:([A-Za-z]{3,9})\.?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:\s*[.,:;]|$|\s))")
        .expect("leading year regex")
});
static LEADING_NO_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s,.:]*\(?(?:n\.\s?d\.?|s\.\s?d\.?|in press|forthcoming|under review|submitted|no date)\)?[.,]?")
        .expect("no-date regex")
});
static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"((?:1[5-9]|20)\d\d)[a-z]?\b").expect("year regex"));
static VOLUME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:vol(?:ume)?s?|bd|tome|t|v)\.?\s*(\d+[A-Za-z]?|[IVXLC]+\b)")
        .expect("volume regex")
});
static ISSUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:\b(?:no|nr|num|issue|iss|heft|h)\.?|n°|№)\s*(\d+[A-Za-z]?(?:\s*[-–/]\s*\d+)?)",
    )
    .expect("issue regex")
});
static PAGES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:pp?|pages?|s|págs?)\.?\s*([A-Za-z]?\d+\s*(?:[-–—]+|to)\s*[A-Za-z]?\d+|[A-Za-z]?\d+)\b").expect("pages regex")
});
/// `6(1):166-170`, `106, 4894–4899`, `97:633-641`, `341:239`, `8(3), 27–38`.
static VOL_ISSUE_PAGES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(\d{1,5}[A-Z]?)\s*(?:\(\s*([\w/–-]{1,12})\s*\))?\s*(?:[:,]\s*(?:pp?\.\s*)?([A-Za-z]?\d+(?:\s*[-–—]+\s*[A-Za-z]?\d+)?))?")
        .expect("vol(issue):pages regex")
});
static PUBLISHER_AFTER_PLACE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[.,;)]\s*)\p{Lu}[\p{L} .,'&-]{1,40}?\s*:\s*(\p{Lu}[^:;()]{1,80}?)\s*(?:[,.;]\s|[,.;]?$|\()")
        .expect("place: publisher regex")
});

/// The year written right at the start of `s`, and where what follows it begins.
/// `Some((None, end))` for `(n.d.)`, `(in press)`.
pub fn leading_year(s: &str) -> Option<(Option<i32>, usize)> {
    if let Some(c) = LEADING_YEAR.captures(s) {
        let m = c.get(0)?;
        let year = c.get(2).or_else(|| c.get(4))?;
        // A word before the year must be a month (`(June 2010)`), not a venue.
        let month_ok = c
            .get(1)
            .or_else(|| c.get(3))
            .is_none_or(|w| is_month(&w.as_str().to_lowercase()));
        // `1990 Title` (Harvard without punctuation) only when a capitalised word follows.
        let spaced = c.get(4).is_some() && m.as_str().ends_with(' ');
        let next_ok = s[m.end()..]
            .starts_with(|c: char| c.is_uppercase() || matches!(c, '"' | '“' | '«' | '‘'));
        if month_ok && (!spaced || next_ok) {
            return Some((year.as_str().parse().ok(), m.end()));
        }
    }
    LEADING_NO_DATE.find(s).map(|m| (None, m.end()))
}

/// The best year in `s`: parenthesised, after a month, before `;`, else the first one
/// that is not part of a number range or an identifier.
pub fn best_year(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut best: Option<(i32, i32)> = None; // (score, year)
    for c in YEAR.captures_iter(s) {
        let m = c.get(0).expect("whole match");
        // `May2003` counts, `12000` and `ISBN9781…` do not.
        if s[..m.start()].ends_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase()) {
            continue;
        }
        let before = s[..m.start()].trim_end();
        let prev = before.chars().next_back();
        let next = s[m.end()..].chars().next();
        if matches!(prev, Some('-' | '–' | '/' | '.' | ':'))
            && !before.ends_with(". ")
            && b.get(m.start().wrapping_sub(1)) != Some(&b' ')
        {
            continue;
        }
        let after_next = &s[m.end() + next.map_or(0, char::len_utf8)..];
        if matches!(next, Some('-' | '–' | '—'))
            && after_next.starts_with(|c: char| c.is_ascii_digit())
        {
            let rest = &s[m.end()..];
            let span = rest.trim_start_matches(['-', '–', '—']);
            // `1885-1914` is a range inside a title, `2011–12` a season: keep the latter.
            if span
                .get(..4)
                .is_some_and(|d| d.chars().all(|c| c.is_ascii_digit()))
            {
                continue;
            }
        }
        if matches!(next, Some('/' | '.')) && after_next.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let mut score = 0;
        if prev == Some('(') || prev == Some('[') {
            score += 3;
        }
        if let Some(w) = before.rsplit(|c: char| !c.is_alphabetic()).next()
            && is_month(&w.to_lowercase())
        {
            score += 2;
        }
        if matches!(next, Some(';' | ')')) || next.is_none() || s[m.end()..].trim() == "." {
            score += 2;
        }
        let lower_before = before.to_lowercase();
        if lower_before.ends_with("vol")
            || lower_before.ends_with("vol.")
            || lower_before.ends_with("pp.")
            || lower_before.ends_with("no.")
        {
            score -= 5;
        }
        let year: i32 = c[1].parse().unwrap_or(0);
        if best.is_none_or(|(s0, _)| score > s0) {
            best = Some((score, year));
        }
    }
    best.filter(|(s, _)| *s > -3).map(|(_, y)| y)
}

/// Where the title that starts `s` ends: (end of the title, start of what follows).
/// `comma_style`: the name list ended with a comma, so a comma may end the title.
pub fn title_end(s: &str, comma_style: bool) -> (usize, usize) {
    let toks = tokenize(s);
    let mut depth = 0i32;
    let mut first_comma: Option<(usize, usize)> = None;
    let found = title_end_at(s, &toks, comma_style, &mut depth, &mut first_comma);
    match (first_comma, found) {
        (Some(c), Some(f)) if c.0 < f.0 => c,
        (_, Some(f)) => f,
        (Some(c), None) => c,
        (None, None) => (s.len(), s.len()),
    }
}

fn title_end_at(
    s: &str,
    toks: &[Tok],
    comma_style: bool,
    depth: &mut i32,
    first_comma: &mut Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    for (k, t) in toks.iter().enumerate() {
        let next = toks.get(k + 1);
        match t.kind {
            Kind::Punct => {
                match t.text {
                    "(" | "[" => {
                        if k > 0 && paren_ends_title(&s[t.start..]) {
                            return Some((t.start, t.start));
                        }
                        *depth += 1;
                    }
                    ")" | "]" => *depth -= 1,
                    "?" | "!" if *depth <= 0 && k > 0 => {
                        let goes_on = next.is_some_and(|n| {
                            n.is(')')
                                || n.is('"')
                                || n.is('”')
                                || (n.kind == Kind::Word && !n.capitalised())
                        });
                        if !goes_on {
                            return Some((t.end, t.end));
                        }
                    }
                    // `skeleton .Curr Opin`: a period the PDF moved onto the next word.
                    "." if *depth <= 0
                        && k > 0
                        && (next.is_none_or(|n| n.start > t.end)
                            || (toks[k - 1].end < t.start
                                && next.is_some_and(|n| n.capitalised()))) =>
                    {
                        return Some((t.start, t.end));
                    }
                    "," if *depth <= 0 && k > 0 && venue_starts(s, toks, k + 1) => {
                        // Decided by what follows: no earlier comma may override it.
                        *first_comma = None;
                        return Some((t.start, t.end));
                    }
                    "," if comma_style
                        && *depth <= 0
                        && k > 0
                        && first_comma.is_none()
                        && !continues_title(toks, k + 1) =>
                    {
                        *first_comma = Some((t.start, t.end));
                    }
                    ";" if *depth <= 0 && k > 2 => return Some((t.start, t.end)),
                    "/" if next.is_some_and(|n| n.is('/')) => return Some((t.start, t.start)),
                    _ => {}
                }
            }
            Kind::Num => {
                if t.end < s.len() && s[t.end..].starts_with(". ") && *depth <= 0 {
                    return Some((t.end, t.end + 1));
                }
                // `Cross-validation: A review 1978 Math. …`: the year between title and
                // venue, without punctuation (LNCS-style extraction).
                if *depth <= 0 && k >= 3 && bare_year_between(toks, k) {
                    return Some((t.start, t.start));
                }
            }
            Kind::Word => {
                if t.dot && *depth <= 0 && period_ends_title(toks, k) {
                    return Some((t.end - 1, t.end));
                }
            }
        }
    }
    None
}

fn bare_year_between(toks: &[Tok], k: usize) -> bool {
    let t = &toks[k];
    let prev = &toks[k - 1];
    t.text.len() == 4
        && YEAR.is_match(t.text)
        && prev.kind == Kind::Word
        && !prev.dot
        && prev.end < t.start
        && !lexicon::is_stopword(&prev.lower())
        && !matches!(
            prev.lower().as_str(),
            "since"
                | "until"
                | "circa"
                | "and"
                | "to"
                | "or"
                | "year"
                | "years"
                | "summer"
                | "winter"
                | "spring"
                | "fall"
                | "autumn"
        )
        && !lexicon::is_month(&prev.lower())
        && toks
            .get(k + 1)
            .is_none_or(|n| (n.kind == Kind::Word && n.capitalised()) || n.kind == Kind::Num)
}

/// A parenthesis that starts the year or a note after the title.
fn paren_ends_title(s: &str) -> bool {
    let inner: String = s[1..]
        .chars()
        .take_while(|c| *c != ')' && *c != ']')
        .collect();
    let l = inner.to_lowercase();
    // `(New York: Judson Press, 1994)`: the place, publisher and year of a book.
    let publication = (inner.contains(':')
        || (inner.contains(',') && inner.chars().any(char::is_alphabetic)))
        && YEAR.is_match(&inner);
    // `(1997)` closes a title unless the sentence goes on (`Kelly's (1997) suggestion`).
    let after = s.get(inner.len() + 2..).unwrap_or("").trim_start();
    let year_alone = leading_year(s).is_some_and(|(_, end)| end >= inner.len())
        && !after.starts_with(|c: char| c.is_lowercase());
    publication
        || year_alone
        || [
            "eds",
            "ed.",
            "edn",
            "edition",
            "trans",
            "dissertation",
            "thesis",
            "in press",
            "report",
            "doctoral",
            "master",
            "unpublished",
            "abstract",
            "preprint",
            "version",
            "motion picture",
            "dvd",
            "video",
            "film",
            "television",
            "podcast",
            "audio",
            "computer software",
            "data set",
        ]
        .iter()
        .any(|k| l.contains(k))
}

/// Does a venue, a report or a publisher start at token `k` (after a comma)?
fn venue_starts(s: &str, toks: &[Tok], k: usize) -> bool {
    let Some(t) = toks.get(k) else {
        return false;
    };
    if t.kind == Kind::Num {
        let next = toks.get(k + 1);
        // `, 37(7)`, `, 12:3`: a volume right after the title; `, 2nd ed.`: an edition;
        // `, 1997.`: the year.
        let year = t.text.len() == 4
            && YEAR.is_match(t.text)
            && next.is_none_or(|n| n.is('.') || n.is(','));
        return year
            || next.is_some_and(|n| {
                n.is('(')
                    || n.is(':')
                    || (n.kind == Kind::Word
                        && matches!(n.text, "nd" | "rd" | "th" | "st" | "ed" | "edn" | "Aufl"))
            });
    }
    if t.kind != Kind::Word {
        return false;
    }
    let l = t.lower();
    let starts = matches!(
        l.as_str(),
        "proc"
            | "proceedings"
            | "journal"
            | "j"
            | "trans"
            | "transactions"
            | "ieee"
            | "acm"
            | "in"
            | "comm"
            | "communications"
            | "lecture"
            | "technical"
            | "tech"
            | "ph.d"
            | "phd"
            | "masters"
            | "master's"
            | "thesis"
            | "dissertation"
            | "report"
            | "conference"
            | "conf"
            | "symposium"
            | "symp"
            | "workshop"
            | "int"
            | "annals"
            | "ann"
            | "bulletin"
            | "bull"
            | "letters"
            | "lett"
            | "advances"
            | "adv"
            | "lncs"
            | "phys"
            | "rev"
            | "nature"
            | "science"
            | "unpublished"
            | "manuscript"
            | "preprint"
            | "arxiv"
            | "doctoral"
            | "to"
            | "submitted"
            | "paper"
            | "presented"
            | "vol"
            | "pp"
            | "pages"
            | "chapter"
            | "ch"
            | "eds"
            | "ed"
            | "editors"
            | "american"
            | "british"
            | "european"
            | "international"
            | "national"
    );
    if starts {
        // `to appear`, `in press`: notes, but still the end of the title.
        return l != "to" || toks.get(k + 1).is_some_and(|n| n.text == "appear");
    }
    // A segment naming a publisher (`MIT Press`, `Springer-Verlag`).
    let seg_end = toks[k..]
        .iter()
        .position(|x| x.is(',') || x.is('.'))
        .map_or(toks.len(), |p| k + p);
    let seg = &toks[k..seg_end];
    seg.len() <= 5
        && seg
            .iter()
            .any(|x| x.kind == Kind::Word && is_publisher_word(&x.lower()) && x.capitalised())
        && !s.is_empty()
}

/// After a comma in a comma-separated reference: does the title go on (`…, and
/// implicit theories`)?
fn continues_title(toks: &[Tok], k: usize) -> bool {
    toks.get(k).is_some_and(|t| {
        t.kind == Kind::Word
            && t.text.chars().next().is_some_and(char::is_lowercase)
            && !matches!(
                t.text,
                "in" | "vol" | "pp" | "no" | "pages" | "p" | "eds" | "ed" | "editors" | "v"
            )
    })
}

fn period_ends_title(toks: &[Tok], k: usize) -> bool {
    let t = &toks[k];
    let l = t.lower();
    if is_abbreviation(&l)
        || t.is_initial() && t.text.chars().count() <= 2 && k > 0 && toks[k - 1].is_initial()
    {
        return false;
    }
    if k > 0
        && toks[k - 1].dot
        && (is_abbreviation(&toks[k - 1].lower()) || toks[k - 1].is_initial())
    {
        // `Mrs. E. Montague`, `J. S. Bach`: a name inside the title.
        return false;
    }
    if t.text.chars().count() == 1 && t.capitalised() {
        // `Vitamin D.` ends a title; `J. S. Bach` inside one does not.
        return toks.get(k + 1).is_none_or(|n| !n.is_initial());
    }
    // `e.g. the`: a lowercase word after the period means the sentence goes on.
    toks.get(k + 1).is_none_or(|n| {
        !(n.kind == Kind::Word
            && n.text.chars().next().is_some_and(char::is_lowercase)
            && !matches!(n.text, "in" | "pp" | "vol" | "p"))
    })
}

/// A segment that is a journal abbreviation with its volume (`Nucl. Phys. B 195`,
/// `ApJ`) rather than a title.
pub fn looks_like_journal(seg: &str, after: &str) -> bool {
    let toks = tokenize(seg);
    let words: Vec<&Tok> = toks.iter().filter(|t| t.kind == Kind::Word).collect();
    if words.is_empty() || words.len() > 7 {
        return false;
    }
    let abbreviated = words.iter().filter(|t| t.dot && !t.is_initial()).count();
    let ends_with_number = toks.last().is_some_and(|t| t.kind == Kind::Num);
    let number_follows = after.trim_start().starts_with(|c: char| c.is_ascii_digit());
    (ends_with_number || number_follows)
        && (abbreviated * 2 >= words.len()
            || words.len() <= 2
            || words.iter().all(|w| w.dot || w.is_initial()))
}

/// Venue, volume, issue, pages and publisher from the text after the title.
pub struct Tail {
    pub venue: Option<String>,
    pub volume: Option<String>,
    pub issue: Option<String>,
    pub pages: Option<String>,
    pub publisher: Option<String>,
}

pub fn venue_end(s: &str) -> usize {
    let toks = tokenize(s);
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
    let l = t.lower();
    (matches!(
        l.as_str(),
        "vol" | "volume" | "no" | "pp" | "p" | "pages" | "issue" | "nr" | "bd" | "v" | "s"
    ) && (t.dot || l.len() > 2))
        || matches!(
            l.as_str(),
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
