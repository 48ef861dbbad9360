//! Scientific tokenisation for lexical verification and passage ranking.
//!
//! Text is folded (lowercase, accents stripped, Greek letters spelled out so `TNF-α`
//! meets `TNF-alpha`), numbers keep their decimals, percent signs and p-value
//! comparisons (`3.5`, `95%`, `p<0.05`), hyphenated compounds yield both the joined
//! compound and their parts (`non-coding` → `noncoding`, `non`, `coding`), plain
//! words are stemmed (Snowball English) and stop words dropped. Words that look like
//! gene or protein names (`p53`, `miR-211`, `lncRNA`), acronyms (`COVID`, `RNA`)
//! and drug names (`remdesivir`) are kept unstemmed and marked, and negation cues
//! (`not`, `no`, `without`, `n't`, …) are reported apart from the content terms.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::lexicon::{CHEMICAL_SUFFIXES, IRREGULAR, NEGATION_CUES, STOP_WORDS, UNITS};
use crate::resolve::normalize::greek_name;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Bumped whenever tokenisation changes, so embedded tables built with an older
/// tokeniser are detected (the background table records the version it was built with).
pub const TOKENIZER_VERSION: u32 = 1;

/// What a token is; entities, acronyms and numbers weigh as evidence of topic identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A stemmed content word.
    Word,
    /// A number, percentage or p-value comparison.
    Number,
    /// An all-capitals abbreviation (`RNA`, `COVID`, `ICU`).
    Acronym,
    /// A gene, protein, strain or chemical-like name (`p53`, `IL-6`, `lncRNA`, `remdesivir`).
    Entity,
    /// A negation cue (`not`, `no`, `never`, `without`, `n't`, `lack`, …); not content.
    Negation,
}

/// One token: its normalised term, its kind and the bytes of the word it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub term: String,
    pub kind: TokenKind,
    /// Byte range in the original text of the word (compound parts share it).
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// Whether the token carries topic content (everything but negation cues).
    pub fn is_content(&self) -> bool {
        self.kind != TokenKind::Negation
    }

    /// Entities, acronyms and numbers: the specific tokens that identify a topic.
    pub fn is_specific(&self) -> bool {
        matches!(
            self.kind,
            TokenKind::Entity | TokenKind::Acronym | TokenKind::Number
        )
    }
}

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));
static STOP_SET: LazyLock<HashSet<&str>> = LazyLock::new(|| STOP_WORDS.iter().copied().collect());
static NEGATION_SET: LazyLock<HashSet<&str>> =
    LazyLock::new(|| NEGATION_CUES.iter().copied().collect());

/// Whether a folded word is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_SET.contains(word)
}

/// Whether a folded word is a negation cue (including contractions like `didn't`).
pub fn is_negation_cue(word: &str) -> bool {
    NEGATION_SET.contains(word) || word.ends_with("n't")
}

/// Stem a folded word with the Snowball English stemmer (irregular plurals first
/// become their singular).
pub fn stem(word: &str) -> String {
    // Stemming dominates tokenisation time and scientific text repeats its words,
    // so stems are memoised per thread (the cache is dropped when it grows large).
    thread_local! {
        static CACHE: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
    }
    CACHE.with(|cache| {
        if let Some(stem) = cache.borrow().get(word) {
            return stem.clone();
        }
        let singular = IRREGULAR
            .iter()
            .find(|(plural, _)| *plural == word)
            .map_or(word, |(_, singular)| singular);
        let stem = STEMMER.stem(singular).into_owned();
        let mut cache = cache.borrow_mut();
        if cache.len() >= STEM_CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(word.to_string(), stem.clone());
        stem
    })
}

const STEM_CACHE_LIMIT: usize = 50_000;

/// Lowercase, strip accents and spell out Greek letters. A micro sign before a unit
/// letter becomes `u` (`µg` → `ug`), as authors write it in ASCII.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let chars: Vec<char> = text.chars().collect();
    for (i, &raw) in chars.iter().enumerate() {
        for c in raw.to_lowercase() {
            if matches!(c, 'μ' | 'µ') && chars.get(i + 1).is_some_and(|n| "gmlLMsVAU".contains(*n))
            {
                out.push('u');
            } else if let Some(name) = greek_name(c) {
                out.push_str(name);
            } else if c.is_ascii() {
                out.push(c);
            } else {
                out.extend(c.to_string().nfkd().filter(|d| !is_combining_mark(*d)));
            }
        }
    }
    out
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}')
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

fn is_comparator(c: char) -> bool {
    matches!(c, '<' | '>' | '=' | '≤' | '≥')
}

/// Split `text` into raw words: alphanumeric runs joined by inner hyphens, apostrophes,
/// or decimal points and thousands separators between digits, with a trailing `%`,
/// and `p < 0.05` glued into one word. Returns byte ranges.
fn raw_words(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        // A leading decimal point: ".05".
        let starts_number = c == '.'
            && chars.get(i + 1).is_some_and(|n| n.1.is_ascii_digit())
            && (i == 0 || !chars[i - 1].1.is_alphanumeric());
        if !c.is_alphanumeric() && !starts_number {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i + 1;
        while j < chars.len() {
            let c = chars[j].1;
            let prev = chars[j - 1].1;
            let next = chars.get(j + 1).map(|n| n.1);
            // Inner hyphens and apostrophes join letters; '.' and ',' join digits.
            let joins = c.is_alphanumeric()
                || ((is_hyphen(c) || is_apostrophe(c)) && next.is_some_and(char::is_alphanumeric))
                || (matches!(c, '.' | ',')
                    && prev.is_ascii_digit()
                    && next.is_some_and(|n| n.is_ascii_digit()));
            if !joins {
                break;
            }
            j += 1;
        }
        if j < chars.len() && chars[j].1 == '%' && chars[j - 1].1.is_ascii_digit() {
            j += 1;
        }
        // p-values: "p<0.05", "P = .01", "p ≤ 0.001".
        let word = &text[byte_at(start)..byte_at(j)];
        if word.eq_ignore_ascii_case("p") {
            let mut k = j;
            while k < chars.len() && chars[k].1.is_whitespace() && chars[k].1 != '\n' {
                k += 1;
            }
            if k < chars.len() && is_comparator(chars[k].1) {
                let mut m = k + 1;
                while m < chars.len() && chars[m].1.is_whitespace() && chars[m].1 != '\n' {
                    m += 1;
                }
                let num_start = m;
                while m < chars.len()
                    && (chars[m].1.is_ascii_digit()
                        || (chars[m].1 == '.'
                            && chars.get(m + 1).is_some_and(|n| n.1.is_ascii_digit())))
                {
                    m += 1;
                }
                if m > num_start {
                    j = m;
                }
            }
        }
        out.push((byte_at(start), byte_at(j)));
        i = j;
    }
    out
}

/// Normalise a numeric word: drop thousands separators, add a leading zero, trim
/// trailing decimal zeros (`3,199` → `3199`, `.05` → `0.05`, `1.50` → `1.5`).
fn normalise_number(word: &str) -> String {
    let (body, percent) = match word.strip_suffix('%') {
        Some(body) => (body, "%"),
        None => (word, ""),
    };
    let mut n: String = body.chars().filter(|&c| c != ',').collect();
    if n.starts_with('.') {
        n.insert(0, '0');
    }
    if n.contains('.') {
        while n.ends_with('0') {
            n.pop();
        }
        if n.ends_with('.') {
            n.pop();
        }
    }
    n + percent
}

fn is_numeric(word: &str) -> bool {
    let body = word.strip_suffix('%').unwrap_or(word);
    !body.is_empty()
        && body.chars().any(|c| c.is_ascii_digit())
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// Normalise a p-value word (`P = .01` → `p=0.01`).
fn normalise_p_value(folded: &str) -> String {
    let compact: String = folded.chars().filter(|c| !c.is_whitespace()).collect();
    let split = compact
        .char_indices()
        .find(|&(_, c)| c.is_ascii_digit() || c == '.')
        .map_or(compact.len(), |(at, _)| at);
    let (head, number) = compact.split_at(split);
    format!("{head}{}", normalise_number(number))
}

/// Classify an original-case word that is not a number.
fn classify(original: &str, folded: &str) -> TokenKind {
    let mut letters = 0;
    let mut upper = 0;
    let mut inner_upper = 0;
    let mut has_digit = false;
    let mut greek = false;
    for c in original.chars() {
        if c.is_ascii_digit() {
            has_digit = true;
        } else if c.is_alphabetic() {
            if c.is_uppercase() {
                upper += 1;
                inner_upper += usize::from(letters > 0);
            }
            letters += 1;
            greek |= !c.is_ascii() && c.to_lowercase().next().and_then(greek_name).is_some();
        }
    }
    if has_digit || greek {
        return TokenKind::Entity;
    }
    if letters >= 2 && upper == letters {
        return TokenKind::Acronym;
    }
    // Capitals with a plural "s": RNAs, CTs.
    if letters >= 3 && upper + 1 == letters && original.ends_with('s') && inner_upper + 1 == upper {
        let stem = &original[..original.len() - 1];
        if stem
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase)
        {
            return TokenKind::Acronym;
        }
    }
    // Capitals beyond the first letter: lncRNA, miR, mRNA.
    if inner_upper >= 1 {
        return TokenKind::Entity;
    }
    if folded.len() >= 7 && CHEMICAL_SUFFIXES.iter().any(|s| folded.ends_with(s)) {
        return TokenKind::Entity;
    }
    TokenKind::Word
}

/// Fold an entity or acronym: drop hyphens, plural "s" of an acronym (`RNAs` → `rna`).
fn entity_term(original: &str, folded: &str, kind: TokenKind) -> String {
    let joined: String = folded
        .chars()
        .filter(|&c| !is_hyphen(c) && !is_apostrophe(c))
        .collect();
    let plural = original.ends_with('s')
        && original.len() >= 3
        && original[..original.len() - 1]
            .chars()
            .last()
            .is_some_and(char::is_uppercase);
    if plural && matches!(kind, TokenKind::Acronym | TokenKind::Entity) {
        joined[..joined.len() - 1].to_string()
    } else {
        joined
    }
}

/// Split a glued number and unit (`30min` → `30`, `min`).
fn split_number_unit(folded: &str) -> Option<(&str, &str)> {
    let at = folded.find(|c: char| c.is_alphabetic())?;
    let (number, unit) = folded.split_at(at);
    (is_numeric(number) && UNITS.contains(&unit)).then_some((number, unit))
}

/// Tokenise scientific text into content tokens and negation cues (stop words dropped).
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    for (start, end) in raw_words(text) {
        let original = &text[start..end];
        let mut push = |term: String, kind: TokenKind| {
            if !term.is_empty() {
                out.push(Token {
                    term,
                    kind,
                    start,
                    end,
                });
            }
        };
        let folded = fold(original);
        if folded.starts_with('p')
            && folded.len() > 1
            && folded[1..].trim_start().starts_with(is_comparator)
        {
            push(normalise_p_value(&folded), TokenKind::Number);
            continue;
        }
        if is_numeric(&folded) {
            push(normalise_number(&folded), TokenKind::Number);
            continue;
        }
        if let Some((number, unit)) = split_number_unit(&folded) {
            push(normalise_number(number), TokenKind::Number);
            push(unit.to_string(), TokenKind::Word);
            continue;
        }
        // Possessive "'s" goes; "n't" stays for the negation check.
        let folded = folded
            .strip_suffix("'s")
            .or_else(|| folded.strip_suffix("\u{2019}s"))
            .map_or(folded.clone(), str::to_string)
            .replace('\u{2019}', "'");
        if is_negation_cue(&folded) {
            push(folded, TokenKind::Negation);
            continue;
        }
        let kind = classify(original, &folded);
        let compound = folded.contains(is_hyphen);
        if kind != TokenKind::Word {
            push(entity_term(original, &folded, kind), kind);
        } else if compound {
            let joined: String = folded.chars().filter(|&c| !is_hyphen(c)).collect();
            push(stem(&joined), TokenKind::Word);
        } else if !is_stop_word(&folded) && folded.chars().count() >= 2 {
            push(stem(&folded), TokenKind::Word);
            continue;
        } else {
            continue;
        }
        // Parts of a compound: alphabetic parts only ("sars-cov-2" → sars, cov).
        if compound {
            for part in folded.split(is_hyphen) {
                if part.chars().count() >= 2
                    && part.chars().all(char::is_alphabetic)
                    && !is_stop_word(part)
                {
                    push(stem(part), TokenKind::Word);
                }
            }
        }
    }
    out
}

/// Content terms of `text` (no negation cues), in order.
pub fn terms(text: &str) -> Vec<String> {
    tokenize(text)
        .into_iter()
        .filter(Token::is_content)
        .map(|t| t.term)
        .collect()
}

/// Number of negation cues in `text`.
pub fn negation_count(text: &str) -> usize {
    tokenize(text)
        .iter()
        .filter(|t| t.kind == TokenKind::Negation)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, TokenKind)> {
        tokenize(text)
            .into_iter()
            .map(|t| (t.term, t.kind))
            .collect()
    }

    fn has(text: &str, term: &str, kind: TokenKind) -> bool {
        kinds(text).iter().any(|(t, k)| t == term && *k == kind)
    }

    #[test]
    fn numbers_keep_decimals_percent_and_p_values() {
        assert!(has("a mean of 3.5 mg", "3.5", TokenKind::Number));
        assert!(has("in 95% of cases", "95%", TokenKind::Number));
        assert!(has("significant (p<0.05)", "p<0.05", TokenKind::Number));
        assert!(has("significant (P = .050)", "p=0.05", TokenKind::Number));
        assert!(has("p\u{2009}<\u{2009}0.001", "p<0.001", TokenKind::Number));
        assert!(has("3,199 patients", "3199", TokenKind::Number));
        // A glued unit splits into the number and the unit word.
        let glued = kinds("within 30min");
        assert!(glued.contains(&("30".into(), TokenKind::Number)));
        assert!(glued.contains(&("min".into(), TokenKind::Word)));
        // A sentence-final period is not a decimal point.
        assert!(has("we enrolled 12.", "12", TokenKind::Number));
    }

    #[test]
    fn negation_cues_are_marked_and_not_content() {
        for text in [
            "it did not work",
            "no effect",
            "without benefit",
            "it didn't work",
            "it didn\u{2019}t work",
        ] {
            let tokens = tokenize(text);
            assert!(
                tokens.iter().any(|t| t.kind == TokenKind::Negation),
                "{text}"
            );
            assert!(
                terms(text).iter().all(|t| !is_negation_cue(t)),
                "negation leaked into content terms: {text}"
            );
        }
        assert_eq!(negation_count("the drug reduced mortality"), 0);
        assert_eq!(negation_count("not reduced, never improved"), 2);
    }

    #[test]
    fn hyphenated_compounds_yield_joined_form_and_parts() {
        let t = terms("non-coding RNA");
        assert!(t.contains(&stem("noncoding")), "{t:?}");
        assert!(t.contains(&stem("coding")), "{t:?}");
        assert!(t.contains(&"rna".to_string()), "{t:?}");
        // The joined form meets the unhyphenated spelling.
        assert!(terms("noncoding").iter().all(|x| t.contains(x)));
        // Entity compounds join too and keep alphabetic parts.
        let s = kinds("SARS-CoV-2 infection");
        assert!(s.contains(&("sarscov2".into(), TokenKind::Entity)), "{s:?}");
        assert!(s.iter().any(|(t, _)| t == "sar" || t == "sars"), "{s:?}");
    }

    #[test]
    fn greek_letters_are_spelled_out() {
        assert_eq!(fold("TNF-α"), "tnf-alpha");
        assert_eq!(fold("β-catenin"), "beta-catenin");
        assert_eq!(fold("Δ"), "delta");
        assert_eq!(fold("10 µg"), "10 ug");
        let a = terms("TNF-α levels");
        let b = terms("TNF-alpha levels");
        assert_eq!(a, b);
        assert!(has("TNFα", "tnfalpha", TokenKind::Entity));
    }

    #[test]
    fn accents_fold_and_case_is_ignored() {
        assert_eq!(fold("Naïve Café"), "naive cafe");
        assert_eq!(terms("Tumour Growth"), terms("tumour growth"));
    }

    #[test]
    fn entities_acronyms_and_drugs_are_classified() {
        assert!(has("p53 mutations", "p53", TokenKind::Entity));
        assert!(has("miR-211 targets", "mir211", TokenKind::Entity));
        assert!(has("lncRNAs in cancer", "lncrna", TokenKind::Entity));
        assert!(has("the COVID pandemic", "covid", TokenKind::Acronym));
        assert!(has("several RNAs", "rna", TokenKind::Acronym));
        assert!(has(
            "treated with remdesivir",
            "remdesivir",
            TokenKind::Entity
        ));
        assert!(has("IL-6 levels", "il6", TokenKind::Entity));
        // An ordinary capitalised word is a plain (stemmed) word.
        assert!(has("Patients improved", &stem("patients"), TokenKind::Word));
    }

    #[test]
    fn stop_words_are_dropped_and_words_stemmed() {
        let t = terms("The effects of the treatments were studied in these children");
        assert!(
            !t.iter().any(|x| x == "the" || x == "of" || x == "these"),
            "{t:?}"
        );
        assert!(t.contains(&stem("effect")), "{t:?}");
        assert!(t.contains(&stem("treatment")), "{t:?}");
        assert!(t.contains(&stem("child")), "irregular plural: {t:?}");
    }

    #[test]
    fn token_spans_point_at_the_word() {
        let text = "Low IL-6 (p < 0.01) in β-cells";
        for token in tokenize(text) {
            assert!(text.is_char_boundary(token.start) && text.is_char_boundary(token.end));
            assert!(token.end > token.start);
        }
        let p = tokenize(text)
            .into_iter()
            .find(|t| t.term == "p<0.01")
            .expect("p-value token");
        assert_eq!(&text[p.start..p.end], "p < 0.01");
    }
}
