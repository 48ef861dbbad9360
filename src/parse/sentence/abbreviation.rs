//! Words after which a period does not end a sentence.

use super::PLACEHOLDER_UTF8;

/// Abbreviations after which a period does not end a sentence (compared lowercase,
/// without the final period).
const ABBREVIATIONS: &[&str] = &[
    "al", "e.g", "i.e", "cf", "vs", "viz", "fig", "figs", "eq", "eqs", "eqn", "eqns", "ref",
    "refs", "sec", "secs", "tab", "tbl", "ch", "chap", "app", "no", "nos", "vol", "vols", "pp",
    "p", "ed", "eds", "approx", "resp", "dr", "mr", "mrs", "ms", "prof", "st", "inc", "ltd", "co",
    "corp", "jr", "sr", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "u.s", "u.k", "e.u", "ca", "c", "incl", "def", "thm", "lem", "prop", "cor",
    "suppl", "supp", "est", "dept", "univ", "ibid", "op", "cit", "n.b", "a.k.a", "mt", "sp", "spp",
    "sect", "sects", "para", "paras", "fn", "n.d", "appx", "ex",
];

/// [`ABBREVIATIONS`] packed as integers (see [`packed`]) and sorted, built at
/// compile time so that a look-up is a binary search over integers.
static LISTED: [u64; ABBREVIATIONS.len()] = {
    let mut listed = [0u64; ABBREVIATIONS.len()];
    let mut i = 0;
    while i < listed.len() {
        listed[i] = pack(ABBREVIATIONS[i].as_bytes());
        // Insertion sort: the list is short.
        let mut j = i;
        while j > 0 && listed[j - 1] > listed[j] {
            let swap = listed[j - 1];
            listed[j - 1] = listed[j];
            listed[j] = swap;
            j -= 1;
        }
        i += 1;
    }
    listed
};

/// Whether the word that ends just before the period at byte `dot` is an initial or
/// a listed abbreviation: [`is_abbreviation`] of [`word_before`], without looking
/// up Unicode tables for the citation placeholder that often ends the word.
pub fn ends_in_abbreviation(text: &str, dot: usize) -> bool {
    let bytes = text.as_bytes();
    let mut start = dot;
    while start > 0 && is_word_byte(bytes[start - 1]) {
        start -= 1;
    }
    if start > 0 && !bytes[start - 1].is_ascii() && !bytes[..start].ends_with(PLACEHOLDER_UTF8) {
        // A non-ASCII letter may continue the word.
        return is_abbreviation(word_before(text, dot));
    }
    is_ascii_abbreviation(&bytes[start..dot])
}

/// The longest listed word, in bytes.
const LONGEST: usize = 8;

/// Bytes of a word as [`word_before`] reads it (ASCII only).
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

/// ASCII letters, digits and `.`, as a table: the test runs on every byte of
/// every word before a period.
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'.' as usize;
        b += 1;
    }
    table
};

/// Whether `word` (the letters before a period) is an initial ("J", "J.R") or a
/// listed abbreviation.
pub(super) fn is_abbreviation(word: &str) -> bool {
    if word.is_ascii() {
        is_ascii_abbreviation(word.as_bytes())
    } else {
        is_initials_unicode(word)
    }
}

/// [`is_abbreviation`] of an ASCII word.
fn is_ascii_abbreviation(word: &[u8]) -> bool {
    match word.len() {
        0 => false,
        // A single capital letter is an initial ("J. Smith").
        1 => word[0].is_ascii_uppercase(),
        // `J.R`: single capitals separated by periods.
        len if word[1] == b'.' && len % 2 == 1 && is_ascii_initials(word) => true,
        len => len <= LONGEST && LISTED.binary_search(&pack(word)).is_ok(),
    }
}

fn is_ascii_initials(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().all(|(i, &b)| {
        if i % 2 == 0 {
            b.is_ascii_uppercase()
        } else {
            b == b'.'
        }
    })
}

/// Initials with non-ASCII capitals ("Ö", "Ö.Ş"); no listed word is non-ASCII.
fn is_initials_unicode(word: &str) -> bool {
    word.split('.').all(|part| {
        let mut cs = part.chars();
        matches!((cs.next(), cs.next()), (Some(c), None) if c.is_uppercase())
    })
}

/// An ASCII word of at most eight bytes as one lowercase integer.
const fn pack(word: &[u8]) -> u64 {
    assert!(
        word.len() <= 8,
        "listed abbreviations have at most eight bytes"
    );
    let mut buf = [0u8; 8];
    let mut i = 0;
    while i < word.len() {
        buf[i] = word[i].to_ascii_lowercase();
        i += 1;
    }
    u64::from_be_bytes(buf)
}

/// The word (letters, digits and inner periods) that ends just before byte `dot`.
pub(super) fn word_before(text: &str, dot: usize) -> &str {
    let bytes = text.as_bytes();
    let mut start = dot;
    while start > 0 && is_word_byte(bytes[start - 1]) {
        start -= 1;
    }
    if start > 0 && !bytes[start - 1].is_ascii() {
        // A non-ASCII letter may continue the word: read it by characters.
        start = text[..start]
            .char_indices()
            .rev()
            .take_while(|&(_, c)| c.is_alphanumeric() || c == '.')
            .last()
            .map_or(start, |(i, _)| i);
    }
    &text[start..dot]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule as first written: every case by characters, the list as strings.
    fn is_abbreviation_by_chars(word: &str) -> bool {
        let mut chars = word.chars();
        match (chars.next(), chars.next()) {
            (None, _) => return false,
            (Some(first), None) => return first.is_uppercase(),
            _ => {}
        }
        if word.split('.').all(|part| {
            let mut cs = part.chars();
            matches!((cs.next(), cs.next()), (Some(c), None) if c.is_uppercase())
        }) {
            return true;
        }
        word.is_ascii() && ABBREVIATIONS.contains(&word.to_ascii_lowercase().as_str())
    }

    #[test]
    fn listed_words_initials_and_others() {
        // A single letter is judged as an initial, so listed "p" and "c" count only
        // when capital.
        for word in ABBREVIATIONS.iter().filter(|w| w.len() > 1) {
            assert!(is_abbreviation(word), "{word}");
            assert!(is_abbreviation(&word.to_uppercase()), "{word}");
        }
        for word in ["J", "J.R", "J.R.R", "Ö", "Ö.Ş"] {
            assert!(is_abbreviation(word), "{word}");
        }
        for word in [
            "", "j", "p", "XY", "J.", "J.r", "results", "approxim", "ö", "2",
        ] {
            assert!(!is_abbreviation(word), "{word}");
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        #[test]
        fn the_word_before_a_period_is_read_as_a_whole(
            text in "[a-zA-Z.ÖöŞ2 (\u{FFFC}]{0,14}", tail in "[a-z2]{0,10}|\u{FFFC}",
        ) {
            let text = format!("{text}{tail}.");
            let dot = text.len() - 1;
            proptest::prop_assert_eq!(
                ends_in_abbreviation(&text, dot),
                is_abbreviation(word_before(&text, dot)),
                "{:?}", text
            );
        }

        #[test]
        fn agrees_with_the_rule_by_characters(word in "[a-zA-Z.ÖöŞ2]{0,10}") {
            proptest::prop_assert_eq!(is_abbreviation(&word), is_abbreviation_by_chars(&word));
        }
    }
}
