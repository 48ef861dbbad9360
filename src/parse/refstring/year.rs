//! Years: the one written right after the names or the title, and the best one
//! elsewhere in a reference.

use std::sync::LazyLock;

use regex::Regex;

use super::lexicon::is_month;
use super::tokens::Lower;
use crate::parse::is_space;

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
    if let Some(g) = leading_groups(s) {
        // A word before the year must be a month (`(June 2010)`), not a venue.
        let month_ok = g.month.is_none_or(|w| is_month(&Lower::of(w)));
        // `1990 Title` (Harvard without punctuation) only when a capitalised word follows.
        let spaced = g.bare && s[..g.end].ends_with(' ');
        let next_ok = s[g.end..]
            .starts_with(|c: char| c.is_uppercase() || matches!(c, '"' | '“' | '«' | '‘'));
        if month_ok && (!spaced || next_ok) {
            return Some((g.year.parse().ok(), g.end));
        }
    }
    if !may_open_no_date(s.as_bytes()) {
        return None;
    }
    LEADING_NO_DATE.find(s).map(|m| (None, m.end()))
}

/// What [`LEADING_YEAR`] reads at the start of a text.
#[derive(Debug, PartialEq, Eq)]
struct Groups<'a> {
    /// End of the match.
    end: usize,
    /// The word before the year (`June`), in either form.
    month: Option<&'a str>,
    year: &'a str,
    /// The year without brackets (the second form).
    bare: bool,
}

/// [`LEADING_YEAR`]'s match and groups. Its captures are costly (the backtracker
/// clears a table as large as its program on every call), so the groups of an ASCII
/// match are read off the match by hand: the pattern leaves one way to read it.
fn leading_groups(s: &str) -> Option<Groups<'_>> {
    if !may_open_with_year(s.as_bytes()) {
        return None;
    }
    let m = LEADING_YEAR.find(s)?;
    let t = m.as_str();
    if !t.is_ascii() {
        return leading_groups_by_captures(s);
    }
    let b = t.as_bytes();
    let skip = |mut i: usize, set: fn(u8) -> bool| {
        while b.get(i).is_some_and(|&c| set(c)) {
            i += 1;
        }
        i
    };
    let mut i = skip(0, |c| is_space(c) || matches!(c, b',' | b'.' | b':'));
    let bare = !matches!(b.get(i), Some(b'(' | b'['));
    if !bare {
        i = skip(i + 1, is_space);
    }
    let letters = skip(i, |c| c.is_ascii_alphabetic()) - i;
    let month = (letters > 0).then(|| &t[i..i + letters]);
    if letters > 0 {
        i = skip(
            skip(i + letters, |c| c == b'.').min(i + letters + 1),
            is_space,
        );
    }
    Some(Groups {
        end: m.end(),
        month,
        year: t.get(i..i + 4)?,
        bare,
    })
}

/// [`leading_groups`] through the regex's own captures.
fn leading_groups_by_captures(s: &str) -> Option<Groups<'_>> {
    let c = LEADING_YEAR.captures(s)?;
    Some(Groups {
        end: c.get(0)?.end(),
        month: c.get(1).or_else(|| c.get(3)).map(|w| w.as_str()),
        year: c.get(2).or_else(|| c.get(4))?.as_str(),
        bare: c.get(4).is_some(),
    })
}

/// Whether [`LEADING_YEAR`] may match `s`: after the separators, a bracket, then a
/// word of three to nine letters followed by a space, then `15`–`20` and two digits.
/// Any non-ASCII byte where the pattern looks leaves the answer to the regex.
fn may_open_with_year(b: &[u8]) -> bool {
    let mut i = 0;
    let at = |i: usize| b.get(i).copied();
    let non_ascii = |i: usize| at(i).is_some_and(|c| !c.is_ascii());
    while at(i).is_some_and(|c| is_space(c) || matches!(c, b',' | b'.' | b':')) {
        i += 1;
    }
    if matches!(at(i), Some(b'(' | b'[')) {
        i += 1;
        while at(i).is_some_and(is_space) {
            i += 1;
        }
    }
    if non_ascii(i) {
        return true;
    }
    let letters = b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if letters > 0 {
        if !(3..=9).contains(&letters) {
            return false;
        }
        i += letters;
        if at(i) == Some(b'.') {
            i += 1;
        }
        match at(i) {
            Some(c) if is_space(c) => {}
            Some(c) if !c.is_ascii() => return true,
            _ => return false,
        }
        while at(i).is_some_and(is_space) {
            i += 1;
        }
        if non_ascii(i) {
            return true;
        }
    }
    let digit = |i: usize| at(i).is_some_and(|c| c.is_ascii_digit() || !c.is_ascii());
    let century = match (at(i), at(i + 1)) {
        (Some(b'1'), Some(c)) => (b'5'..=b'9').contains(&c) || !c.is_ascii(),
        (Some(b'2'), Some(c)) => c == b'0' || !c.is_ascii(),
        (Some(c), _) => !c.is_ascii(),
        _ => false,
    };
    century && digit(i + 2) && digit(i + 3)
}

/// Whether [`LEADING_NO_DATE`] may match `s`: after the separators and a `(`, one
/// of the words' first letters (or a non-ASCII character, which case folding may
/// turn into one).
fn may_open_no_date(b: &[u8]) -> bool {
    let mut i = 0;
    while b
        .get(i)
        .is_some_and(|&c| is_space(c) || matches!(c, b',' | b'.' | b':'))
    {
        i += 1;
    }
    if b.get(i) == Some(&b'(') {
        i += 1;
    }
    b.get(i).is_some_and(|c| {
        !c.is_ascii() || matches!(c.to_ascii_lowercase(), b'n' | b's' | b'i' | b'f' | b'u')
    })
}

/// The best year in `s`: parenthesised, after a month, before `;`, else the first one
/// that is not part of a number range or an identifier.
pub fn best_year(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut best: Option<(i32, i32)> = None; // (score, year)
    // A year that only appears inside a range or a date (`1988–1992`, `25/04/2013`).
    let mut fallback: Option<i32> = None;
    for m in YEAR.find_iter(s) {
        // The year without its letter (`1991a`): the match ends in a digit or one.
        let digits = m
            .as_str()
            .trim_end_matches(|c: char| c.is_ascii_lowercase());
        // `May2003` counts, `12000` and `ISBN9781…` do not.
        if s[..m.start()].ends_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase()) {
            continue;
        }
        if fallback.is_none() {
            fallback = digits.parse().ok();
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
        let word_before = before.rsplit(' ').next().unwrap_or("");
        if ["since", "from", "until", "after", "before", "of", "in"]
            .iter()
            .any(|w| word_before.eq_ignore_ascii_case(w))
        {
            // `British Fiction since 1970`: a year the title talks about.
            score -= 2;
        }
        if let Some(w) = before.rsplit(|c: char| !c.is_alphabetic()).next()
            && is_month(&Lower::of(w))
        {
            score += 2;
        }
        if matches!(next, Some(';' | ')')) || next.is_none() || s[m.end()..].trim() == "." {
            score += 2;
        }
        // ASCII case suffices: no other letter lowercases to these.
        let ends = |w: &str| {
            before.len() >= w.len()
                && before.as_bytes()[before.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
        };
        if ends("vol") || ends("vol.") || ends("pp.") || ends("no.") {
            score -= 5;
        }
        let year: i32 = digits.parse().unwrap_or(0);
        if best.is_none_or(|(s0, _)| score > s0) {
            best = Some((score, year));
        }
    }
    best.filter(|(s, _)| *s > -3).map(|(_, y)| y).or(fallback)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::any_text;
    use super::*;
    use proptest::prelude::*;

    // The implementations before the fast paths, kept to hold the new ones to.
    fn old_leading_year(s: &str) -> Option<(Option<i32>, usize)> {
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
    fn old_best_year(s: &str) -> Option<i32> {
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
            if matches!(next, Some('/' | '.'))
                && after_next.starts_with(|c: char| c.is_ascii_digit())
            {
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

    proptest! {
        #![proptest_config(crate::proptest_config::config(2000))]

        #[test]
        fn leading_year_is_unchanged(s in any_text()) {
            prop_assert_eq!(leading_year(&s), old_leading_year(&s));
            prop_assert_eq!(leading_groups(&s), leading_groups_by_captures(&s));
        }

        #[test]
        fn best_year_is_unchanged(s in any_text()) {
            prop_assert_eq!(best_year(&s), old_best_year(&s));
        }
    }

    #[test]
    fn leading_year_reads_the_forms() {
        assert_eq!(leading_year("(2011). Title"), Some((Some(2011), 7)));
        assert_eq!(leading_year(" (June 2010) X"), Some((Some(2010), 13)));
        assert_eq!(leading_year("1990 Title"), Some((Some(1990), 5)));
        assert_eq!(leading_year("1990 title"), None);
        assert_eq!(leading_year("(n.d.). X").map(|y| y.0), Some(None));
        assert_eq!(leading_year("Nature 2011"), None);
    }
}
