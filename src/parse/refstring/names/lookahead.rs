//! What follows a name chunk, read ahead before the chunk is taken: a given name,
//! a colon, initials, a name with initials, a comma before it.

use super::super::lexicon::{is_given_name, is_org_word, is_stopword};
use super::super::markers::et_al;
use super::super::tokens::{Kind, Tok};
use super::chunk::{Shape, is_sep, is_sep_word, next_chunk_shape, read_chunk, shape_of};

/// `Buarque de Holanda, Sergio. Title`: after a first chunk of several words, a comma
/// and one given name that closes the list — the chunk was the family name.
pub(super) fn given_name_follows(toks: &[Tok], to: usize, terminal: bool) -> bool {
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

/// `F. Mattioli, Camillo Porcaro, and G. Baldassarre`: a full name (two or three
/// words, the first a known given name) followed by another name — after `and`,
/// or after a comma and a given name or an initial. BibTeX styles print given
/// names as each `.bib` entry writes them, so initials and full names mix.
pub(super) fn full_name_among_initials(toks: &[Tok], i: usize, to: usize, shape: Shape) -> bool {
    if !matches!(shape, Shape::Words(2..=3)) || !super::loose::known_given(&toks[i]) {
        return false;
    }
    let (mut k, mut joined, mut comma) = (to, false, false);
    while let Some(t) = toks.get(k).filter(|t| is_sep(t)) {
        joined |= is_sep_word(t) || t.is('&');
        comma |= t.is(',');
        k += 1;
    }
    let name_next = toks
        .get(k)
        .is_some_and(|t| t.kind == Kind::Word && (t.is_initial() || super::loose::known_given(t)));
    joined || (comma && name_next)
}

/// `Wolfgang Jantzen: Behinderung`: a full name whose first word is a given name,
/// set off from the title by a colon.
pub(super) fn colon_after_full_name(toks: &[Tok], i: usize, to: usize, shape: Shape) -> bool {
    matches!(shape, Shape::Words(2..=3))
        && toks.get(to).is_some_and(|t| t.is(':'))
        && is_given_name(&toks[i].lower())
}

/// Whether separators and then a name written with initials follow from `i`
/// (`, Jones, K.`, `and K. Jones`).
pub(super) fn initialled_name_follows(toks: &[Tok], i: usize) -> bool {
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

/// `Con, A.`, `New, B. C.`, `Des, M.`: a capitalised function word alone, set off by
/// a comma before initials that close the name, is a family name. `shape_of` refuses
/// a chunk with a stopword so that titles (`On the …`, `New Directions …`) do not
/// become authors; no title opens with a lone word, a comma and initials.
pub(super) fn stopword_family(toks: &[Tok], i: usize, to: usize) -> bool {
    let Some(t) = toks.get(i).filter(|_| to == i + 1) else {
        return false;
    };
    let mut letters = t.text.chars();
    let capitalised_word = t.kind == Kind::Word
        && !t.dot
        && letters.next().is_some_and(char::is_uppercase)
        && letters.clone().next().is_some()
        && letters.all(char::is_lowercase);
    if !capitalised_word {
        return false;
    }
    let lower = t.lower();
    let word = lower.as_str();
    if !is_stopword(word) || is_org_word(word) || !next_is_initials(toks, to, false) {
        return false;
    }
    let (end, _) = read_chunk(toks, to + 1, true, false);
    follower_ok(toks, end, Shape::Initials, true)
}

pub(super) fn next_is_initials(toks: &[Tok], to: usize, terminal: bool) -> bool {
    !terminal
        && toks.get(to).is_some_and(|t| t.is(',') || t.is(';'))
        && next_chunk_shape(toks, to + 1) == Some(Shape::Initials)
}

/// What may follow a name: a separator, the closing period, the year, a quote, the
/// end; a colon only after initials (`Janik J.: Title`).
pub(super) fn follower_ok(toks: &[Tok], to: usize, shape: Shape, given_part: bool) -> bool {
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

pub(super) fn saw_comma_before(toks: &[Tok], i: usize) -> bool {
    i > 0
        && toks[..i]
            .iter()
            .rev()
            .take_while(|t| is_sep(t))
            .any(|t| t.is(','))
}
