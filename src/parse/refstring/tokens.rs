//! A small tokenizer for the name and field rules: words (with their attached period),
//! numbers and punctuation, each with its byte range.

use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Letters, possibly with inner `-`, `'`, `’` or inner periods (`U.S`, `J.-P`).
    Word,
    /// Digits, possibly with a letter suffix (`1991a`).
    Num,
    /// One punctuation or symbol character.
    Punct,
}

#[derive(Debug, Clone, Copy)]
pub struct Tok<'a> {
    /// The token without the period that follows it.
    pub text: &'a str,
    pub kind: Kind,
    pub start: usize,
    /// End including the attached period when `dot`.
    pub end: usize,
    /// A period follows immediately (`J.`, `Sheth.`).
    pub dot: bool,
    /// `text` in lowercase, when it is an ASCII word and the text was tokenized with
    /// its lowercase copy ([`Tokenized::new`]).
    folded: Option<&'a str>,
}

impl<'a> Tok<'a> {
    pub fn is(&self, c: char) -> bool {
        self.kind == Kind::Punct && self.text.starts_with(c)
    }

    /// The text in lowercase (ASCII words without allocating).
    pub fn lower(&self) -> Lower<'a> {
        match self.folded {
            Some(f) => Lower::Folded(f),
            None => Lower::of(self.text),
        }
    }

    pub fn capitalised(&self) -> bool {
        self.text.chars().next().is_some_and(char::is_uppercase)
    }

    /// `J`, `J.`, `J.R.`, `J.-P.`, `Ch.`: an initial or a run of them.
    pub fn is_initial(&self) -> bool {
        if self.kind != Kind::Word {
            return false;
        }
        if self.text.is_ascii() {
            return self.is_ascii_initial();
        }
        self.is_initial_by_chars()
    }

    /// [`Tok::is_initial`] of a word, character by character (any script).
    fn is_initial_by_chars(&self) -> bool {
        let mut letters = self.text.chars().filter(|c| c.is_alphabetic());
        let Some(first) = letters.next() else {
            return false;
        };
        if !first.is_uppercase() {
            return false;
        }
        let Some(second) = letters.next() else {
            return true;
        };
        let mut count = 2;
        let mut all_upper = second.is_uppercase();
        for c in letters {
            count += 1;
            all_upper &= c.is_uppercase();
        }
        // Compact initials: every letter uppercase and separated by `.` or `-`.
        if (self.text.contains('.') || (self.text.contains('-') && count <= 3)) && all_upper {
            return true;
        }
        // `Ch.`, `Th.`, `Wm.`: abbreviated given names.
        self.dot
            && count == 2
            && second.is_lowercase()
            && matches!(
                self.text,
                "Ch" | "Th" | "Wm" | "St" | "Ph" | "Gh" | "Kh" | "Sh" | "Zh" | "Yu" | "Jo"
            )
    }

    /// [`Tok::is_initial`] of an ASCII word, on its bytes.
    fn is_ascii_initial(&self) -> bool {
        let b = self.text.as_bytes();
        let mut letters = b.iter().filter(|c| c.is_ascii_alphabetic());
        match (letters.next(), letters.next()) {
            (Some(first), _) if !first.is_ascii_uppercase() => false,
            (None, _) => false,
            (Some(_), None) => true,
            // Not all capitals (most names): only `Ch.` and its like.
            (Some(_), Some(second)) if second.is_ascii_lowercase() => {
                self.dot
                    && matches!(
                        self.text,
                        "Ch" | "Th" | "Wm" | "St" | "Ph" | "Gh" | "Kh" | "Sh" | "Zh" | "Yu" | "Jo"
                    )
            }
            (Some(_), Some(_)) => {
                let mut count = 2;
                for c in letters {
                    if !c.is_ascii_uppercase() {
                        return false;
                    }
                    count += 1;
                }
                b.contains(&b'.') || (b.contains(&b'-') && count <= 3)
            }
        }
    }

    /// Vancouver initials written without periods (`JJ`, `OA`, `WF`).
    pub fn is_caps_initials(&self) -> bool {
        self.kind == Kind::Word
            && (1..=4).contains(&self.text.chars().filter(|c| *c != '-').count())
            && self.text.chars().all(|c| c.is_uppercase() || c == '-')
            && !self.text.starts_with('-')
    }
}

/// A word in lowercase: ASCII words are borrowed from the lowercase copy of the text
/// or stay on the stack, the word lists are consulted for every token.
pub enum Lower<'a> {
    Folded(&'a str),
    Inline { buf: [u8; 24], len: u8 },
    Heap(String),
}

impl Lower<'_> {
    pub fn of(text: &str) -> Lower<'static> {
        if text.len() <= 24 && text.is_ascii() {
            let mut buf = [0u8; 24];
            for (b, t) in buf.iter_mut().zip(text.bytes()) {
                *b = t.to_ascii_lowercase();
            }
            Lower::Inline {
                buf,
                len: text.len() as u8,
            }
        } else {
            Lower::Heap(text.to_lowercase())
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            Lower::Folded(f) => f,
            Lower::Inline { buf, len } => {
                std::str::from_utf8(&buf[..usize::from(*len)]).unwrap_or("")
            }
            Lower::Heap(s) => s,
        }
    }
}

impl std::ops::Deref for Lower<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

fn word_char(c: char) -> bool {
    c.is_alphabetic()
}

/// A reference's tokens, shared by the rules that read what is left of it one part
/// after the other (the names, then the title, then the venue): the tokens of a rest
/// that starts where a token starts are the whole text's tokens from there on,
/// because a token depends only on the text after its start.
pub struct Tokenized<'a> {
    text: &'a str,
    /// `text` in ASCII lowercase, byte for byte: a token's lowercase form is the same
    /// range of it.
    folded: &'a str,
    toks: Vec<Tok<'a>>,
}

impl<'a> Tokenized<'a> {
    /// `folded` is `text.to_ascii_lowercase()`.
    pub fn new(text: &'a str, folded: &'a str) -> Tokenized<'a> {
        debug_assert_eq!(text.len(), folded.len());
        Tokenized {
            text,
            folded,
            toks: tokenize_folded(text, Some(folded)),
        }
    }

    /// Where `part` starts in the text, when it lies inside it.
    fn offset_of(&self, part: &str) -> Option<usize> {
        // The same bytes in memory: `part` is a slice of the text.
        let offset = (part.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        let end = offset.checked_add(part.len())?;
        (end <= self.text.len()).then_some(offset)
    }

    /// The lowercase copy of `part` of the text.
    fn folded_of(&self, part: &str) -> Option<&'a str> {
        let at = self.offset_of(part)?;
        self.folded.get(at..at + part.len())
    }

    /// `w` in lowercase; a word of the text is borrowed from its lowercase copy.
    pub fn lower_of(&self, w: &str) -> Lower<'a> {
        match self.folded_of(w) {
            Some(f) if w.is_ascii() => Lower::Folded(f),
            _ => Lower::of(w),
        }
    }

    /// The tokens of `rest` (positions relative to it); `rest` is usually the end of
    /// the text, otherwise it is tokenized on its own.
    pub fn of(&self, rest: &'a str) -> Cow<'_, [Tok<'a>]> {
        let offset = self.offset_of(rest);
        if offset == Some(0) && rest.len() == self.text.len() {
            return Cow::Borrowed(&self.toks);
        }
        if let Some(offset) = offset
            && offset + rest.len() == self.text.len()
        {
            let first = self.toks.partition_point(|t| t.start < offset);
            if first == 0 || self.toks[first - 1].end <= offset {
                return self.toks[first..]
                    .iter()
                    .map(|t| Tok {
                        start: t.start - offset,
                        end: t.end - offset,
                        ..*t
                    })
                    .collect();
            }
        }
        Cow::Owned(tokenize_folded(rest, self.folded_of(rest)))
    }
}

/// Split `s` into tokens.
pub fn tokenize(s: &str) -> Vec<Tok<'_>> {
    tokenize_folded(s, None)
}

/// Split `s` into tokens; `folded`, `s` in ASCII lowercase, gives the ASCII ones
/// their lowercase form.
fn tokenize_folded<'a>(s: &'a str, folded: Option<&'a str>) -> Vec<Tok<'a>> {
    let all_ascii = s.is_ascii();
    let fold = |from: usize, to: usize| fold(s, folded, all_ascii, from, to);
    // Room for a token every two bytes or so (`Lee, K. (2020).`), so that it rarely grows.
    let mut out = Vec::with_capacity(s.len() / 2 + 4);
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // ASCII bytes, nearly all of them, are told apart without decoding a char.
        let (letter, digit, space) = if b.is_ascii() {
            let space = matches!(b, b' ' | b'\t'..=b'\r');
            (b.is_ascii_alphabetic(), b.is_ascii_digit(), space)
        } else {
            let Some(c) = char_at(s, i) else { break };
            (word_char(c), false, c.is_whitespace())
        };
        if space {
            i += utf8_len(b);
        } else if letter {
            let end = word_end(s, i);
            let dot = bytes.get(end) == Some(&b'.');
            out.push(Tok {
                text: &s[i..end],
                kind: Kind::Word,
                start: i,
                end: end + dot as usize,
                dot,
                folded: fold(i, end),
            });
            i = end + dot as usize;
        } else if digit {
            let end = number_end(s, i);
            out.push(Tok {
                text: &s[i..end],
                kind: Kind::Num,
                start: i,
                end,
                dot: false,
                folded: None,
            });
            i = end;
        } else {
            let end = i + utf8_len(b);
            out.push(Tok {
                text: &s[i..end],
                kind: Kind::Punct,
                start: i,
                end,
                dot: false,
                folded: None,
            });
            i = end;
        }
    }
    out
}

/// The length of the UTF-8 sequence that `lead` starts.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Where the word that starts at `i` (a letter) ends, before the period after it.
fn word_end(s: &str, i: usize) -> usize {
    let bytes = s.as_bytes();
    let mut end = i + char_at(s, i).map_or(1, char::len_utf8);
    // Letters since the last inner period: `U.S`, `Ph.D` and `J.-P` keep theirs,
    // `glance.J` (a missing space) does not.
    let mut run = 1;
    loop {
        // ASCII letters, the bulk of every word, go on the word without the checks
        // below (which they would pass).
        while bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
            run += 1;
        }
        let Some(d) = char_at(s, end) else {
            break;
        };
        // A space, a comma or another plain separator ends the word.
        if d.is_ascii() && !matches!(d, '-' | '\'' | '.') {
            break;
        }
        let after = end + d.len_utf8();
        let inner = matches!(d, '-' | '\'' | '’' | '.' | '–')
            && (d != '.' || run <= 2)
            && char_at(s, after).is_some_and(|n| n.is_alphabetic() || (d == '.' && n == '-'));
        if word_char(d) || inner || (d == '-' && bytes.get(after) == Some(&b'.')) {
            run = if d == '.' { 0 } else { run + 1 };
            end = after;
        } else {
            break;
        }
    }
    end
}

/// Where the number that starts at `i` (an ASCII digit) ends.
fn number_end(s: &str, i: usize) -> usize {
    let bytes = s.as_bytes();
    let mut end = i + 1;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    // `1991a`: one letter suffix, not the start of a word.
    if bytes.get(end).is_some_and(u8::is_ascii_lowercase)
        && !char_at(s, end + 1).is_some_and(char::is_alphabetic)
    {
        end += 1;
    }
    end
}

/// The lowercase form of the token `from..to` of `s`, when it is ASCII.
#[inline(always)]
fn fold<'a>(
    s: &str,
    folded: Option<&'a str>,
    all_ascii: bool,
    from: usize,
    to: usize,
) -> Option<&'a str> {
    folded
        .filter(|_| all_ascii || s[from..to].is_ascii())
        .and_then(|f| f.get(from..to))
}

/// The character at byte `i` of `s` (none at the end or inside a character).
fn char_at(s: &str, i: usize) -> Option<char> {
    match *s.as_bytes().get(i)? {
        b if b.is_ascii() => Some(b as char),
        _ => s.get(i..)?.chars().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokenizer as it was written first, char by char: what [`tokenize_folded`]
    /// must give.
    fn tokenize_by_chars<'a>(s: &'a str, folded: Option<&'a str>) -> Vec<Tok<'a>> {
        let all_ascii = s.is_ascii();
        let fold = |from: usize, to: usize| fold(s, folded, all_ascii, from, to);
        // Room for a token every two bytes or so (`Lee, K. (2020).`), so that it rarely grows.
        let mut out = Vec::with_capacity(s.len() / 2 + 4);
        let bytes = s.as_bytes();
        let mut i = 0;
        while let Some(c) = char_at(s, i) {
            if c.is_whitespace() {
                i += c.len_utf8();
                continue;
            }
            if word_char(c) {
                let mut end = i + c.len_utf8();
                // Letters since the last inner period: `U.S`, `Ph.D` and `J.-P` keep theirs,
                // `glance.J` (a missing space) does not.
                let mut run = 1;
                loop {
                    // ASCII letters, the bulk of every word, go on the word without the
                    // checks below (which they would pass).
                    while bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
                        end += 1;
                        run += 1;
                    }
                    let Some(d) = char_at(s, end) else {
                        break;
                    };
                    let after = end + d.len_utf8();
                    let inner = matches!(d, '-' | '\'' | '’' | '.' | '–')
                        && (d != '.' || run <= 2)
                        && char_at(s, after)
                            .is_some_and(|n| n.is_alphabetic() || (d == '.' && n == '-'));
                    if word_char(d) || inner || (d == '-' && bytes.get(after) == Some(&b'.')) {
                        run = if d == '.' { 0 } else { run + 1 };
                        end = after;
                    } else {
                        break;
                    }
                }
                let dot = bytes.get(end) == Some(&b'.');
                out.push(Tok {
                    text: &s[i..end],
                    kind: Kind::Word,
                    start: i,
                    end: end + dot as usize,
                    dot,
                    folded: fold(i, end),
                });
                i = end + dot as usize;
            } else if c.is_ascii_digit() {
                let mut end = i + 1;
                while end < bytes.len() && bytes[end].is_ascii_digit() {
                    end += 1;
                }
                // `1991a`: one letter suffix, not the start of a word.
                if bytes.get(end).is_some_and(u8::is_ascii_lowercase)
                    && !char_at(s, end + 1).is_some_and(char::is_alphabetic)
                {
                    end += 1;
                }
                out.push(Tok {
                    text: &s[i..end],
                    kind: Kind::Num,
                    start: i,
                    end,
                    dot: false,
                    folded: None,
                });
                i = end;
            } else {
                let end = i + c.len_utf8();
                out.push(Tok {
                    text: &s[i..end],
                    kind: Kind::Punct,
                    start: i,
                    end,
                    dot: false,
                    folded: None,
                });
                i = end;
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn tokenize_is_the_char_by_char_tokenizer(s in super::super::test_support::any_text()) {
            let folded = s.to_ascii_lowercase();
            for f in [None, Some(folded.as_str())] {
                let fast = tokenize_folded(&s, f);
                let slow = tokenize_by_chars(&s, f);
                proptest::prop_assert_eq!(fast.len(), slow.len());
                for (a, b) in fast.iter().zip(&slow) {
                    proptest::prop_assert_eq!(
                        (a.text, a.kind, a.start, a.end, a.dot, a.folded),
                        (b.text, b.kind, b.start, b.end, b.dot, b.folded)
                    );
                }
            }
        }

        #[test]
        fn folded_lowercase_is_unchanged(s in super::super::test_support::any_text()) {
            let folded = s.to_ascii_lowercase();
            let tokens = Tokenized::new(&s, &folded);
            let plain = tokenize(&s);
            proptest::prop_assert_eq!(tokens.toks.len(), plain.len());
            for (t, p) in tokens.toks.iter().zip(&plain) {
                proptest::prop_assert_eq!((t.text, t.start, t.end), (p.text, p.start, p.end));
                // `Lower::of` is `to_lowercase`, on the stack for short ASCII words.
                let old = t.text.to_lowercase();
                proptest::prop_assert_eq!(&*t.lower(), old.as_str());
                proptest::prop_assert_eq!(&*tokens.lower_of(t.text), old.as_str());
            }
            for w in s.split(' ') {
                let old = w.to_lowercase();
                proptest::prop_assert_eq!(&*tokens.lower_of(w), old.as_str());
            }
        }

        #[test]
        fn is_initial_is_unchanged(s in super::super::test_support::any_text()) {
            for t in tokenize(&s) {
                // The ASCII fast path decides as the general one does.
                let by_chars = t.kind == Kind::Word && t.is_initial_by_chars();
                proptest::prop_assert_eq!(t.is_initial(), by_chars, "{:?}", t);
            }
        }
    }

    #[test]
    fn words_keep_inner_marks_and_record_their_period() {
        let t = tokenize("J.-P. O'Brien-Smith, U.S. Dept. 1991a;");
        let texts: Vec<&str> = t.iter().map(|t| t.text).collect();
        assert_eq!(
            texts,
            ["J.-P", "O'Brien-Smith", ",", "U.S", "Dept", "1991a", ";"]
        );
        assert!(t[0].dot && t[0].is_initial());
        assert!(!t[1].dot && !t[1].is_initial());
        assert!(t[3].is_initial() && t[4].dot);
        assert_eq!(t[5].kind, Kind::Num);
    }
}
