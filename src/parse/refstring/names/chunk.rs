//! One name chunk: where it ends (`read_chunk`), what shape its tokens make
//! (`shape_of`), and the separators between chunks.

use super::super::lexicon::{is_given_name, is_org_word, is_particle, is_stopword, is_suffix};
use super::super::markers::{et_al, is_roman_suffix};
use super::super::tokens::{Kind, Tok};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// `J. R.`, `JJ` after a family chunk.
    Initials,
    /// `D. Georgakopoulos`, `Robin C. Williamson`: given names first.
    InitialsWords,
    /// `Peters OA`, `Heidegger M.`, `James C.H.`.
    WordsInitials,
    /// Only words; the count of non-particle words.
    Words(usize),
}

/// A token index range that holds (part of) one name.
pub(in crate::parse::refstring) struct Chunk {
    pub(in crate::parse::refstring) from: usize,
    pub(in crate::parse::refstring) to: usize,
}

pub(super) fn is_sep_word(t: &Tok) -> bool {
    t.kind == Kind::Word && matches!(t.text, "and" | "And" | "AND" | "und" | "et" | "y" | "e")
}

pub(super) fn is_sep(t: &Tok) -> bool {
    (t.kind == Kind::Punct && matches!(t.text, "," | ";" | "&" | "–" | "—" | "…")) || is_sep_word(t)
}

/// Read one name chunk from `i`: up to a separator, a terminator or a period that
/// closes a complete name. Returns (end token index, closed by a period).
pub(super) fn read_chunk(
    toks: &[Tok],
    i: usize,
    given_part: bool,
    vancouver: bool,
) -> (usize, bool) {
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
            // `Marta C. de la Cruz and …`, `Pieter J. van den Berg,`: lowercase
            // particles after the initial, then the family name.
            let particles_then_family =
                saw_word && !given_part && !vancouver && particles_then_family(toks, k + 1);
            // `Hayles, N. Katherine. Title`, `Hunter, J. Paul, and …`, `Mason, R. Hal and
            // …`: an initial, then the given name written out, closing the name.
            let given_follows = given_part
                && next.is_some_and(|n| {
                    n.kind == Kind::Word
                        && (n.dot || name_closes(toks, k + 2))
                        && n.capitalised()
                        && !n.is_initial()
                        && is_given_name(&n.lower())
                });
            if (saw_word || given_part)
                && !next_initial
                && !next_continues
                && !family_follows
                && !particles_then_family
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

/// From `k`: one or more lowercase particles (`de la`, `van den`, `von`), then a
/// capitalised word that ends the name (a separator, `(`, a number or the end after it).
fn particles_then_family(toks: &[Tok], k: usize) -> bool {
    let mut m = k;
    while toks
        .get(m)
        .is_some_and(|t| t.kind == Kind::Word && !t.capitalised() && is_particle(&t.lower()))
    {
        m += 1;
    }
    let Some(family) = toks.get(m).filter(|_| m > k) else {
        return false;
    };
    family.kind == Kind::Word
        && family.capitalised()
        && !family.is_initial()
        && !is_sep_word(family)
        && (family.dot
            || toks
                .get(m + 1)
                .is_none_or(|a| is_sep(a) || a.is('(') || a.kind == Kind::Num))
}

/// The shape of a chunk, or `None` when it cannot be (part of) a person's name.
pub(super) fn shape_of(toks: &[Tok]) -> Option<Shape> {
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
pub(super) fn next_chunk_shape(toks: &[Tok], i: usize) -> Option<Shape> {
    if i >= toks.len() || toks[i].kind != Kind::Word {
        return None;
    }
    let (to, _) = read_chunk(toks, i, false, false);
    shape_of(&toks[i..to])
}

pub(super) fn given_like(shape: Shape) -> bool {
    matches!(
        shape,
        Shape::Initials | Shape::WordsInitials | Shape::Words(1..=3)
    )
}

/// After a given name written out: a separator that closes the name (`, and`, `and`),
/// not a comma before initials (`Puduru, V.R. Xian, W.`: `Xian` is a family name).
fn name_closes(toks: &[Tok], k: usize) -> bool {
    toks.get(k).is_some_and(|a| {
        is_sep_word(a)
            || (a.is(',')
                && toks
                    .get(k + 1)
                    .is_none_or(|n| !(n.is_initial() || n.is_caps_initials())))
    })
}
