//! LLM answers and plain text: numbered markers `[1]`, `[1][2]`, `[1, 2]` with a
//! trailing reference list (after a "References"/"Sources" line, or a heading-less
//! block of `[n] …` lines), "Sources:" lists of URLs, and bare URLs, DOIs, arXiv
//! ids and PMIDs in running text.
//!
//! Answers are often Markdown-ish, so list markers, headings, quote markers,
//! `**bold**` and inline code are kept out of claim text, and fenced code is skipped;
//! but the text is read line by line rather than as CommonMark, so that an
//! indented line is still prose.

use crate::model::{FileId, Reference, Span};
use crate::parse::collect::Collector;
use crate::parse::inline::Syntax;
use crate::parse::{ParseOptions, Parsed, comments, reflist};

/// Parse one plain-text file or LLM answer.
pub fn parse(file: FileId, text: &str, _options: &ParseOptions) -> Parsed {
    let mut out = Parsed::default();
    if text.contains("<!--") {
        comments::read(file, text, Span::new(0, text.len()), &mut out);
    }
    let trailing_list = trailing_bracket_list(text);
    let mut collector = Collector::new(file, text);
    let mut sections: Vec<Span> = Vec::new();
    let mut section_start: Option<usize> = None;
    let mut fenced = false;
    let mut block_open = false;
    for line in lines(text) {
        let written = &text[line.start..line.end];
        let trimmed = written.trim();
        if let Some(start) = section_start {
            // A Markdown heading that is not another title ends the section.
            if trimmed.starts_with('#') && !reflist::is_section_title(trimmed) {
                sections.push(Span::new(start, line.start));
                section_start = None;
            } else {
                continue;
            }
        }
        if trailing_list == Some(line.start) {
            collector.flush();
            section_start = Some(line.start);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            collector.flush();
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if trimmed.is_empty() {
            collector.flush();
            block_open = false;
            continue;
        }
        if trimmed.starts_with("<!--") && trimmed.ends_with("-->") {
            continue;
        }
        if trimmed.len() <= 60 && reflist::is_section_title(trimmed) {
            collector.flush();
            section_start = Some(line.end);
            continue;
        }
        if let Some(reference) = footnote_definition(file, text, line) {
            collector.flush();
            out.references.push(reference);
            block_open = false;
            continue;
        }
        let content = content_start(written);
        // List items, headings and quotes start blocks of their own.
        if content > 0 && written[..content].trim() != "" {
            collector.flush();
        } else if block_open {
            let newline = Span::new(line.start.saturating_sub(1), line.start);
            collector.synthetic(" ", newline);
        }
        prose_line(
            &mut collector,
            text,
            Span::new(line.start + content, line.end),
        );
        block_open = true;
    }
    if let Some(start) = section_start {
        sections.push(Span::new(start, text.len()));
    }
    let (citations, claims) = collector.finish();
    out.citations = citations;
    out.claims = claims;
    for section in sections {
        out.references
            .extend(reflist::read(file, text, section, true));
    }
    out.references.sort_by_key(|r| r.span.start);
    out
}

/// Lines of `text` without their line break (`\r\n` included).
fn lines(text: &str) -> impl Iterator<Item = Span> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
        let line = Span::new(start, end - usize::from(text[start..end].ends_with('\r')));
        start = end + 1;
        Some(line)
    })
}

/// Where the first paragraph of a trailing run of `[n] …` paragraphs starts.
fn trailing_bracket_list(text: &str) -> Option<usize> {
    let mut paragraphs: Vec<Span> = Vec::new();
    let mut current: Option<Span> = None;
    for line in lines(text) {
        if text[line.start..line.end].trim().is_empty() {
            paragraphs.extend(current.take());
        } else {
            current = Some(match current {
                Some(p) => Span::new(p.start, line.end),
                None => line,
            });
        }
    }
    paragraphs.extend(current);
    let mut start = None;
    for p in paragraphs.iter().rev() {
        if reflist::is_bracket_list(&text[p.start..p.end]) {
            start = Some(p.start);
        } else {
            break;
        }
    }
    start
}

/// Length of the Markdown-ish prefix of a line: indentation, quote markers,
/// heading hashes, a list marker.
fn content_start(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut i = 0;
    loop {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'>') {
            i += 1;
        }
        let rest = &line[i..];
        let marker = if rest.starts_with("#") {
            rest.bytes().take_while(|&b| b == b'#').count()
        } else if rest.starts_with(['-', '*', '+', '•']) && !rest.starts_with("**") {
            rest.chars().next().map_or(0, char::len_utf8)
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if (1..=3).contains(&digits) && rest[digits..].starts_with(['.', ')']) {
                digits + 1
            } else {
                0
            }
        };
        let after = &rest[marker..];
        if marker == 0 || !(after.is_empty() || after.starts_with([' ', '\t'])) {
            return i;
        }
        i += marker;
    }
}

/// Add one line of prose, leaving out `**`/`__` emphasis markers and the
/// content of inline code.
fn prose_line(collector: &mut Collector, text: &str, line: Span) {
    let written = &text[line.start..line.end];
    let mut piece_start = 0;
    let mut i = 0;
    let bytes = written.as_bytes();
    while i < bytes.len() {
        let strong = bytes[i..].starts_with(b"**") || bytes[i..].starts_with(b"__");
        if strong {
            collector.run(
                Span::new(line.start + piece_start, line.start + i),
                Syntax::ANSWER,
            );
            i += 2;
            piece_start = i;
        } else if bytes[i..].starts_with(b"<!--") {
            // An inline HTML comment is not prose (its directive was read already).
            let close = written[i..].find("-->").map_or(bytes.len(), |c| i + c + 3);
            collector.run(
                Span::new(line.start + piece_start, line.start + i),
                Syntax::ANSWER,
            );
            i = close;
            piece_start = i;
        } else if bytes[i] == b'`' {
            let close = written[i + 1..].find('`').map(|c| i + 1 + c);
            let Some(close) = close else {
                i += 1;
                continue;
            };
            collector.run(
                Span::new(line.start + piece_start, line.start + i),
                Syntax::ANSWER,
            );
            collector.plain(Span::new(line.start + i + 1, line.start + close));
            i = close + 1;
            piece_start = i;
        } else {
            i += 1;
        }
    }
    collector.run(
        Span::new(line.start + piece_start, line.end),
        Syntax::ANSWER,
    );
}

/// `[^label]: text` on a line of its own.
fn footnote_definition(file: FileId, text: &str, line: Span) -> Option<Reference> {
    let written = &text[line.start..line.end];
    let rest = written.trim_start().strip_prefix("[^")?;
    let (label, _) = rest.split_once("]:")?;
    if label.is_empty() || label.contains(char::is_whitespace) {
        return None;
    }
    reflist::footnote(file, text, label, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_not_prose() {
        assert_eq!(content_start("- **Bold** item"), 2);
        assert_eq!(content_start("  12. item"), 6);
        assert_eq!(content_start("> ## Heading"), 5);
        assert_eq!(content_start("**Bold** start"), 0);
        assert_eq!(content_start("1[1]. Analyze"), 0);
        assert_eq!(content_start("2020. A year"), 0);
    }

    #[test]
    fn trailing_lists_need_every_paragraph_to_be_items() {
        let text = "Claim [1].\n\n[1] https://a.org\n[2] https://b.org\n";
        assert_eq!(trailing_bracket_list(text), text.find("[1] https"));
        assert_eq!(
            trailing_bracket_list("[1] https://a.org\n\nMore prose.\n"),
            None
        );
    }
}
