//! Where a title ends: sentence periods that are not abbreviations or initials,
//! question marks, a comma before a venue, a year, a parenthesised note.

use super::lexicon::{self, is_abbreviation, is_publisher_word};
use super::tokens::{Kind, Tok, Tokenized, tokenize};
use super::year::{YEAR, leading_year};

/// Where the title that starts `s` ends: (end of the title, start of what follows).
/// `comma_style`: the name list ended with a comma, so a comma may end the title.
pub fn title_end<'a>(tokens: &Tokenized<'a>, s: &'a str, comma_style: bool) -> (usize, usize) {
    let toks = tokens.of(s);
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

/// A book title of two sentences (`The authentic heart. An eightfold path to midlife
/// love. New York: Wiley.`): a second sentence that is neither a venue, an edition nor
/// a note, followed by `Place: Publisher`. Returns (end, next) of the second sentence.
pub fn book_subtitle<'a>(tokens: &Tokenized<'a>, s: &'a str) -> Option<(usize, usize)> {
    static PLACE_PUBLISHER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^\s*\p{Lu}[\p{L} .,'-]{1,40}:\s*\p{Lu}")
            .expect("place: publisher regex")
    });
    let s_trim = s.trim_start();
    let offset = s.len() - s_trim.len();
    let first = s_trim
        .split_whitespace()
        .next()?
        .trim_end_matches([',', '.', ':'])
        .to_lowercase();
    let starts_field = matches!(
        first.as_str(),
        "in" | "trans"
            | "translated"
            | "edited"
            | "ed"
            | "eds"
            | "retrieved"
            | "available"
            | "vol"
            | "volume"
            | "pp"
            | "doctoral"
            | "unpublished"
            | "paper"
            | "presented"
            | "thesis"
            | "dissertation"
            | "by"
            | "with"
            | "revised"
            | "rev"
            | "reprint"
            | "reprinted"
            | "proceedings"
            | "proc"
            | "journal"
            | "conference"
            | "symposium"
            | "workshop"
            | "annals"
            | "bulletin"
            | "edition"
            | "editio"
            | "report"
            | "technical"
    ) || is_publisher_word(&first);
    if starts_field || !s_trim.starts_with(char::is_uppercase) {
        return None;
    }
    let (e, n) = title_end(tokens, s_trim, false);
    let sentence = &s_trim[..e];
    let words = sentence.split_whitespace().count();
    let closed_by_period = s_trim[e..].starts_with('.');
    if !closed_by_period
        || !(2..=12).contains(&words)
        || sentence.contains(|c: char| c.is_ascii_digit() || c == ':' || c == ',')
    {
        return None;
    }
    PLACE_PUBLISHER
        .is_match(&s_trim[n..])
        .then_some((offset + e, offset + n))
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
    let lower = t.lower();
    let l = lower.as_str();
    let starts = matches!(
        l,
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
