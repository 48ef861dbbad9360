//! The reference-string parser: one formatted reference (APA, IEEE, Vancouver, Nature,
//! ACM, Chicago, MLA, Harvard, LLM-style Markdown, text extracted from PDFs) in,
//! bibliographic fields out. Rule-based and allocation-light; it never panics and
//! garbage in gives mostly-empty fields out.
//!
//! The order of work: clean the characters ([`clean`]), cut the identifiers out
//! ([`identifiers`]), read the name list at the head ([`names`], [`persons`],
//! [`markers`]), then the year ([`year`]), the title ([`title`]) and the venue with its
//! volume, issue, pages and publisher ([`venue`]).

mod clean;
/// Ligatures, stray spaces in identifiers and the like undone (for the PDF reader).
pub(crate) use clean::clean as clean_text;
pub(crate) use clean::contains_ignore_case;
mod id_needles;
mod identifiers;
mod lexicon;
mod markers;
mod names;
mod persons;
mod subtitle;
#[cfg(test)]
mod test_support;
mod title;
mod tokens;
mod venue;
mod words;
mod year;

use crate::model::RefFields;
use tokens::Tokenized;

/// Longest input read; a reference is never this long, and the cap bounds the work.
const MAX_LEN: usize = 4096;

/// Parse one formatted reference string into fields.
pub fn parse(raw: &str) -> RefFields {
    let mut f = RefFields::default();
    let raw = truncate(raw, MAX_LEN);
    let cleaned = clean::clean(raw);
    let body = clean::strip_label(&cleaned);
    // `———. Title …`: the previous entry's authors, not written again.
    let (no_names, body) = match clean::strip_repeat_dashes(body) {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    let (forced_title, body) = match clean::leading_title(body) {
        Some((t, rest)) => (Some(clean::strip_emphasis(t).into_owned()), rest),
        None => (None, body),
    };
    let body = clean::strip_emphasis(body);
    let work = identifiers::extract(&body, &mut f);
    read_fields(&work, forced_title, no_names, &mut f);
    if f.venue.is_none() && f.arxiv.is_some() && clean::contains_ignore_case(&body, "arxiv") {
        f.venue = Some("arXiv".to_string());
    }
    crate::parse::kind::of_string(&body, &f).apply(&mut f);
    f
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

const SEPARATORS: &[char] = &[' ', ',', '.', ':', ';', '-', '–', '—'];

fn read_fields(s: &str, forced_title: Option<String>, no_names: bool, f: &mut RefFields) {
    let folded = s.to_ascii_lowercase();
    let tokens = Tokenized::new(s, &folded);
    let mut pos = 0;
    let mut comma_style = false;
    let mut title_done = false;
    if let Some(t) = forced_title {
        f.title = tidy_title(&t);
        title_done = true;
    }
    let list = if no_names {
        names::NameList::empty()
    } else {
        names::scan(&tokens, s)
    };
    // `In Bouma, H., & Elsendoorn, A. G. (Eds.), Working Models …`: a chapter's
    // reference cut down to its container, the editors first.
    let in_editors = ["In: ", "In "]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .filter(|_| !no_names)
        .map(|r| (s.len() - r.len(), names::scan(&tokens, r)))
        .filter(|(_, l)| l.editors && !l.persons.is_empty());
    if let Some((offset, editors)) = in_editors {
        pos = offset + editors.end;
        comma_style = editors.stop == names::Stop::Comma;
        take_names(f, editors);
    } else if no_names {
        // The year may follow the dashes (`———. 1836. Title`); the title comes next.
    } else if let Some((title, after)) = quoted(s).filter(|_| !title_done) {
        // No names, the title in quotes first (`"Charles R. Van Hise." In Wikipedia`).
        f.title = tidy_title(title);
        title_done = true;
        pos = after;
    } else if !title_done && title_before_credit(s, &list) {
        // `Ghost Stories. Ed. Peter Washington.`: no author; the editor follows.
        f.title = tidy_title(&s[..list.end]);
        title_done = true;
        pos = list.end;
    } else if !title_done && title_before_imprint(s, &list) {
        // `CIA World Factbook. Washington, DC: Central Intelligence Agency, 2009.`
        f.title = tidy_title(&s[..list.end]);
        title_done = true;
        pos = list.end;
    } else if !list.persons.is_empty() && !title_in_author_place(s, &list) {
        pos = list.end;
        comma_style = list.stop == names::Stop::Comma;
        take_names(f, list);
    } else if let Some((org, end)) = persons::organisation(&tokens, s) {
        if !title_done && subtitle::starts_with_imprint(&s[end..]) {
            // `CIA World Factbook. Washington, DC: …`: the title before the imprint.
            f.title = tidy_title(&s[..end]);
            title_done = true;
        } else {
            f.authors.push(org);
        }
        pos = end;
    } else if !title_done {
        // Title first, then the names (`Title. Smith J, Lee K. Venue …`).
        let (te, next) = title::title_end(&tokens, s, false);
        let after = &s[next..];
        let list = names::scan(&tokens, after);
        if !list.persons.is_empty() && list.stop == names::Stop::Period && next < s.len() {
            f.title = tidy_title(&s[..te]);
            title_done = true;
            pos = next + list.end;
            take_names(f, list);
        }
    }

    // `Hilton, S., Hunt, K., Bedford, H. Petticrew, M. (2010).`: the list stopped at a
    // slip in its punctuation; the names go on up to the author-date year.
    let mut lead = year::leading_year(&s[pos..]);
    if !f.authors.is_empty()
        && lead.is_none()
        && let Some(y) = names_run_to_year(s, pos)
    {
        let more = names::scan(&tokens, &s[pos..y]);
        f.authors.extend(more.persons);
        pos = y;
        lead = year::leading_year(&s[pos..]);
    }
    // The year right after the names (APA, Harvard, Chicago author-date).
    let mut year_first = false;
    if let Some((year, end)) = lead {
        f.year = year;
        comma_style |= s[pos..pos + end].trim_end().ends_with(',');
        pos += end;
        year_first = true;
    }
    let rest = s[pos..].trim_start_matches(SEPARATORS);
    pos = s.len() - rest.len();

    if !title_done {
        if let Some((title, after)) = quoted(rest) {
            f.title = tidy_title(title);
            pos += after;
        } else {
            let (te, next) = title::title_end(&tokens, rest, comma_style);
            let seg = &rest[..te];
            // `Nucl. Phys. B 195, 503`: a journal with its volume where a title would be.
            let first = rest.find(',').unwrap_or(rest.len());
            let journal_first =
                comma_style && title::looks_like_journal(&rest[..first], &rest[first..]);
            if !journal_first && !title::looks_like_journal(seg, &rest[te..]) {
                let (te, next) = subtitle::settle(&tokens, rest, (te, next), comma_style);
                f.title = tidy_title(&rest[..te]);
                pos += next;
            }
        }
    }
    let mut rest = &s[pos..];
    // The year after the title (`Editorial. (1954). Weather`, Vancouver `Title. 2019;`).
    if let Some((year, end)) = year::leading_year(rest)
        && (rest[..end].contains('(') || !year_first)
    {
        if f.year.is_none() {
            f.year = year;
        }
        rest = &rest[end..];
    }
    read_venue(&tokens, rest.trim_start_matches(SEPARATORS), f);
    if f.year.is_none() && !year_first {
        f.year = year::best_year(rest).or_else(|| year::best_year(s));
    }
}

/// APA puts the title first when there is no author: `Editorial. (1954). Weather, …`.
/// A "name list" of whole words only, closed by a period and followed by the year in
/// parentheses, is that title.
fn title_in_author_place(s: &str, list: &names::NameList) -> bool {
    s[..list.end].trim_end().ends_with('.')
        && !list.truncated
        && !s[..list.end].contains([',', ';', '('])
        && list.persons.iter().all(|p| {
            p.given
                .as_deref()
                .is_none_or(|g| !g.contains('.') && g.chars().any(char::is_lowercase))
        })
        && list.persons.len() <= 2
        && s[list.end..].trim_start().starts_with('(')
        && year::leading_year(&s[list.end..]).is_some()
}

/// MLA's `Title. Ed. Name.`, `Title. Trans. Name.`, `Title. Dir. Name.`: a "name
/// list" of one name without a comma, closed by a period and followed by an editor,
/// translator or director, is the title of a work without an author.
fn title_before_credit(s: &str, list: &names::NameList) -> bool {
    const CREDITS: &[&str] = &[
        "Ed. ",
        "Eds. ",
        "Edited by ",
        "Trans. ",
        "Translated by ",
        "Dir. ",
        "Directed by ",
    ];
    list.persons.len() == 1
        && list.stop == names::Stop::Period
        && !list.truncated
        && !s[..list.end].contains([',', ';', '&'])
        && CREDITS
            .iter()
            .any(|c| s[list.end..].trim_start().starts_with(c))
}

/// A "name list" of one name without initials or commas, closed by a period and
/// followed straight away by the place and publisher (`CIA World Factbook.
/// Washington, DC: Central Intelligence Agency, 2009.`): a title without an author,
/// since a reference names its title before its imprint.
fn title_before_imprint(s: &str, list: &names::NameList) -> bool {
    list.persons.len() == 1
        && list.stop == names::Stop::Period
        && !list.truncated
        && !s[..list.end].contains([',', ';', '&', '('])
        && list.persons[0]
            .given
            .as_deref()
            .is_none_or(|g| !g.contains('.'))
        && subtitle::starts_with_imprint(&s[list.end..])
}

/// Where the parenthesised year begins when everything from `from` up to it reads as
/// names (capitalised words, initials, `and`, `&`, commas, periods); `None` otherwise.
fn names_run_to_year(s: &str, from: usize) -> Option<usize> {
    let rest = &s[from..];
    let open = rest.find('(')?;
    if open == 0 || open > 160 || year::leading_year(&rest[open..])?.0.is_none() {
        return None;
    }
    let toks = tokens::tokenize(&rest[..open]);
    let name_like = toks.iter().all(|t| match t.kind {
        tokens::Kind::Word => {
            t.capitalised() || matches!(t.text, "and" | "et" | "al" | "y" | "und")
        }
        tokens::Kind::Punct => matches!(t.text, "," | "." | ";" | "&"),
        tokens::Kind::Num => false,
    });
    let initials = toks
        .iter()
        .any(|t| t.dot && (t.is_initial() || t.is_caps_initials()));
    (name_like && initials).then_some(from + open)
}

fn take_names(f: &mut RefFields, list: names::NameList) {
    f.authors_truncated |= list.truncated;
    if list.editors {
        f.editors = list.persons;
    } else {
        f.authors = list.persons;
    }
}

/// A title in quotes at the start of `s`: (title, offset after the closing quote).
fn quoted(s: &str) -> Option<(&str, usize)> {
    if let Some(body) = s.strip_prefix("``") {
        let end = body.find("''")?;
        return Some((&body[..end], 2 + end + 2));
    }
    let open = s.chars().next()?;
    let closers: &[char] = match open {
        '"' => &['"', '”'],
        '“' => &['”', '"', '“'],
        '«' => &['»'],
        '„' => &['“', '”', '"'],
        '‘' => &['’'],
        '\'' => &['\''],
        _ => return None,
    };
    let body = &s[open.len_utf8()..];
    // Quotes inside the quoted title (`"The "invisible hand" revisited,"`): an opening
    // quote after a space and before a letter nests; the closing one that matches it
    // does not end the title.
    let mut depth = 0usize;
    for (i, c) in body.char_indices() {
        let after = &body[i + c.len_utf8()..];
        let opens_inner = c == open
            && i > 0
            && body[..i].ends_with(char::is_whitespace)
            && after.starts_with(char::is_alphanumeric);
        if opens_inner {
            depth += 1;
            continue;
        }
        if !closers.contains(&c) {
            continue;
        }
        // A single quote also serves as an apostrophe: the closing one is followed by
        // punctuation or a space, not a letter.
        if matches!(c, '\'' | '’') && after.starts_with(char::is_alphabetic) {
            continue;
        }
        if depth > 0 {
            depth -= 1;
            continue;
        }
        let title = &body[..i];
        if title.trim().is_empty() || quote_opens_title(title, after) {
            return None;
        }
        return Some((title, open.len_utf8() + i + c.len_utf8()));
    }
    None
}

/// `"Invisible hand" theory revisited.`: a quoted phrase at the start of a title
/// whose words go on after the closing quote. The quoted text closes with no
/// punctuation of its own and a lowercase word follows (not `in`, `by`, which open
/// the container or a credit); a capitalised word there is more often the journal
/// (`"Galactic Astronomy" Princeton University Press`).
fn quote_opens_title(quoted: &str, after: &str) -> bool {
    let closed = quoted
        .trim_end()
        .ends_with(['.', ',', ';', ':', '?', '!', '…']);
    // `'What's the story'? Working with …`: the title's question mark after the quote.
    if !closed && after.starts_with(['?', '!']) {
        return true;
    }
    // `"Je voudrais …" - Carnet de route …`: a dash before the rest of the title.
    let rest = ["- ", "– ", "— "]
        .iter()
        .find_map(|d| after.trim_start().strip_prefix(d))
        .filter(|r| after.starts_with(' ') && r.starts_with(char::is_alphabetic));
    if !closed && rest.is_some() {
        return true;
    }
    let Some(rest) = after.strip_prefix(' ') else {
        return false;
    };
    let word = rest
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    !closed
        && word.starts_with(char::is_lowercase)
        && !matches!(
            word,
            "in" | "by" | "en" | "dans" | "im" | "och" | "und" | "and"
        )
}

fn tidy_title(t: &str) -> Option<String> {
    const QUOTES: [char; 8] = ['"', '“', '”', '«', '»', '„', '‘', '’'];
    const ENDS: [char; 6] = [',', '.', ';', ':', ' ', '/'];
    let t = t.trim().trim_end_matches(ENDS);
    // Quotes around the whole title go; a quoted word at either end stays
    // (`"Invisible hand" theory`, `The meaning of "nature"`).
    let whole = t.starts_with(QUOTES) && t.ends_with(QUOTES);
    let t = if whole || t.matches(QUOTES).count() == 1 {
        t.trim_matches(QUOTES)
    } else {
        t
    };
    let t = t.trim_end_matches(ENDS).trim();
    // A medium or genre in brackets after the title: `[Motion picture]`, `[DVD]`.
    let t = match t.rfind('[') {
        Some(i) if t.ends_with(']') && i > 0 && t.len() - i < 40 => t[..i].trim_end(),
        _ => t,
    };
    (t.chars().any(char::is_alphanumeric)).then(|| t.to_string())
}

/// Venue, editors, volume, issue, pages and publisher from the text after the title.
fn read_venue<'a>(tokens: &Tokenized<'a>, rest: &'a str, f: &mut RefFields) {
    let mut rest = rest;
    for prefix in [
        "In: ", "in: ", "In ", "in ", "In:", "// ", "Dans ", "dans ", "En: ", "Em: ", "In. ",
    ] {
        if let Some(r) = rest.strip_prefix(prefix) {
            rest = r.trim_start();
            break;
        }
    }
    // `In J. C. Watson & M. S. Warner (Eds.), Container`, `edited by X`, `Ed. X.`
    let edited = ["edited by ", "Edited by ", "Ed. by ", "ed. by "]
        .iter()
        .find_map(|p| rest.strip_prefix(p));
    // Without `edited by`, the names count only as editors, which takes an editor
    // word (`Eds.`, `(Hrsg.)`): a whole alphabetic run, as its token is.
    let may_edit = edited.is_some() || markers::has_editor_word(tokens, rest);
    let list = if may_edit {
        names::scan(tokens, edited.unwrap_or(rest))
    } else {
        names::NameList::empty()
    };
    if !list.persons.is_empty() && (list.editors || edited.is_some()) {
        let base = edited.unwrap_or(rest);
        f.editors = list.persons;
        rest = base[list.end..].trim_start_matches(SEPARATORS);
    }
    let end = venue::venue_end(tokens, rest);
    let venue = rest[..end].trim();
    let after = &rest[end..];
    let publisher_like = venue.split_whitespace().any(|w| {
        lexicon::is_publisher_word(&tokens.lower_of(w))
            && w.chars().next().is_some_and(char::is_uppercase)
    }) && ![
        "Journal",
        "Proceedings",
        "Conference",
        "Review",
        "Transactions",
        "Proc",
        "Symposium",
        "Letters",
    ]
    .iter()
    .any(|k| venue.contains(k));
    let place = after.trim_start().starts_with(':');
    let tail = venue::tail(after);
    if !venue.is_empty() && venue.chars().any(char::is_alphabetic) && !place && !publisher_like {
        f.venue = Some(venue.to_string());
    }
    if publisher_like && !place {
        f.publisher = Some(venue.to_string());
    }
    if place {
        // `Berlin: Suhrkamp, 1999`: the publisher follows the place.
        let p = after.trim_start()[1..]
            .split([',', ';', '.', '('])
            .next()
            .unwrap_or("")
            .trim();
        if p.chars().any(char::is_alphabetic) {
            f.publisher = Some(p.to_string());
        }
    }
    f.volume = tail.volume;
    f.issue = tail.issue;
    f.pages = tail.pages;
    if f.publisher.is_none() {
        f.publisher = tail.publisher;
    }
    let _ = tail.venue;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Person;

    fn person(given: Option<&str>, family: &str) -> Person {
        Person::new(given, family)
    }

    #[test]
    fn apa_reference() {
        let f = parse(
            "Romero, C., Paunesku, D., & Dweck, C. (2011). Brainology in the classroom: An online growth mindset intervention. Journal of Things, 12(3), 45–67. https://doi.org/10.1000/ABC.1",
        );
        assert_eq!(
            f.authors,
            vec![
                person(Some("C."), "Romero"),
                person(Some("D."), "Paunesku"),
                person(Some("C."), "Dweck")
            ]
        );
        assert_eq!(f.year, Some(2011));
        assert_eq!(
            f.title.as_deref(),
            Some("Brainology in the classroom: An online growth mindset intervention")
        );
        assert_eq!(f.venue.as_deref(), Some("Journal of Things"));
        assert_eq!(f.volume.as_deref(), Some("12"));
        assert_eq!(f.issue.as_deref(), Some("3"));
        assert_eq!(f.pages.as_deref(), Some("45-67"));
        assert_eq!(f.doi.as_deref(), Some("10.1000/abc.1"));
    }
}
