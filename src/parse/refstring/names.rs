//! Author and editor lists at the head of a reference: where the list ends and how each
//! name splits into given and family parts, in the forms the styles write them —
//! `Family, I.` (APA, Harvard), `I. Family` (IEEE, ACM), `Family IN` (Vancouver),
//! `Family, Given, and Given Family` (Chicago, MLA), full names, organisations,
//! particles (`van der`, `De Nadai`), suffixes and `et al.`.

pub(super) mod chunk;
mod lookahead;
mod loose;

use super::lexicon::{is_given_name, is_particle, is_suffix};
use super::markers::{editor_marker, et_al, initials_in_parens, role_marker};
use super::persons::{direct, pair, single, vancouver};
use super::tokens::{Kind, Tokenized};
use crate::model::Person;
use chunk::{Chunk, Shape, given_like, is_sep, is_sep_word, read_chunk, shape_of};
use lookahead::{
    colon_after_full_name, follower_ok, full_name_among_initials, given_name_follows,
    initialled_name_follows, next_is_initials, saw_comma_before, stopword_family,
};
use loose::{LooseNames, known_given, runs_on, title_follows};

/// What ended the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A period after a complete name (`… A. Sheth. Title`).
    Period,
    /// A comma followed by something that is not a name (`Feferman, S., Title, …`).
    Comma,
    /// Anything else: `(`, `:`, a quote, a number, the end of the text.
    Other,
}

#[derive(Debug, Clone)]
pub struct NameList {
    pub persons: Vec<Person>,
    /// Byte offset where the list (and its closing period) ends.
    pub end: usize,
    pub stop: Stop,
    pub truncated: bool,
    /// The list is marked as editors (`(Eds.)`, `eds.`).
    pub editors: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Unknown,
    /// `Family, Given` first (APA, Chicago, MLA).
    Inverted,
    /// Given names first (IEEE, ACM, full names).
    Direct,
    /// `Family INITIALS` (Vancouver).
    Vancouver,
}

impl NameList {
    pub fn empty() -> NameList {
        NameList {
            persons: Vec::new(),
            end: 0,
            stop: Stop::Other,
            truncated: false,
            editors: false,
        }
    }
}

/// Read the name list at the start of `s`.
pub fn scan<'a>(tokens: &Tokenized<'a>, s: &'a str) -> NameList {
    let toks = tokens.of(s);
    let mut list = NameList {
        persons: Vec::new(),
        end: 0,
        stop: Stop::Other,
        truncated: false,
        editors: false,
    };
    let mut style = Style::Unknown;
    let mut pending: Option<Chunk> = None;
    // Names set off by a comma alone after a `Family, Given` first author.
    let mut loose = LooseNames::default();
    let mut pending_loose = false;
    let mut i = 0;
    // The names so far carry initials: a chunk of whole words is then no name.
    let mut uses_initials = false;
    let mut full_names = false;
    let mut before_pending = 0;
    // A full name after a comma (not after `and`): (index of the person, list end before it).
    let mut last_loose: Option<(usize, usize)> = None;
    // The first such name, and the list end before it.
    let mut first_loose: Option<(usize, usize)> = None;
    loop {
        // Separators between names.
        let (mut comma, mut joined) = (false, false);
        while i < toks.len()
            && (is_sep(&toks[i]) || (toks[i].is('.') && toks.get(i + 1).is_some_and(|n| n.is(','))))
            && et_al(&toks, i).is_none()
        {
            // APA's `A, B, … Z`: names left out in the middle.
            list.truncated |= toks[i].is('…');
            comma |= toks[i].is(',');
            joined |= matches!(toks[i].text, "and" | "And" | "AND" | "&");
            i += 1;
        }
        // `Madhuri and Ravi Kumar`: a lone word joined to the next name by `and`, not
        // a comma, is a whole name (a mononym, or a family name alone), not the family
        // part of an inverted name — once the next chunk proves to be a name.
        let mononym = joined && !comma && pending.is_some();
        if let Some(after) = et_al(&toks, i) {
            list.truncated = true;
            list.end = toks[after - 1].end;
            i = after;
            if toks[after - 1].dot {
                list.stop = Stop::Period;
            } else if toks.get(i).is_some_and(|t| t.is('.')) {
                list.end = toks[i].end;
                list.stop = Stop::Period;
                i += 1;
            } else if toks.get(i).is_some_and(|t| t.is(',')) {
                list.end = toks[i].end;
                list.stop = Stop::Comma;
                i += 1;
            }
            if let Some(after) = editor_marker(&toks, i) {
                list.editors = true;
                list.end = toks[after - 1].end;
                list.stop = Stop::Period;
            }
            break;
        }
        let Some(t) = toks.get(i) else {
            list.stop = Stop::Other;
            break;
        };
        // `Pettingill, Olin Sewall, Jr.`: a suffix set off by a comma.
        if !list.persons.is_empty()
            && pending.is_none()
            && t.kind == Kind::Word
            && is_suffix(&t.lower())
            && (t.dot || toks.get(i + 1).is_none_or(|n| n.is(',') || n.is('.')))
        {
            list.end = t.end;
            i += 1;
            continue;
        }
        // `(Producer)`, `(Director)`: a role that is not authorship, skipped.
        if let Some(after) = role_marker(&toks, i) {
            i = after;
            if toks[after - 1].dot {
                list.end = toks[after - 1].end;
                list.stop = Stop::Period;
                break;
            }
            continue;
        }
        // `(Eds.)`, `, eds.`: the names were editors. The list ends there unless
        // another name with its initials follows (`Smith, J. (Ed.), Jones, K. (Ed.)`);
        // `Bell, Skip (ed.), Servants and Friends: …` goes on with the title.
        if let Some(after) = editor_marker(&toks, i) {
            list.editors = true;
            list.end = toks[after - 1].end;
            i = after;
            let closed = toks.get(i).is_some_and(|t| t.is('.'));
            if closed {
                list.end = toks[i].end;
                i += 1;
            }
            list.stop = Stop::Period;
            // MLA's `Ed. Vivien Jones.`: the marker before the names it marks.
            let marker_first = list.persons.is_empty() && pending.is_none();
            if !marker_first && (closed || !initialled_name_follows(&toks, i)) {
                // `J.M. Foley (ed.), Title, Place 1987`: a comma-separated reference.
                if toks.get(i).is_some_and(|t| t.is(',')) {
                    list.end = toks[i].end;
                    list.stop = Stop::Comma;
                }
                break;
            }
            continue;
        }
        if t.kind != Kind::Word {
            list.stop = if t.is('.') {
                list.end = t.end;
                Stop::Period
            } else {
                Stop::Other
            };
            break;
        }
        // The last name of a list (`…, and Marco De Nadai`) may be written in full.
        let after_and = i > 0 && (is_sep_word(&toks[i - 1]) || toks[i - 1].is('&'));
        let given_part = pending.is_some() && !mononym;
        let (to, terminal) = read_chunk(&toks, i, given_part, style == Style::Vancouver);
        let shape = shape_of(&toks[i..to])
            .or_else(|| stopword_family(&toks, i, to).then_some(Shape::Words(1)));
        let Some(shape) = shape else {
            list.stop = if saw_comma_before(&toks, i) {
                Stop::Comma
            } else {
                Stop::Other
            };
            break;
        };
        if !terminal
            && !follower_ok(&toks, to, shape, given_part)
            && !colon_after_full_name(&toks, i, to, shape)
        {
            list.stop = if saw_comma_before(&toks, i) {
                Stop::Comma
            } else {
                Stop::Other
            };
            break;
        }
        if mononym && let Some(fam) = pending.take() {
            // `Austen, Jane, Pride and Prejudice (London: …)`: a loose word too.
            loose.added(
                pending_loose,
                false,
                (list.persons.len(), before_pending),
                known_given(&toks[fam.from]),
            );
            list.persons.push(single(s, &toks, &fam));
        }
        if let (Shape::Words(_), Some((g_from, g_to, after))) =
            (shape, initials_in_parens(&toks, to))
        {
            let fam = Chunk { from: i, to };
            let given = Chunk {
                from: g_from,
                to: g_to,
            };
            list.persons.push(pair(s, &toks, &fam, &given));
            uses_initials = true;
            style = Style::Inverted;
            list.end = toks[after - 1].end;
            i = after;
            last_loose = None;
            first_loose = None;
            continue;
        }
        let chunk = Chunk { from: i, to };
        let comma_after_inverted = style == Style::Inverted
            && full_names
            && !uses_initials
            && !after_and
            && !list.persons.is_empty();
        // A name completed now is loose when its family part was, or when it stands
        // on its own after such a comma.
        let loose_person = if pending.is_some() {
            pending_loose
        } else {
            comma_after_inverted
        };
        let count_before = list.persons.len();
        // `Boubakri, Narjess, Ghoul, Sadok El, …`: every name inverted, no title.
        let inverted_pair = pending.is_some() && i > 0 && toks[i - 1].is(',');
        let end_before = if pending.is_some() {
            before_pending
        } else {
            list.end
        };
        let accepted = if let Some(fam) = pending.take() {
            // `Hayles, N. Katherine.`: an initial and a given name written out.
            // `Hunter, J. Paul, and …`: the same before a separator.
            let initial_and_given = shape == Shape::InitialsWords
                && (terminal || (to - i == 2 && toks[i].is_initial() && known_given(&toks[i + 1])));
            if given_like(shape) || initial_and_given {
                list.persons.push(pair(s, &toks, &fam, &chunk));
                if style == Style::Unknown {
                    style = Style::Inverted;
                }
                true
            } else {
                // A lone word, then something else: a family name, unless the list is
                // one of initials, where it is the first word of the title.
                if uses_initials && style == Style::Inverted {
                    list.end = before_pending;
                } else {
                    list.persons.push(single(s, &toks, &fam));
                }
                false
            }
        } else {
            match shape {
                Shape::Initials => false,
                Shape::Words(1)
                    if matches!(style, Style::Unknown | Style::Inverted) && !terminal =>
                {
                    before_pending = list.end;
                    pending_loose = comma_after_inverted;
                    pending = Some(chunk);
                    true
                }
                Shape::Words(1) if style == Style::Unknown => {
                    list.persons.push(single(s, &toks, &chunk));
                    true
                }
                // `Al Mok`: a given name that is also a particle.
                Shape::Words(1)
                    if style == Style::Direct && to - i >= 2 && toks[i].capitalised() =>
                {
                    list.persons.push(direct(s, &toks, &chunk, false));
                    true
                }
                Shape::Words(1) => false,
                Shape::Words(_)
                    if uses_initials
                        && !full_names
                        && !after_and
                        && pending.is_none()
                        && !next_is_initials(&toks, to, terminal)
                        && (terminal || !full_name_among_initials(&toks, i, to, shape)) =>
                {
                    false
                }
                Shape::Words(n) => {
                    let next_initials = next_is_initials(&toks, to, terminal);
                    let inverted_first = list.persons.is_empty()
                        && style == Style::Unknown
                        && !is_given_name(&toks[i].lower())
                        && given_name_follows(&toks, to, terminal);
                    if (next_initials && n <= 3 && style != Style::Direct) || inverted_first {
                        pending_loose = false;
                        pending = Some(chunk);
                    } else if n <= 4
                        && matches!(style, Style::Unknown | Style::Direct | Style::Inverted)
                    {
                        if !list.persons.is_empty() && !after_and {
                            last_loose = Some((list.persons.len(), list.end));
                            first_loose.get_or_insert((list.persons.len(), list.end));
                        }
                        list.persons.push(direct(s, &toks, &chunk, false));
                        if style == Style::Unknown {
                            style = Style::Direct;
                        }
                    } else {
                        list.stop = Stop::Comma;
                        break;
                    }
                    true
                }
                // `de S. Soares, E. F.`: a particle opens no given name, so a chunk
                // that starts with one and is followed by initials is a family name.
                Shape::InitialsWords
                    if style != Style::Direct
                        && particle_first(&toks[i])
                        && next_is_initials(&toks, to, terminal) =>
                {
                    pending_loose = false;
                    pending = Some(chunk);
                    true
                }
                Shape::InitialsWords => {
                    list.persons.push(direct(s, &toks, &chunk, list.editors));
                    if style == Style::Unknown {
                        style = Style::Direct;
                    }
                    true
                }
                Shape::WordsInitials => {
                    list.persons.push(vancouver(s, &toks, &chunk));
                    if style == Style::Unknown {
                        style = Style::Vancouver;
                    }
                    true
                }
            }
        };
        if !accepted {
            list.stop = if saw_comma_before(&toks, i) {
                Stop::Comma
            } else {
                Stop::Other
            };
            break;
        }
        if list.persons.len() > count_before {
            let full = matches!(shape, Shape::Words(2..) | Shape::InitialsWords);
            loose.added(
                loose_person,
                after_and && full,
                (count_before, end_before),
                known_given(&toks[i]) || inverted_pair,
            );
        }
        // `J. Smith`, `Smith, J.`, `Smith J`: given names as initials only.
        full_names |= matches!(shape, Shape::Words(2..))
            || (shape == Shape::InitialsWords && !toks[i].is_initial())
            || (style == Style::Inverted
                && matches!(shape, Shape::Words(_) | Shape::WordsInitials));
        uses_initials |= match shape {
            Shape::InitialsWords => toks[i].is_initial(),
            Shape::Words(_) => false,
            _ => true,
        };
        list.end = toks[to - 1].end;
        i = to;
        if terminal {
            if pending.is_none() {
                list.stop = Stop::Period;
                break;
            }
        } else if let Some(t) = toks.get(i) {
            // A stray period after a name (`Smith J .`).
            if t.is('.') && pending.is_none() {
                list.end = t.end;
                list.stop = Stop::Period;
                break;
            }
        }
    }
    if let Some(fam) = pending {
        if uses_initials && style == Style::Inverted && !toks[fam.to - 1].dot {
            list.end = before_pending;
        } else {
            list.persons.push(single(s, &toks, &fam));
            list.end = list.end.max(toks[fam.to - 1].end);
        }
    }
    // `David Archard, Sexual Consent (Boulder …)`: a list of full names whose last one
    // follows a comma, not `and`, and is followed by no name is a name and a title.
    if let Some((k, end)) = last_loose
        && list.stop == Stop::Comma
    {
        let known = list.persons[k]
            .given
            .as_deref()
            .and_then(|g| g.split_whitespace().next())
            .is_some_and(|g| is_given_name(&g.to_lowercase()));
        if k + 1 == list.persons.len() && list.persons.len() >= 2 && !list.truncated && !known {
            list.persons.truncate(k);
            list.end = end;
            list.stop = Stop::Comma;
        }
    }
    // `Mathilde von Bulow, West Germany, Cold War Europe and the Algerian War
    // (Cambridge, UK: …)`: full names after a comma, then an `and` that joins no
    // name or the book's place and publisher: from the first of them on, the title.
    let title_after = title_follows(&toks, s, list.end);
    if let Some((k, end)) = first_loose
        && title_after
        && !list.truncated
    {
        list.persons.truncate(k);
        list.end = end;
        list.stop = Stop::Comma;
    }
    if let Some((k, end)) = loose.title_taken(runs_on(&toks, s, list.end), title_after) {
        list.persons.truncate(k);
        list.end = end;
        list.stop = Stop::Comma;
    }
    // Take the separator that closed the list with it (`Smith, J.,` → after the comma).
    if list.stop == Stop::Comma
        && let Some(t) = toks.iter().find(|t| t.start >= list.end)
        && t.is(',')
    {
        list.end = t.end;
    }
    list
}

/// A lowercase particle (`de`, `van`) as the first word of a chunk.
fn particle_first(t: &super::tokens::Tok) -> bool {
    t.kind == Kind::Word && !t.capitalised() && is_particle(&t.lower())
}
