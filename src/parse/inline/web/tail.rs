//! The open tail of a URL or DOI (`[^\s"<>`]+`): where it ends, and what of it
//! belongs to the prose around it rather than to the address.

use crate::parse::is_space;

/// Where the run of `[^\s"<>`]` that goes on at `from` ends.
pub(super) fn tail_end(text: &str, from: usize) -> usize {
    read_tail(text, from).end
}

/// An open tail read in one pass: where it ends, and where [`trim_url`] cuts it
/// before its trailing punctuation goes.
pub(super) struct Tail {
    pub end: usize,
    /// The first `[` or `]`, or `)` without its `(`, in the tail; `end` if none.
    pub cut: usize,
}

/// [`tail_end`], noting the brackets on the way: reading the tail again to trim it
/// cost as much as reading it.
pub(super) fn read_tail(text: &str, from: usize) -> Tail {
    let bytes = text.as_bytes();
    let mut i = from;
    let mut depth = 0usize;
    let mut cut = None;
    while let Some(&b) = bytes.get(i) {
        match TAIL_BYTES[b as usize] {
            TailByte::In => i += 1,
            TailByte::End => break,
            TailByte::Open => {
                depth += 1;
                i += 1;
            }
            TailByte::Close if depth > 0 && cut.is_none() => {
                depth -= 1;
                i += 1;
            }
            TailByte::Close | TailByte::Square => {
                cut.get_or_insert(i);
                i += 1;
            }
            TailByte::NonAscii => {
                let c = text[i..].chars().next().unwrap_or(' ');
                if c.is_whitespace() {
                    break;
                }
                i += c.len_utf8();
            }
        }
    }
    Tail {
        end: i,
        cut: cut.unwrap_or(i),
    }
}

/// What a byte is to [`read_tail`].
#[derive(Clone, Copy)]
enum TailByte {
    In,
    /// ASCII `\s`, `"`, `<`, `>` and `` ` ``.
    End,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `[` and `]`.
    Square,
    /// Part of a non-ASCII character, which ends the tail if it is a space.
    NonAscii,
}

static TAIL_BYTES: [TailByte; 256] = {
    let mut table = [TailByte::NonAscii; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = if is_space(byte) || matches!(byte, b'"' | b'<' | b'>' | b'`') {
            TailByte::End
        } else if byte == b'(' {
            TailByte::Open
        } else if byte == b')' {
            TailByte::Close
        } else if matches!(byte, b'[' | b']') {
            TailByte::Square
        } else {
            TailByte::In
        };
        b += 1;
    }
    table
};

/// A URL without what trails it in prose or markup: punctuation, an unbalanced
/// closing bracket, a Markdown link's `](`.
pub fn trim_url(url: &str) -> &str {
    // By bytes: no byte of a multi-byte character is an ASCII bracket.
    let bytes = url.as_bytes();
    let mut depth = 0;
    let mut at = 0;
    let end = loop {
        let Some(skip) = bytes[at..].iter().position(|b| b"()[]".contains(b)) else {
            break bytes.len();
        };
        at += skip;
        match bytes[at] {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            // An unbalanced `)`, or a square bracket.
            _ => break at,
        }
        at += 1;
    };
    without_trailing_punctuation(&url[..end])
}

/// `s` without the punctuation that ends a sentence or a quotation after a URL.
pub(super) fn without_trailing_punctuation(s: &str) -> &str {
    let mut rest = s.as_bytes();
    loop {
        match rest {
            [
                head @ ..,
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'"' | b'*' | b'_' | b'>',
            ] => {
                rest = head;
            }
            // `’` and `”`.
            [head @ .., 0xE2, 0x80, 0x99 | 0x9D] => rest = head,
            // Only whole characters were taken off.
            _ => return &s[..rest.len()],
        }
    }
}
