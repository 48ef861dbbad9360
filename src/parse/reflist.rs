//! A document's own reference list: the section after a "References" / "Sources" /
//! "Bibliography" title, or a trailing block of `[n]` lines as LLM answers write it.
//! Shared by the Markdown and the plain-text parsers; works on source lines so that
//! spans are exact.
//!
//! Items are numbered (`1.`, `1)`, `[1]`, `[1]:`, `(1)`), bulleted (`-`, `*`, `+`,
//! `•`) or unmarked (one per line, or one per paragraph when they wrap). A numbered
//! item's key is its number as written; other items are keyed by their 1-based
//! position in the list.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::model::{FileId, Reference, ReferenceOrigin, Span};
use crate::parse::refstring;

/// Titles of reference sections, compared lowercase.
const TITLES: &[&str] = &[
    "references",
    "reference",
    "reference list",
    "list of references",
    "bibliography",
    "sources",
    "source",
    "sources cited",
    "works cited",
    "cited works",
    "literature",
    "literature cited",
    "cited literature",
    "citations",
    "notes and references",
    "references and notes",
    "sources and references",
    "references and further reading",
];

/// Whether `line` (a heading's text or a line on its own) names a reference section:
/// `## References`, `**Sources:**`, `Bibliography {.unnumbered}`, `References:`.
pub fn is_section_title(line: &str) -> bool {
    let mut t = line.trim().trim_start_matches('#').trim();
    // `ends_with` first: it is one byte test, and most lines are not attributed.
    if t.ends_with('}')
        && let Some(brace) = t.find(" {")
    {
        t = t[..brace].trim_end();
    }
    let t = t
        .trim_matches(|c: char| matches!(c, '*' | '_' | '#' | ' ' | '\t'))
        .trim_end_matches(':')
        .trim_matches(|c: char| matches!(c, '*' | '_' | ' '))
        .trim_end_matches(':')
        .trim();
    t.len() <= 40 && TITLES.iter().any(|title| t.eq_ignore_ascii_case(title))
}

/// Whether `line` starts with a `[n]` marker followed by text: an item of a
/// heading-less reference list.
pub fn is_bracket_item(line: &str) -> bool {
    matches!(marker(line), Some((Marker::Number(_), body)) if body < line.len())
        && line.trim_start().starts_with('[')
}

/// Whether every non-blank line of `block` is a `[n] …` item.
pub fn is_bracket_list(block: &str) -> bool {
    let mut any = false;
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        if !is_bracket_item(line) {
            return false;
        }
        any = true;
    }
    any
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Marker {
    /// The span of the number, relative to the line.
    Number(Span),
    Bullet,
}

static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^[ \t]*(?:\[(?P<b>\d{1,4})\]:?[ \t]*|\((?P<p>\d{1,3})\)[ \t]+|(?P<n>\d{1,3})[.)][ \t]+|[-*+•‣◦][ \t]+)",
    )
    .expect("list marker regex")
});

/// The marker at the start of a line and where the item's text begins.
fn marker(line: &str) -> Option<(Marker, usize)> {
    // Every line of a reference section is asked; the regex is left the lines where a
    // digit outside ASCII (which `\d` takes) could be part of the marker.
    match marker_by_hand(line) {
        Ok(found) => found,
        Err(NonAsciiDigit) => marker_by_regex(line),
    }
}

/// [`MARKER`] and the link test of [`marker`], through the regex.
fn marker_by_regex(line: &str) -> Option<(Marker, usize)> {
    let caps = MARKER.captures(line)?;
    let end = caps.get(0)?.end();
    let number = caps.name("b").or(caps.name("p")).or(caps.name("n"));
    if caps.name("b").is_some() && line[end..].starts_with(['(', '[']) {
        return None;
    }
    Some(match number {
        Some(n) => (Marker::Number(Span::new(n.start(), n.end())), end),
        None => (Marker::Bullet, end),
    })
}

/// A character that `\d` may take where [`marker_by_hand`] reads ASCII digits only.
struct NonAsciiDigit;

/// [`MARKER`] read on the bytes: `[n]` (then `:`) and spaces, `(n)`, `n.` or `n)`, or
/// a bullet, then spaces. `[1](…)` and `[1][2]` are links and markers, not list items.
fn marker_by_hand(line: &str) -> Result<Option<(Marker, usize)>, NonAsciiDigit> {
    let b = line.as_bytes();
    let spaces = |at: usize| {
        b[at.min(b.len())..]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count()
    };
    // Up to `max` ASCII digits at `at`; a run shorter than `max` that goes on in a
    // non-ASCII numeric character is the regex's to read.
    let digits = |at: usize, max: usize| {
        let n = b[at.min(b.len())..]
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        let next = line.get(at + n..).and_then(|r| r.chars().next());
        if n < max && next.is_some_and(|c| !c.is_ascii() && c.is_numeric()) {
            return Err(NonAsciiDigit);
        }
        Ok(n)
    };
    let lead = spaces(0);
    let number = |from: usize, n: usize| Marker::Number(Span::new(from, from + n));
    let Some(first) = line[lead..].chars().next() else {
        return Ok(None);
    };
    Ok(match first {
        '[' => {
            let n = digits(lead + 1, 4)?;
            let close = lead + 1 + n;
            if n == 0 || b.get(close) != Some(&b']') {
                return Ok(None);
            }
            let mut end = close + 1;
            end += usize::from(b.get(end) == Some(&b':'));
            end += spaces(end);
            if line[end..].starts_with(['(', '[']) {
                return Ok(None);
            }
            Some((number(lead + 1, n), end))
        }
        '(' => {
            let n = digits(lead + 1, 3)?;
            let close = lead + 1 + n;
            let gap = spaces(close + 1);
            (n > 0 && b.get(close) == Some(&b')') && gap > 0)
                .then(|| (number(lead + 1, n), close + 1 + gap))
        }
        '0'..='9' => {
            let n = digits(lead, 3)?;
            let gap = spaces(lead + n + 1);
            (matches!(b.get(lead + n), Some(b'.' | b')')) && gap > 0)
                .then(|| (number(lead, n), lead + n + 1 + gap))
        }
        '-' | '*' | '+' | '•' | '‣' | '◦' => {
            let after = lead + first.len_utf8();
            let gap = spaces(after);
            (gap > 0).then_some((Marker::Bullet, after + gap))
        }
        c if !c.is_ascii() && c.is_numeric() => return Err(NonAsciiDigit),
        _ => None,
    })
}

/// Lines that are not reference text: HTML, footnote and tag definitions, fences,
/// thematic breaks, pandoc divs.
fn is_skipped(trimmed: &str, link_definitions: bool) -> bool {
    trimmed.starts_with('<')
        || trimmed.starts_with("[^")
        || trimmed.starts_with("[@")
        || trimmed.starts_with("```")
        || trimmed.starts_with("~~~")
        || trimmed.starts_with(":::")
        || trimmed.starts_with('{')
        || (trimmed.len() >= 3 && trimmed.chars().all(|c| matches!(c, '-' | '*' | '_' | ' ')))
        || (!link_definitions && is_link_definition(trimmed))
}

/// `[n]: …`, a Markdown link reference definition with a numeric label.
pub fn is_link_definition(trimmed: &str) -> bool {
    // The first `]:` closes the label: all digits, it comes right after them.
    let digits = trimmed
        .bytes()
        .skip(1)
        .take_while(u8::is_ascii_digit)
        .count();
    trimmed.starts_with('[') && digits > 0 && trimmed[1 + digits..].starts_with("]:")
}

struct Item {
    span: Span,
    number: Option<Span>,
    /// Its text pieces after the marker: a range of the list's lines (absolute spans),
    /// which an item takes one after the other.
    body: Range<usize>,
    /// Started by a blank-line-separated paragraph rather than a marker.
    unmarked: bool,
}

/// The items of the reference list written in `text[range]`. `link_definitions`:
/// read `[n]: url` lines as items (plain text); Markdown reads them elsewhere.
pub fn read(file: FileId, text: &str, range: Span, link_definitions: bool) -> Vec<Reference> {
    let mut out = Vec::new();
    read_into(file, text, range, link_definitions, &mut out);
    out
}

/// [`read`], adding the references to `out`.
pub fn read_into(
    file: FileId,
    text: &str,
    range: Span,
    link_definitions: bool,
    out: &mut Vec<Reference>,
) {
    let mut items: Vec<Item> = Vec::new();
    let mut lines: Vec<Span> = Vec::new();
    let mut open = false;
    let mut blank_before = true;
    let mut line_start = range.start;
    while line_start < range.end {
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..range.end])
            .map_or(range.end, |i| line_start + i);
        let line = &text[line_start..line_end];
        let next = line_end + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            blank_before = true;
            line_start = next;
            continue;
        }
        let content_end = line_start + line.trim_end().len();
        let lead = line.len() - line.trim_start().len();
        if is_skipped(trimmed, link_definitions) {
            open = false;
        } else if let Some((m, body)) = marker(line) {
            items.push(Item {
                span: Span::new(line_start + lead, content_end),
                number: match m {
                    Marker::Number(n) => Some(n.offset(line_start)),
                    Marker::Bullet => None,
                },
                body: lines.len()..lines.len() + 1,
                unmarked: false,
            });
            lines.push(Span::new((line_start + body).min(content_end), content_end));
            open = true;
        } else if open && (!blank_before || lead > 0) {
            let item = items.last_mut().expect("open item");
            item.span.end = content_end;
            item.body.end += 1;
            lines.push(Span::new(line_start + lead, content_end));
        } else {
            items.push(Item {
                span: Span::new(line_start + lead, content_end),
                number: None,
                body: lines.len()..lines.len() + 1,
                unmarked: true,
            });
            lines.push(Span::new(line_start + lead, content_end));
            open = true;
        }
        blank_before = false;
        line_start = next;
    }
    let items = settle_unmarked(items, &lines);
    for (k, item) in items.into_iter().enumerate() {
        out.extend(reference(file, text, &lines, item, k + 1));
    }
}

/// Unmarked text next to marked items is commentary, not references. In a list of
/// unmarked items, a paragraph that wraps over several lines is one item; otherwise
/// each line is one.
fn settle_unmarked(items: Vec<Item>, lines: &[Span]) -> Vec<Item> {
    let marked = items.iter().any(|i| !i.unmarked);
    if marked {
        return items.into_iter().filter(|i| !i.unmarked).collect();
    }
    let several_paragraphs = items.len() > 1;
    let wraps = items.iter().any(|i| i.body.len() > 1);
    if several_paragraphs && wraps {
        return items;
    }
    items
        .into_iter()
        .flat_map(|item| {
            item.body.map(|k| Item {
                span: lines[k],
                number: None,
                body: k..k + 1,
                unmarked: true,
            })
        })
        .collect()
}

static MD_LINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[([^\]\[]*)\]\(([^)\s]*)\)|<(https?://[^>\s]+)>").expect("link regex")
});

fn reference(
    file: FileId,
    text: &str,
    lines: &[Span],
    item: Item,
    position: usize,
) -> Option<Reference> {
    let body = item_text(text, &lines[item.body]);
    if body.is_empty() {
        return None;
    }
    // The regex needs a `[` or a `<`; most items hold neither.
    let cleaned: Cow<str> = if memchr::memchr2(b'[', b'<', body.as_bytes()).is_none() {
        Cow::Borrowed(&body)
    } else {
        MD_LINK.replace_all(&body, |c: &regex::Captures| {
            match (c.get(1), c.get(2), c.get(3)) {
                (Some(label), Some(url), _) => format!("{} {}", label.as_str(), url.as_str()),
                (_, _, Some(url)) => url.as_str().to_string(),
                _ => String::new(),
            }
        })
    };
    let key = match item.number {
        Some(n) => text[n.start..n.end].to_string(),
        None => position.to_string(),
    };
    Some(Reference {
        key,
        origin: ReferenceOrigin::ReferenceList,
        entry_type: None,
        file,
        span: item.span,
        key_span: item.number,
        raw: text[item.span.start..item.span.end].to_string(),
        fields: refstring::parse(&cleaned),
        field_spans: Vec::new(),
    })
}

/// An item's lines, trimmed and joined by single spaces (borrowed when it has one).
fn item_text<'t>(text: &'t str, lines: &[Span]) -> Cow<'t, str> {
    let mut pieces = lines
        .iter()
        .map(|s| text[s.start..s.end].trim())
        .filter(|s| !s.is_empty());
    let Some(first) = pieces.next() else {
        return Cow::Borrowed("");
    };
    let Some(second) = pieces.next() else {
        return Cow::Borrowed(first);
    };
    let mut joined =
        String::with_capacity(lines.iter().map(Span::len).sum::<usize>() + lines.len());
    for piece in [first, second].into_iter().chain(pieces) {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(piece);
    }
    Cow::Owned(joined)
}

/// The reference a footnote definition `[^label]: text` written at `span` makes
/// (Markdown and plain text write them alike).
pub fn footnote(file: FileId, text: &str, label: &str, span: Span) -> Option<Reference> {
    let span = trim_span(text, span);
    let written = &text[span.start..span.end];
    let marker = format!("[^{label}]");
    if !written.starts_with(&marker) {
        return None;
    }
    let key_span = Span::new(span.start + 1, span.start + marker.len() - 1);
    let body = written[marker.len()..].trim_start_matches(':');
    let body: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(Reference {
        key: text[key_span.start..key_span.end].to_string(),
        origin: ReferenceOrigin::Footnote,
        entry_type: None,
        file,
        span,
        key_span: Some(key_span),
        raw: written.to_string(),
        fields: refstring::parse(&body),
        field_spans: Vec::new(),
    })
}

/// `span` without leading and trailing whitespace.
pub fn trim_span(text: &str, span: Span) -> Span {
    let s = &text[span.start..span.end];
    let start = span.start + (s.len() - s.trim_start().len());
    Span::new(start, (span.start + s.trim_end().len()).max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_and_raw(text: &str) -> Vec<(String, String)> {
        read(FileId(0), text, Span::new(0, text.len()), true)
            .into_iter()
            .map(|r| {
                assert_eq!(&text[r.span.start..r.span.end], r.raw);
                (r.key, r.raw)
            })
            .collect()
    }

    #[test]
    fn titles() {
        for t in [
            "## References",
            "**Sources:**",
            "References:",
            "Bibliography {.unnumbered}",
            "# Works Cited",
            "__Literature__",
        ] {
            assert!(is_section_title(t), "{t}");
        }
        for t in [
            "References to prior work are rare",
            "Sources of error",
            "##",
        ] {
            assert!(!is_section_title(t), "{t}");
        }
    }

    #[test]
    fn numbered_wrapped_and_bracketed_items() {
        let text = "1. Smith, J. (2020). A title.\n   Nature.\n2. Lee, K. (2021). Other.\n\n[7] https://example.org/x\n";
        let got = keys_and_raw(text);
        assert_eq!(got[0].0, "1");
        assert_eq!(got[0].1, "1. Smith, J. (2020). A title.\n   Nature.");
        assert_eq!(got[1].0, "2");
        assert_eq!(got[2], ("7".into(), "[7] https://example.org/x".into()));
    }

    #[test]
    fn bullets_and_unmarked_lines_are_positional() {
        let got = keys_and_raw("- Alpha 2020.\n- Beta 2021.\n");
        assert_eq!(
            got.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(),
            ["1", "2"]
        );
        let got = keys_and_raw("https://a.org/1\nhttps://b.org/2\n");
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], ("2".into(), "https://b.org/2".into()));
    }

    #[test]
    fn commentary_next_to_numbered_items_is_dropped() {
        let got = keys_and_raw("1. A 2020.\n\nSome closing words.\n\n2. B 2021.\n");
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].0, "2");
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(5000))]

        #[test]
        fn marker_by_hand_is_the_regex(line in "[ \t]{0,2}[\\[(]?[0-9٣３]{0,5}[\\])\\.:]{0,2}[ \t(\\[]{0,2}[-*+•‣◦a ]{0,3}") {
            proptest::prop_assert_eq!(marker(&line), marker_by_regex(&line), "{:?}", line);
        }

        #[test]
        fn link_definition_test_is_split_once(line in "\\[[0-9a]{0,3}[\\]:]{0,3}[0-9\\]: ]{0,3}") {
            let by_split = line.starts_with('[')
                && line[1..]
                    .split_once("]:")
                    .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            proptest::prop_assert_eq!(is_link_definition(&line), by_split, "{:?}", line);
        }
    }

    #[test]
    fn bracket_lists() {
        assert!(is_bracket_list("[1] https://a.org\n[2] Smith 2020.\n"));
        assert!(!is_bracket_list("[1] https://a.org\nplain line\n"));
        assert!(!is_bracket_list("[1](https://a.org) text\n"));
    }
}
