//! Venue names as comparable words, and the word-by-word alignment that decides
//! whether one venue string abbreviates another: ISO 4 / LTWA-style word
//! abbreviations (`J.` Journal, `Natl.` National), acronyms made of word beginnings
//! (`BMJ`, `FAccT`), function words and publisher/meeting words that one rendering
//! drops, and the known acronyms of `venue_table`.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::resolve::normalize::{fold, spelling_variant};
use crate::resolve::venue_table::KNOWN_VENUES;

/// English function words that ISO 4 drops from titles. (Not the general stop-word
/// list: `Am`, `Off`, `A` are abbreviations or series letters in venue names.)
const FUNCTION_WORDS: &[&str] = &[
    "an", "and", "at", "by", "for", "from", "in", "into", "of", "on", "the", "to", "with",
];

/// Function words of other languages; skippable rather than removed, since some are
/// also abbreviations (`Des` Design).
const FOREIGN_FUNCTION_WORDS: &[&str] = &[
    "da", "das", "de", "del", "der", "des", "di", "die", "do", "dos", "du", "e", "el", "en", "et",
    "fur", "i", "la", "las", "le", "les", "los", "und", "y", "zu", "zur",
];

/// Words that may be present on one side and absent on the other without making
/// two venues different: publishers, "proceedings", meeting kinds.
const SKIPPABLE: &[&str] = &[
    "proceedings",
    "proc",
    "ieee",
    "acm",
    "cvf",
    "siam",
    "spie",
    "usenix",
    "ifip",
    "ieice",
    "annual",
    "international",
    "intl",
    "int",
    "conference",
    "conf",
    "symposium",
    "symp",
    "workshop",
    "workshops",
    "meeting",
    "meetings",
    "congress",
    "joint",
    "online",
    "print",
    "electronic",
    "edition",
    "track",
    "main",
    "papers",
    "poster",
    "oral",
    "long",
    "short",
    "findings",
    "conferences",
    "symposia",
    "a",
    "it",
    "its",
    "annu",
    "meet",
    "ws",
];

pub(crate) fn skippable(word: &str) -> bool {
    SKIPPABLE.contains(&word) || FOREIGN_FUNCTION_WORDS.contains(&word)
}

const WORD_ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundredth",
];

pub(crate) fn contains_phrase(haystack: &[&str], phrase: &str) -> bool {
    let needle: Vec<&str> = phrase.split(' ').collect();
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_slice())
}

pub(crate) fn folded_words(v: &str) -> Vec<String> {
    fold(v)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

pub(crate) fn has_any_phrase(v: &str, phrases: &[&str]) -> bool {
    let words = folded_words(v);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    phrases.iter().any(|p| contains_phrase(&refs, p))
}

/// The comparable word forms of a venue string: the whole name, the name without
/// parentheticals, each side of a `:`/` - ` split, and each parenthetical
/// (`(CVPR)`), with years, numbers, ordinals and function words removed.
pub(crate) fn forms(v: &str) -> Vec<Vec<String>> {
    let mut texts: Vec<String> = vec![v.to_string()];
    // `Physical review. B./Physical review. B`: the same name twice.
    if let Some((a, b)) = v.split_once('/')
        && fold(a) == fold(b)
    {
        texts[0] = a.to_string();
    }
    let base = texts[0].clone();
    let mut without_parens = String::new();
    let mut depth = 0usize;
    let mut inner = String::new();
    for c in base.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                if depth == 1 {
                    inner.clear();
                    continue;
                }
            }
            ')' | ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    texts.push(inner.clone());
                    continue;
                }
            }
            _ => {}
        }
        if depth == 0 {
            without_parens.push(c);
        } else {
            inner.push(c);
        }
    }
    texts.push(without_parens.clone());
    // `Eating and Weight Disorders-studies on …`, `Topoi-an International Review …`.
    for starter in [
        "-studies",
        "-an ",
        "-a ",
        "-advances",
        "-official",
        "-international",
    ] {
        if let Some(pos) = without_parens.find(starter) {
            texts.push(without_parens[..pos].to_string());
        }
    }
    for sep in [":", " - ", " – ", " — ", "/"] {
        if let Some((a, b)) = without_parens.split_once(sep) {
            texts.push(a.to_string());
            texts.push(b.to_string());
        }
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let words = key_words(text);
        // A part of the name made only of publisher and meeting words (`IEEE` of
        // `2023 IEEE/CVF Conference …`) names no venue: two conferences share it.
        let nameless = i > 0 && words.iter().all(|w| skippable(w));
        if !words.is_empty() && !nameless && !out.contains(&words) {
            out.push(words);
        }
    }
    out
}

/// Folded words of a venue without what varies between editions and renderings.
pub(crate) fn key_words(text: &str) -> Vec<String> {
    let mut words = folded_words(text);
    // `… of the United States of America` / `U.S.A.` is dropped by abbreviating styles.
    for tail in [
        &["united", "states", "america"][..],
        &["u", "s", "a"],
        &["usa"],
        &["u", "s", "am"],
    ] {
        if words.len() > tail.len()
            && words.ends_with(&tail.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        {
            words.truncate(words.len() - tail.len());
        }
    }
    words.retain(|w| {
        !w.chars().all(|c| c.is_ascii_digit())
            && !is_ordinal(w)
            && !WORD_ORDINALS.contains(&w.as_str())
            && !FUNCTION_WORDS.contains(&w.as_str())
            && !matches!(w.as_str(), "vol" | "volume")
    });
    words
}

fn is_ordinal(w: &str) -> bool {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &w[digits.len()..];
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && matches!(suffix, "st" | "nd" | "rd" | "th")
}

/// Phrases (as word lists) of the venue table, keyed by their first word, so a form
/// is matched against the table in one pass over its words.
#[derive(Default)]
struct PhraseIndex {
    by_first: HashMap<String, Vec<(usize, Vec<String>)>>,
}

impl PhraseIndex {
    fn add(&mut self, id: usize, phrase: &str) {
        let words: Vec<String> = phrase.split(' ').map(str::to_string).collect();
        self.by_first
            .entry(words[0].clone())
            .or_default()
            .push((id, words));
    }

    /// Mark `found[id]` for every venue with a phrase contained in `words`.
    fn mark(&self, words: &[&str], found: &mut [bool]) {
        for (i, w) in words.iter().enumerate() {
            for (id, phrase) in self.by_first.get(*w).into_iter().flatten() {
                let rest = &words[i..];
                if rest.len() >= phrase.len() && phrase.iter().zip(rest).all(|(p, w)| p == w) {
                    found[*id] = true;
                }
            }
        }
    }
}

/// The table's full names as key words, and its acronyms, indexed once.
struct KnownIndex {
    names: PhraseIndex,
    acronyms: PhraseIndex,
}

static KNOWN_INDEX: LazyLock<KnownIndex> = LazyLock::new(|| {
    let mut index = KnownIndex {
        names: PhraseIndex::default(),
        acronyms: PhraseIndex::default(),
    };
    for (id, venue) in KNOWN_VENUES.iter().enumerate() {
        for name in &venue.names {
            let key = key_words(name).join(" ");
            if !key.is_empty() {
                index.names.add(id, &key);
            }
        }
        for acronym in &venue.acronyms {
            index.acronyms.add(id, acronym);
        }
    }
    index
});

/// A known venue a form names, and whether by its acronym alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct KnownId {
    pub id: usize,
    pub by_acronym: bool,
}

/// The known venues a form names: by a name phrase anywhere, or by an acronym in a
/// short form (`CVPR`, `Proc. NeurIPS`, `ICLR 2026 Poster`, a parenthetical) — long
/// names are not searched for acronyms, which are often ordinary words.
pub(crate) fn known_ids(form: &[String]) -> Vec<KnownId> {
    let index = &*KNOWN_INDEX;
    let refs: Vec<&str> = form.iter().map(String::as_str).collect();
    let distinctive: Vec<&str> = refs.iter().copied().filter(|w| !skippable(w)).collect();
    let mut by_name = vec![false; KNOWN_VENUES.len()];
    index.names.mark(&refs, &mut by_name);
    let mut by_acronym = vec![false; KNOWN_VENUES.len()];
    if distinctive.len() <= 2 {
        index.acronyms.mark(&distinctive, &mut by_acronym);
        // `ICLR2026`: an acronym with a year run on.
        let trimmed: Vec<&str> = distinctive
            .iter()
            .map(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()))
            .collect();
        for w in trimmed {
            for (id, phrase) in index.acronyms.by_first.get(w).into_iter().flatten() {
                if phrase.len() == 1 {
                    by_acronym[*id] = true;
                }
            }
        }
    }
    (0..KNOWN_VENUES.len())
        .filter(|&id| by_name[id] || by_acronym[id])
        .map(|id| KnownId {
            id,
            by_acronym: !by_name[id],
        })
        .collect()
}

/// One word abbreviates another the ISO 4 way: equal, or same first letter and the
/// letters of the short form appear in order in the long one (`Natl` National,
/// `Comput` Computing). Digits must be equal.
pub fn abbreviates_word(short: &str, long: &str) -> bool {
    if short == long {
        return true;
    }
    if short.len() >= long.len()
        || short.chars().any(|c| c.is_ascii_digit())
        || long.chars().any(|c| c.is_ascii_digit())
    {
        return false;
    }
    let mut long_chars = long.chars();
    let mut short_chars = short.chars();
    if short_chars.next() != long_chars.next() {
        return false;
    }
    short_chars.all(|c| long_chars.any(|l| l == c))
}

/// Two words of two renderings of one venue name: one abbreviates the other, or they
/// are spelling variants (`Biophysics` / `Biophysical`).
fn words_correspond(a: &str, b: &str) -> bool {
    abbreviates_word(a, b)
        || abbreviates_word(b, a)
        || spelling_variant(a, b)
        || (a.len().min(b.len()) >= 9 && strsim::damerau_levenshtein(a, b) <= 2)
}

/// Where an acronym made of word beginnings can end when it starts at `words[start]`:
/// each piece abbreviates one word in order (`BIBM` BIoinformatics BioMedicine,
/// `FAccT` Fairness ACCountability Transparency, `TREC` Text REtrieval Conference),
/// skippable words may be passed over, and there are at least two pieces.
fn acronym_cover(acronym: &str, words: &[String], start: usize) -> Vec<usize> {
    fn walk(acr: &str, words: &[String], idx: usize, pieces: usize, out: &mut Vec<usize>) {
        if acr.is_empty() {
            if pieces >= 2 && !out.contains(&idx) {
                out.push(idx);
            }
            return;
        }
        let Some(word) = words.get(idx) else { return };
        if pieces > 0 && skippable(word) {
            walk(acr, words, idx + 1, pieces, out);
        }
        for len in 1..=acr.len() {
            if abbreviates_word(&acr[..len], word) {
                walk(&acr[len..], words, idx + 1, pieces + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    if (2..=10).contains(&acronym.len()) && acronym.chars().all(|c| c.is_ascii_lowercase()) {
        walk(acronym, words, start, 0, &mut out);
    }
    out
}

/// Whether two word forms align: each word of one side abbreviates a word of the
/// other in order (either side may be the abbreviated one), an acronym may stand for
/// consecutive words, and skippable words (publishers, "proceedings", meeting kinds)
/// may be missing on either side.
pub(crate) fn forms_align(a: &[String], b: &[String]) -> bool {
    let reach = alignment(a, b);
    reach[a.len()][b.len()].is_some_and(|letters| letters >= 3)
}

/// Whether one form aligns with the other's leading words and the other goes on with
/// a subtitle of two or more words (`Surgical Endoscopy` / `Surg. Endosc. Other
/// Interv. Tech.`, `The Anatomical Record` / `Anat. Rec. Integr. Anat. Evol. Biol.`).
/// Both the shared part and the subtitle need two distinctive words, so `Nature` /
/// `Nature Reviews Neuroscience` and `Physical Review` / `Phys. Rev. Lett.` differ.
pub(crate) fn forms_align_with_subtitle(a: &[String], b: &[String]) -> bool {
    let reach = alignment(a, b);
    let distinctive = |words: &[String]| words.iter().filter(|w| !skippable(w)).count();
    let (n, m) = (a.len(), b.len());
    let b_goes_on =
        (1..m).any(|j| reach[n][j].is_some_and(|l| l >= 3) && distinctive(&b[j..]) >= 2);
    let a_goes_on =
        (1..n).any(|i| reach[i][m].is_some_and(|l| l >= 3) && distinctive(&a[i..]) >= 2);
    (b_goes_on && distinctive(a) >= 2) || (a_goes_on && distinctive(b) >= 2)
}

/// The alignment table: `reach[i][j]` holds the letters matched when `a[..i]` and
/// `b[..j]` align, `None` when they cannot.
fn alignment(a: &[String], b: &[String]) -> Vec<Vec<Option<usize>>> {
    let (n, m) = (a.len(), b.len());
    // reach[i][j]: a[..i] and b[..j] align; value = letters of real matches so far.
    let mut reach = vec![vec![None::<usize>; m + 1]; n + 1];
    reach[0][0] = Some(0);
    for i in 0..=n {
        for j in 0..=m {
            let Some(score) = reach[i][j] else { continue };
            let mut set = |ii: usize, jj: usize, s: usize| {
                let cell: &mut Option<usize> = &mut reach[ii][jj];
                if cell.is_none_or(|old| old < s) {
                    *cell = Some(s);
                }
            };
            if i < n && skippable(&a[i]) {
                set(i + 1, j, score);
            }
            if j < m && skippable(&b[j]) {
                set(i, j + 1, score);
            }
            if i < n && j < m && words_correspond(&a[i], &b[j]) {
                set(i + 1, j + 1, score + a[i].len().min(b[j].len()));
            }
            for (short, long, forward) in [(a, b, true), (b, a, false)] {
                let (si, li) = if forward { (i, j) } else { (j, i) };
                let Some(acronym) = short.get(si) else {
                    continue;
                };
                for end in acronym_cover(acronym, long, li) {
                    // An acronym carries more identity than its letter count.
                    let k = acronym.len() + 2;
                    if forward {
                        set(i + 1, end, score + k);
                    } else {
                        set(end, j + 1, score + k);
                    }
                }
            }
        }
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_abbreviations_follow_ltwa() {
        for (short, long) in [
            ("j", "journal"),
            ("natl", "national"),
            ("secur", "security"),
            ("comput", "computing"),
            ("netw", "networks"),
            ("jpn", "japan"),
            ("plo", "plos"),
        ] {
            assert!(abbreviates_word(short, long), "{short} {long}");
        }
        assert!(!abbreviates_word("b", "letters"));
        assert!(!abbreviates_word("rev", "journal"));
        assert!(!abbreviates_word("36", "37"));
    }

    #[test]
    fn acronyms_cover_word_beginnings() {
        let words = |s: &str| key_words(s);
        assert_eq!(
            acronym_cover("bibm", &words("Bioinformatics and Biomedicine"), 0),
            vec![2]
        );
        assert_eq!(
            acronym_cover("bmj", &words("British Medical Journal"), 0),
            vec![3]
        );
        assert!(acronym_cover("cell", &words("Cancer Letters"), 0).is_empty());
    }
}
