//! Author and editor lists at the head of a reference: where the list ends and how each
//! name splits into given and family parts, in the forms the styles write them —
//! `Family, I.` (APA, Harvard), `I. Family` (IEEE, ACM), `Family IN` (Vancouver),
//! `Family, Given, and Given Family` (Chicago, MLA), full names, organisations,
//! particles (`van der`, `De Nadai`), suffixes and `et al.`.

use super::lexicon::{is_given_name, is_org_word, is_particle, is_stopword, is_suffix};
use super::markers::{editor_marker, et_al, initials_in_parens, is_roman_suffix, role_marker};
use super::persons::{direct, pair, single, vancouver};
use super::tokens::{Kind, Tok, Tokenized};
use super::year::leading_year;
use crate::model::Person;

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
enum Shape {
    /// `J. R.`, `JJ` after a family chunk.
    Initials,
    /// `D. Georgakopoulos`, `Robin C. Williamson`: given names first.
    InitialsWords,
    /// `Peters OA`, `Heidegger M.`, `James C.H.`.
    WordsInitials,
    /// Only words; the count of non-particle words.
    Words(usize),
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

/// A token index range that holds (part of) one name.
pub(super) struct Chunk {
    pub(super) from: usize,
    pub(super) to: usize,
}

fn is_sep_word(t: &Tok) -> bool {
    t.kind == Kind::Word && matches!(t.text, "and" | "And" | "AND" | "und" | "et" | "y" | "e")
}

fn is_sep(t: &Tok) -> bool {
    (t.kind == Kind::Punct && matches!(t.text, "," | ";" | "&" | "–" | "—" | "…")) || is_sep_word(t)
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
        let Some(shape) = shape_of(&toks[i..to]) else {
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
            let initial_and_given = shape == Shape::InitialsWords && terminal;
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
                    list.persons.push(direct(s, &toks, &chunk));
                    true
                }
                Shape::Words(1) => false,
                Shape::Words(_)
                    if uses_initials
                        && !full_names
                        && !after_and
                        && pending.is_none()
                        && !next_is_initials(&toks, to, terminal) =>
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
                        }
                        list.persons.push(direct(s, &toks, &chunk));
                        if style == Style::Unknown {
                            style = Style::Direct;
                        }
                    } else {
                        list.stop = Stop::Comma;
                        break;
                    }
                    true
                }
                Shape::InitialsWords => {
                    list.persons.push(direct(s, &toks, &chunk));
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
    if let Some((k, end)) = loose.title_taken(runs_on(&toks, s, list.end)) {
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

/// Chicago and MLA write the first author `Family, Given` and join the others with
/// `and` (`Lakoff, George, and Mark Johnson.`, `Child, Julia, Louisette Bertholle,
/// and Simone Beck.`), and close the list with a period. Names set off by a comma
/// alone after that first author, in a list that neither reaches an `and` nor ends
/// (with a period or a year), none with a given name we know, were the title and what
/// follows it (`Narboux, Jean-Philippe, L’illusion, Paris, Éditions Flammarion, 2000`).
#[derive(Default)]
struct LooseNames {
    /// The first loose name's index and the list's end before it.
    first: Option<(usize, usize)>,
    joined: bool,
    known: bool,
}

impl LooseNames {
    fn added(&mut self, loose: bool, joined_full: bool, before: (usize, usize), known: bool) {
        if loose {
            // Only the first: `Homo Academicus, Peter Collier (trans.)` ran on.
            if self.first.is_none() {
                self.known = known;
            }
            self.first.get_or_insert(before);
        } else if joined_full && self.first.is_some() {
            self.joined = true;
        }
    }

    /// Where to cut the list back to, if the loose names were no names: the list
    /// ran on (`runs_on`) instead of ending as an author list ends.
    fn title_taken(&self, runs_on: bool) -> Option<(usize, usize)> {
        self.first
            .filter(|_| runs_on && !self.joined && !self.known)
    }
}

/// Whether the text after a name list at `end` goes on as no author list ends: a
/// comma, a parenthesis that opens no year (`Pelléas et Mélisande (New York: Dover,
/// 1985)`), or a number that is no year (`Computing Machinery and Intelligence, Mind
/// 59`) — not a period, `et al.` or the year.
fn runs_on(toks: &[Tok], s: &str, end: usize) -> bool {
    let Some(next) = toks.iter().find(|t| t.start >= end) else {
        return false;
    };
    let rest = s[next.start..].trim_start();
    next.is(',')
        || (next.is('(') && leading_year(rest).is_none())
        || (next.kind == Kind::Num && leading_year(rest).is_none())
}

/// A word we know as a given name (`Jean-Philippe` by its first part).
fn known_given(t: &Tok) -> bool {
    let lower = t.lower();
    let first = lower.split(['-', '‐']).next().unwrap_or("");
    is_given_name(&lower) || is_given_name(first)
}

/// `Buarque de Holanda, Sergio. Title`: after a first chunk of several words, a comma
/// and one given name that closes the list — the chunk was the family name.
fn given_name_follows(toks: &[Tok], to: usize, terminal: bool) -> bool {
    if terminal || !toks.get(to).is_some_and(|t| t.is(',')) {
        return false;
    }
    let k = to + 1;
    let Some(first) = toks.get(k).filter(|t| t.kind == Kind::Word) else {
        return false;
    };
    let (end, closed) = read_chunk(toks, k, true, false);
    closed && shape_of(&toks[k..end]) == Some(Shape::Words(1)) && is_given_name(&first.lower())
}

/// `Wolfgang Jantzen: Behinderung`: a full name whose first word is a given name,
/// set off from the title by a colon.
fn colon_after_full_name(toks: &[Tok], i: usize, to: usize, shape: Shape) -> bool {
    matches!(shape, Shape::Words(2..=3))
        && toks.get(to).is_some_and(|t| t.is(':'))
        && is_given_name(&toks[i].lower())
}

/// Whether separators and then a name written with initials follow from `i`
/// (`, Jones, K.`, `and K. Jones`).
fn initialled_name_follows(toks: &[Tok], i: usize) -> bool {
    let mut k = i;
    while toks.get(k).is_some_and(is_sep) {
        k += 1;
    }
    match next_chunk_shape(toks, k) {
        Some(Shape::InitialsWords | Shape::WordsInitials) => true,
        Some(Shape::Words(1)) => {
            let (to, _) = read_chunk(toks, k, false, false);
            toks.get(to).is_some_and(|t| t.is(','))
                && next_chunk_shape(toks, to + 1) == Some(Shape::Initials)
        }
        _ => false,
    }
}

fn next_is_initials(toks: &[Tok], to: usize, terminal: bool) -> bool {
    !terminal
        && toks.get(to).is_some_and(|t| t.is(',') || t.is(';'))
        && next_chunk_shape(toks, to + 1) == Some(Shape::Initials)
}

/// What may follow a name: a separator, the closing period, the year, a quote, the
/// end; a colon only after initials (`Janik J.: Title`).
fn follower_ok(toks: &[Tok], to: usize, shape: Shape, given_part: bool) -> bool {
    let Some(t) = toks.get(to) else {
        return true;
    };
    match t.kind {
        Kind::Num => true,
        Kind::Word => is_sep_word(t) || et_al(toks, to).is_some(),
        Kind::Punct => match t.text {
            "," | ";" | "&" | "." | "(" | "[" | "–" | "—" | "\"" | "“" | "«" | "„" | "‘" | "'"
            | "`" => true,
            ":" => !matches!(shape, Shape::Words(_)) || given_part,
            _ => false,
        },
    }
}

fn saw_comma_before(toks: &[Tok], i: usize) -> bool {
    i > 0
        && toks[..i]
            .iter()
            .rev()
            .take_while(|t| is_sep(t))
            .any(|t| t.is(','))
}

/// Read one name chunk from `i`: up to a separator, a terminator or a period that
/// closes a complete name. Returns (end token index, closed by a period).
fn read_chunk(toks: &[Tok], i: usize, given_part: bool, vancouver: bool) -> (usize, bool) {
    let mut k = i;
    let mut saw_word = false;
    while k < toks.len() {
        let t = &toks[k];
        if t.kind != Kind::Word || (k > i && is_sep_word(t)) || (k > i && et_al(toks, k).is_some())
        {
            return (k, false);
        }
        let initial = !is_roman_suffix(t) && (t.is_initial() || (saw_word && t.is_caps_initials()));
        let suffix = is_suffix(&t.lower());
        // `Gerrar, N. K. A Survey`: a bare capital after dotted initials opens the title.
        if given_part && initial && !t.dot && k > i && toks[k - 1].dot && toks[k - 1].is_initial() {
            return (k, true);
        }
        if t.dot {
            let next = toks.get(k + 1);
            let next_continues = next.is_some_and(|n| is_sep(n) || n.is('('));
            if suffix {
                return (k + 1, !next_continues);
            }
            if !initial {
                // A whole word with a period closes the name and the list.
                return (k + 1, !next_continues || next.is_some_and(|n| n.is('.')));
            }
            // Vancouver initials carry no periods: `Baldassarre G. A 1D CNN …` closes.
            if vancouver && saw_word && !next.is_some_and(|n| is_sep(n)) {
                return (k + 1, true);
            }
            let next_initial = next.is_some_and(|n| n.is_initial() || n.is_caps_initials());
            // `Larry D. Wittie,`: a word after the initial that closes the name.
            let family_follows = saw_word
                && !given_part
                && !vancouver
                && next.is_some_and(|n| n.kind == Kind::Word && n.capitalised() && !is_sep_word(n))
                && toks.get(k + 2).is_none_or(|a| {
                    next.is_some_and(|n| n.dot) || is_sep(a) || a.is('(') || a.kind == Kind::Num
                });
            // `Hayles, N. Katherine. Title`: an initial, then the given name written out.
            let given_follows = given_part
                && next.is_some_and(|n| {
                    n.kind == Kind::Word
                        && n.dot
                        && n.capitalised()
                        && !n.is_initial()
                        && is_given_name(&n.lower())
                });
            if (saw_word || given_part)
                && !next_initial
                && !next_continues
                && !family_follows
                && !given_follows
            {
                return (k + 1, true);
            }
        }
        saw_word |= !initial;
        k += 1;
    }
    (k, false)
}

/// The shape of a chunk, or `None` when it cannot be (part of) a person's name.
fn shape_of(toks: &[Tok]) -> Option<Shape> {
    if toks.is_empty() || toks.len() > 7 {
        return None;
    }
    let mut words = 0;
    let mut initials = 0;
    let mut first_initial = None;
    let mut last_is_initial = false;
    let mut saw_word = false;
    for (k, t) in toks.iter().enumerate() {
        let lower = t.lower();
        let l = lower.as_str();
        let initial = !is_roman_suffix(t) && (t.is_initial() || (saw_word && t.is_caps_initials()));
        if initial {
            initials += 1;
            first_initial.get_or_insert(k);
            last_is_initial = true;
            continue;
        }
        if is_suffix(l) && k > 0 {
            continue;
        }
        if is_particle(l) {
            last_is_initial = false;
            continue;
        }
        if is_stopword(l) || is_org_word(l) || !t.capitalised() || t.text.chars().count() < 2 {
            return None;
        }
        words += 1;
        saw_word = true;
        last_is_initial = false;
    }
    if words == 0 {
        // `Du, C. K.`, `Le, T.`: a particle standing alone is the family name.
        words = toks
            .iter()
            .filter(|t| is_particle(&t.lower()) && t.capitalised())
            .count();
    }
    match (words, initials) {
        (0, 0) => None,
        (0, _) => Some(Shape::Initials),
        (w, 0) if w <= 4 => Some(Shape::Words(w)),
        (_, 0) => None,
        (w, _) if w > 3 => None,
        _ if last_is_initial => Some(Shape::WordsInitials),
        _ => Some(Shape::InitialsWords),
    }
}

/// The shape of the chunk at `i` read as a name of its own (`D. Huang` is a name, not
/// the initials of the name before it).
fn next_chunk_shape(toks: &[Tok], i: usize) -> Option<Shape> {
    if i >= toks.len() || toks[i].kind != Kind::Word {
        return None;
    }
    let (to, _) = read_chunk(toks, i, false, false);
    shape_of(&toks[i..to])
}

fn given_like(shape: Shape) -> bool {
    matches!(
        shape,
        Shape::Initials | Shape::WordsInitials | Shape::Words(1..=3)
    )
}
