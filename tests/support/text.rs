//! Text folding and tokenisation shared by the mock's search engines, plus the small
//! escaping helpers every XML/HTML-producing service needs.

use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

/// Words too common to carry meaning in a bibliographic query.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it",
    "its", "of", "on", "or", "the", "to", "via", "with", "we", "our", "this", "that",
];

/// Lowercase, accents removed (NFKD without combining marks).
pub fn fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Folded alphanumeric tokens in order.
pub fn tokens(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

pub fn is_stop_word(token: &str) -> bool {
    STOP_WORDS.contains(&token)
}

/// Tokens without stop words.
pub fn content_tokens(s: &str) -> Vec<String> {
    tokens(s).into_iter().filter(|t| !is_stop_word(t)).collect()
}

/// Escape text for XML/HTML element content and attribute values.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// ASCII letters only, accents dropped, case kept (for BibTeX keys such as `Frank_1970`).
pub fn ascii_letters(s: &str) -> String {
    s.nfkd().filter(char::is_ascii_alphabetic).collect()
}

/// Percent-decode a URL path or query component (`+` left as is).
pub fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Parse a query string into decoded (key, value) pairs, `+` meaning space.
pub fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    url::form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// First value of a query parameter.
pub fn param<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Percent-encode a path segment or query value.
pub fn url_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
