//! Author–year citations: parenthetical `(Smith et al., 2020)`,
//! `(see Smith & Jones 2019; Lee 2021, p. 4)` and narrative `Smith et al. (2020)`.

use std::sync::LazyLock;

use regex::Regex;

use super::Item;
use crate::model::{CitationKind, Span};

const NAME: &str = r"(?:(?:van|von|de|der|den|del|della|di|da|du|dos|das|le|la|ten|ter|St\.?)\s+)*\p{Lu}[\p{L}\p{M}'’\-]*[\p{L}\p{M}]";
const YEAR: &str = r"(?:(?:1[6-9]\d\d|20\d\d)[a-z]?|n\.d\.|in\s+press|forthcoming)";

/// `NAME et al.`, `NAME and NAME`, `NAME, NAME, & NAME`, `NAME`.
fn names() -> String {
    format!(r"{NAME}(?:\s+et\s+al\.?|(?:,\s*{NAME})*,?\s+(?:and|&)\s+{NAME})?")
}

/// One part of a parenthetical: optional prefix, names, years, optional locator.
static ITEM: LazyLock<Regex> = LazyLock::new(|| {
    let names = names();
    Regex::new(&format!(
        r"^\s*(?:(?i:see\s+also|see|e\.g\.,?|cf\.|i\.e\.,?|also|reviewed\s+in|as\s+in)\s+)?(?P<key>{names},?\s+{YEAR}(?:,\s*{YEAR})*)(?:,\s*[^;()\[\]]{{0,60}})?\s*$"
    ))
    .expect("author-year item regex")
});

/// Parenthetical content of a narrative citation: years and an optional locator.
static YEARS_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^\s*{YEAR}(?:,\s*{YEAR})*(?:,\s*[^;()\[\]]{{0,40}})?\s*$"
    ))
    .expect("years regex")
});

/// Names that end right before a narrative `(2020)`: only forms with `et al.` or
/// two or more authors, so that `in Europe (2020)` is not taken for a citation.
static NARRATIVE_NAMES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:{NAME}\s+et\s+al\.?|{NAME}(?:,\s*{NAME})*,?\s+(?:and|&)\s+{NAME})\s*$"
    ))
    .expect("narrative names regex")
});

/// Capitalised words that are not authors although a year follows them.
const NOT_AUTHORS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Sept",
    "Oct",
    "Nov",
    "Dec",
    "Spring",
    "Summer",
    "Fall",
    "Autumn",
    "Winter",
    "Since",
    "In",
    "From",
    "Until",
    "Before",
    "After",
    "Circa",
    "Updated",
    "Published",
    "Accessed",
    "Retrieved",
    "Released",
    "Version",
    "Figure",
    "Fig",
    "Table",
    "Year",
    "Years",
    "Est",
    "Founded",
    "Born",
    "Died",
    "Copyright",
    "The",
    "As",
    "By",
    "And",
    "Or",
    "To",
    "For",
    "Between",
    "During",
    "Around",
    "About",
    "Approx",
    "Through",
    "Early",
    "Late",
    "Mid",
    "Q",
    "Rev",
    "Edition",
];

/// Longest parenthetical considered.
const MAX_LEN: usize = 400;

/// An author–year construct around the `(` at byte `open`: its bytes, its items
/// pushed to `items` (when it is none, what was pushed is the caller's to drop).
pub(super) fn parenthetical(text: &str, open: usize, items: &mut Vec<Item>) -> Option<Span> {
    let bytes = text.as_bytes();
    let end = bytes.len().min(open + MAX_LEN);
    let close = open + 1 + memchr::memchr3(b')', b'(', b'\n', &bytes[open + 1..end])?;
    if bytes[close] != b')' {
        return None;
    }
    let content = &text[open + 1..close];
    if !may_hold_year(content.as_bytes()) {
        return None;
    }
    // What the patterns need first, checked before running them: [`YEARS_ONLY`]
    // starts with a year, [`ITEM`] with a letter.
    let first = content.trim_start().chars().next()?;
    if may_start_year(first) && YEARS_ONLY.is_match(content) {
        return narrative(text, open, close, items);
    }
    if !first.is_alphabetic() {
        return None;
    }
    let mut pos = 0;
    for part in content.split(';') {
        let base = open + 1 + pos;
        pos += part.len() + 1;
        let caps = ITEM.captures(part)?;
        let key = caps.name("key")?;
        if is_not_author(key.as_str()) {
            return None;
        }
        items.push(item(
            key.as_str(),
            Span::new(base + key.start(), base + key.end()),
            false,
        ));
    }
    Some(Span::new(open, close + 1))
}

/// Cheap rejection: every citation holds a [`YEAR`]. Parentheticals without a digit
/// or `n.d` are not read further; of the rest, only those that hold the start of a
/// year (`16`…`19`, `20`, `n.d.`, `press`, `forthcoming`) can match the patterns.
fn may_hold_year(content: &[u8]) -> bool {
    if !has_digit_or_nd(content) {
        return false;
    }
    let has = |word: &[u8]| content.windows(word.len()).any(|w| w == word);
    let year_start = content
        .windows(2)
        .any(|w| matches!(w, [b'1', b'6'..=b'9'] | [b'2', b'0']));
    year_start || has(b"n.d.") || has(b"press") || has(b"forthcoming")
}

/// Whether a [`YEAR`] may start with `c`.
fn may_start_year(c: char) -> bool {
    matches!(c, '1' | '2' | 'n' | 'i' | 'f')
}

/// Whether `content` holds an ASCII digit or `n.d`, in one pass.
fn has_digit_or_nd(content: &[u8]) -> bool {
    content.iter().enumerate().any(|(i, &b)| {
        b.is_ascii_digit()
            || (b == b'.' && i > 0 && content[i - 1] == b'n' && content.get(i + 1) == Some(&b'd'))
    })
}

/// `Smith et al. (2020)`: names right before the parenthesis.
fn narrative(text: &str, open: usize, close: usize, items: &mut Vec<Item>) -> Option<Span> {
    let mut from = open.saturating_sub(150);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let window = &text[from..open];
    let m = NARRATIVE_NAMES.find(window)?;
    let start = from + m.start();
    if is_not_author(m.as_str()) {
        return None;
    }
    let span = Span::new(start, close + 1);
    items.push(item(&text[span.start..span.end], span, true));
    Some(span)
}

fn is_not_author(names: &str) -> bool {
    let first = names
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("");
    NOT_AUTHORS.contains(&first)
}

fn item(key: &str, span: Span, narrative: bool) -> Item {
    Item {
        key: key.to_string(),
        kind: CitationKind::AuthorYear,
        span,
        id: None,
        narrative,
        command: "author-year",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<String> {
        let open = text.find('(').unwrap();
        let mut items = Vec::new();
        parenthetical(text, open, &mut items)
            .map(|_| items.into_iter().map(|i| i.key).collect())
            .unwrap_or_default()
    }

    #[test]
    fn parenthetical_forms() {
        assert_eq!(keys("x (Smith et al., 2020)."), vec!["Smith et al., 2020"]);
        assert_eq!(
            keys("x (Smith & Jones 2019; Lee 2021)"),
            vec!["Smith & Jones 2019", "Lee 2021"]
        );
        assert_eq!(
            keys("x (see van der Berg, 2018a, p. 4)"),
            vec!["van der Berg, 2018a"]
        );
        assert_eq!(
            keys("x (Müller, Ørsted, and Żak 2001)"),
            vec!["Müller, Ørsted, and Żak 2001"]
        );
        assert!(keys("x (March 2020)").is_empty());
        assert!(keys("x (n = 2020)").is_empty());
        assert!(keys("x (Smith 2020; see the appendix)").is_empty());
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// What the cheap rejection turns away holds no year: the patterns would not
        /// have matched it (or the digit test it always had turned it away).
        #[test]
        fn rejected_parentheticals_hold_no_year(parts in proptest::collection::vec(
            proptest::sample::select(&["1", "6", "9", "2", "0", "5", "1655", "1999", "2020", "n", ".", "d", "in", " ",
                "press", "forthcoming", "Smith", ",", "٣"][..]), 0..12)) {
            let content = parts.concat();
            let digit_or_nd = content.bytes().any(|b| b.is_ascii_digit()) || content.contains("n.d");
            proptest::prop_assert_eq!(has_digit_or_nd(content.as_bytes()), digit_or_nd);
            let year = Regex::new(YEAR).unwrap();
            if !may_hold_year(content.as_bytes()) {
                proptest::prop_assert!(!digit_or_nd || !year.is_match(&content), "{:?}", content);
            }
        }
    }

    #[test]
    fn digits_or_no_date() {
        assert!(has_digit_or_nd(b"Smith n.d."));
        assert!(has_digit_or_nd(b"p 3"));
        assert!(!has_digit_or_nd(b"Smith, n.a."));
        assert!(!has_digit_or_nd(b"n."));
        assert!(!has_digit_or_nd(b".d"));
    }

    #[test]
    fn narrative_forms_need_et_al_or_two_names() {
        assert_eq!(
            keys("As Smith et al. (2020) show"),
            vec!["Smith et al. (2020)"]
        );
        assert_eq!(
            keys("Lee and Kim (2019a) show"),
            vec!["Lee and Kim (2019a)"]
        );
        assert!(keys("in Europe (2020)").is_empty());
    }
}
