//! A tolerant scanner that splits a .bib file into entries.
//!
//! `@type{key, name = {…} # "…" # macro, …}` and the `@type(…)` form; `@string`,
//! `@preamble` and `@comment`; text between entries is a comment. An entry with a
//! syntax error is returned as [`Item::Malformed`] with the place and what was
//! expected, and scanning resumes at the next line that starts with `@`, so one
//! broken entry never loses the others. Brace matching is a depth counter.

use crate::model::Span;

/// One piece of a field value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// `{…}` or `"…"`: the span inside the delimiters.
    Text(Span),
    /// A bare number.
    Number(Span),
    /// A bare `@string` macro name.
    Macro(Span),
}

#[derive(Debug, Clone)]
pub(super) struct RawField {
    pub name: Span,
    /// The value inside its delimiters (one part) or the whole `a # b` expression.
    pub value: Span,
    /// `name = value`.
    pub whole: Span,
    pub parts: Vec<Part>,
}

#[derive(Debug, Clone)]
pub(super) struct RawEntry {
    pub entry_type: Span,
    pub key: Span,
    pub span: Span,
    pub fields: Vec<RawField>,
}

#[derive(Debug, Clone)]
pub(super) enum Item {
    Entry(RawEntry),
    /// `@string{name = value}`.
    String {
        name: Span,
        parts: Vec<Part>,
    },
    Malformed {
        at: Span,
        key: Option<Span>,
        expected: String,
    },
}

pub(super) struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// The `@` of the item last returned.
    pub last_at: usize,
    /// Whether an item delimited by parentheses was met (their closer is searched
    /// for across entries).
    pub saw_parenthesis: bool,
}

type Scan<T> = Result<T, (usize, String)>;

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Scanner<'a> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            last_at: 0,
            saw_parenthesis: false,
        }
    }

    fn skip_space(&self, mut p: usize) -> usize {
        while self.bytes.get(p).is_some_and(u8::is_ascii_whitespace) {
            p += 1;
        }
        p
    }

    /// Skip whitespace and `%` comment lines (biber reads them inside entries).
    fn skip_space_and_comments(&self, mut p: usize) -> usize {
        loop {
            p = self.skip_space(p);
            if self.bytes.get(p) != Some(&b'%') {
                return p;
            }
            p = memchr::memchr(b'\n', &self.bytes[p..]).map_or(self.bytes.len(), |i| p + i);
        }
    }

    fn identifier_end(&self, mut p: usize) -> usize {
        while let Some(&b) = self.bytes.get(p) {
            if b.is_ascii_whitespace()
                || matches!(
                    b,
                    b'{' | b'}' | b'(' | b')' | b',' | b'=' | b'"' | b'#' | b'%' | b'@' | b'\''
                )
            {
                break;
            }
            p += 1;
        }
        p
    }

    /// Where scanning goes on.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Whether only blanks precede `p` on its line.
    pub fn at_line_start(&self, p: usize) -> bool {
        self.bytes[..p]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
    }

    /// Whether an entry (`@word{` or `@word(`) starts at `p`.
    fn entry_starts_at(&self, p: usize) -> bool {
        if self.bytes.get(p) != Some(&b'@') {
            return false;
        }
        let end = self.identifier_end(p + 1);
        end > p + 1 && matches!(self.bytes.get(self.skip_space(end)), Some(b'{' | b'('))
    }

    /// The next `@` at the start of a line at or after `p` (where scanning resumes
    /// after a malformed entry).
    fn next_line_entry(&self, mut p: usize) -> usize {
        while let Some(i) = memchr::memchr(b'@', &self.bytes[p.min(self.bytes.len())..]) {
            let at = p + i;
            if self.at_line_start(at) {
                return at;
            }
            p = at + 1;
        }
        self.bytes.len()
    }

    /// After a line break inside a value: does a new entry start on the next line?
    /// Then the value was never closed.
    fn new_entry_after(&self, newline: usize) -> bool {
        let mut q = newline + 1;
        while matches!(self.bytes.get(q), Some(b' ' | b'\t' | b'\r')) {
            q += 1;
        }
        self.entry_starts_at(q)
    }

    /// End (after the closer) of `{…}` opening at `open`.
    fn braced_end(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut p = open;
        while let Some(i) = memchr::memchr3(b'{', b'}', b'\n', &self.bytes[p..]) {
            let at = p + i;
            match self.bytes[at] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(at + 1);
                    }
                }
                _ if self.new_entry_after(at) => return None,
                _ => {}
            }
            p = at + 1;
        }
        None
    }

    /// End (after the closing quote) of `"…"` opening at `open`; braces protect quotes.
    fn quoted_end(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, &b) in self.bytes[open + 1..].iter().enumerate() {
            let at = open + 1 + i;
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                b'"' if depth == 0 => return Some(at + 1),
                b'\n' if self.new_entry_after(at) => return None,
                _ => {}
            }
        }
        None
    }

    /// The next item, or `None` at the end of the text.
    pub fn next_item(&mut self) -> Option<Item> {
        loop {
            let at = memchr::memchr(b'@', &self.bytes[self.pos..]).map(|i| self.pos + i)?;
            self.last_at = at;
            let type_start = self.skip_space(at + 1);
            let type_end = self.identifier_end(type_start);
            let open = self.skip_space(type_end);
            let delimiter = self.bytes.get(open).copied();
            if type_end == type_start || !matches!(delimiter, Some(b'{' | b'(')) {
                if type_end > type_start && self.at_line_start(at) {
                    // `@article smith,`: looks like an entry but cannot be one.
                    self.pos = self.next_line_entry(at + 1);
                    return Some(Item::Malformed {
                        at: Span::new(at, type_end),
                        key: None,
                        expected: format!(
                            "expected `{{` or `(` after `@{}`",
                            &self.text[type_start..type_end]
                        ),
                    });
                }
                // An `@` in comment text (an e-mail address): not an entry.
                self.pos = at + 1;
                continue;
            }
            self.saw_parenthesis |= delimiter == Some(b'(');
            let kind = self.text[type_start..type_end].to_ascii_lowercase();
            let close = if delimiter == Some(b'{') { b'}' } else { b')' };
            let result = match kind.as_str() {
                "comment" => {
                    // Skipped whole; an unbalanced one is skipped to the end of its line.
                    self.pos = self.group_end(open).unwrap_or_else(|| {
                        memchr::memchr(b'\n', &self.bytes[open..])
                            .map_or(self.bytes.len(), |i| open + i)
                    });
                    continue;
                }
                "preamble" => match self.group_end(open) {
                    Some(end) => {
                        self.pos = end;
                        continue;
                    }
                    None => Err((open, "unterminated @preamble".to_string())),
                },
                "string" => self.string(open, close),
                _ => self.entry(at, Span::new(type_start, type_end), open, close),
            };
            return Some(match result {
                Ok((item, end)) => {
                    self.pos = end;
                    item
                }
                Err((place, expected)) => {
                    let key = self.key_of(open);
                    self.pos = self.next_line_entry(place.max(at + 1));
                    let width = self.text[place.min(self.text.len())..]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8);
                    Item::Malformed {
                        at: Span::new(place, place + width),
                        key,
                        expected,
                    }
                }
            });
        }
    }

    /// The end of a balanced `{…}` or `(…)` group opening at `open`.
    fn group_end(&self, open: usize) -> Option<usize> {
        if self.bytes[open] == b'{' {
            return self.braced_end(open);
        }
        let mut depth = 0usize;
        for (i, &b) in self.bytes[open..].iter().enumerate() {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(open + i + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The key of a (possibly malformed) entry, for the message.
    fn key_of(&self, open: usize) -> Option<Span> {
        let start = self.skip_space(open + 1);
        let end = self.identifier_end(start);
        (end > start && self.bytes.get(self.skip_space(end)) == Some(&b','))
            .then(|| Span::new(start, end))
    }

    fn string(&self, open: usize, close: u8) -> Scan<(Item, usize)> {
        let name_start = self.skip_space_and_comments(open + 1);
        let name_end = self.identifier_end(name_start);
        if name_end == name_start {
            return Err((name_start, "expected a macro name in @string".into()));
        }
        let eq = self.skip_space(name_end);
        if self.bytes.get(eq) != Some(&b'=') {
            return Err((
                eq,
                format!(
                    "expected `=` after @string name `{}`",
                    &self.text[name_start..name_end]
                ),
            ));
        }
        let name = Span::new(name_start, name_end);
        let (parts, _, value_end) = self.value(eq + 1, &self.text[name_start..name_end])?;
        let end = self.skip_space(value_end);
        if self.bytes.get(end) != Some(&close) {
            return Err((
                end,
                format!("expected `{}` to close @string", close as char),
            ));
        }
        Ok((Item::String { name, parts }, end + 1))
    }

    fn entry(&self, at: usize, entry_type: Span, open: usize, close: u8) -> Scan<(Item, usize)> {
        let key_start = self.skip_space(open + 1);
        let key_end = self.identifier_end(key_start);
        let after_key = self.skip_space(key_end);
        if key_end == key_start || self.bytes.get(after_key) == Some(&b'=') {
            return Err((key_start, "expected a key after the opening brace".into()));
        }
        let key = Span::new(key_start, key_end);
        let mut entry = RawEntry {
            entry_type,
            key,
            span: Span::new(at, at),
            fields: Vec::new(),
        };
        let mut p = match self.bytes.get(after_key) {
            Some(b',') => after_key + 1,
            Some(&b) if b == close => {
                entry.span = Span::new(at, after_key + 1);
                return Ok((Item::Entry(entry), after_key + 1));
            }
            _ => {
                let shown = &self.text[key_start..key_end];
                return Err((after_key, format!("expected `,` after the key `{shown}`")));
            }
        };
        loop {
            p = self.skip_space_and_comments(p);
            match self.bytes.get(p) {
                None => {
                    return Err((
                        p,
                        format!("expected `{}` to close the entry", close as char),
                    ));
                }
                Some(&b) if b == close => {
                    entry.span = Span::new(at, p + 1);
                    return Ok((Item::Entry(entry), p + 1));
                }
                Some(b',') => {
                    p += 1;
                    continue;
                }
                Some(b'@') if self.entry_starts_at(p) => {
                    return Err((
                        p,
                        format!(
                            "expected `{}` to close the entry before the next one",
                            close as char
                        ),
                    ));
                }
                _ => {}
            }
            let name_end = self.identifier_end(p);
            if name_end == p {
                return Err((p, "expected a field name".into()));
            }
            let name = &self.text[p..name_end];
            let eq = self.skip_space(name_end);
            if self.bytes.get(eq) != Some(&b'=') {
                return Err((eq, format!("expected `=` after the field name `{name}`")));
            }
            let (parts, value, value_end) = self.value(eq + 1, name)?;
            entry.fields.push(RawField {
                name: Span::new(p, name_end),
                value,
                whole: Span::new(p, value_end),
                parts,
            });
            p = self.skip_space_and_comments(value_end);
            match self.bytes.get(p) {
                Some(b',') => p += 1,
                Some(&b) if b == close => {}
                Some(b'@') if self.entry_starts_at(p) => {
                    // The value closed only at the entry's own closing brace.
                    let value_at = self.skip_space(eq + 1);
                    return Err((
                        value_at,
                        format!(
                            "the braces in the field `{name}` do not balance: its value runs to the end of the entry"
                        ),
                    ));
                }
                _ => {
                    return Err((
                        p,
                        format!(
                            "expected `,` or `{}` after the field `{name}`",
                            close as char
                        ),
                    ));
                }
            }
        }
    }

    /// A value `part # part # …` starting at or after `p`: (parts, value span, end).
    fn value(&self, p: usize, field: &str) -> Scan<(Vec<Part>, Span, usize)> {
        let mut parts = Vec::with_capacity(1);
        let mut p = self.skip_space(p);
        let start = p;
        loop {
            let (part, end) = match self.bytes.get(p) {
                Some(b'{') => match self.braced_end(p) {
                    Some(end) => (Part::Text(Span::new(p + 1, end - 1)), end),
                    None => return Err((p, format!("unterminated `{{` in the field `{field}`"))),
                },
                Some(b'"') => match self.quoted_end(p) {
                    Some(end) => (Part::Text(Span::new(p + 1, end - 1)), end),
                    None => return Err((p, format!("unterminated `\"` in the field `{field}`"))),
                },
                Some(b) if b.is_ascii_digit() => {
                    let end = p + self.bytes[p..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    (Part::Number(Span::new(p, end)), end)
                }
                Some(_) if self.identifier_end(p) > p => {
                    let end = self.identifier_end(p);
                    (Part::Macro(Span::new(p, end)), end)
                }
                _ => return Err((p, format!("expected a value for the field `{field}`"))),
            };
            parts.push(part);
            let next = self.skip_space(end);
            if self.bytes.get(next) == Some(&b'#') {
                p = self.skip_space(next + 1);
                continue;
            }
            let value = match parts.as_slice() {
                [Part::Text(inner) | Part::Number(inner) | Part::Macro(inner)] => *inner,
                _ => Span::new(start, end),
            };
            return Ok((parts, value, end));
        }
    }
}
