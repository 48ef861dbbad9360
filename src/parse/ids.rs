//! Persistent identifiers: recognising and normalising DOIs, arXiv ids, PMIDs,
//! PMCIDs and ISBNs, in running text and in URLs.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use crate::model::{IdScheme, Span};
use crate::parse::is_space;

static DOI_IN_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)(?-u:\b)10\.\d{4,9}/[^\s"<>]+"#).expect("DOI regex"));
static ARXIV_NEW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:arxiv:\s?|arxiv\.org/(?:abs|pdf|html)/)(\d{4}\.\d{4,5})(v\d+)?")
        .expect("arXiv regex")
});
static ARXIV_OLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:arxiv:\s?|arxiv\.org/(?:abs|pdf)/)?((?:astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|physics|quant-ph|math|cs|q-bio|q-fin|stat|chao-dyn|solv-int|patt-sol|adap-org|cmp-lg|comp-gas|alg-geom|dg-ga|funct-an|q-alg|chem-ph|atom-ph|bayes-an|plasm-ph|supr-con|mtrl-th|ao-sci|acc-phys)(?:\.[A-Z]{2})?/\d{7})(v\d+)?")
        .expect("old arXiv regex")
});
static ARXIV_BARE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{4}\.\d{4,5})(v\d+)?$").expect("bare arXiv regex"));
static PMID_IN_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)PMID:?\s*(\d{1,9})(?-u:\b)").expect("PMID regex"));
static PMCID_IN_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)(PMC\d{4,9})(?-u:\b)").expect("PMCID regex"));

/// Strip what commonly trails a DOI in prose or markup: punctuation, closing brackets
/// that are not balanced inside the DOI, HTML/Markdown residue.
fn trim_doi_tail(doi: &str) -> &str {
    // Most DOIs end in a letter or digit: nothing to trim.
    if doi.as_bytes().last().is_some_and(u8::is_ascii_alphanumeric) {
        return doi;
    }
    let mut doi = doi;
    loop {
        let before = doi.len();
        doi = doi.trim_end_matches(['.', ',', ';', ':', '\'', '"', '*', '_', '>', '}', '\\']);
        for (open, close) in [('(', ')'), ('[', ']')] {
            if doi.ends_with(close) && doi.matches(open).count() < doi.matches(close).count() {
                doi = &doi[..doi.len() - 1];
            }
        }
        if doi.len() == before {
            return doi;
        }
    }
}

/// Normalise a DOI given bare, as `doi:…`, or as a doi.org/dx.doi.org URL: lowercase,
/// percent-decoded, without trailing punctuation. `None` if it is not a DOI.
pub fn normalize_doi(raw: &str) -> Option<String> {
    bare_ascii_doi(raw).or_else(|| any_doi(raw))
}

/// [`normalize_doi`] of any spelling.
fn any_doi(raw: &str) -> Option<String> {
    let mut s = raw.trim();
    // Most DOIs come bare: no prefix starts with a digit.
    let prefixes: &[&str] = if s.starts_with("10.") {
        &[]
    } else {
        &[
            "https://doi.org/",
            "http://doi.org/",
            "https://dx.doi.org/",
            "http://dx.doi.org/",
            "doi.org/",
            "dx.doi.org/",
            "doi:",
            "doi ",
            "DOI:",
            "DOI ",
        ]
    };
    for prefix in prefixes {
        if s.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        {
            s = s[prefix.len()..].trim_start();
            break;
        }
    }
    let decoded = if memchr::memchr(b'%', s.as_bytes()).is_some() {
        percent_encoding::percent_decode_str(s).decode_utf8_lossy()
    } else {
        Cow::Borrowed(s)
    };
    let len = if decoded.is_ascii() {
        leading_doi_len(decoded.as_bytes())?
    } else {
        // Unicode digits and spaces: leave them to the regex.
        let m = DOI_IN_TEXT.find(&decoded)?;
        if m.start() != 0 {
            return None;
        }
        m.end()
    };
    // The `/` after the prefix is always there: the tail trimmed off holds none.
    let doi = trim_doi_tail(&decoded[..len]);
    (doi.len() > 8 && !doi.ends_with('/')).then(|| lowercase(doi))
}

/// [`normalize_doi`] of the common case, read in one go: a bare DOI in ASCII that
/// ends in a letter or digit and holds nothing to decode, trim or cut off. `None`
/// for anything else, which the general reading handles.
fn bare_ascii_doi(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let head = doi_head_len(bytes)?;
    let plain = bytes.last().is_some_and(u8::is_ascii_alphanumeric)
        && bytes[head..].iter().all(|&b| PLAIN_DOI_BYTES[b as usize]);
    // At least one byte after the `/` (the last one), so longer than eight bytes.
    (plain && bytes.len() > head).then(|| raw.to_ascii_lowercase())
}

/// The bytes [`bare_ascii_doi`] takes as they are: ASCII graphic characters but
/// `%` (to decode), `"`, `<` and `>` (which end a DOI in text).
static PLAIN_DOI_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_graphic() && !matches!(byte, b'%' | b'"' | b'<' | b'>');
        b += 1;
    }
    table
};

/// `s` in lowercase, without the Unicode tables when it is ASCII.
fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// The length of the match of [`DOI_IN_TEXT`] at the start of ASCII `s`, if there
/// is one there: `10.`, four to nine digits, `/`, then anything but whitespace,
/// quotes and angle brackets.
fn leading_doi_len(s: &[u8]) -> Option<usize> {
    let head = doi_head_len(s)?;
    let tail = s[head..]
        .iter()
        .take_while(|&&b| !(is_space(b) || matches!(b, b'"' | b'<' | b'>')))
        .count();
    (tail > 0).then_some(head + tail)
}

/// The length of a DOI's head at the start of ASCII `s`: `10.`, four to nine
/// digits and the `/`.
fn doi_head_len(s: &[u8]) -> Option<usize> {
    let digits = s
        .get(3..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let plain =
        s.starts_with(b"10.") && (4..=9).contains(&digits) && s.get(3 + digits) == Some(&b'/');
    plain.then_some(4 + digits)
}

/// Every DOI in a text, with its byte span (trailing punctuation excluded).
pub fn find_dois(text: &str) -> Vec<(Span, String)> {
    DOI_IN_TEXT
        .find_iter(text)
        .filter_map(|m| {
            let doi = trim_doi_tail(m.as_str());
            (doi.len() > 8).then(|| {
                (
                    Span::new(m.start(), m.start() + doi.len()),
                    doi.to_lowercase(),
                )
            })
        })
        .collect()
}

/// Normalise an arXiv id (`arXiv:1706.03762v5`, `hep-th/9901001`, an arxiv.org URL,
/// a `10.48550/arXiv.…` DOI) to its version-less form.
pub fn normalize_arxiv(raw: &str) -> Option<String> {
    let s = raw.trim();
    // Most ids come as `1706.03762` or `arXiv:1706.03762v5`: read them without a
    // lowercase copy. Such an id holds no letter but a lowercase `v`, so the copy
    // would read the same.
    if let Some(id) = bare_new_style(without_arxiv_labels(s)) {
        return valid_new_style(id).then(|| id.to_string());
    }
    let lower = s.to_ascii_lowercase();
    if let Some(rest) = lower
        .strip_prefix("10.48550/arxiv.")
        .or_else(|| lower.strip_prefix("https://doi.org/10.48550/arxiv."))
    {
        return normalize_arxiv(rest);
    }
    let bare = lower
        .trim_start_matches("arxiv:")
        .trim_start_matches("arxiv ")
        .trim();
    if bare.is_ascii() {
        // Most ids come bare: read them without the regex (same reading for ASCII).
        if let Some(id) = bare_new_style(bare) {
            return valid_new_style(id).then(|| id.to_string());
        }
    } else if let Some(c) = ARXIV_BARE.captures(bare) {
        return valid_new_style(&c[1]).then(|| c[1].to_string());
    }
    let prefixed = format!("arxiv:{bare}");
    if let Some(c) = ARXIV_NEW
        .captures(&lower)
        .or_else(|| ARXIV_NEW.captures(&prefixed))
    {
        return valid_new_style(&c[1]).then(|| c[1].to_string());
    }
    let old = ARXIV_OLD.captures(s)?;
    let id = old.get(1)?;
    // A bare old-style id must be the whole string; inside text it needs a prefix.
    (old.get(0)?.start() == 0).then(|| id.as_str().to_string())
}

/// Whether a new-style id (`YYMM.NNNN` or `YYMM.NNNNN`) can exist: the scheme began in
/// April 2007 (`0704`), the month is 01–12, and the sequence number has four digits
/// up to December 2014 and five from January 2015. `2019.01234` (a Frontiers DOI's
/// year and article number) is not one.
pub fn valid_new_style(id: &str) -> bool {
    let Some((yymm, seq)) = id.split_once('.') else {
        return false;
    };
    let (Ok(yymm_n), true) = (yymm.parse::<u32>(), yymm.len() == 4) else {
        return false;
    };
    let month = yymm_n % 100;
    let digits = seq.len();
    (1..=12).contains(&month)
        && yymm_n >= 704
        && seq.bytes().all(|b| b.is_ascii_digit())
        && (digits == 4 && yymm_n <= 1412 || digits == 5 && yymm_n >= 1501)
}

/// Registrants every one of whose DOIs carries a number in its suffix (Elsevier
/// `j.cell.2019.01.001`, IEEE `cvpr.2016.90`, Frontiers `fphys.2019.01234`, PLOS
/// `journal.pone.0123456`, Zenodo `zenodo.123`, SSRN `ssrn.123`, PeerJ `peerj.123`,
/// Springer, ACM, Nature, Science, PNAS, Wiley, Taylor & Francis, SAGE, MDPI, BMC,
/// bioRxiv, Research Square, OSF, IOP, APS, ACS, OUP): a suffix of theirs without a
/// digit was cut short.
const NUMBERED_REGISTRANTS: &[&str] = &[
    "10.1016", "10.1109", "10.3389", "10.1371", "10.5281", "10.2139", "10.7717", "10.1007",
    "10.1145", "10.1038", "10.1126", "10.1073", "10.1002", "10.1111", "10.1080", "10.1177",
    "10.3390", "10.1186", "10.1101", "10.21203", "10.31219", "10.1088", "10.1103", "10.1021",
    "10.1093",
];

/// A DOI that is only the start of one (the PDF text cut it at a line break or a
/// space): an empty suffix, an arXiv DataCite DOI without a whole arXiv id
/// (`10.48550/arxiv`, `10.48550/arxiv.2203`), or a suffix without a digit from a
/// registrant whose DOIs are all numbered (`10.3389/fphys`). No work is cited by such a
/// DOI, and none is accused of having another.
pub fn is_bare_doi_prefix(doi: &str) -> bool {
    let Some((prefix, suffix)) = doi.split_once('/') else {
        return true;
    };
    if prefix == "10.48550" {
        return suffix
            .to_ascii_lowercase()
            .strip_prefix("arxiv.")
            .and_then(normalize_arxiv)
            .is_none();
    }
    let no_digit = !suffix.bytes().any(|b| b.is_ascii_digit());
    suffix.trim().is_empty() || (no_digit && NUMBERED_REGISTRANTS.contains(&prefix))
}

/// `s` without leading `arXiv:` and `arXiv ` labels (in any case, as many as there
/// are, the colon ones first) and the spaces around what is left.
fn without_arxiv_labels(s: &str) -> &str {
    fn strip_all<'s>(mut s: &'s str, label: &[u8]) -> &'s str {
        while s
            .as_bytes()
            .get(..label.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(label))
        {
            // The label is ASCII: what follows it starts a character.
            s = &s[label.len()..];
        }
        s
    }
    strip_all(strip_all(s, b"arxiv:"), b"arxiv ").trim()
}

/// [`ARXIV_BARE`] on ASCII text: the id without its version.
fn bare_new_style(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let digits = |from: usize| {
        b.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|c| c.is_ascii_digit()).count()
        })
    };
    if digits(0) != 4 || b.get(4) != Some(&b'.') {
        return None;
    }
    let sequence = digits(5);
    if !(4..=5).contains(&sequence) {
        return None;
    }
    let id_end = 5 + sequence;
    let version = &b[id_end..];
    let versioned = version.first() == Some(&b'v')
        && version.len() > 1
        && version[1..].iter().all(u8::is_ascii_digit);
    (version.is_empty() || versioned).then(|| &s[..id_end])
}

/// Every arXiv id in a text written with an `arXiv:` prefix or as an arxiv.org URL.
pub fn find_arxiv_ids(text: &str) -> Vec<(Span, String)> {
    let mut out: Vec<(Span, String)> = ARXIV_NEW
        .captures_iter(text)
        .filter_map(|c| {
            let m = c.get(0)?;
            Some((Span::new(m.start(), m.end()), c[1].to_string()))
        })
        .collect();
    for c in ARXIV_OLD.captures_iter(text) {
        let m = c.get(0).expect("whole match");
        let prefixed = m.as_str().to_ascii_lowercase().starts_with("arxiv");
        if prefixed && !out.iter().any(|(span, _)| span.contains(m.start())) {
            out.push((Span::new(m.start(), m.end()), c[1].to_string()));
        }
    }
    out.sort_by_key(|(span, _)| span.start);
    out
}

/// Every `PMID: 123` in a text.
pub fn find_pmids(text: &str) -> Vec<(Span, String)> {
    PMID_IN_TEXT
        .captures_iter(text)
        .map(|c| {
            let m = c.get(0).expect("whole match");
            (Span::new(m.start(), m.end()), c[1].to_string())
        })
        .collect()
}

/// Every `PMC123456` in a text (uppercase-normalised).
pub fn find_pmcids(text: &str) -> Vec<(Span, String)> {
    PMCID_IN_TEXT
        .captures_iter(text)
        .map(|c| {
            let m = c.get(1).expect("group");
            (
                Span::new(m.start(), m.end()),
                m.as_str().to_ascii_uppercase(),
            )
        })
        .collect()
}

/// Normalise an ISBN-10/13 to its digits (and a final `X`), validating the checksum.
/// The digits (and `X`) of an ISBN as written, whatever precedes its first digit.
fn isbn_digits(raw: &str) -> String {
    raw.trim()
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == 'X' || *c == 'x')
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

pub fn normalize_isbn(raw: &str) -> Option<String> {
    let digits = isbn_digits(raw);
    let valid = match digits.len() {
        10 => {
            let sum: u32 = digits
                .chars()
                .enumerate()
                .map(|(i, c)| (10 - i as u32) * c.to_digit(10).unwrap_or(10))
                .sum();
            sum.is_multiple_of(11)
        }
        13 if !digits.contains('X') => {
            let sum: u32 = digits
                .chars()
                .enumerate()
                .map(|(i, c)| c.to_digit(10).unwrap_or(0) * if i % 2 == 0 { 1 } else { 3 })
                .sum();
            sum.is_multiple_of(10)
        }
        _ => false,
    };
    valid.then_some(digits)
}

/// An ISBN as ISBN-13 (an ISBN-10 gains the `978` prefix and a new check digit), so
/// the two forms of one ISBN compare equal.
pub fn isbn13(isbn: &str) -> Option<String> {
    let digits = normalize_isbn(isbn)?;
    if digits.len() == 13 {
        return Some(digits);
    }
    let body = format!("978{}", &digits[..9]);
    let sum: u32 = body
        .chars()
        .enumerate()
        .map(|(i, c)| c.to_digit(10).unwrap_or(0) * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    Some(format!("{body}{}", (10 - sum % 10) % 10))
}

/// DOI prefixes of preprint servers (bioRxiv/medRxiv only with a numeric suffix:
/// `10.1101/gr.…` is Genome Research).
pub fn is_preprint_doi(doi: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "10.48550/",
        "10.21203/rs",
        "10.20944/preprints",
        "10.2139/ssrn",
        "10.31219/osf",
        "10.31234/osf",
        "10.31235/osf",
        "10.31223/",
        "10.36227/techrxiv",
        "10.26434/chemrxiv",
        "10.22541/au",
        "10.32388/",
        "10.1002/essoar",
    ];
    PREFIXES.iter().any(|p| doi.starts_with(p))
        || doi
            .strip_prefix("10.1101/")
            .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_digit()))
}

/// An ISBN as written whose length or check digit is wrong (`978-0-387-31073-3`):
/// its digits, for a finding; `None` for a valid ISBN or text that is no ISBN at all.
pub fn invalid_isbn(raw: &str) -> Option<String> {
    if normalize_isbn(raw).is_some() {
        return None;
    }
    let digits = isbn_digits(raw);
    let shaped = raw.chars().all(|c| {
        c.is_ascii_digit() || matches!(c, 'X' | 'x' | '-' | ' ' | ':') || c.is_alphabetic()
    });
    ((9..=14).contains(&digits.len()) && shaped).then_some(digits)
}

/// Normalise a PMID (digits only).
pub fn normalize_pmid(raw: &str) -> Option<String> {
    let s = raw
        .trim()
        .trim_start_matches("PMID:")
        .trim_start_matches("pmid:")
        .trim();
    (!s.is_empty() && s.len() <= 9 && s.chars().all(|c| c.is_ascii_digit()))
        .then(|| s.trim_start_matches('0').to_string())
        .filter(|s| !s.is_empty())
}

/// Normalise a PMCID to `PMC` + digits (accepts bare digits).
pub fn normalize_pmcid(raw: &str) -> Option<String> {
    let s = raw.trim();
    let digits = if s.len() > 3 && s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("pmc")) {
        &s[3..]
    } else {
        s
    };
    (!digits.is_empty() && digits.len() <= 9 && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("PMC{digits}"))
}

/// The identifier a URL points to: doi.org links, arxiv.org abs/pdf pages, PubMed,
/// PMC and Europe PMC article pages. Other URLs are not identifiers.
pub fn identifier_from_url(url: &str) -> Option<(IdScheme, String)> {
    let lower = url.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    if rest.starts_with("doi.org/") || rest.starts_with("dx.doi.org/") {
        return normalize_doi(url.trim()).map(|d| (IdScheme::Doi, d));
    }
    if rest.starts_with("arxiv.org/") || rest.starts_with("export.arxiv.org/") {
        let path = rest.split_once('/')?.1;
        let id = path
            .strip_prefix("abs/")
            .or_else(|| path.strip_prefix("pdf/"))
            .or_else(|| path.strip_prefix("html/"))?;
        let id = id.trim_end_matches(".pdf").trim_end_matches('/');
        return normalize_arxiv(id).map(|a| (IdScheme::Arxiv, a));
    }
    let path_after = |prefix: &str| rest.strip_prefix(prefix).map(|p| p.trim_end_matches('/'));
    if let Some(p) = path_after("pubmed.ncbi.nlm.nih.gov/")
        .or_else(|| path_after("ncbi.nlm.nih.gov/pubmed/"))
        .or_else(|| path_after("europepmc.org/article/med/"))
        .or_else(|| path_after("europepmc.org/abstract/med/"))
    {
        let id = p.split(['/', '?', '#']).next()?;
        return normalize_pmid(id).map(|p| (IdScheme::Pmid, p));
    }
    if let Some(p) = path_after("ncbi.nlm.nih.gov/pmc/articles/")
        .or_else(|| path_after("pmc.ncbi.nlm.nih.gov/articles/"))
        .or_else(|| path_after("europepmc.org/article/pmc/"))
    {
        let id = p.split(['/', '?', '#']).next()?;
        return normalize_pmcid(id).map(|p| (IdScheme::Pmcid, p));
    }
    None
}

/// Interpret a prefixed identifier as Manubot/pandoc write it: `doi:10.1/x`,
/// `arxiv:1706.03762`, `pmid:123`, `pmcid:PMC123`, `isbn:…`, `url:https://…`.
pub fn parse_prefixed(raw: &str) -> Option<(IdScheme, String)> {
    // Short, with the colon early: a plain loop finds it soonest.
    let colon = raw.bytes().position(|b| b == b':')?;
    parse_prefixed_at(raw, colon)
}

/// [`parse_prefixed`] of `raw`, whose first colon is at byte `colon`.
pub(crate) fn parse_prefixed_at(raw: &str, colon: usize) -> Option<(IdScheme, String)> {
    let (prefix, value) = (&raw[..colon], &raw[colon + 1..]);
    // Every prefix is a short ASCII word: lowercase it without allocating.
    let mut buf = [0u8; 6];
    let lower = buf.get_mut(..prefix.len())?;
    for (b, c) in lower.iter_mut().zip(prefix.bytes()) {
        *b = c.to_ascii_lowercase();
    }
    match &*lower {
        b"doi" => normalize_doi(value).map(|v| (IdScheme::Doi, v)),
        b"arxiv" => normalize_arxiv(value).map(|v| (IdScheme::Arxiv, v)),
        b"pmid" | b"pubmed" => normalize_pmid(value).map(|v| (IdScheme::Pmid, v)),
        b"pmcid" | b"pmc" => normalize_pmcid(value).map(|v| (IdScheme::Pmcid, v)),
        b"isbn" => normalize_isbn(value).map(|v| (IdScheme::Isbn, v)),
        b"url" | b"http" | b"https" => {
            let url = if lower == b"url" {
                value.to_string()
            } else {
                raw.to_string()
            };
            Some(identifier_from_url(&url).unwrap_or((IdScheme::Url, url)))
        }
        _ => None,
    }
}

/// `https://openreview.net/forum?id=X` (or `/pdf?id=X`), `openreview:X`.
pub fn openreview_id(input: &str) -> Option<String> {
    if let Some(id) = input.strip_prefix("openreview:") {
        return valid_openreview(id);
    }
    let url = url::Url::parse(input).ok()?;
    let host = url.host_str()?;
    if host != "openreview.net" && !host.ends_with(".openreview.net") {
        return None;
    }
    if !matches!(url.path(), "/forum" | "/pdf" | "/attachment") {
        return None;
    }
    let id = url.query_pairs().find(|(k, _)| k == "id")?.1.into_owned();
    valid_openreview(&id)
}

fn valid_openreview(id: &str) -> Option<String> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    ok.then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`parse_prefixed`] as it read prefixes before it lowercased them: by
    /// `eq_ignore_ascii_case` against each name.
    fn parse_prefixed_by_names(raw: &str) -> Option<(IdScheme, String)> {
        let colon = raw.bytes().position(|b| b == b':')?;
        let (prefix, value) = (&raw[..colon], &raw[colon + 1..]);
        let is = |name: &str| prefix.eq_ignore_ascii_case(name);
        match () {
            _ if is("doi") => normalize_doi(value).map(|v| (IdScheme::Doi, v)),
            _ if is("arxiv") => normalize_arxiv(value).map(|v| (IdScheme::Arxiv, v)),
            _ if is("pmid") || is("pubmed") => normalize_pmid(value).map(|v| (IdScheme::Pmid, v)),
            _ if is("pmcid") || is("pmc") => normalize_pmcid(value).map(|v| (IdScheme::Pmcid, v)),
            _ if is("isbn") => normalize_isbn(value).map(|v| (IdScheme::Isbn, v)),
            _ if is("url") || is("http") || is("https") => {
                let url = if is("url") {
                    value.to_string()
                } else {
                    raw.to_string()
                };
                Some(identifier_from_url(&url).unwrap_or((IdScheme::Url, url)))
            }
            _ => None,
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Lowercasing the prefix once reads every prefix as comparing it to each name did.
        #[test]
        fn prefixes_read_as_by_names(
            prefix in proptest::sample::select(&["doi", "DOI", "Doi", "arXiv", "pmid", "PubMed",
                "pmcid", "PMC", "isbn", "url", "HTTP", "https", "tag", "", "doiX", "pubmedx",
                "urls", "dOı", "ſ"][..]),
            value in proptest::sample::select(&["10.1038/nature14539", "1706.03762", "123",
                "PMC4425999", "978-0-262-03561-3", "//a.org/x", "https://doi.org/10.1/x", "x:y"][..]),
        ) {
            let raw = format!("{prefix}:{value}");
            proptest::prop_assert_eq!(parse_prefixed(&raw), parse_prefixed_by_names(&raw), "{:?}", raw);
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Bare new-style arXiv ids are read by hand as the regex reads them.
        #[test]
        fn bare_arxiv_ids_read_as_the_regex_reads_them(parts in proptest::collection::vec(
            proptest::sample::select(&["1706", "0", "12", ".", "03762", "1234", "v", "v2", "x", " "][..]),
            0..8)) {
            let s = parts.concat();
            let by_regex = ARXIV_BARE.captures(&s).map(|c| c.get(1).unwrap().as_str());
            proptest::prop_assert_eq!(bare_new_style(&s), by_regex, "{:?}", s);
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(1024))]
        /// The bare ASCII reading takes only DOIs that the general one reads alike.
        #[test]
        fn bare_dois_read_as_any_doi(
            // Mostly well-formed heads, so that the tails get tried.
            head in proptest::sample::select(&["10.", "10.", "10.", "doi:10.", " 10.", "11."][..]),
            digits in proptest::sample::select(&["1038", "123456789", "1038", "12", "1234567890"][..]),
            slash in proptest::sample::select(&["/", "/", "/", "%2F"][..]),
            tail in proptest::collection::vec(proptest::sample::select(&["Nature", "x", "1",
                ".", ")", "(", "]", "%2F", " ", "é", "\"", "<", ">", "-", "_", ";", "\t", "/",
                "`", "{"][..]), 0..6),
        ) {
            let raw = format!("{head}{digits}{slash}{}", tail.concat());
            if let Some(doi) = bare_ascii_doi(&raw) {
                proptest::prop_assert_eq!(Some(doi), any_doi(&raw), "{:?}", raw);
            }
        }
    }

    #[test]
    fn bare_dois_take_the_short_way() {
        assert_eq!(
            bare_ascii_doi("10.1371/journal.PBIO.1002195").as_deref(),
            Some("10.1371/journal.pbio.1002195")
        );
        for other in [
            "doi:10.1/x",
            "10.1038/nature.",
            "10.1038/a%2Fb",
            " 10.1038/x",
            "10.1038/a\"b",
            "10.1038/a<b",
        ] {
            assert_eq!(bare_ascii_doi(other), None, "{other}");
        }
    }

    #[test]
    fn dois_are_normalised_from_every_spelling() {
        for raw in [
            "10.1038/Nature14539",
            "doi:10.1038/nature14539",
            "https://doi.org/10.1038/nature14539.",
            "http://dx.doi.org/10.1038%2Fnature14539",
            "DOI: 10.1038/nature14539",
        ] {
            assert_eq!(
                normalize_doi(raw).as_deref(),
                Some("10.1038/nature14539"),
                "{raw}"
            );
        }
        assert_eq!(normalize_doi("not a doi"), None);
        assert_eq!(
            normalize_doi("10.1016/s2352-4642(25)00103-8").as_deref(),
            Some("10.1016/s2352-4642(25)00103-8")
        );
    }

    #[test]
    fn dois_in_text_lose_trailing_punctuation() {
        let text = "see (doi:10.1000/xyz123). And https://doi.org/10.5555/abc(1)2, too";
        let found: Vec<String> = find_dois(text).into_iter().map(|(_, d)| d).collect();
        assert_eq!(found, vec!["10.1000/xyz123", "10.5555/abc(1)2"]);
    }

    #[test]
    fn arxiv_ids_new_old_and_urls() {
        assert_eq!(
            normalize_arxiv("arXiv:1706.03762v5").as_deref(),
            Some("1706.03762")
        );
        assert_eq!(
            normalize_arxiv("hep-th/9901001v2").as_deref(),
            Some("hep-th/9901001")
        );
        assert_eq!(
            normalize_arxiv("10.48550/arXiv.2505.17051").as_deref(),
            Some("2505.17051")
        );
        assert_eq!(normalize_arxiv("banana"), None);
        let found =
            find_arxiv_ids("see arXiv:2104.12255v1 and https://arxiv.org/abs/quant-ph/0201082");
        assert_eq!(found[0].1, "2104.12255");
        assert_eq!(found[1].1, "quant-ph/0201082");
    }

    #[test]
    fn arxiv_ids_that_cannot_exist_are_not_ids() {
        for valid in [
            "0704.0001",
            "1412.6980",
            "1501.00001",
            "2505.17051",
            "9912.12345",
        ] {
            assert!(valid_new_style(valid), "{valid}");
        }
        // A Frontiers DOI's year and article number; a journal code and year; the
        // wrong sequence length for the month; before the scheme began.
        for invalid in [
            "2019.01234",
            "1004.20120",
            "1412.12345",
            "1501.0001",
            "0612.1234",
        ] {
            assert!(!valid_new_style(invalid), "{invalid}");
            assert_eq!(normalize_arxiv(invalid), None, "{invalid}");
        }
        assert_eq!(normalize_arxiv("arXiv:2019.01234"), None);
    }

    #[test]
    fn doi_prefixes_cut_short_are_no_dois() {
        for cut in [
            "10.48550/arxiv",
            "10.48550/arxiv.2203",
            "10.3389/fphys",
            "10.1016/j.cell",
        ] {
            assert!(is_bare_doi_prefix(cut), "{cut}");
        }
        for whole in [
            "10.48550/arxiv.2203.04567",
            "10.3389/fphys.2019.01234",
            "10.1038/nature14539",
            "10.3724/sp.j.1004.2012.00517",
        ] {
            assert!(!is_bare_doi_prefix(whole), "{whole}");
        }
    }

    #[test]
    fn urls_map_to_identifiers() {
        assert_eq!(
            identifier_from_url("https://pubmed.ncbi.nlm.nih.gov/27797938/"),
            Some((IdScheme::Pmid, "27797938".into()))
        );
        assert_eq!(
            identifier_from_url("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC8435807/"),
            Some((IdScheme::Pmcid, "PMC8435807".into()))
        );
        assert_eq!(
            identifier_from_url("https://arxiv.org/pdf/1605.08386v1.pdf"),
            Some((IdScheme::Arxiv, "1605.08386".into()))
        );
        assert_eq!(identifier_from_url("https://example.org/paper"), None);
    }

    #[test]
    fn isbn_checksums() {
        assert_eq!(
            normalize_isbn("ISBN 978-0-262-03561-3").as_deref(),
            Some("9780262035613")
        );
        assert_eq!(
            normalize_isbn("0-306-40615-2").as_deref(),
            Some("0306406152")
        );
        assert_eq!(normalize_isbn("978-0-262-03561-4"), None);
    }

    #[test]
    fn prefixed_identifiers() {
        assert_eq!(
            parse_prefixed("doi:10.1371/journal.pbio.1002195"),
            Some((IdScheme::Doi, "10.1371/journal.pbio.1002195".into()))
        );
        assert_eq!(
            parse_prefixed("url:http://research.google.com/archive/x.html"),
            Some((
                IdScheme::Url,
                "http://research.google.com/archive/x.html".into()
            ))
        );
        assert_eq!(
            parse_prefixed("pmcid:PMC4425999"),
            Some((IdScheme::Pmcid, "PMC4425999".into()))
        );
    }
}
