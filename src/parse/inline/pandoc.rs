//! Pandoc citation syntax (also used by Quarto and Manubot): bracketed groups
//! `[see @a, p. 3; -@b]` and narrative `@key`.

use super::{Item, classify_key, is_key_inner_punct};
use crate::model::Span;

/// The items of a bracketed group whose content starts at byte `base`, pushed to
/// `items`. Every `;`-separated part must hold one key, as pandoc requires;
/// otherwise the bracket is not a citation (and what was pushed is the caller's to
/// drop).
pub(super) fn group(content: &str, base: usize, items: &mut Vec<Item>) -> Option<()> {
    let first = items.len();
    let mut pos = 0;
    // Split by bytes: `;` is ASCII, so every part is whole characters.
    for part in content.as_bytes().split(|&b| b == b';') {
        let part = &content[pos..pos + part.len()];
        let part_base = base + pos;
        pos += part.len() + 1;
        // `[@a;; @b]` occurs in real manuscripts; an empty part is no part.
        if items.len() > first && part.trim().is_empty() {
            continue;
        }
        let (at, suppress) = key_start(part)?;
        let (key_start, key_end) = read_key(part, at + 1)?;
        let key = &part[key_start..key_end];
        let (kind, id) = classify_key(key)?;
        items.push(Item {
            key: key.to_string(),
            kind,
            span: Span::new(part_base + key_start, part_base + key_end),
            id,
            narrative: false,
            command: if suppress {
                "pandoc-suppress-author"
            } else {
                "pandoc"
            },
        });
    }
    Some(())
}

/// The first `@` of a group part that starts a key (at the start, after a space, or
/// as `-@`), and whether it is the author-suppressing `-@` form.
fn key_start(part: &str) -> Option<(usize, bool)> {
    let bytes = part.as_bytes();
    let mut from = 0;
    // The `@` mostly comes first: a plain loop finds it soonest.
    while let Some(offset) = bytes[from..].iter().position(|&b| b == b'@') {
        let at = from + offset;
        from = at + 1;
        let before = part[..at].chars().next_back();
        match before {
            None => return Some((at, false)),
            Some(c) if c.is_whitespace() => return Some((at, false)),
            Some('-') => {
                let before_dash = part[..at - 1].chars().next_back();
                if before_dash.is_none_or(char::is_whitespace) {
                    return Some((at, true));
                }
            }
            _ => {}
        }
    }
    None
}

/// The key after an `@` at byte `from`: `(start, end)` of the key text. Plain keys
/// start with a letter, digit or `_` and may hold internal punctuation; a trailing
/// punctuation character is not part of the key. `@{…}` keys may hold anything but
/// spaces and braces.
fn read_key(text: &str, from: usize) -> Option<(usize, usize)> {
    let rest = text.get(from..)?;
    if let Some(braced) = rest.strip_prefix('{') {
        let len = braced.find('}')?;
        let key = &braced[..len];
        let valid = !key.is_empty() && !key.contains(|c: char| c.is_whitespace() || c == '{');
        return valid.then_some((from + 1, from + 1 + len));
    }
    let bytes = rest.as_bytes();
    // A key starts with a letter, digit or `_`.
    if bytes
        .first()
        .is_some_and(|&b| KEY_BYTES[b as usize] == KeyByte::Inner)
    {
        return None;
    }
    // Most keys are ASCII: pass their bytes at once, then go back to the last word
    // byte; only a non-ASCII character needs the loop below.
    let mut i = bytes
        .iter()
        .position(|&b| !KEY_BYTES[b as usize].in_ascii_key())
        .unwrap_or(bytes.len());
    let mut last_word_end = bytes[..i]
        .iter()
        .rposition(|&b| KEY_BYTES[b as usize] == KeyByte::Word)
        .map_or(0, |at| at + 1);
    while i < bytes.len() {
        // Most keys are ASCII: decide by a table, without the Unicode tables.
        let (c, len) = match KEY_BYTES[bytes[i] as usize] {
            KeyByte::Word => {
                last_word_end = i + 1;
                i += 1;
                continue;
            }
            KeyByte::Inner if i > 0 => {
                i += 1;
                continue;
            }
            KeyByte::Inner | KeyByte::Other => break,
            KeyByte::NonAscii => {
                let c = rest[i..].chars().next()?;
                (c, c.len_utf8())
            }
        };
        if c.is_alphanumeric() || c == '_' {
            last_word_end = i + len;
        } else if i == 0 || !is_key_inner_punct(c) {
            // A key starts with a letter, digit or `_`.
            break;
        }
        i += len;
    }
    (last_word_end > 0).then_some((from, from + last_word_end))
}

/// What a byte is to [`read_key`].
#[derive(Clone, Copy, PartialEq)]
enum KeyByte {
    /// An ASCII letter or digit, or `_`.
    Word,
    /// ASCII punctuation allowed inside a key ([`is_key_inner_punct`]).
    Inner,
    /// Any other ASCII byte: it ends the key.
    Other,
    /// Part of a non-ASCII character.
    NonAscii,
}

impl KeyByte {
    fn in_ascii_key(self) -> bool {
        matches!(self, KeyByte::Word | KeyByte::Inner)
    }
}

static KEY_BYTES: [KeyByte; 256] = {
    let mut table = [KeyByte::NonAscii; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_alphanumeric() || c == b'_' {
            KeyByte::Word
        } else if is_key_inner_punct(c as char) {
            KeyByte::Inner
        } else {
            KeyByte::Other
        };
        b += 1;
    }
    table
};

/// A narrative `@key` at byte `at` of `text`: its bytes, its item pushed to `items`.
pub(super) fn narrative(
    text: &str,
    at: usize,
    outside: Option<char>,
    items: &mut Vec<Item>,
) -> Option<Span> {
    let before = text[..at].chars().next_back().or(outside);
    let allowed = before.is_none_or(|c| {
        c.is_whitespace() || matches!(c, '(' | '"' | '\'' | '“' | '‘' | '*' | '_' | '~')
    });
    if !allowed {
        return None;
    }
    let (start, end) = read_key(text, at + 1)?;
    let key = &text[start..end];
    let (kind, id) = classify_key(key)?;
    let group_end = if text[end..].starts_with('}') {
        end + 1
    } else {
        end
    };
    items.push(Item {
        key: key.to_string(),
        kind,
        span: Span::new(start, end),
        id,
        narrative: true,
        command: "pandoc",
    });
    Some(Span::new(at, group_end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stop_before_trailing_punctuation() {
        let text = "@smith2020. and";
        assert_eq!(read_key(text, 1), Some((1, 10)));
        let text = "@url:http://a.org/x.html]";
        assert_eq!(
            &text[1..read_key(text, 1).unwrap().1],
            "url:http://a.org/x.html"
        );
        assert_eq!(read_key("@{odd key}", 1), None);
        assert_eq!(read_key("@{Smith:2020}", 1), Some((2, 12)));
        assert_eq!(read_key("@-x", 1), None);
    }

    fn items(content: &str) -> Option<Vec<Item>> {
        let mut items = Vec::new();
        group(content, 0, &mut items).map(|()| items)
    }

    #[test]
    fn groups_need_a_key_in_every_part() {
        assert!(items("see the review; @b").is_none());
        let found = items("see @a, p. 3; -@b").unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].key, "a");
        assert_eq!(found[1].command, "pandoc-suppress-author");
        assert!(items("contact a@b.org").is_none());
        assert!(items("@fig:one").is_none());
        assert_eq!(items("@a;; @b").map(|i| i.len()), Some(2));
    }
}
