//! Names set off by a comma alone after a first `Family, Given` author: were they
//! names, or the title that follows the author?

use super::super::lexicon::is_given_name;
use super::super::title::publication_paren;
use super::super::tokens::{Kind, Tok};
use super::super::year::leading_year;

/// Chicago and MLA write the first author `Family, Given` and join the others with
/// `and` (`Lakoff, George, and Mark Johnson.`, `Child, Julia, Louisette Bertholle,
/// and Simone Beck.`), and close the list with a period. Names set off by a comma
/// alone after that first author, in a list that neither reaches an `and` nor ends
/// (with a period or a year), none with a given name we know, were the title and what
/// follows it (`Narboux, Jean-Philippe, L’illusion, Paris, Éditions Flammarion, 2000`).
#[derive(Default)]
pub(super) struct LooseNames {
    /// The first loose name's index and the list's end before it.
    first: Option<(usize, usize)>,
    joined: bool,
    known: bool,
}

impl LooseNames {
    pub(super) fn added(
        &mut self,
        loose: bool,
        joined_full: bool,
        before: (usize, usize),
        known: bool,
    ) {
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
    /// ran on (`runs_on`) instead of ending as an author list ends, or a title's end
    /// follows it (`title_after`, see [`title_follows`]), whatever the given names.
    pub(super) fn title_taken(&self, runs_on: bool, title_after: bool) -> Option<(usize, usize)> {
        self.first
            .filter(|_| !self.joined && ((runs_on && !self.known) || title_after))
    }
}

/// Whether the text after a name list at `end` goes on as no author list ends: a
/// comma, a parenthesis that opens no year (`Pelléas et Mélisande (New York: Dover,
/// 1985)`), or a number that is no year (`Computing Machinery and Intelligence, Mind
/// 59`) — not a period, `et al.` or the year.
pub(super) fn runs_on(toks: &[Tok], s: &str, end: usize) -> bool {
    let Some(next) = toks.iter().find(|t| t.start >= end) else {
        return false;
    };
    let rest = s[next.start..].trim_start();
    next.is(',')
        || (next.is('(') && leading_year(rest).is_none())
        || (next.kind == Kind::Num && leading_year(rest).is_none())
}

/// A word we know as a given name (`Jean-Philippe` by its first part).
pub(super) fn known_given(t: &Tok) -> bool {
    let lower = t.lower();
    let first = lower.split(['-', '‐']).next().unwrap_or("");
    is_given_name(&lower) || is_given_name(first)
}

/// Whether what follows a name list at `end` shows the last names were a title: an
/// `and` that joined no name (`Maurice Maeterlinck and the Making of Modern
/// Theatre`), or the place, publisher and year of a book in parentheses
/// (`William Kentridge (Brussels: Société des Expositions, 1998)`).
pub(in crate::parse::refstring) fn title_follows(toks: &[Tok], s: &str, end: usize) -> bool {
    let Some(next) = toks.iter().find(|t| t.start >= end) else {
        return false;
    };
    let dangling_and = next.kind == Kind::Word && matches!(next.text, "and" | "&") || next.is('&');
    dangling_and || (next.is('(') && publication_paren(&s[next.start..]))
}
