//! Text normalisation shared by the title gate and the field comparison: LaTeX and
//! HTML/MathML markup decoded, accents and Greek letters folded, case, punctuation,
//! hyphens and dashes (Unicode included) made uniform, so that two renderings of the
//! same title, name or venue fold to the same words.

use std::borrow::Cow;

use strsim::damerau_levenshtein;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

pub use crate::parse::markup::{decode_latex, strip_markup};

/// The Latin name of a (lowercase) Greek letter, so `α` and `alpha` fold alike (the
/// judge's text reads Greek letters by the same names).
pub fn greek_name(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "alpha",
        'β' | 'ϐ' => "beta",
        'γ' => "gamma",
        'δ' => "delta",
        'ε' | 'ϵ' => "epsilon",
        'ζ' => "zeta",
        'η' => "eta",
        'θ' | 'ϑ' => "theta",
        'ι' => "iota",
        'κ' | 'ϰ' => "kappa",
        'λ' => "lambda",
        'μ' | 'µ' => "mu",
        'ν' => "nu",
        'ξ' => "xi",
        'ο' => "omicron",
        'π' | 'ϖ' => "pi",
        'ρ' | 'ϱ' => "rho",
        'σ' | 'ς' => "sigma",
        'τ' => "tau",
        'υ' => "upsilon",
        'φ' | 'ϕ' => "phi",
        'χ' => "chi",
        'ψ' => "psi",
        'ω' => "omega",
        _ => return None,
    })
}

/// Letters that NFKD does not decompose into a base letter and a mark.
fn special_fold(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'ø' => "o",
        'đ' | 'ð' => "d",
        'ł' => "l",
        'æ' => "ae",
        'œ' => "oe",
        'þ' => "th",
        'ı' => "i",
        'ħ' => "h",
        _ => return None,
    })
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | '‘' | 'ʼ' | 'ʻ' | '`' | '´' | '′')
}

/// Fold text for matching: LaTeX and markup decoded, NFKD with marks dropped, Greek
/// letters spelled out, lowercase, `&` → `and`, apostrophes removed (`Alzheimer's` →
/// `alzheimers`), every other non-alphanumeric character (hyphens and dashes of every
/// kind, punctuation, symbols) a single space; trimmed.
pub fn fold(s: &str) -> String {
    // Plain ASCII without markup (most titles and names) decodes and decomposes to
    // itself: the copies and the Unicode passes are skipped.
    let plain =
        s.is_ascii() && !s.contains(['\\', '{', '}', '$', '~', '<', '&']) && !s.contains("--");
    if plain {
        return fold_chars(s.chars(), s.len());
    }
    let decoded = strip_markup(&decode_latex(s));
    fold_chars(decoded.nfkd(), decoded.len())
}

fn fold_chars(chars: impl Iterator<Item = char>, len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut pending_space = false;
    let push = |out: &mut String, text: &str, pending_space: &mut bool| {
        if *pending_space && !out.is_empty() {
            out.push(' ');
        }
        *pending_space = false;
        out.push_str(text);
    };
    for c in chars {
        if is_combining_mark(c) || is_apostrophe(c) {
            continue;
        }
        for lower in c.to_lowercase() {
            if let Some(name) = greek_name(lower).or_else(|| special_fold(lower)) {
                push(&mut out, name, &mut pending_space);
            } else if lower == '&' {
                pending_space = true;
                push(&mut out, "and", &mut pending_space);
                pending_space = true;
            } else if lower.is_alphanumeric() {
                let mut buf = [0u8; 4];
                push(&mut out, lower.encode_utf8(&mut buf), &mut pending_space);
            } else {
                pending_space = true;
            }
        }
    }
    out
}

/// The folded words of a text.
pub fn words(s: &str) -> Vec<String> {
    fold(s)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The folded text with every space removed: `Pre-Training` and `pretraining` agree.
pub fn compact(s: &str) -> String {
    fold(s).replace(' ', "")
}

/// A word with British spellings mapped to American ones (`optimisation` →
/// `optimization`, `colour` → `color`, `modelling` → `modeling`, `centre` →
/// `center`, `anaemia` → `anemia`), so that both spellings compare equal.
fn american(word: &str) -> Cow<'_, str> {
    // Most words hold none of the patterns: no copy then (and nothing replaced can
    // create a pattern in a word that held none).
    const INNER: [&str; 6] = ["isation", "yse", "ae", "oe", "our", "ll"];
    const ENDINGS: [&str; 6] = ["ise", "ised", "ises", "ising", "tre", "tres"];
    if !ENDINGS.iter().any(|e| word.ends_with(e)) && !INNER.iter().any(|p| word.contains(p)) {
        return Cow::Borrowed(word);
    }
    let mut w = word
        .replace("isation", "ization")
        .replace("yse", "yze")
        .replace("ae", "e")
        .replace("oe", "e");
    for (british, american) in [
        ("ise", "ize"),
        ("ised", "ized"),
        ("ises", "izes"),
        ("ising", "izing"),
        ("tre", "ter"),
        ("tres", "ters"),
    ] {
        if let Some(stem) = w.strip_suffix(british)
            && stem.len() >= 3
        {
            w = format!("{stem}{american}");
            break;
        }
    }
    Cow::Owned(w.replace("our", "or").replace("ll", "l"))
}

/// Two folded words that are one spelling apart: equal, British and American
/// spellings of one word, or for words of five letters or more one edit apart
/// (`network`/`networks`, a typo); numbers only when equal.
pub fn spelling_variant(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.min(lb) < 5
        || la.abs_diff(lb) > 3
        || a.chars().chain(b.chars()).any(|c| c.is_ascii_digit())
    {
        return false;
    }
    let (a, b) = (american(a), american(b));
    // One edit changes the length by at most one character.
    a == b
        || (a.chars().count().abs_diff(b.chars().count()) <= 1 && damerau_levenshtein(&a, &b) <= 1)
}

/// English function words that carry no identity in a title (DeepSciVerify filters
/// titles the same way before measuring word overlap).
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
    "as", "at", "be", "been", "before", "being", "below", "between", "both", "but", "by", "can",
    "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from",
    "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how",
    "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "no",
    "nor", "not", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over",
    "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs",
    "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under",
    "until", "up", "upon", "very", "via", "was", "we", "were", "what", "when", "where", "which",
    "while", "who", "whom", "why", "will", "with", "would", "you", "your",
];

pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Folded words without stop words; all words when nothing else is left
/// (`"What is it?"` keeps its words rather than becoming empty).
pub fn content_words(s: &str) -> Vec<String> {
    content_of_folded(&fold(s))
}

/// [`content_words`] of text that is already folded.
pub fn content_of_folded(folded: &str) -> Vec<String> {
    let all: Vec<String> = folded
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let content: Vec<String> = all.iter().filter(|w| !is_stop_word(w)).cloned().collect();
    if content.is_empty() { all } else { content }
}

/// How a record's title announces a retraction or withdrawal.
const RETRACTION_PREFIXES: &[&str] = &[
    "retracted article",
    "retracted",
    "withdrawn article",
    "withdrawn",
];

/// Strip a `RETRACTED:` / `RETRACTED ARTICLE:` / `[Retracted]` / `WITHDRAWN:` prefix
/// from a record's title. Returns the remaining title and whether a prefix was there.
/// Retraction *notices* (`Retraction: …`, `Retraction Note to: …`) are separate
/// works and keep their titles.
pub fn strip_retraction_prefix(title: &str) -> (&str, bool) {
    let trimmed = title.trim_start();
    let (inner, bracketed) = match trimmed.strip_prefix('[') {
        Some(rest) => (rest, true),
        None => (trimmed, false),
    };
    for prefix in RETRACTION_PREFIXES {
        let Some(head) = inner.get(..prefix.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(prefix) {
            continue;
        }
        let rest = &inner[prefix.len()..];
        let rest = if bracketed {
            match rest.trim_start().strip_prefix(']') {
                Some(r) => r,
                None => continue,
            }
        } else {
            match rest.trim_start().strip_prefix(':') {
                Some(r) => r,
                None => continue,
            }
        };
        let rest = rest.trim_start_matches([' ', ':', '-', '–', '—']);
        if !rest.is_empty() {
            return (rest, true);
        }
    }
    (title, false)
}

/// Split a title into its main title and subtitle at the first `:`, spaced dash,
/// `?`/`!` followed by more words, or `. ` inside the title. `None` when there is no
/// such separator or either side would be empty.
pub fn split_subtitle(title: &str) -> Option<(&str, &str)> {
    let bytes = title.as_bytes();
    let mut best: Option<(usize, usize)> = None;
    for (pos, c) in title.char_indices() {
        let len = c.len_utf8();
        let next = bytes.get(pos + len).copied();
        let prev = pos.checked_sub(1).and_then(|p| bytes.get(p)).copied();
        let found = match c {
            ':' => true,
            '?' | '!' | '.' => next == Some(b' '),
            '-' | '–' | '—' => prev == Some(b' ') && next == Some(b' '),
            _ => false,
        };
        // `p. 3`, `U.S. Army`: a period after a single letter is an abbreviation.
        let abbreviation = c == '.'
            && title[..pos]
                .rsplit(' ')
                .next()
                .is_some_and(|w| w.chars().count() <= 1 || w.contains('.'));
        if found && !abbreviation {
            best = Some((pos, pos + len));
            break;
        }
    }
    let (start, end) = best?;
    let main = title[..start].trim();
    let keep_mark = matches!(&title[start..end], "?" | "!");
    let main = if keep_mark { title[..end].trim() } else { main };
    let sub = title[end..].trim();
    (!fold(main).is_empty() && !fold(sub).is_empty()).then_some((main, sub))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// The plain-ASCII shortcut folds exactly as the full decoding does.
        #[test]
        fn plain_ascii_folds_as_the_full_path(s in "[ -~]{0,40}") {
            let full = strip_markup(&decode_latex(&s));
            prop_assert_eq!(fold(&s), fold_chars(full.nfkd(), full.len()));
        }
    }

    #[test]
    fn fold_unifies_case_accents_greek_dashes_and_apostrophes() {
        assert_eq!(fold("α-Synuclein"), "alpha synuclein");
        assert_eq!(fold(r"$\alpha$-synuclein"), "alpha synuclein");
        assert_eq!(fold("TNF‐α"), "tnf alpha");
        assert_eq!(fold("Müller–Lyer illusion"), "muller lyer illusion");
        assert_eq!(fold("Alzheimer’s disease"), "alzheimers disease");
        assert_eq!(fold("Søren Łukasz"), "soren lukasz");
        assert_eq!(fold("Q&A"), "q and a");
        assert_eq!(fold("  Deep   Learning. "), "deep learning");
        assert_eq!(fold("µm"), "mum");
        assert_eq!(compact("Pre-Training"), compact("pretraining"));
    }

    #[test]
    fn spelling_variants_are_one_word() {
        for (a, b) in [
            ("optimisation", "optimization"),
            ("modelling", "modeling"),
            ("colour", "color"),
            ("centre", "center"),
            ("anaemia", "anemia"),
            ("analyse", "analyze"),
            ("networks", "network"),
        ] {
            assert!(spelling_variant(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("intelligence", "intelligent"),
            ("data", "date"),
            ("2019", "2018"),
            ("learning", "reasoning"),
        ] {
            assert!(!spelling_variant(a, b), "{a} {b}");
        }
    }

    #[test]
    fn content_words_drop_stop_words_but_never_everything() {
        assert_eq!(
            content_words("Attention Is All You Need"),
            ["attention", "need"]
        );
        assert_eq!(content_words("What is it"), ["what", "is", "it"]);
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS, "binary search needs a sorted list");
    }

    #[test]
    fn retraction_prefixes_are_stripped_but_notices_are_not() {
        assert_eq!(
            strip_retraction_prefix("RETRACTED: A 1D CNN"),
            ("A 1D CNN", true)
        );
        assert_eq!(
            strip_retraction_prefix("RETRACTED ARTICLE: Artificial intelligence"),
            ("Artificial intelligence", true)
        );
        assert_eq!(
            strip_retraction_prefix("[Retracted] Foo bar"),
            ("Foo bar", true)
        );
        assert_eq!(
            strip_retraction_prefix("Retraction Note: Foo"),
            ("Retraction Note: Foo", false)
        );
        assert_eq!(
            strip_retraction_prefix("Retracted memories in sleep"),
            ("Retracted memories in sleep", false)
        );
    }

    #[test]
    fn subtitles_split_at_colon_dash_and_question() {
        assert_eq!(
            split_subtitle("BERT: Pre-training of deep transformers"),
            Some(("BERT", "Pre-training of deep transformers"))
        );
        assert_eq!(
            split_subtitle("Can AI be creative? Evidence from art"),
            Some(("Can AI be creative?", "Evidence from art"))
        );
        assert_eq!(
            split_subtitle("Listen to look - action"),
            Some(("Listen to look", "action"))
        );
        assert_eq!(split_subtitle("Rao-Blackwellized particle filtering"), None);
        assert_eq!(split_subtitle("U.S. Army data"), None);
        assert_eq!(split_subtitle("Why?"), None);
    }
}
