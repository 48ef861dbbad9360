//! What follows a comma in a title decides whether the title ends there: a venue,
//! a report or a publisher, a meeting, the editors of an edition, a journal with its
//! volume or numbering, a place and a publisher before the year.

use super::super::lexicon::{self, is_publisher_word};
use super::super::markers;
use super::super::tokens::{Kind, Tok};
use super::super::year::YEAR;
/// Does a venue, a report or a publisher start at token `k` (after a comma)?
pub(super) fn venue_starts(s: &str, toks: &[Tok], k: usize) -> bool {
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
        // `, 66, 1991`: a volume followed by the year or the pages.
        let volume = t.text.len() <= 4
            && next.is_some_and(|n| n.is(','))
            && toks.get(k + 2).is_some_and(|n| n.kind == Kind::Num);
        return year
            || volume
            || next.is_some_and(|n| {
                n.is('(')
                    || n.is(':')
                    || (n.kind == Kind::Word
                        && matches!(
                            n.text,
                            "nd" | "rd" | "th" | "st" | "ed" | "edn" | "Aufl" | "vols" | "Bde"
                        ))
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
            | "page"
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
            | "volume"
    );
    // `, working paper,`; `, tr. W. Rehg`: a translator after the title.
    let starts = starts
        || (l == "working" && toks.get(k + 1).is_some_and(|n| n.text == "paper"))
        || (matches!(l, "tr" | "transl") && t.dot);
    if starts {
        // `to appear`, `in press`: notes, but still the end of the title.
        return l != "to" || toks.get(k + 1).is_some_and(|n| n.text == "appear");
    }
    if place_colon_publisher(toks, k) || event_segment(toks, k) || editors_follow(toks, k) {
        return true;
    }
    // A segment naming a publisher (`MIT Press`, `Springer-Verlag`).
    // A word's own period ends the segment too (`and Computation. Addison-Wesley`).
    let seg_end = toks[k..]
        .iter()
        .position(|x| x.is(',') || x.is('.') || (x.dot && !x.is_initial()))
        .map_or(toks.len(), |p| k + p + usize::from(toks[k + p].dot));
    let seg = &toks[k..seg_end];
    seg.len() <= 5
        && seg
            .iter()
            .any(|x| x.kind == Kind::Word && is_publisher_word(&x.lower()) && x.capitalised())
        && !s.is_empty()
}

/// `, Jonathan Wordsworth, M. H. Abrams, and Stephen Gill (eds.)`, `, Ugo Piovano
/// (ed.)`: from token `k`, names (capitalised words, initials, commas, `and`) closed
/// by an editor marker — the editors of the edition, after its title.
fn editors_follow(toks: &[Tok], k: usize) -> bool {
    for (n, t) in toks[k..].iter().enumerate().take(16) {
        let name_like = (t.kind == Kind::Word
            && (t.capitalised() || matches!(t.text, "and" | "&")))
            || t.is(',')
            || t.is('&')
            || t.is('.');
        let joiner = matches!(t.text, "and" | "&");
        if t.is('(') || (t.kind == Kind::Word && !t.capitalised() && !joiner) {
            return n > 0 && markers::editor_marker(toks, k + n).is_some();
        }
        if !name_like {
            return false;
        }
    }
    false
}

/// `, INTERACT 90 Proceedings,`, `, Professional Engineers in Mining Seminar,`: a
/// short segment up to the next comma that names a meeting or its proceedings.
fn event_segment(toks: &[Tok], k: usize) -> bool {
    let seg = toks[k..]
        .iter()
        .take_while(|t| !t.is(',') && !t.is('.') && !t.dot)
        .collect::<Vec<_>>();
    seg.len() <= 8
        && toks.get(k + seg.len()).is_some_and(|t| t.is(','))
        && seg.iter().any(|t| {
            t.kind == Kind::Word
                && matches!(
                    t.text,
                    "Proceedings"
                        | "Seminar"
                        | "Symposium"
                        | "Conference"
                        | "Congress"
                        | "Workshop"
                        | "Meeting"
                        | "Colloquium"
                )
        })
}

/// `, Berrien Springs: Andrews University Press, 2014`: a place of one to three
/// capitalised words, a colon and a publisher.
fn place_colon_publisher(toks: &[Tok], k: usize) -> bool {
    let Some(colon) = toks[k..].iter().position(|t| t.is(':')).map(|p| k + p) else {
        return false;
    };
    let publisher = toks[colon + 1..]
        .iter()
        .take_while(|t| !t.is(',') && !t.is('.'))
        .take(6)
        .any(|t| t.kind == Kind::Word && t.capitalised() && is_publisher_word(&t.lower()));
    place_or_publisher(&toks[k..colon]) && publisher
}

/// Volume, issue or page numbering at token `k`: `66,`, `60 (1992)`, `Vol. 15`, `pp.`.
pub(super) fn numbering_starts(toks: &[Tok], k: usize) -> bool {
    let Some(t) = toks.get(k) else {
        return false;
    };
    if t.kind == Kind::Num {
        return !(t.text.len() == 4 && YEAR.is_match(t.text));
    }
    t.kind == Kind::Word
        && matches!(
            t.lower().as_str(),
            "vol" | "volume" | "pp" | "pages" | "no" | "nr" | "n" | "number" | "issue" | "p"
        )
}

pub(super) fn is_year(toks: &[Tok], k: usize) -> bool {
    toks.get(k)
        .is_some_and(|t| t.kind == Kind::Num && t.text.len() == 4 && YEAR.is_match(t.text))
}

/// A place or a publisher between two commas: one to three capitalised words
/// (`Paris`, `Rio Grande`, `Edilig`).
pub(super) fn place_or_publisher(seg: &[Tok]) -> bool {
    (1..=3).contains(&seg.len())
        && seg
            .iter()
            .all(|t| t.kind == Kind::Word && t.capitalised() && !t.dot)
}

/// A journal's name between two commas: one to six words, the first capitalised, no
/// numbers, no colon (`Computer Communications`, `Architectural review`).
pub(super) fn journal_name(seg: &[Tok]) -> bool {
    let words = seg.iter().filter(|t| t.kind == Kind::Word).count();
    (1..=6).contains(&words)
        && seg
            .first()
            .is_some_and(|t| t.kind == Kind::Word && t.capitalised())
        && seg
            .iter()
            .all(|t| t.kind == Kind::Word || t.is('&') || t.is('-') || t.is('.'))
}

/// After a comma in a comma-separated reference: does the title go on (`…, and
/// implicit theories`)?
pub(super) fn continues_title(toks: &[Tok], k: usize) -> bool {
    toks.get(k).is_some_and(|t| {
        t.kind == Kind::Word
            && t.text.chars().next().is_some_and(char::is_lowercase)
            && !matches!(
                t.text,
                "in" | "vol" | "pp" | "no" | "pages" | "p" | "eds" | "ed" | "editors" | "v"
            )
    })
}

/// `No.`, `Vol.`, `pp.` at token `k`: a word that opens a journal's numbering.
pub(super) fn numbering_word(toks: &[Tok], k: usize) -> bool {
    toks.get(k).is_some_and(|t| {
        t.kind == Kind::Word
            && t.dot
            && matches!(t.lower().as_str(), "vol" | "no" | "nr" | "pp" | "bd" | "jg")
    })
}

/// `Mind 59: 433`, `SPFFBU B 18, 1971`: from token `k`, a journal's name (one to six
/// words, the first capitalised) and a volume number that is no year, closed by a
/// comma, a colon, a parenthesis or the end.
pub(super) fn journal_with_volume(toks: &[Tok], k: usize) -> bool {
    let Some(len) = toks[k.min(toks.len())..]
        .iter()
        .position(|t| t.kind == Kind::Num)
    else {
        return false;
    };
    let num = k + len;
    let closed = toks
        .get(num + 1)
        .is_none_or(|n| n.is(',') || n.is(':') || n.is('('));
    // The pages or the year after the volume: `59: 433`, `59 (1950)`, `59, 433-460`,
    // `18, 1971` (not `Aix-Marseille 1, 761 p.`).
    let closed = closed
        && match toks.get(num + 1) {
            Some(n) if n.is(',') => {
                is_year(toks, num + 2)
                    || toks.get(num + 3).is_some_and(|d| d.is('-') || d.is('–'))
                    || toks
                        .get(num + 2)
                        .is_some_and(|w| matches!(w.text, "pp" | "p" | "S" | "pages"))
            }
            _ => true,
        };
    len > 0
        && closed
        && !numbering_starts(toks, k)
        && !toks[k..num].iter().any(|t| {
            lexicon::is_month(&t.lower())
                || matches!(
                    t.lower().as_str(),
                    "part" | "issue" | "heft" | "band" | "suppl"
                )
        })
        && toks[num].text.len() <= 4
        && toks[num].text.bytes().all(|b| b.is_ascii_digit())
        && !is_year(toks, num)
        && journal_name(&toks[k..num])
        && !toks[k..num].iter().any(|t| t.is_initial() && t.dot)
}
