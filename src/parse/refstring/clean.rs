//! Undo what PDF extraction, HTML and Markdown do to a reference string before the
//! fields are read: ligatures, markup, line breaks and hyphenation, stray spaces inside
//! identifiers, list labels.

use std::borrow::Cow;
use std::sync::LazyLock;

use memchr::memmem;
use regex::Regex;
use unicode_normalization::UnicodeNormalization;

use crate::parse::is_space;

static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"</?[A-Za-z][A-Za-z0-9]{0,10}\s*/?>").expect("tag regex"));
static MD_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]]{1,300})\]\((https?://[^)\s]+)\)").expect("link regex"));
/// `doi: 10. 1038/x`, `DOI 10.1093/ molbev`: the PDF text layer's stray spaces.
static DOI_SPACES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)(doi)\s*:\s*10\s*\.\s*(\d{4,9})\s*/\s*|(?-u:\b)10\s*\.\s*(\d{4,9})\s*/\s*",
    )
    .expect("doi spacing regex")
});
/// A DOI cut by a space after a period (`10.48550/arXiv. 2203.04567`,
/// `10.48550/arXiv.2203. 04567`, `10.3389/fphys. 2019.01234`): what comes before the
/// space is only the start of a DOI (letters, no digit yet, or an arXiv DOI's month),
/// and digits go on after it.
static DOI_CUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(10\.\d{4,9}/(?:[a-z]{1,12}\.)+|10\.48550/arxiv\.\d{4}\.) (\d)")
        .expect("DOI cut regex")
});
/// `arXiv :1611 .09748v4`, `arXiv: 1611.09748`.
static ARXIV_SPACES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)arxiv\s*:\s*(\d{4})\s*\.\s*(\d{4,5})(\s*v\s*\d+)?")
        .expect("arXiv spacing")
});
/// `[12]`, `12.`, `(12)`, `12)`, `[Smi99]`, bullets.
static LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\[[^\]\s]{1,24}\]|\(\d{1,4}\)|\d{1,4}[.)]|[•·*\-–—]\s)\s*")
        .expect("label regex")
});

/// A Vancouver name at the start: a capitalised family name and one or two capitals.
static GLUED_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\p{Lu}\p{Ll}+ \p{Lu}{1,2}(?:-\p{Lu})?,").expect("glued name regex")
});

/// Normalise the characters and spacing of a reference string (most are clean
/// already, and borrowed).
pub fn clean(raw: &str) -> Cow<'_, str> {
    let mut s: Cow<str> = Cow::Borrowed(raw);
    if !s.is_ascii() && needs_normalising(&s) {
        // NFKC turns ligatures (ﬁ ﬂ) and full-width forms into plain letters.
        s = Cow::Owned(
            s.chars()
                .filter(|c| *c != '\u{ad}' && *c != '\u{200b}')
                .nfkc()
                .collect::<String>()
                // A PDF text layer's broken `ff` ligature.
                .replace('↵', "ff"),
        );
    }
    if has_entity(&s) {
        s = Cow::Owned(
            s.replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&apos;", "'")
                .replace("&nbsp;", " "),
        );
    }
    if has_tag_start(&s) {
        s = Cow::Owned(TAG.replace_all(&s, " ").into_owned());
    }
    if has(&s, &LINK_TARGET) {
        s = Cow::Owned(MD_LINK.replace_all(&s, "$1 $2").into_owned());
    }
    let mut out = if is_collapsed(&s) {
        s
    } else {
        Cow::Owned(collapse_spaces(&s))
    };
    if has(&out, &SPACED_ELLIPSIS) {
        // NFKC spells the ellipsis out; one character keeps it apart from periods
        // (`A, B, … Z` in APA lists).
        out = Cow::Owned(out.replace(" ...", " …"));
    }
    if has(&out, &HYPHEN_SPACE) {
        out = Cow::Owned(join_hyphenation(&out));
    }
    if has_pair(&out, b"10") && doi_spaced(&out) {
        out = Cow::Owned(
            DOI_SPACES
                .replace_all(&out, |c: &regex::Captures| {
                    match (c.get(1), c.get(2), c.get(3)) {
                        (Some(label), Some(reg), _) => {
                            format!("{}:10.{}/", label.as_str(), reg.as_str())
                        }
                        (_, _, Some(reg)) => format!("10.{}/", reg.as_str()),
                        _ => c[0].to_string(),
                    }
                })
                .into_owned(),
        );
    }
    if has_pair(&out, b". ") && has_pair(&out, b"10") && DOI_CUT.is_match(&out) {
        out = Cow::Owned(DOI_CUT.replace_all(&out, "$1$2").into_owned());
    }
    if out.len() >= 10 && arxiv_spaced(&out) {
        out = Cow::Owned(
            ARXIV_SPACES
                .replace_all(&out, |c: &regex::Captures| {
                    let v: String = c
                        .get(3)
                        .map(|v| v.as_str().chars().filter(|c| !c.is_whitespace()).collect())
                        .unwrap_or_default();
                    format!("arXiv:{}.{}{}", &c[1], &c[2], v)
                })
                .into_owned(),
        );
    }
    out
}

/// Whether NFKC, or removing soft hyphens, zero-width spaces and `↵`, would change
/// `s`: most accented letters, dashes and quotes are already in NFKC.
fn needs_normalising(s: &str) -> bool {
    if s.chars().all(kept_by_nfkc) {
        return false;
    }
    s.contains(['\u{ad}', '\u{200b}', '↵'])
        || unicode_normalization::is_nfkc_quick(s.chars())
            != unicode_normalization::IsNormalized::Yes
}

/// Where [`KEPT_BY_NFKC`] ends.
const KEPT_LIMIT: usize = 0x3000;

/// One bit for each character below U+3000 that leaves every text as NFKC's quick
/// check finds it (ASCII, and the starters it says Yes to), that [`clean`] does not
/// remove: a text of them alone needs no normalising, and no lookup in the
/// normalisation tables.
static KEPT_BY_NFKC: LazyLock<Vec<u64>> = LazyLock::new(|| {
    use unicode_normalization::{IsNormalized, char::canonical_combining_class, is_nfkc_quick};
    let mut bits = vec![0u64; KEPT_LIMIT / 64];
    for c in (0..KEPT_LIMIT as u32).filter_map(char::from_u32) {
        let kept = !matches!(c, '\u{ad}' | '\u{200b}' | '↵')
            && canonical_combining_class(c) == 0
            && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes;
        if kept {
            bits[c as usize / 64] |= 1 << (c as usize % 64);
        }
    }
    bits
});

fn kept_by_nfkc(c: char) -> bool {
    let c = c as usize;
    c < 0x80 || (c < KEPT_LIMIT && KEPT_BY_NFKC[c / 64] >> (c % 64) & 1 == 1)
}

/// Whether `hay` contains `needle`, ignoring ASCII case. The search runs on the
/// needle's rarest letter (`x` of `arxiv`), so that few candidates are compared.
pub fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    search(hay, needle.as_bytes(), rarest(needle.as_bytes()), true)
}

/// The index of the needle's rarest byte (the first of the rarest).
const fn rarest(needle: &[u8]) -> usize {
    let mut best = 0;
    let mut k = 1;
    while k < needle.len() {
        if commonness(needle[k]) < commonness(needle[best]) {
            best = k;
        }
        k += 1;
    }
    best
}

/// Whether `hay` holds `needle`, probing on `needle[k]`.
fn search(hay: &str, needle: &[u8], k: usize, ignore_case: bool) -> bool {
    let hay = hay.as_bytes();
    let Some(&probe) = needle.get(k) else {
        return true;
    };
    let (lower, upper) = if ignore_case {
        (probe.to_ascii_lowercase(), probe.to_ascii_uppercase())
    } else {
        (probe, probe)
    };
    let mut from = k;
    while let Some(rest) = hay.get(from..)
        && let Some(i) = if lower == upper {
            memchr::memchr(lower, rest)
        } else {
            memchr::memchr2(lower, upper, rest)
        }
    {
        let at = from + i - k;
        if hay.get(at..at + needle.len()).is_some_and(|w| {
            if ignore_case {
                w.eq_ignore_ascii_case(needle)
            } else {
                w == needle
            }
        }) {
            return true;
        }
        from += i + 1;
    }
    false
}

/// How often a byte turns up in a reference, roughly (English letter frequencies;
/// spaces and punctuation most of all).
const fn commonness(b: u8) -> u8 {
    match b.to_ascii_lowercase() {
        b' ' | b'.' | b',' | b'e' | b't' | b'a' | b'o' | b'i' | b'n' => 9,
        b's' | b'r' | b'h' | b'l' | b'd' | b'c' => 8,
        b'u' | b'm' | b'f' | b'p' | b'g' | b'w' | b'y' => 6,
        b'b' | b'v' => 4,
        b'k' | b'x' | b'j' | b'q' | b'z' => 2,
        _ => 5,
    }
}

/// Whether `s` holds one of the HTML entities [`clean`] decodes.
fn has_entity(s: &str) -> bool {
    const ENTITIES: [&str; 7] = [
        "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&apos;", "&nbsp;",
    ];
    memchr::memchr_iter(b'&', s.as_bytes())
        .any(|at| ENTITIES.iter().any(|e| s[at..].starts_with(e)))
}

/// Whether `s` holds the two bytes `pair` one after the other.
fn has_pair(s: &str, pair: &[u8; 2]) -> bool {
    let bytes = s.as_bytes();
    memchr::memchr_iter(pair[0], bytes).any(|at| bytes.get(at + 1) == Some(&pair[1]))
}

/// Whether `s` holds `needle`, with a searcher built once (`str::contains` and
/// `memmem::find` set one up on every call).
fn has(s: &str, needle: &'static LazyLock<memmem::Finder<'static>>) -> bool {
    needle.find(s.as_bytes()).is_some()
}

static TWO_SPACES: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(b"  "));
static HYPHEN_SPACE: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"- "));
static LINK_TARGET: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b"](http"));
static SPACED_ELLIPSIS: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(b" ..."));

/// Every run of whitespace (line breaks, no-break spaces) becomes one space.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `s` has no whitespace but single ASCII spaces between words, so that
/// [`collapse_spaces`] would leave it as it is; most references are.
fn is_collapsed(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') || has(s, &TWO_SPACES) {
        return false;
    }
    // Not short-circuited, so that it runs over whole words at a time.
    let control = b
        .iter()
        .fold(false, |acc, c| acc | matches!(c, b'\t'..=b'\r'));
    // The lead bytes of the other Unicode spaces (U+0085, U+00A0, U+1680,
    // U+2000–U+205F, U+3000).
    let unicode = !s.is_ascii()
        && memchr::memchr3_iter(0xC2, 0xE1, 0xE2, b)
            .chain(memchr::memchr_iter(0xE3, b))
            .any(|at| s[at..].starts_with(char::is_whitespace));
    !control && !unicode
}

/// Whether `s` holds a `<` that may open an HTML tag (`<i>`, `</b>`).
fn has_tag_start(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(b'<', b).any(|at| {
        b.get(at + 1)
            .is_some_and(|n| *n == b'/' || n.is_ascii_alphabetic())
    })
}

/// Whether a DOI in `s` may be broken by a space, so that [`DOI_SPACES`] would
/// change it: the old rule (one of `. `, ` .`, ` /`, `/ `, `: 10`) and a pair that
/// every match holding a space has (` /`, `/ `, `: 10`, ` :`, `10 .`, `10. `).
/// `s` has single spaces only.
fn doi_spaced(s: &str) -> bool {
    let b = s.as_bytes();
    let (mut old_rule, mut spaced) = (false, false);
    for i in memchr::memchr3_iter(b'.', b'/', b':', b) {
        let space_before = i > 0 && b[i - 1] == b' ';
        let space_after = b.get(i + 1) == Some(&b' ');
        match b[i] {
            b'/' if space_before || space_after => return true,
            b':' if b[i + 1..].starts_with(b" 10") => return true,
            b':' => spaced |= space_before,
            b'.' => {
                old_rule |= space_before || space_after;
                spaced |= (space_before && i >= 3 && &b[i - 3..i - 1] == b"10")
                    || (space_after && i >= 2 && &b[i - 2..i] == b"10");
            }
            _ => {}
        }
    }
    old_rule && spaced
}

/// Whether [`ARXIV_SPACES`] may change `s`: some `arxiv` label not written `arXiv`,
/// or one followed by a space (or any non-ASCII character) within the bytes that a
/// match can reach before its first space.
fn arxiv_spaced(s: &str) -> bool {
    let b = s.as_bytes();
    // Found by the label's rare `x`, two bytes after its start.
    memchr::memchr2_iter(b'x', b'X', b).any(|x| {
        let Some(label) = x.checked_sub(2).and_then(|at| b.get(at..at + 5)) else {
            return false;
        };
        if !label.eq_ignore_ascii_case(b"arxiv") {
            return false;
        }
        if label != b"arXiv" {
            return true;
        }
        // `:` + 4 digits + `.` + 5 digits + `v`: at most 12 bytes before a space.
        let window = &b[x + 3..b.len().min(x + 3 + 16)];
        window.iter().any(|&c| is_space(c) || !c.is_ascii())
    })
}

/// `trans- formation` → `transformation`: a hyphen at a line break between two
/// lowercase word parts. `pre- and post-` keeps its hyphen.
fn join_hyphenation(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("- ") {
        let before = &rest[..i];
        let after = &rest[i + 2..];
        // Only inside a plain word: `10.1016/j.x- 12` keeps its hyphen.
        let word_before = before.rsplit(' ').next().unwrap_or("");
        let prev_lower = before.chars().next_back().is_some_and(|c| c.is_lowercase())
            && word_before.chars().all(|c| c.is_alphabetic() || c == '-');
        let next_word: &str = after
            .split(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("");
        let next_lower = next_word.chars().next().is_some_and(|c| c.is_lowercase());
        out.push_str(before);
        if prev_lower
            && next_lower
            && !matches!(
                next_word,
                "and" | "or" | "und" | "to" | "et" | "oder" | "ou"
            )
        {
            rest = after;
        } else {
            out.push_str("- ");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The text without a leading list label (`[12]`, `12.`, `(3)`, `7 Name`, a bullet).
pub fn strip_label(s: &str) -> &str {
    // `7 Suntola, T.`: a bare number of one to three digits before a capital.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=3).contains(&digits)
        && s[digits..].starts_with(' ')
        && s[digits + 1..].starts_with(char::is_uppercase)
    {
        return &s[digits + 1..];
    }
    // `26-Vellin J-F, …`: a number glued to a Vancouver name by a hyphen.
    if (1..=3).contains(&digits)
        && s[digits..].starts_with('-')
        && GLUED_NAME.is_match(&s[digits + 1..])
    {
        return &s[digits + 1..];
    }
    match LABEL.find(s) {
        // A bare `2015. Title` is a year, not a label; `3.5 …` is a number.
        Some(m)
            if !looks_like_year_label(m.as_str())
                && !s[m.end()..].starts_with(|c: char| c.is_ascii_digit()) =>
        {
            &s[m.end()..]
        }
        _ => s,
    }
}

/// `———.`, `---.`: "same authors as the previous entry". Returns the text after it.
pub fn strip_repeat_dashes(s: &str) -> Option<&str> {
    let rest = s.trim_start_matches(['—', '–', '-', '_']);
    let dashes = s.len() - rest.len();
    (dashes >= 3).then(|| rest.trim_start_matches(['.', ',', ' ']))
}

fn looks_like_year_label(label: &str) -> bool {
    let digits = label.bytes().filter(u8::is_ascii_digit).count();
    digits == 4 && !label.starts_with('[') && !label.starts_with('(')
}

/// Markdown emphasis markers removed: `**Title**`, `*Venue*`, `_x_` at word edges.
/// Runs that hold a `/` (DOIs, URLs) keep theirs: `_` and `*` may belong to them.
pub fn strip_emphasis(s: &str) -> Cow<'_, str> {
    // On the bytes: `*` and `_` are ASCII, and a char-set `contains` decodes every char.
    if memchr::memchr2(b'*', b'_', s.as_bytes()).is_none() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for (k, run) in s.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        if run.contains('/') || !run.contains(['*', '_']) {
            out.push_str(run);
            continue;
        }
        let chars: Vec<char> = run.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if c == '*' {
                continue;
            }
            if c == '_' {
                let word = |x: Option<&char>| x.is_some_and(|x| x.is_alphanumeric());
                let inner =
                    word(i.checked_sub(1).and_then(|j| chars.get(j))) && word(chars.get(i + 1));
                if !inner {
                    continue;
                }
            }
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// An LLM-style reference that opens with its title in emphasis or quotes:
/// `**Title** - Lee et al., 2023 …`, `*Title*. Authors …`. Returns (title, rest).
pub fn leading_title(s: &str) -> Option<(&str, &str)> {
    for (open, close) in [
        ("**", "**"),
        ("__", "__"),
        ("*", "*"),
        ("\"", "\""),
        ("“", "”"),
    ] {
        let Some(body) = s.strip_prefix(open) else {
            continue;
        };
        let end = body.find(close)?;
        let title = body[..end].trim();
        let rest = body[end + close.len()..].trim_start();
        let dashed = ["- ", "– ", "— ", "by ", "By "]
            .iter()
            .find_map(|d| rest.strip_prefix(d));
        if title.split_whitespace().count() >= 2 {
            if let Some(r) = dashed {
                return Some((title, r));
            }
            if let Some(r) = rest.strip_prefix(['.', ',']) {
                // Only when markdown set the title apart: quotes alone open many titles
                // of author-less references, which the general rules read as well.
                if open.starts_with(['*', '_']) {
                    return Some((title, r.trim_start()));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEEDLES: [&str; 8] = ["arxiv", "://", "10.", "[", "PM", "www.", "retriev", ""];

    /// [`arxiv_spaced`] as it was written first, on every `a`.
    fn arxiv_spaced_by_a(s: &str) -> bool {
        let b = s.as_bytes();
        let mut from = 0;
        while let Some(i) = memchr::memchr2(b'a', b'A', &b[from..]) {
            let at = from + i;
            from = at + 1;
            let Some(label) = b.get(at..at + 5) else {
                break;
            };
            if !label.eq_ignore_ascii_case(b"arxiv") {
                continue;
            }
            if label != b"arXiv" {
                return true;
            }
            let window = &b[at + 5..b.len().min(at + 5 + 16)];
            if window.iter().any(|&c| is_space(c) || !c.is_ascii()) {
                return true;
            }
        }
        false
    }

    #[test]
    fn needles_probe_their_rarest_byte() {
        assert_eq!(rarest(NEEDLES[0].as_bytes()), 2);
        assert_eq!(rarest(NEEDLES[1].as_bytes()), 0);
        assert_eq!(rarest(NEEDLES[2].as_bytes()), 0);
    }

    /// [`needs_normalising`] without the table of kept characters.
    fn needs_normalising_by_tables(s: &str) -> bool {
        s.contains(['\u{ad}', '\u{200b}', '↵'])
            || unicode_normalization::is_nfkc_quick(s.chars())
                != unicode_normalization::IsNormalized::Yes
    }

    /// Text of the characters below U+3000 and a few beyond, combining marks included.
    fn wide_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let c = prop_oneof![
            4 => (0x20u32..0x3100).prop_filter_map("a char", char::from_u32),
            1 => (0x300u32..0x370).prop_filter_map("a mark", char::from_u32),
            1 => any::<char>(),
        ];
        proptest::collection::vec(c, 0..12).prop_map(|v| v.into_iter().collect())
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(2000))]

        #[test]
        fn kept_characters_need_no_normalising(s in proptest::prop_oneof![
            super::super::test_support::any_text(),
            wide_text(),
        ]) {
            proptest::prop_assert_eq!(needs_normalising(&s), needs_normalising_by_tables(&s));
        }

        #[test]
        fn arxiv_spaced_by_its_x_is_by_its_a(s in super::super::test_support::any_text()) {
            proptest::prop_assert_eq!(arxiv_spaced(&s), arxiv_spaced_by_a(&s));
        }

        #[test]
        fn needle_search_is_str_contains(s in super::super::test_support::any_text()) {
            let folded = s.to_ascii_lowercase();
            for n in NEEDLES {
                proptest::prop_assert_eq!(
                    contains_ignore_case(&s, n),
                    folded.contains(&n.to_ascii_lowercase())
                );
            }
        }
    }
}
