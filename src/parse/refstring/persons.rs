//! Building a person from the tokens of a name chunk, in each written order, and
//! organisations as authors.

use super::lexicon::{is_given_name, is_org_word, is_particle, is_suffix};
use super::names::chunk::Chunk;
use super::tokens::{Kind, Tok, Tokenized};
use crate::model::Person;

/// The source text of tokens `from..to`, without a closing period after a word.
pub(super) fn text_of<'s>(s: &'s str, toks: &[Tok], from: usize, to: usize) -> &'s str {
    if from >= to {
        return "";
    }
    let last = &toks[to - 1];
    let keep_dot = last.is_initial() || is_suffix(&last.lower()) || last.is_caps_initials();
    let end = if last.dot && !keep_dot {
        last.end - 1
    } else {
        last.end
    };
    s[toks[from].start..end].trim()
}

pub(super) fn single(s: &str, toks: &[Tok], c: &Chunk) -> Person {
    Person::new(None, text_of(s, toks, c.from, c.to))
}

pub(super) fn pair(s: &str, toks: &[Tok], family: &Chunk, given: &Chunk) -> Person {
    Person::new(
        Some(text_of(s, toks, given.from, given.to)),
        text_of(s, toks, family.from, family.to),
    )
}

/// `Family IN`: every word is the family name, the trailing initials the given name.
pub(super) fn vancouver(s: &str, toks: &[Tok], c: &Chunk) -> Person {
    let first_init = (c.from..c.to)
        .rposition_from(toks, |t| !(t.is_initial() || t.is_caps_initials()))
        .map_or(c.from, |k| k + 1);
    let given = text_of(s, toks, first_init, c.to);
    // `Hinton G.`: the period closes the list, it is not part of the initials.
    let bare = given
        .strip_suffix('.')
        .filter(|g| g.chars().all(|c| c.is_uppercase()));
    Person::new(
        Some(bare.unwrap_or(given)),
        text_of(s, toks, c.from, first_init),
    )
}

/// Given names first: the family is what follows the last initial, or the last word
/// with the particles before it. `editor`: the name follows an editor marker (MLA's
/// `Eds. J. Paul Hunter`), where a given name we know after the initial is a given
/// name. In author lists the annotated corpora read everything after the last
/// initial as the family name (`W. Bruce Croft`), and so do we there.
pub(super) fn direct(s: &str, toks: &[Tok], c: &Chunk, editor: bool) -> Person {
    // `DELISLE Léopold`, `CASSARD Jean-Christophe`: a family name in capitals first.
    let caps = |t: &Tok| {
        !t.is_initial()
            && t.text.chars().filter(|c| c.is_alphabetic()).count() >= 4
            && t.text.chars().all(|c| !c.is_lowercase())
    };
    if c.to - c.from >= 2 && caps(&toks[c.from]) && !toks[c.from..c.to].iter().skip(1).any(caps) {
        let fam_end = c.from + 1;
        return Person::new(
            Some(text_of(s, toks, fam_end, c.to)),
            text_of(s, toks, c.from, fam_end),
        );
    }
    let mut end = c.to;
    while end > c.from + 1 && is_suffix(&toks[end - 1].lower()) {
        end -= 1;
    }
    let last_initial = (c.from..end).rposition_from(toks, |t| t.is_initial());
    // `J. Paul Hunter`: a given name we know written out after the initial belongs
    // to the given names; the family is the last word.
    let given_after_initial = editor
        && last_initial.is_some_and(|k| {
            k + 2 < end && toks[k + 1].capitalised() && is_given_name(&toks[k + 1].lower())
        });
    let mut start = match last_initial {
        Some(k) if k + 1 < end && !given_after_initial => k + 1,
        _ => end - 1,
    };
    if given_after_initial || last_initial.is_none_or(|k| k + 1 >= end) {
        while start > c.from + 1 && is_particle(&toks[start - 1].lower()) {
            start -= 1;
        }
    }
    Person::new(
        Some(text_of(s, toks, c.from, start)),
        text_of(s, toks, start, c.to),
    )
}

trait RangeFind {
    fn rposition_from(self, toks: &[Tok], f: impl Fn(&Tok) -> bool) -> Option<usize>;
}

impl RangeFind for std::ops::Range<usize> {
    fn rposition_from(self, toks: &[Tok], f: impl Fn(&Tok) -> bool) -> Option<usize> {
        self.rev().find(|&k| f(&toks[k]))
    }
}

/// An organisation as author: the text up to the first period, parenthesis or colon
/// when it holds an organisation word (`World Health Organization. Title …`).
pub fn organisation<'a>(tokens: &Tokenized<'a>, s: &'a str) -> Option<(Person, usize)> {
    let toks = tokens.of(s);
    let mut org = false;
    let mut end = 0;
    let mut stop = toks.len();
    for (k, t) in toks.iter().enumerate() {
        if t.kind != Kind::Word && !t.is('&') && !t.is(',') && !t.is('-') {
            stop = k;
            break;
        }
        org |= t.kind == Kind::Word && is_org_word(&t.lower());
        end = t.end;
        if t.dot && !t.is_initial() && t.text.chars().count() > 3 {
            stop = k + 1;
            break;
        }
    }
    if !org || stop == 0 || stop > 14 {
        return None;
    }
    let name = s[..end].trim_end_matches(['.', ',']).trim();
    let close = toks.get(stop).filter(|t| t.is('.')).map_or(end, |t| t.end);
    Some((Person::new(None, name), close))
}
