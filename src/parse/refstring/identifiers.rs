//! Identifiers in a reference string (DOI, arXiv, PMID, PMCID, ISBN, URL): read first,
//! then cut out with their labels (`doi:`, `Retrieved from`, `[Online]. Available:`)
//! so the bibliographic fields are read from what is left.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::id_needles::{self as needle, needles};
use super::words::words;

use crate::model::{IdScheme, RefFields};
use crate::parse::ids;

static DOI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)(?-u:\b)10\.\d{4,9}/[^\s"<>]+"#).expect("DOI regex"));
/// A DOI label or resolver prefix right before the DOI.
static DOI_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:(?-u:\b)(?:doi|DOI)\s*[:.]?\s*|(?:https?://)?(?:dx\.)?doi\.org/\s*|https?://doi\.wiley\.com/)$")
        .expect("DOI label regex")
});
static ARXIV_NEW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:(?-u:\b)arxiv(?:\s+preprint)?(?:\s+arxiv)?\s*[:.]?\s*(?:abs/)?|arxiv\.org/(?:abs|pdf|html)/|\[)(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?\]?")
        .expect("arXiv regex")
});
static ARXIV_BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(\d{2})(\d{2})\.(\d{5})(?:v\d+)?(?-u:\b)").expect("bare arXiv")
});
static ARXIV_OLD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:(?-u:\b)arxiv\s*[:.]?\s*|arxiv\.org/(?:abs|pdf)/)?(?-u:\b)((?:astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|physics|quant-ph|math|cs|q-bio|q-fin|stat|chao-dyn|solv-int|patt-sol|adap-org|cmp-lg|alg-geom|dg-ga|funct-an|q-alg|chem-ph|atom-ph|supr-con|mtrl-th|acc-phys)(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?")
        .expect("old arXiv regex")
});
static PMID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:PMID|PubMed\s+ID|PubMed)\s*:?\s*(\d{1,9})(?-u:\b)")
        .expect("PMID regex")
});
static PMCID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:PMCID\s*:?\s*)?(PMC)\s?(\d{4,9})(?-u:\b)").expect("PMCID regex")
});
static ISBN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)ISBN(?:-1[03])?\s*:?\s*((?:97[89][\s-]?)?(?:\d[\s-]?){9}[\dX])(?-u:\b)",
    )
    .expect("ISBN regex")
});
/// What [`urls_in`] reads by hand; the tests hold it to this.
#[cfg(test)]
static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<?(?-u:\b)(?:https?://|www\.)[^\s<>"]+>?"#).expect("URL regex")
});
/// Labels and notes that only introduce an identifier or an access date.
static NOISE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\[(?:online|internet|pubmed|google scholar|crossref|cross ref|pmc free article|ref list|medline|web of science|scopus|abstract)\]\.?|(?-u:\b)(?:retrieved|accessed|last accessed|viewed|consulted)(?-u:\b)(?:\s+(?:on|from))?[^.;\[\]()]{0,40}?\d{4}(?-u:\b)\.?|\((?:accessed|retrieved|viewed|consulted)[^)]{0,60}\)|(?-u:\b)(?:retrieved|available|accessible)(?:\s+online)?\s*(?:(?:from|at|on|via)(?-u:\b)\s*:?|:)|(?-u:\b)preprint\s+at(?-u:\b)|(?-u:\b)available\s*:|(?-u:\b)url\s*:|(?-u:\b)online\s*:|(?-u:\b)epub\s+ahead\s+of\s+print(?-u:\b)\.?|(?-u:\b)arxiv\s*(?:\[preprint\]|preprint|e-prints?)\.?|(?-u:\b)epub\s+\d{4}[^.]{0,20}\.")
        .expect("noise regex")
});

/// Read the identifiers into `f` and return the text with them and their labels cut.
///
/// The regexes run only where an exact test on the bytes leaves them something to
/// find (the input is [`clean`](super::clean::clean)ed: in NFKC, so `(?i)` letters
/// are ASCII ones).
pub fn extract<'t>(text: &'t str, f: &mut RefFields) -> Cow<'t, str> {
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let seen = needles(text);
    let has = |bits: u32| seen & bits != 0;
    let mut urls = if has(needle::SCHEME | needle::WWW) {
        Some(urls_in(text))
    } else {
        None
    };
    if let Some((start, end)) = urls.as_mut().and_then(Iterator::next) {
        cut.push((start, end));
        let url = trim_url(&text[start..end]);
        if !url.is_empty() {
            match ids::identifier_from_url(url) {
                Some((IdScheme::Doi, d)) => f.doi = Some(d),
                Some((IdScheme::Pmid, p)) => {
                    f.pmid = Some(p);
                    f.url = Some(url.to_string());
                }
                Some((IdScheme::Pmcid, p)) => {
                    f.pmcid = Some(p);
                    f.url = Some(url.to_string());
                }
                Some((IdScheme::Arxiv, a)) => f.arxiv = Some(a),
                _ => f.url = Some(url.to_string()),
            }
        }
        cut.extend(urls.into_iter().flatten());
    }
    if has(needle::TEN_DOT)
        && let Some(m) = DOI.find(text)
    {
        // PDF text glues what follows onto the DOI: `…/x,arXiv:…`, `…/x.URL https`.
        let raw = m.as_str();
        let keep = first_of_folded(
            &raw.as_bytes()[8..],
            &[
                ",arxiv",
                ".url",
                "url",
                ",http",
                ".http",
                ",doi",
                ".doi",
                ".issn",
                ",pmid",
                ".pmid",
                ",isbn",
                ".isbn",
                "[",
                ",available",
            ],
        )
        .map_or(raw.len(), |p| p + 8);
        let mut end = m.start() + keep;
        let mut doi = raw[..keep].to_string();
        // `10.1093/molbev /msu300`: the PDF split the DOI before a slash.
        let tail = &text[end..];
        if let Some(rest) = tail.strip_prefix(" /") {
            let more: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
            if !more.is_empty() {
                doi.push('/');
                doi.push_str(&more);
                end += 2 + more.len();
            }
        }
        // A DOI cut short (`10.48550/arXiv.`) is kept as written: the resolver cites
        // nothing by it (`ids::is_bare_doi_prefix`).
        if let Some(d) = ids::normalize_doi(&doi) {
            if let Some(a) = d
                .strip_prefix("10.48550/arxiv.")
                .and_then(ids::normalize_arxiv)
            {
                f.arxiv.get_or_insert(a);
            }
            if f.doi.is_none() {
                f.doi = Some(d);
            }
        }
        let start = DOI_LABEL
            .find(&text[..m.start()])
            .map_or(m.start(), |l| l.start());
        cut.push((start, end));
    }
    // Identifiers read so far (URLs, the DOI): an arXiv-shaped run inside one of them
    // (`10.3724/sp.j.1004.2012.00517`) is part of it, never a second identifier.
    let inside = |at: usize, cut: &[(usize, usize)]| cut.iter().any(|&(s, e)| s <= at && at < e);
    if has(needle::XIV | needle::BRACKET)
        && (has(needle::ARXIV) || bracketed_digits(text))
        && let Some(m) = ARXIV_NEW.find(text)
        && !inside(m.start(), &cut)
    {
        if f.arxiv.is_none() {
            f.arxiv = ids::normalize_arxiv(new_arxiv_id(text, m));
        }
        cut.push((m.start(), m.end()));
    }
    if f.arxiv.is_none()
        && has(needle::SLASH)
        && digits_after(text, b'/', 7)
        && let Some(c) = ARXIV_OLD.captures(text)
    {
        f.arxiv = Some(c[1].to_string());
        let m = c.get(0).expect("whole match");
        cut.push((m.start(), m.end()));
    }
    if f.arxiv.is_none() {
        // A bare new-style id (`2106.11959`) only when its month is real and it has the
        // five-digit sequence number of 2015 and later.
        let standalone = |m: regex::Match| {
            // Not a piece of a dotted or slashed run (`fphys.2019.01234`, `/2012.00517`).
            let before = text[..m.start()].chars().next_back();
            let after = text[m.end()..].chars().next();
            let glued_before =
                before.is_some_and(|c| matches!(c, '.' | '/' | '-' | '_') || c.is_alphanumeric());
            let run_goes_on =
                after == Some('.') && text[m.end() + 1..].starts_with(|c: char| c.is_ascii_digit());
            !inside(m.start(), &cut) && !glued_before && !run_goes_on
        };
        let bare = bare_arxiv_shape(text)
            .then(|| ARXIV_BARE.captures_iter(text))
            .into_iter()
            .flatten()
            .find(|c| standalone(c.get(0).expect("whole match")));
        if let Some(c) = bare {
            let month: u32 = c[2].parse().unwrap_or(0);
            if (1..=12).contains(&month) && &c[1] >= "15" {
                f.arxiv = Some(format!("{}{}.{}", &c[1], &c[2], &c[3]));
                let m = c.get(0).expect("whole match");
                cut.push((m.start(), m.end()));
            }
        }
    }
    if has(needle::PM) {
        if let Some(c) = has(needle::PUBMED).then(|| PMID.captures(text)).flatten() {
            f.pmid = ids::normalize_pmid(&c[1]);
            let m = c.get(0).expect("whole match");
            cut.push((m.start(), m.end()));
        }
        if let Some(c) = has(needle::PMC).then(|| PMCID.captures(text)).flatten() {
            f.pmcid = Some(format!("PMC{}", &c[2]));
            let m = c.get(0).expect("whole match");
            cut.push((m.start(), m.end()));
        }
    }
    if has(needle::ISBN)
        && let Some(c) = ISBN.captures(text)
    {
        f.isbn = ids::normalize_isbn(&c[1]);
        if f.isbn.is_none() {
            f.invalid_isbn = ids::invalid_isbn(&c[1]);
        }
        let m = c.get(0).expect("whole match");
        cut.push((m.start(), m.end()));
    }
    // As before: a bracket, a parenthesis or a noise word lets NOISE run; and only
    // where one of its words is can it match.
    let noisy = has(needle::BRACKET | needle::PAREN | needle::NOISE_WORD);
    if noisy && has(needle::NOISE_WORD | needle::PREPRINT | needle::BRACKET_LABEL) {
        for m in NOISE.find_iter(text) {
            cut.push((m.start(), m.end()));
        }
    }
    if cut.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(remove_spans(text, cut))
}

/// The spans [`URL`] finds in `text`, read on the bytes: `<`, a scheme (`http://`,
/// `https://` or `www.`, in any case) after a word boundary, a run of characters
/// other than spaces, `<`, `>` and `"`, and a closing `>`.
fn urls_in(text: &str) -> impl Iterator<Item = (usize, usize)> {
    let b = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(k) = memchr::memchr3(b'h', b'H', b'w', &b[from..])
            .into_iter()
            .chain(memchr::memchr(b'W', &b[from..]))
            .min()
        {
            let at = from + k;
            from = at + 1;
            if let Some(span) = url_at(text, at) {
                from = span.1;
                return Some(span);
            }
        }
        from = b.len();
        None
    })
}

/// The URL whose scheme starts at `at`, as [`URL`] matches it from there.
fn url_at(text: &str, at: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let word_before = at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
    let rest = &b[at..];
    let starts = |p: &[u8]| {
        rest.get(..p.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(p))
    };
    let scheme = [&b"https://"[..], b"http://", b"www."]
        .into_iter()
        .find(|p| starts(p))?;
    if word_before {
        return None;
    }
    let body = at + scheme.len();
    let len: usize = text[body..]
        .chars()
        .take_while(|&c| !c.is_whitespace() && !matches!(c, '<' | '>' | '"'))
        .map(char::len_utf8)
        .sum();
    if len == 0 {
        return None;
    }
    let mut end = body + len;
    if b.get(end) == Some(&b'>') {
        end += 1;
    }
    let start = if at > 0 && b[at - 1] == b'<' {
        at - 1
    } else {
        at
    };
    Some((start, end))
}

/// The id (`2106.11959`) of [`ARXIV_NEW`]'s match `m`: its first group. No digit
/// comes before the id in a match, so that an ASCII match is read by hand; others
/// are read by the captures.
fn new_arxiv_id<'t>(text: &'t str, m: regex::Match<'t>) -> &'t str {
    let s = m.as_str();
    if s.is_ascii()
        && let Some(from) = s.bytes().position(|c| c.is_ascii_digit())
    {
        // `\d{4}\.\d{4,5}`: the second run is as long as the match lets it be.
        let after_dot = from + 5;
        let digits = s.as_bytes()[after_dot..]
            .iter()
            .take(5)
            .take_while(|c| c.is_ascii_digit())
            .count();
        return &s[from..after_dot + digits];
    }
    let c = ARXIV_NEW
        .captures_at(text, m.start())
        .expect("the match is found again from its start");
    c.get(1).map_or("", |g| g.as_str())
}

/// Where the first of the `ends` (lowercase) starts in `b`, in any case (the earliest
/// start of any of them).
fn first_of_folded(b: &[u8], ends: &[&str]) -> Option<usize> {
    // The first bytes of the ends, to pass over the others at once.
    let mut first = [false; 256];
    for e in ends {
        let c = e.as_bytes()[0];
        first[usize::from(c)] = true;
        first[usize::from(c.to_ascii_uppercase())] = true;
    }
    (0..b.len()).find(|&i| {
        first[usize::from(b[i])]
            && ends.iter().any(|e| {
                b[i..]
                    .get(..e.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(e.as_bytes()))
            })
    })
}

/// A character that `\d` may match: an ASCII digit or any non-ASCII character
/// (Unicode digits are not ASCII).
fn maybe_digit(c: char) -> bool {
    c.is_ascii_digit() || !c.is_ascii()
}

/// Whether some `marker` byte is followed by `n` characters that may be digits.
fn digits_after(text: &str, marker: u8, n: usize) -> bool {
    memchr::memchr_iter(marker, text.as_bytes()).any(|at| {
        let mut chars = text[at + 1..].chars();
        (0..n).all(|_| chars.next().is_some_and(maybe_digit))
    })
}

/// `[2106.11959]`: a bracket right before a new-style arXiv id.
fn bracketed_digits(text: &str) -> bool {
    digits_after(text, b'[', 4)
}

/// Whether some `.` has four possible digits before it and five after it, as a bare
/// new-style arXiv id (`2106.11959`) has.
fn bare_arxiv_shape(text: &str) -> bool {
    let b = text.as_bytes();
    // The last byte of a character that may be a digit is a digit or not ASCII.
    let maybe = |c: &u8| c.is_ascii_digit() || !c.is_ascii();
    memchr::memchr_iter(b'.', b).any(|at| {
        // Most periods follow a letter or come before a space.
        if at == 0 || !maybe(&b[at - 1]) || !b.get(at + 1).is_some_and(maybe) {
            return false;
        }
        let mut after = text[at + 1..].chars();
        let mut before = text[..at].chars().rev();
        (0..4).all(|_| before.next().is_some_and(maybe_digit))
            && (0..5).all(|_| after.next().is_some_and(maybe_digit))
    })
}

fn trim_url(u: &str) -> &str {
    let u = u.trim_start_matches('<').trim_end_matches('>');
    let mut u = u.trim_end_matches(['.', ',', ';', ':', ']', '\'', '*']);
    if u.ends_with(')') && u.matches('(').count() < u.matches(')').count() {
        u = &u[..u.len() - 1];
    }
    u
}

/// The text with the spans removed (overlaps merged), keeping one space at each cut.
fn remove_spans(text: &str, mut cut: Vec<(usize, usize)>) -> String {
    cut.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for (s, e) in cut {
        if e <= pos {
            continue;
        }
        let s = s.max(pos);
        out.push_str(&text[pos..s]);
        out.push(' ');
        pos = e;
    }
    out.push_str(&text[pos..]);
    tidy(&out)
}

/// Collapse the spaces and dangling separators a cut leaves (`Nature, . ,` → `Nature.`).
fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Words one space apart are copied as one run of the text.
    let mut run: Option<(usize, usize)> = None;
    let flush = |out: &mut String, run: &mut Option<(usize, usize)>| {
        if let Some((from, to)) = run.take() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&s[from..to]);
        }
    };
    for word in words(s) {
        let from = word.as_ptr() as usize - s.as_ptr() as usize;
        let to = from + word.len();
        // The separators are ASCII: a word of them is one on its bytes.
        let only_punct = word
            .bytes()
            .all(|c| matches!(c, b'.' | b',' | b';' | b':' | b'[' | b']' | b'(' | b')'));
        if !only_punct {
            match &mut run {
                Some((_, end)) if from == *end + 1 && s.as_bytes()[*end] == b' ' => *end = to,
                _ => {
                    flush(&mut out, &mut run);
                    run = Some((from, to));
                }
            }
            continue;
        }
        flush(&mut out, &mut run);
        if word.len() > 1 && word.contains(['(', '[', ')', ']']) {
            continue;
        }
        // Keep one separator, glued to the previous word.
        if !out.is_empty() && !out.ends_with(['.', ',', ';', ':']) {
            out.push_str(&word[..1]);
        }
    }
    flush(&mut out, &mut run);
    let kept = out.trim_end_matches([',', ';', ':', ' ']).len();
    out.truncate(kept);
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{any_text, joined};
    use super::*;
    use proptest::prelude::*;

    /// arXiv ids with their labels and their neighbours.
    fn arxiv_like() -> impl Strategy<Value = String> {
        const PARTS: &[&str] = &[
            "arXiv",
            "arxiv",
            "ARXIV",
            " preprint",
            " arXiv",
            ":",
            ".",
            " ",
            "\u{a0}",
            "abs/",
            "arxiv.org/abs/",
            "arxiv.org/pdf/",
            "[",
            "]",
            "2106",
            ".",
            "11959",
            "1195",
            "119",
            "v2",
            ".pdf",
            "١",
            "12345",
            "x",
        ];
        joined(PARTS, 12)
    }

    /// URLs and their edges.
    fn url_like() -> impl Strategy<Value = String> {
        const PARTS: &[&str] = &[
            "http://", "HTTPS://", "https://", "https:/", "http", "www.", "WwW.", "www", "<", ">",
            "\"", " ", "\u{a0}", "a", "_", "x.org/a", "é", "(", ")", ".", ",", "/", ":", "9",
        ];
        joined(PARTS, 10)
    }

    /// NOISE's labels and notes, with their neighbours.
    fn noise_like() -> impl Strategy<Value = String> {
        const PARTS: &[&str] = &[
            "Preprint at",
            "preprint",
            " at",
            "[Google Scholar]",
            "[web of science]",
            "[PMC free article]",
            "[Cross Ref]",
            "[Abstract]",
            "[Internet]",
            "[online]",
            "epub ahead of print",
            "Epub 2019 x.",
            "arXiv e-prints",
            "arxiv [preprint]",
            "URL :",
            "online:",
            "available :",
            "Accessible via",
            "Retrieved on",
            "last accessed",
            "viewed",
            "consulted",
            "(Viewed 2020)",
            " ",
            ".",
            "(",
            ")",
            "[",
            "]",
            "2019",
            ":",
            "via",
            "from",
        ];
        joined(PARTS, 8)
    }

    /// [`tidy`] as it was written first, a word at a time.
    fn tidy_by_words(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for word in s.split_whitespace() {
            let only_punct = word
                .chars()
                .all(|c| matches!(c, '.' | ',' | ';' | ':' | '[' | ']' | '(' | ')'));
            if only_punct {
                if word.contains(['(', '[', ')', ']']) && word.len() > 1 {
                    continue;
                }
                if !out.is_empty() && !out.ends_with(['.', ',', ';', ':']) {
                    out.push_str(&word[..1]);
                }
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        out.trim_end_matches([',', ';', ':', ' ']).to_string()
    }

    #[test]
    fn doi_of_non_ascii_digits_is_read_without_panic() {
        // The glued-tail search starts eight bytes in, inside the third digit here.
        let mut f = RefFields::default();
        let rest = extract("Lee. 10.١٢٣٤/x,arXiv:1", &mut f);
        assert_eq!(f.doi.as_deref(), Some("10.١٢٣٤/x"));
        assert!(!rest.contains("١"));
    }

    proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn tidy_copies_runs_as_it_joined_words(s in prop_oneof![any_text(), noise_like()]) {
            prop_assert_eq!(tidy(&s), tidy_by_words(&s));
        }

        #[test]
        fn bare_arxiv_shape_by_bytes_is_by_chars(s in prop_oneof![any_text(), arxiv_like()]) {
            let by_chars = memchr::memchr_iter(b'.', s.as_bytes()).any(|at| {
                let mut after = s[at + 1..].chars();
                let mut before = s[..at].chars().rev();
                (0..4).all(|_| before.next().is_some_and(maybe_digit))
                    && (0..5).all(|_| after.next().is_some_and(maybe_digit))
            });
            prop_assert_eq!(bare_arxiv_shape(&s), by_chars);
        }

        #[test]
        fn urls_by_hand_are_the_regex_matches(s in prop_oneof![any_text(), url_like()]) {
            let by_regex: Vec<(usize, usize)> =
                URL.find_iter(&s).map(|m| (m.start(), m.end())).collect();
            prop_assert_eq!(urls_in(&s).collect::<Vec<_>>(), by_regex);
        }

        #[test]
        fn new_arxiv_id_is_the_first_group(s in prop_oneof![any_text(), arxiv_like()]) {
            for c in ARXIV_NEW.captures_iter(&s) {
                let m = c.get(0).unwrap();
                prop_assert_eq!(new_arxiv_id(&s, m), &c[1]);
            }
        }

        /// NOISE runs only where one of its words is: on cleaned text, as `extract`
        /// gets it (NFKC has no `ſ` or Kelvin sign, which case-fold to ASCII).
        #[test]
        fn noise_needs_its_words(s in prop_oneof![any_text(), noise_like()]) {
            let text = super::super::clean::clean(&s);
            if NOISE.is_match(&text) {
                let seen = needles(&text);
                prop_assert!(
                    seen & (needle::NOISE_WORD | needle::PREPRINT | needle::BRACKET_LABEL) != 0
                );
            }
        }
    }
}
