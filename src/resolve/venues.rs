//! Venue knowledge: when do two venue strings name the same journal or conference?
//!
//! Three kinds of knowledge, none of it a list of particular journals:
//! - word-level abbreviation rules in the manner of the ISSN List of Title Word
//!   Abbreviations (LTWA) and ISO 4: an abbreviated word keeps the first letter and a
//!   subsequence of the word (`J.` Journal, `Natl.` National, `Secur.` Security,
//!   `Comput.` Computing), function words and publisher names are dropped, and an
//!   acronym may stand for consecutive words (`BMJ` British Medical Journal);
//! - the acronyms of well-known venues (`venue_table`);
//! - what is not a venue of record at all: preprint servers and repositories,
//!   book series that host many conferences, publisher names, placeholders.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::resolve::normalize::{fold, spelling_variant};
use crate::resolve::venue_table::KNOWN_VENUES;

/// How two venue strings relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VenueMatch {
    /// The same venue (equal, abbreviated, acronym, with or without year/edition).
    Same,
    /// Clearly different venues.
    Different,
    /// Cannot be told: a repository, preprint server, book series or publisher name
    /// on either side, or a missing/placeholder venue.
    Unknown,
}

/// Preprint servers (folded word sequences); `arXiv preprint arXiv:…` included.
const PREPRINT_SERVERS: &[&str] = &[
    "arxiv", "corr", "biorxiv", "medrxiv", "chemrxiv", "techrxiv", "psyarxiv", "socarxiv",
    "eartharxiv", "engrxiv", "edarxiv", "ssrn", "social science research network",
    "research square", "preprints", "preprint", "authorea", "qeios", "jxiv", "osf",
];

/// Word sequences that mark a repository or an aggregator rather than a venue of
/// record (OpenAlex gives these as the "venue" of repository copies).
const REPOSITORY_MARKERS: &[&str] = &[
    "repository", "eprints", "e prints", "digital commons", "escholarship", "scholarworks",
    "dspace", "research portal", "open portal", "research online", "research information",
    "research output", "zenodo", "figshare", "hal", "europe pmc", "pubmed central",
    "researchgate", "semantic scholar", "reports server", "cran", "faculty opinions",
    "f1000", "dialnet", "archive ouverte",
];

/// Words of an institution named in a trailing parenthesis (`Deep Blue (University of
/// Michigan)`): OpenAlex's way of naming an institutional repository.
const INSTITUTION_WORDS: &[&str] = &[
    "university", "universidad", "universite", "universita", "universitat", "institute",
    "college", "school", "laboratory", "library", "cern", "cornell", "nasa",
];

/// Series and proceedings collections that publish many conferences: a citation may
/// name the conference while the record names the series.
const SERIES: &[&str] = &[
    "lecture notes in", "communications in computer and information science",
    "advances in intelligent systems and computing", "studies in computational intelligence",
    "smart innovation systems and technologies", "ifip advances in",
    "proceedings of machine learning research", "ceur workshop proceedings",
    "acm international conference proceeding series", "conference series",
    "aip conference proceedings", "web of conferences", "procedia",
    "springer proceedings in", "advances in neural computation", "book series", "springer series",
];

/// Publisher names given where a venue is expected.
const PUBLISHERS: &[&str] = &[
    "springer", "elsevier", "wiley", "ieee", "acm", "taylor and francis", "sage", "mdpi",
    "oxford university press", "cambridge university press", "mit press", "crc press",
    "routledge", "frontiers media", "world scientific", "de gruyter", "ios press",
    "nature publishing group", "openreview", "openreview net", "pmlr", "hindawi", "ieee xplore",
    "association for computing machinery", "institute of electrical and electronics engineers",
];

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
    "proceedings", "proc", "ieee", "acm", "cvf", "siam", "spie", "usenix", "ifip", "ieice",
    "annual", "international", "intl", "int", "conference", "conf", "symposium", "symp", "workshop",
    "workshops", "meeting", "meetings", "congress", "joint", "online", "print", "electronic",
    "edition", "track", "main", "papers", "poster", "oral", "long", "short", "findings",
    "conferences", "symposia", "a", "it", "its",
];

fn skippable(word: &str) -> bool {
    SKIPPABLE.contains(&word) || FOREIGN_FUNCTION_WORDS.contains(&word)
}

const WORD_ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth", "twentieth", "thirtieth", "fortieth", "fiftieth",
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundredth",
];

fn contains_phrase(haystack: &[&str], phrase: &str) -> bool {
    let needle: Vec<&str> = phrase.split(' ').collect();
    haystack.windows(needle.len()).any(|w| w == needle.as_slice())
}

fn folded_words(v: &str) -> Vec<String> {
    fold(v).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect()
}

fn has_any_phrase(v: &str, phrases: &[&str]) -> bool {
    let words = folded_words(v);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    phrases.iter().any(|p| contains_phrase(&refs, p))
}

/// A venue string that stands for no venue: empty, `(No Title)`, `Unknown`, `N/A`.
pub fn is_placeholder_venue(v: &str) -> bool {
    matches!(fold(v).as_str(), "" | "no title" | "unknown" | "n a" | "na" | "none" | "null" | "untitled" | "nan")
}

/// A preprint server: `arXiv`, `arXiv preprint arXiv:2106.11959`, `CoRR`, `bioRxiv`,
/// `SSRN Electronic Journal`, `Research Square`.
pub fn is_preprint_venue(v: &str) -> bool {
    let words = folded_words(v);
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    PREPRINT_SERVERS.iter().any(|p| contains_phrase(&refs, p))
        || refs.iter().any(|w| w.starts_with("arxiv") || w.ends_with("rxiv"))
}

/// A repository or aggregator named as the venue: a preprint server, an
/// institutional repository (`Deep Blue (University of Michigan)`,
/// `ePrints Soton`), Zenodo, Europe PMC, a post-publication review service.
pub fn is_repository_venue(v: &str) -> bool {
    if is_preprint_venue(v) || has_any_phrase(v, REPOSITORY_MARKERS) {
        return true;
    }
    // `Name (Institution)`: OpenAlex names repositories after their institution.
    match (v.rfind('('), v.trim_end().ends_with(')')) {
        (Some(open), true) => has_any_phrase(&v[open..], INSTITUTION_WORDS),
        _ => false,
    }
}

/// A book series or proceedings collection (`Lecture Notes in Computer Science`,
/// `Proceedings of Machine Learning Research`) or a publisher name.
pub fn is_series_or_publisher(v: &str) -> bool {
    let folded = fold(v);
    PUBLISHERS.contains(&folded.as_str()) || has_any_phrase(v, SERIES)
}

/// The comparable word forms of a venue string: the whole name, the name without
/// parentheticals, each side of a `:`/` - ` split, and each parenthetical
/// (`(CVPR)`), with years, numbers, ordinals and function words removed.
fn forms(v: &str) -> Vec<Vec<String>> {
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
    for starter in ["-studies", "-an ", "-a ", "-advances", "-official", "-international"] {
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
    for text in texts {
        let words = key_words(&text);
        if !words.is_empty() && !out.contains(&words) {
            out.push(words);
        }
    }
    out
}

/// Folded words of a venue without what varies between editions and renderings.
fn key_words(text: &str) -> Vec<String> {
    let mut words = folded_words(text);
    // `… of the United States of America` / `U.S.A.` is dropped by abbreviating styles.
    for tail in [&["united", "states", "america"][..], &["u", "s", "a"], &["usa"], &["u", "s", "am"]] {
        if words.len() > tail.len() && words.ends_with(&tail.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
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

/// The known venues a form names: by a name phrase anywhere, or by an acronym in a
/// short form (`CVPR`, `Proc. NeurIPS`, `ICLR 2026 Poster`, a parenthetical) — long
/// names are not searched for acronyms, which are often ordinary words.
/// The table's full names as key words, computed once.
static KNOWN_NAME_KEYS: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    KNOWN_VENUES
        .iter()
        .map(|v| v.names.iter().map(|n| key_words(n).join(" ")).filter(|k| !k.is_empty()).collect())
        .collect()
});

fn known_ids(form: &[String]) -> Vec<usize> {
    let refs: Vec<&str> = form.iter().map(String::as_str).collect();
    let distinctive: Vec<&str> = refs.iter().copied().filter(|w| !skippable(w)).collect();
    let short = distinctive.len() <= 2;
    let mut ids = Vec::new();
    for (id, venue) in KNOWN_VENUES.iter().enumerate() {
        let by_name = KNOWN_NAME_KEYS[id].iter().any(|phrase| contains_phrase(&refs, phrase));
        let by_acronym = short
            && venue.acronyms.iter().any(|a| {
                contains_phrase(&distinctive, a)
                    || distinctive.iter().any(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()) == *a)
            });
        if by_name || by_acronym {
            ids.push(id);
        }
    }
    ids
}

/// One word abbreviates another the ISO 4 way: equal, or same first letter and the
/// letters of the short form appear in order in the long one (`Natl` National,
/// `Comput` Computing). Digits must be equal.
pub fn abbreviates_word(short: &str, long: &str) -> bool {
    if short == long {
        return true;
    }
    if short.len() >= long.len() || short.chars().any(|c| c.is_ascii_digit()) || long.chars().any(|c| c.is_ascii_digit()) {
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
fn forms_align(a: &[String], b: &[String]) -> bool {
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
                let Some(acronym) = short.get(si) else { continue };
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
    reach[n][m].is_some_and(|letters| letters >= 3)
}

/// Whether two venue strings name the same venue. `Unknown` when either is missing or
/// a placeholder, when the record's venue is a repository or preprint server, when
/// the cited venue is a preprint server, or when either is a series or publisher;
/// `Different` when the cited venue is an institutional repository for a record in a
/// journal or proceedings, or when no rule relates two venues of record.
pub fn compare_venues(cited: &str, record: &str) -> VenueMatch {
    if is_placeholder_venue(cited) || is_placeholder_venue(record) || is_repository_venue(record) {
        return VenueMatch::Unknown;
    }
    if is_series_or_publisher(cited) || is_series_or_publisher(record) || is_preprint_venue(cited) {
        return VenueMatch::Unknown;
    }
    // An institutional repository cited for a work the record places in a journal or
    // proceedings names where a copy sits, not where the work appeared.
    if is_repository_venue(cited) {
        return VenueMatch::Different;
    }
    if fold(cited).replace(' ', "") == fold(record).replace(' ', "") {
        return VenueMatch::Same;
    }
    let (fa, fb) = (forms(cited), forms(record));
    let ids = |forms: &[Vec<String>]| -> Vec<usize> {
        let mut ids: Vec<usize> = forms.iter().flat_map(|f| known_ids(f)).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let (ia, ib) = (ids(&fa), ids(&fb));
    if ia.iter().any(|id| ib.contains(id)) {
        return VenueMatch::Same;
    }
    if fa.iter().any(|x| fb.iter().any(|y| forms_align(x, y))) {
        return VenueMatch::Same;
    }
    // A known venue's full name against an abbreviation of it (`NIPS` vs `Adv.
    // Neural Inf. Process. Syst.`).
    let expanded = |ids: &[usize]| -> Vec<Vec<String>> {
        ids.iter()
            .flat_map(|&id| KNOWN_VENUES[id].names.iter().map(|n| key_words(n)))
            .collect()
    };
    let (ea, eb) = (expanded(&ia), expanded(&ib));
    let aligned = |xs: &[Vec<String>], ys: &[Vec<String>]| xs.iter().any(|x| ys.iter().any(|y| forms_align(x, y)));
    if aligned(&ea, &fb) || aligned(&fa, &eb) {
        return VenueMatch::Same;
    }
    VenueMatch::Different
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
    fn iso4_abbreviations_are_the_same_venue() {
        for (a, b) in [
            ("J. Neural Eng.", "Journal of Neural Engineering"),
            ("Proc. Natl. Acad. Sci. U.S.A.", "Proceedings of the National Academy of Sciences"),
            ("Proc Natl Acad Sci U S A", "Proceedings of the National Academy of Sciences of the United States of America"),
            ("IEEE Trans. Dependable Secur. Comput.", "IEEE Transactions on Dependable and Secure Computing"),
            ("IEEE Trans. Neural Netw. Learn. Syst.", "IEEE Transactions on Neural Networks and Learning Systems"),
            ("Sci Rep", "Scientific Reports"),
            ("Manag. Sci.", "Management Science"),
            ("BMJ", "British medical journal"),
            ("Berl J Fur Soziol", "Berliner Journal für Soziologie"),
            ("Ophthalmology", "Ophthalmology (Rochester, Minn.)"),
            ("Physical review. B", "Physical review. B./Physical review. B"),
            ("IEEE Transactions on Control Systems and Technology", "IEEE Transactions on Control Systems Technology"),
            ("Trans. Mach. Learn. Res.", "Transactions on Machine Learning Research"),
            ("Am J Geriatr Psychiatry", "The American journal of geriatric psychiatry"),
            ("IEEE Int Symp Qual Electron Des", "IEEE International Symposium on Quality Electronic Design"),
            ("Rev Médica Clínica Condes", "Revista Médica Clínica Las Condes"),
            ("SIGDIAL", "SIGDIAL Conferences"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Same, "{a} | {b}");
            assert_eq!(compare_venues(b, a), VenueMatch::Same, "{b} | {a}");
        }
    }

    #[test]
    fn conference_acronyms_and_full_names_are_the_same_venue() {
        for (a, b) in [
            ("NeurIPS", "Advances in Neural Information Processing Systems 36"),
            ("NIPS", "Neural Information Processing Systems"),
            ("Proc. NIPS", "Adv. Neural Inf. Process. Syst."),
            ("CVPR", "2023 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
            ("Computer Vision and Pattern Recognition", "2024 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
            ("ICASSP", "ICASSP 2021 - 2021 IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)"),
            ("ACL", "Findings of the Association for Computational Linguistics: ACL 2023"),
            ("STOC", "Proceedings of the 55th Annual ACM Symposium on Theory of Computing"),
            ("AAAI", "Proceedings of the AAAI Conference on Artificial Intelligence"),
            ("PNAS", "Proceedings of the National Academy of Sciences"),
            ("ICLR", "ICLR 2026 Poster"),
            ("ICARM", "2025 International Conference on Advanced Robotics and Mechatronics (ICARM)"),
            ("BIBM", "IEEE International Conference on Bioinformatics and Biomedicine"),
            ("FAccT", "The 2024 ACM Conference on Fairness, Accountability, and Transparency"),
            ("TREC", "Text Retrieval Conference"),
            ("Int Conf Optim Appl", "OPTIMA"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Same, "{a} | {b}");
        }
    }

    #[test]
    fn different_venues_are_different() {
        for (a, b) in [
            ("Nature", "Nature Communications"),
            ("Physical Review B", "Physical Review Letters"),
            ("CVPR", "2017 IEEE International Conference on Computer Vision (ICCV)"),
            ("Quality & Quantity", "Protein Science"),
            ("IEEE/ACM Transactions on Audio, Speech, and Language Processing", "Perception & Psychophysics"),
            ("Neural Networks", "IEEE Transactions on Neural Networks and Learning Systems"),
            ("J. Neural Eng.", "Journal of Neuroscience"),
        ] {
            assert_eq!(compare_venues(a, b), VenueMatch::Different, "{a} | {b}");
        }
    }

    #[test]
    fn repositories_preprints_series_and_placeholders_are_unknown() {
        for v in [
            "arXiv preprint arXiv:2106.11959",
            "CoRR",
            "arXiv (Cornell University)",
            "bioRxiv (Cold Spring Harbor Laboratory)",
            "Deep Blue (University of Michigan)",
            "ePrints Soton (University of Southampton)",
            "University of Canberra Research Portal",
            "Zenodo (CERN European Organization for Nuclear Research)",
            "SSRN Electronic Journal",
            "Lecture Notes in Computer Science",
            "Proceedings of Machine Learning Research",
            "Springer",
            "(No Title)",
        ] {
            assert_eq!(compare_venues("Nature", v), VenueMatch::Unknown, "{v}");
        }
        assert_eq!(compare_venues("arXiv preprint arXiv:2106.11959", "Nature"), VenueMatch::Unknown);
        assert_eq!(
            compare_venues("CaltechAUTHORS (California Institute of Technology)", "ACM Computing Surveys"),
            VenueMatch::Different
        );
        assert!(!is_repository_venue("Ophthalmology (Rochester, Minn.)"));
        assert!(!is_repository_venue("Journal of King Saud University - Computer and Information Sciences"));
        assert!(is_preprint_venue("arXiv [Preprint]"));
        assert!(!is_preprint_venue("Nature"));
    }
}
