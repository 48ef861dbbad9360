//! Years: the one written right after the names or the title, and the best one
//! elsewhere in a reference.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::is_month;

/// A year right at the start of the text: `(2011).`, `1990.`, `(2012, March 4)`, `2004a,`.
static LEADING_YEAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[\s,.:]*(?:[(\[]\s*(?:([A-Za-z]{3,9})\.?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:\s*[,/–-][^()\[\]]{0,30})?\s*[)\]]\s*[.,:;]?|(?:([A-Za-z]{3,9})\.?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:\s*\[\d{4}\])?(?:\s*[.,:;]|$|\s))")
        .expect("leading year regex")
});
static LEADING_NO_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s,.:]*\(?(?:n\.\s?d\.?|s\.\s?d\.?|in press|forthcoming|under review|submitted|no date)\)?[.,]?")
        .expect("no-date regex")
});
pub(super) static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"((?:1[5-9]|20)\d\d)[a-z]?(?-u:\b)").expect("year regex"));
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
    // A year that only appears inside a range or a date (`1988–1992`, `25/04/2013`).
    let mut fallback: Option<i32> = None;
    for c in YEAR.captures_iter(s) {
        let m = c.get(0).expect("whole match");
        // `May2003` counts, `12000` and `ISBN9781…` do not.
        if s[..m.start()].ends_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase()) {
            continue;
        }
        if fallback.is_none() {
            fallback = c[1].parse().ok();
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
        // `(2015)` is the date; `2003 [1910]` puts the original year in brackets.
        if prev == Some('(') {
            score += 3;
        }
        if prev == Some('[') {
            score -= 1;
        }
        let word_before = before.rsplit(' ').next().unwrap_or("").to_lowercase();
        if matches!(
            word_before.as_str(),
            "since" | "from" | "until" | "after" | "before" | "of" | "in"
        ) {
            // `British Fiction since 1970`: a year the title talks about.
            score -= 2;
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
    best.filter(|(s, _)| *s > -3).map(|(_, y)| y).or(fallback)
}
