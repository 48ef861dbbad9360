//! Numbered markers `[1]`, `[1, 3]`, `[1-4]`, `[1–4]` and footnote markers `[^1]`.

use super::Item;
use crate::model::{CitationKind, Span};

/// Largest marker number and widest range accepted: beyond them `[…]` is not a marker.
const MAX_NUMBER: u32 = 9999;
const MAX_RANGE: u32 = 200;

/// The items of a numbered marker whose content (between the brackets) starts at
/// byte `base`, pushed to `items`; `None` unless the whole content is numbers,
/// ranges and separators (what was pushed is then the caller's to drop).
pub(super) fn markers(content: &str, base: usize, items: &mut Vec<Item>) -> Option<()> {
    if content.trim().is_empty() || content.len() > 200 {
        return None;
    }
    let mut pos = 0;
    for part in content.split([',', ';']) {
        let part_start = pos;
        pos += part.len() + 1;
        let lead = part.len() - part.trim_start().len();
        let trimmed = part.trim();
        let start = base + part_start + lead;
        let (first, rest) = split_number(trimmed)?;
        let rest = rest.trim_start();
        if rest.is_empty() {
            items.push(item(first, Span::new(start, start + trimmed.len())));
            continue;
        }
        let dash = rest.chars().next()?;
        if !matches!(dash, '-' | '–' | '—') {
            return None;
        }
        let (last, tail) = split_number(rest[dash.len_utf8()..].trim_start())?;
        if !tail.trim().is_empty() || last < first || last - first > MAX_RANGE {
            return None;
        }
        let span = Span::new(start, start + trimmed.len());
        items.extend((first..=last).map(|n| item(n, span)));
    }
    Some(())
}

/// A leading number without leading zeros, and what follows it.
fn split_number(s: &str) -> Option<(u32, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 4 || s.starts_with('0') {
        return None;
    }
    let n: u32 = s[..digits].parse().ok()?;
    (1..=MAX_NUMBER).contains(&n).then_some((n, &s[digits..]))
}

fn item(n: u32, span: Span) -> Item {
    Item {
        key: n.to_string(),
        kind: CitationKind::Numeric,
        span,
        id: None,
        narrative: false,
        command: "numeric",
    }
}

/// `[^label]` at byte `open` (the `[`): a footnote marker written as text. Its
/// bytes; its item is pushed to `items`.
pub(super) fn footnote(text: &str, open: usize, items: &mut Vec<Item>) -> Option<Span> {
    let rest = &text[open + 2..];
    let len = rest
        .find(|c: char| c == ']' || c.is_whitespace() || c == '[')
        .filter(|&n| n > 0 && n <= 100 && rest[n..].starts_with(']'))?;
    // `[^1]: …` at the start of a line is a definition, not a marker.
    if rest[len + 1..].starts_with(':') {
        return None;
    }
    let span = Span::new(open + 1, open + 2 + len);
    items.push(Item {
        key: text[span.start..span.end].to_string(),
        kind: CitationKind::Footnote,
        span,
        id: None,
        narrative: false,
        command: "footnote",
    });
    Some(Span::new(open, open + 3 + len))
}
