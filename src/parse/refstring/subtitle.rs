//! Second sentences that still belong to the title: a book's subtitle before
//! `Place: Publisher`, a second question, a part number (`II.`), the sentence before
//! `In` (the container). And the reverse: a Vancouver journal glued to the end of the
//! title without a period.

use super::lexicon::{is_publisher_word, is_stopword};
use super::title::title_end;
use super::tokens::{Kind, Lower, Tok, Tokenized};
use super::year::YEAR;

/// The title's end once the sentences after its first one are weighed: `rest` is
/// the text from the title on, `(te, next)` the first sentence's end and what follows.
pub fn settle<'a>(
    tokens: &Tokenized<'a>,
    rest: &'a str,
    (te, next): (usize, usize),
    comma_style: bool,
) -> (usize, usize) {
    let (mut te, mut next) = match (comma_style, book_subtitle(tokens, &rest[next..])) {
        (false, Some((e2, n2))) => (next + e2, next + n2),
        _ => (te, next),
    };
    if comma_style
        && rest[te..next].contains('.')
        && let Some((e2, n2)) = comma_book_subtitle(&rest[next..])
    {
        (te, next) = (next + e2, next + n2);
    }
    if !comma_style && let Some(e) = glued_journal(&rest[..te], &rest[te..]) {
        (te, next) = (e, e);
    }
    // At most two more sentences: `Title. I. Subtitle.` is as far as it goes.
    for _ in 0..2 {
        let sentence_end = rest[te..next].contains('.') || rest[..te].ends_with('?');
        if !sentence_end {
            break;
        }
        match continued_title(tokens, &rest[..te], &rest[next..]) {
            Some((e2, n2)) => (te, next) = (next + e2, next + n2),
            None => break,
        }
    }
    (te, next)
}

/// A book title of two sentences (`The authentic heart. An eightfold path to midlife
/// love. New York: Wiley.`): a second sentence that is neither a venue, an edition nor
/// a note, followed by `Place: Publisher`. Returns (end, next) of the second sentence.
pub fn book_subtitle<'a>(tokens: &Tokenized<'a>, s: &'a str) -> Option<(usize, usize)> {
    let s_trim = s.trim_start();
    let offset = s.len() - s_trim.len();
    if starts_field(s_trim) || !s_trim.starts_with(char::is_uppercase) {
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
    starts_with_place_publisher(&s_trim[n..]).then_some((offset + e, offset + n))
}

/// Does `s` open with a book's whole imprint: a place of one to three words (and a
/// state), a colon, the publisher and the year (`Washington, DC: Central
/// Intelligence Agency, 2009`)?
pub fn starts_with_imprint(s: &str) -> bool {
    static IMPRINT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^\s*\p{Lu}[\p{L}'-]*(?: \p{Lu}[\p{L}'-]*){0,2}(?:, \p{Lu}[\p{L}.]{1,5})?\s*:\s*\p{Lu}[^.:;]{0,60}?(?:,\s*|\s*\()\d{4}\b",
        )
        .expect("imprint regex")
    });
    IMPRINT.is_match(s)
}

/// Does `s` open with a place and a publisher (`New York: Wiley`)?
fn starts_with_place_publisher(s: &str) -> bool {
    static PLACE_PUBLISHER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^\s*\p{Lu}[\p{L} .,'-]{1,40}:\s*\p{Lu}")
            .expect("place: publisher regex")
    });
    PLACE_PUBLISHER.is_match(s)
}

/// Does `s` open with a word that starts a field rather than a sentence of a title
/// (`In`, `Edited`, `Vol.`, `Thesis`, a publisher)?
fn starts_field(s: &str) -> bool {
    let Some(first) = s.split_whitespace().next() else {
        return false;
    };
    let first = Lower::of(first.trim_end_matches([',', '.', ':']));
    matches!(
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
    ) || is_publisher_word(&first)
}

/// A sentence after the title that still belongs to it: a part number (`Fourier
/// integral operators. II. Acta …`), a second question after a question
/// (`What Is Consent? And Is It Important?`), or a subtitle followed by `In` and the
/// container (`Philosophy of science. How science moves. In M. Hendricks (Ed.), …`).
/// `title` is the title read so far; `s` the text after it. Returns (end, next).
pub fn continued_title<'a>(
    tokens: &Tokenized<'a>,
    title: &str,
    s: &'a str,
) -> Option<(usize, usize)> {
    let s_trim = s.trim_start();
    let offset = s.len() - s_trim.len();
    if !s_trim.starts_with(char::is_uppercase) || starts_field(s_trim) {
        return None;
    }
    let first = s_trim.split_whitespace().next()?;
    if let Some(part) = first.strip_suffix('.')
        && is_part_number(part)
    {
        return Some((offset + part.len(), offset + first.len()));
    }
    let (e, n) = title_end(tokens, s_trim, false);
    let sentence = s_trim[..e].trim_end();
    let words = sentence.split_whitespace().count();
    if !(1..=25).contains(&words) {
        return None;
    }
    let after = s_trim[n..].trim_start();
    let after_question = title.trim_end().ends_with('?');
    let question = after_question && sentence.ends_with('?');
    // `Does therapy help? A randomized clinical trial. Clin J Pain.`: a subtitle in
    // sentence case after a question, closed by its period (a journal's name after
    // the question is written in title case or closed by its numbers).
    let subtitle =
        after_question && s_trim[e..].starts_with('.') && words >= 3 && sentence_case(sentence);
    let before_container =
        ["In ", "In: ", "In:"].iter().any(|p| after.starts_with(p)) && s_trim[e..].starts_with('.');
    (question || subtitle || before_container).then_some((offset + e, offset + n))
}

/// `II`, `III`, `IV`: a part number in Roman numerals (a lone `I` too, but not the
/// other single letters, which are more often initials).
fn is_part_number(w: &str) -> bool {
    (w == "I" || (2..=4).contains(&w.len())) && w.chars().all(|c| matches!(c, 'I' | 'V' | 'X'))
}

/// `… by casein kinase II EMBO J 1994; 9: 3253`: a Vancouver journal abbreviation
/// written after a sentence-case title without a period, the year after it. `seg` is
/// the title read up to the year (the year may end it); returns where the title ends
/// without the journal, or `None` when the end does not look like one.
pub fn glued_journal(seg: &str, after: &str) -> Option<usize> {
    // `Journal (1997) 91`, or `Journal 1994; 9:` (a title's own final year is followed
    // by its period instead: `Der Vesuvausbruch im Juni 1929.`).
    let year_after = after.trim_start().strip_prefix('(').is_some_and(|a| {
        a.get(..4)
            .is_some_and(|y| y.bytes().all(|b| b.is_ascii_digit()) && YEAR.is_match(y))
    });
    if !year_after && !after.trim_start().starts_with(';') {
        return None;
    }
    let toks = super::tokens::tokenize(seg);
    let mut n = toks.len();
    let year_last = n > 0
        && toks[n - 1].kind == Kind::Num
        && YEAR.is_match(toks[n - 1].text)
        && after.trim_start().starts_with(';');
    if year_last {
        n -= 1;
    } else if !year_after {
        return None;
    }
    let run_start = toks[..n]
        .iter()
        .rposition(|t| !(t.kind == Kind::Word && t.capitalised() && !t.dot))
        .map_or(0, |i| i + 1);
    let run = n - run_start;
    // The word before the journal is lowercase: the title is in sentence case, so its
    // capitalised tail is a name rather than words of the title.
    let before = run_start.checked_sub(1).map(|i| &toks[i])?;
    let words: Vec<&Tok> = toks[..run_start]
        .iter()
        .filter(|t| t.kind == Kind::Word && !is_stopword(&t.lower()))
        .collect();
    let capitalised = words.iter().skip(1).filter(|t| t.capitalised()).count();
    let sentence_case = before.kind == Kind::Word
        && before.text.starts_with(char::is_lowercase)
        && !is_stopword(&before.lower())
        && words.len() >= 3
        && capitalised * 4 < words.len();
    ((1..=5).contains(&run) && sentence_case).then_some(before.end)
}

/// In a comma-separated reference, a second sentence of a book title followed by its
/// place and publisher and the year: `Surveiller et jouir. Anthropologie politique du
/// sexe, Paris, EPEL, 2010`. `s` is the text after the first sentence; returns (end,
/// next) of the second one.
pub fn comma_book_subtitle(s: &str) -> Option<(usize, usize)> {
    let s_trim = s.trim_start();
    let offset = s.len() - s_trim.len();
    if !s_trim.starts_with(char::is_uppercase) || starts_field(s_trim) {
        return None;
    }
    let comma = s_trim.find(',')?;
    let sentence = &s_trim[..comma];
    let words = sentence.split_whitespace().count();
    if !(2..=15).contains(&words)
        || sentence.contains(['.', '(', ')', ':', ';'])
        || sentence.contains(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    // Then one or more short capitalised names (place, publisher) and the year.
    for (names, seg) in s_trim[comma + 1..].split(',').enumerate() {
        let seg = seg.trim();
        if seg
            .get(..4)
            .is_some_and(|y| y.bytes().all(|b| b.is_ascii_digit()) && YEAR.is_match(y))
        {
            return (names > 0).then_some((offset + comma, offset + comma + 1));
        }
        let w: Vec<&str> = seg.split_whitespace().collect();
        let name = (1..=4).contains(&w.len())
            && w.iter()
                .all(|w| w.starts_with(char::is_uppercase) || is_stopword(w));
        if !name {
            return None;
        }
    }
    None
}

/// Some word after the first, of four letters or more and not a stopword, begins in
/// lowercase: a sentence, not a name in title case (`The Age: Extra, p. 6`).
fn sentence_case(sentence: &str) -> bool {
    sentence.split_whitespace().skip(1).any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        w.starts_with(char::is_lowercase)
            && w.chars().count() >= 4
            && w.chars().all(char::is_alphabetic)
            && !is_stopword(&Lower::of(w))
    })
}
