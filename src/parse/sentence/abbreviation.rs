//! Words after which a period does not end a sentence.

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

/// Whether `word` (the letters before a period) is an initial ("J", "J.R") or a
/// listed abbreviation.
pub fn is_abbreviation(word: &str) -> bool {
    let bytes = word.as_bytes();
    if !word.is_ascii() {
        return is_initials_unicode(word);
    }
    match bytes.len() {
        0 => false,
        // A single capital letter is an initial ("J. Smith").
        1 => bytes[0].is_ascii_uppercase(),
        len => {
            // `J.R`: single capitals separated by periods.
            if bytes[1] == b'.' && len % 2 == 1 && is_ascii_initials(bytes) {
                return true;
            }
            len <= 8 && LISTED.binary_search(&pack(bytes)).is_ok()
        }
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
        #[test]
        fn agrees_with_the_rule_by_characters(word in "[a-zA-Z.ÖöŞ2]{0,10}") {
            proptest::prop_assert_eq!(is_abbreviation(&word), is_abbreviation_by_chars(&word));
        }
    }
}
