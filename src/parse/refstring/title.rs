//! Where a title ends: sentence periods that are not abbreviations or initials,
//! question marks, a comma before a venue, a year, a parenthesised note.

mod comma;

use super::lexicon::{self, is_abbreviation};
use super::tokens::{Kind, Tok, Tokenized, tokenize};
use super::year::{YEAR, leading_year};
use comma::{
    continues_title, is_year, journal_name, journal_with_volume, numbering_starts, numbering_word,
    place_or_publisher, venue_starts,
};

/// Where the title that starts `s` ends: (end of the title, start of what follows).
/// `comma_style`: the name list ended with a comma, so a comma may end the title.
pub fn title_end<'a>(tokens: &Tokenized<'a>, s: &'a str, comma_style: bool) -> (usize, usize) {
    let toks = tokens.of(s);
    let mut depth = 0i32;
    let mut first_comma: Option<(usize, usize)> = None;
    let found = title_end_at(s, &toks, comma_style, &mut depth, &mut first_comma);
    match (first_comma, found) {
        // `Tannhäuser: Texte, Materialien (Hamburg: Rowohlt, 1986)`: the parenthesis of
        // the place, publisher and year closes the title, commas and all.
        // `… impact structure, Ontario, Canada. Geology`: places named in the title.
        (Some(c), Some(f))
            if c.0 < f.0
                && !publication_paren(&s[f.0..])
                && !places_only(&s[c.1..f.0])
                && !subtitle_colon(&s[c.1..f.0]) =>
        {
            c
        }
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
    // Indices of the depth-0 commas seen so far.
    let mut commas: Vec<usize> = Vec::new();
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
                        // `Why X? : A study`, `Why X?: a study`: the subtitle's colon.
                        let goes_on = next.is_some_and(|n| {
                            n.is(')')
                                || n.is(':')
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
                    // `Centre Pompidou, Deutsche Bauzeitung, No. 134`: a journal's
                    // name between commas, then its numbering.
                    "," if comma_style
                        && *depth <= 0
                        && k > 0
                        && numbering_word(toks, k + 1)
                        && let Some(&pk) = commas.last()
                        && journal_name(&toks[pk + 1..k]) =>
                    {
                        *first_comma = None;
                        return Some((toks[pk].start, toks[pk].end));
                    }
                    // `Computing Machinery and Intelligence, Mind 59: 433-460`: a
                    // journal's name with its volume after the comma.
                    "," if comma_style
                        && *depth <= 0
                        && k > 0
                        && journal_with_volume(toks, k + 1) =>
                    {
                        *first_comma = None;
                        return Some((t.start, t.end));
                    }
                    "," if *depth <= 0 && k > 0 && venue_starts(s, toks, k + 1) => {
                        // Decided by what follows: no earlier comma may override it.
                        *first_comma = None;
                        // `Title, Computer Communications, Vol. 15`: the numbering
                        // follows the journal's name, which the comma before it opens.
                        if let Some(&pk) = commas.last()
                            && comma_style
                            && numbering_starts(toks, k + 1)
                            && journal_name(&toks[pk + 1..k])
                        {
                            return Some((toks[pk].start, toks[pk].end));
                        }
                        // `Andrei Tarkovski, Edilig, Paris, 1988`: the publisher and
                        // the place, each a short name between commas, before the year.
                        if comma_style && is_year(toks, k + 1) {
                            let mut cut = k;
                            for &pk in commas.iter().rev() {
                                if !place_or_publisher(&toks[pk + 1..cut]) {
                                    break;
                                }
                                cut = pk;
                            }
                            return Some((toks[cut].start, toks[cut].end));
                        }
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
                if *depth <= 0
                    && k >= 3
                    && let Some(m) = bare_month_year(toks, k)
                {
                    return Some((m, m));
                }
            }
            Kind::Word => {
                if t.dot && *depth <= 0 && period_ends_title(toks, k) {
                    return Some((t.end - 1, t.end));
                }
            }
        }
        if t.is(',') && *depth <= 0 && k > 0 {
            commas.push(k);
            // `Theory, Languages, and Computation`: a serial comma; the commas before
            // it separate the items of a list inside the title.
            if next.is_some_and(|n| matches!(n.text, "and" | "or" | "&")) {
                *first_comma = None;
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
        && toks.get(k + 1).is_none_or(|n| {
            (n.kind == Kind::Word && n.capitalised()) || n.kind == Kind::Num || n.is(',')
        })
}

/// `… Execution Time Analyser June 1992, York …`: a month and year between the title
/// and what follows, without punctuation. Returns where the month starts.
fn bare_month_year(toks: &[Tok], k: usize) -> Option<usize> {
    let t = &toks[k];
    let month = &toks[k - 1];
    let before = &toks[k - 2];
    (t.text.len() == 4
        && YEAR.is_match(t.text)
        && month.kind == Kind::Word
        && lexicon::is_month(&month.lower())
        && !month.dot
        && before.kind == Kind::Word
        && !before.dot
        && !lexicon::is_stopword(&before.lower())
        && toks.get(k + 1).is_some_and(|n| n.is(',')))
    .then_some(month.start)
}

/// `White Plague, Black Labour: Tuberculosis and the political economy of health`:
/// after the comma, a colon that opens a subtitle of several words — the comma was
/// inside the title.
fn subtitle_colon(s: &str) -> bool {
    s.split_once(':').is_some_and(|(before, after)| {
        !before.contains(',') && after.split_whitespace().count() >= 3
    })
}

/// Two or more short capitalised names between commas (`Ontario, Canada`,
/// `W. Germany, Europe`).
fn places_only(s: &str) -> bool {
    let mut n = 0;
    for seg in s.split(',') {
        let words: Vec<&str> = seg.split_whitespace().collect();
        let name = (1..=3).contains(&words.len())
            && words.iter().all(|w| {
                w.starts_with(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '.' | '-' | '\''))
            });
        if !name {
            return false;
        }
        n += 1;
    }
    n >= 2
}

/// `(New York: Judson Press, 1994)`: the place, publisher and year of a book.
pub(super) fn publication_paren(s: &str) -> bool {
    let Some(body) = s.strip_prefix('(') else {
        return false;
    };
    let inner = body.split([')', '(']).next().unwrap_or("");
    inner.contains(':') && inner.chars().any(char::is_alphabetic) && YEAR.is_match(inner)
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
    // `(1936-1941)`, `(1798, 1799, 1805)`: years a title is about, not its date.
    let years_in_title = YEAR.find_iter(&inner).nth(1).is_some();
    let year_alone = leading_year(s).is_some_and(|(_, end)| end >= inner.len())
        && !after.starts_with(|c: char| c.is_lowercase())
        && !years_in_title;
    publication
        || year_alone
        || [
            "eds",
            "ed.",
            "éd.",
            "working paper",
            "discussion paper",
            "paper no",
            "policy brief",
            "series,",
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

fn period_ends_title(toks: &[Tok], k: usize) -> bool {
    let t = &toks[k];
    let lower = t.lower();
    let l = lower.as_str();
    if is_abbreviation(l)
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
    let number_follows = after.trim_start().starts_with(|c: char| c.is_ascii_digit());
    if !number_follows && !ends_with_number(seg) {
        return false;
    }
    let toks = tokenize(seg);
    let words: Vec<&Tok> = toks.iter().filter(|t| t.kind == Kind::Word).collect();
    if words.is_empty() || words.len() > 7 {
        return false;
    }
    let abbreviated = words.iter().filter(|t| t.dot && !t.is_initial()).count();
    let ends_with_number = toks.last().is_some_and(|t| t.kind == Kind::Num);
    (ends_with_number || number_follows)
        && (abbreviated * 2 >= words.len()
            || words.len() <= 2
            || words.iter().all(|w| w.dot || w.is_initial()))
}

/// Whether the last token of `seg` is a number (`195`, `1991a`), read off the text:
/// digits, or digits and one lowercase ASCII letter.
fn ends_with_number(seg: &str) -> bool {
    let b = seg.trim_end().as_bytes();
    match b {
        [.., d] if d.is_ascii_digit() => true,
        [.., d, l] => d.is_ascii_digit() && l.is_ascii_lowercase(),
        _ => false,
    }
}
