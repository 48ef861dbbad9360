//! The text of a claim: its sentence without citation markers.

use super::{CITATION_PLACEHOLDER, PLACEHOLDER_UTF8};

/// Sentence text with placeholders removed, whitespace collapsed and the space that
/// a removed marker leaves before punctuation dropped.
pub fn claim_text(sentence: &str) -> String {
    // One pass: markers and the brackets they leave empty (`( ; )`, `[ ]`) count as
    // spaces; runs of spaces collapse to one, and none is kept before punctuation.
    let bytes = sentence.as_bytes();
    let mut out = String::with_capacity(sentence.len());
    // Most sentences hold no bracket: their words are then copied by a cheaper test.
    let brackets = memchr::memchr2(b'(', b'[', bytes).is_some();
    let mut space = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (c, len) = if b < 0x80 {
            (b as char, 1)
        } else if bytes[i..].starts_with(PLACEHOLDER_UTF8) {
            (CITATION_PLACEHOLDER, PLACEHOLDER_UTF8.len())
        } else {
            let c = sentence[i..].chars().next().expect("char at boundary");
            (c, c.len_utf8())
        };
        if c == CITATION_PLACEHOLDER || c.is_whitespace() {
            space = true;
            i += len;
            continue;
        }
        if matches!(c, '(' | '[')
            && let Some(n) = empty_bracket_len(&sentence[i..])
        {
            space = true;
            i += n;
            continue;
        }
        if space && !out.is_empty() && !is_tight_punct(b) {
            out.push(' ');
        }
        space = false;
        // Copy the rest of the ASCII words at once, with the single spaces between
        // them (which the steps above would copy as they are).
        let run = if brackets {
            plain_run_end::<true>(bytes, i + len)
        } else {
            plain_run_end::<false>(bytes, i + len)
        };
        out.push_str(&sentence[i..run]);
        i = run;
    }
    out
}

/// Bytes at which [`claim_text`] stops copying a word: non-ASCII, ASCII whitespace
/// and the brackets a marker may leave empty.
static ENDS_WORD: [bool; 256] = {
    let mut table = crate::parse::byte_set(b" \t\n\x0C\r([");
    let mut b = 0x80;
    while b < 256 {
        table[b] = true;
        b += 1;
    }
    table
};

/// Punctuation written without a space before it.
fn is_tight_punct(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b')')
}

/// A byte after a single space that [`claim_text`] copies together with the space:
/// the start of a word that is neither whitespace, a bracket, nor tight punctuation.
fn starts_plain_word(b: u8) -> bool {
    !ENDS_WORD[b as usize] && b != 0x0B && !is_tight_punct(b)
}

/// Length of a bracket at the start of `s` that holds nothing but spaces, markers
/// and at most one `;` or `,`.
fn empty_bracket_len(s: &str) -> Option<usize> {
    let close = if s.starts_with('(') { ')' } else { ']' };
    let mut separators = 0;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            _ if c == close => return Some(i + 1),
            ';' | ',' if separators == 0 => separators += 1,
            CITATION_PLACEHOLDER => {}
            _ if c.is_whitespace() => {}
            _ => return None,
        }
    }
    None
}

/// The end of the bytes from `start` on that [`claim_text`] copies as they are:
/// ASCII word bytes, and single spaces before a plain word. `BRACKETS` tells
/// whether the bytes may hold `(` or `[`; without, a cheaper test is enough.
fn plain_run_end<const BRACKETS: bool>(bytes: &[u8], start: usize) -> usize {
    let mut run = start;
    loop {
        // Sixteen bytes at a time while none of them can stop the run: most of a
        // sentence is plain words.
        while let Some(chunk) = bytes.get(run..).and_then(<[u8]>::first_chunk) {
            if may_stop::<BRACKETS>(chunk) {
                break;
            }
            run += 16;
        }
        // Then eight at a time, to find the byte that may stop it, which is looked
        // at on its own.
        while let Some(chunk) = bytes.get(run..run + 9) {
            let word = u64::from_le_bytes(chunk[..8].try_into().expect("eight bytes"));
            let next = u64::from_le_bytes(chunk[1..].try_into().expect("eight bytes"));
            let mut stop =
                may_be_below(word, 0x20) | (may_be(word, b' ') & may_be_below(next, 0x40));
            if BRACKETS {
                stop |= may_be(word, b'(') | may_be(word, b'[');
            }
            if stop != 0 {
                run += (stop.trailing_zeros() / 8) as usize;
                break;
            }
            run += 8;
        }
        let Some(&b) = bytes.get(run) else {
            return run;
        };
        // The test above lets a space through before `[`, which then stops the run:
        // the space is not the run's.
        if run > start && bytes[run - 1] == b' ' && !starts_plain_word(b) {
            return run - 1;
        }
        if !ENDS_WORD[b as usize] {
            run += 1;
            continue;
        }
        match bytes.get(run + 1) {
            Some(&next) if b == b' ' && starts_plain_word(next) => run += 2,
            _ => return run,
        }
    }
}

/// Whether any of the first sixteen bytes of `chunk` may stop a run: a control
/// character, a non-ASCII byte, a bracket (when `BRACKETS`), or a space before
/// a byte below `@` or non-ASCII. Written as a plain loop over a fixed number of
/// bytes, which compilers turn into a few vector instructions.
fn may_stop<const BRACKETS: bool>(chunk: &[u8; 17]) -> bool {
    let mut stop = false;
    for i in 0..16 {
        // As signed bytes, non-ASCII ones are below every ASCII one.
        let (b, next) = (chunk[i] as i8, chunk[i + 1] as i8);
        stop |= (b < 0x20) | ((b == 0x20) & (next < 0x40));
        if BRACKETS {
            stop |= (b == b'(' as i8) | (b == b'[' as i8);
        }
    }
    stop
}

// Tests on eight bytes at once. Each sets the high bit of at least every byte it
// is about (it may flag a few more, which are then looked at one by one).
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bytes equal to `value`.
fn may_be(word: u64, value: u8) -> u64 {
    let x = word ^ (ONES * u64::from(value));
    x.wrapping_sub(ONES) & !x & HIGH
}

/// Bytes below `bound` (below 0x80), and every non-ASCII byte. Below 0x20 these
/// are the control characters; below 0x40, after a space, every byte that
/// [`starts_plain_word`] refuses but `[`, and more.
fn may_be_below(word: u64, bound: u8) -> u64 {
    (word.wrapping_sub(ONES * u64::from(bound)) | word) & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`plain_run_end`] one byte at a time.
    fn run_end_bytewise(bytes: &[u8], mut run: usize) -> usize {
        loop {
            while run < bytes.len() && !ENDS_WORD[bytes[run] as usize] {
                run += 1;
            }
            match bytes.get(run + 1) {
                Some(&next) if bytes[run] == b' ' && starts_plain_word(next) => run += 2,
                _ => return run,
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        #[test]
        fn eight_bytes_at_a_time_stop_where_one_at_a_time_do(parts in proptest::collection::vec(
            proptest::sample::select(PIECES), 0..40)) {
            let text = parts.concat();
            let bytes = text.as_bytes();
            let brackets = text.contains(['(', '[']);
            for start in 0..=bytes.len() {
                let expected = run_end_bytewise(bytes, start);
                proptest::prop_assert_eq!(
                    plain_run_end::<true>(bytes, start), expected, "{:?} from {}", text, start
                );
                if !brackets {
                    proptest::prop_assert_eq!(
                        plain_run_end::<false>(bytes, start), expected, "{:?} from {}", text, start
                    );
                }
            }
        }
    }

    /// Words, spaces, punctuation, brackets, control characters and markers.
    const PIECES: &[&str] = &[
        "word", "a", "8", "9", "0", "Z", "_", "-", " ", "  ", ".", ",", ";", ":", "!", "?", ")",
        "(", "[", "]", "\t", "\n", "\r", "\x0B", "\x0C", "\x1F", "'", "\"", "/", "=", "@", "é",
        "\u{FFFC}", "\u{A0}",
    ];
}
