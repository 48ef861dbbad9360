//! The heads of URL and DOI matches (`https://`, `doi:10.1234/`) read by hand:
//! nearly every match the scanner tries is one of them, and reading a head byte by
//! byte costs far less than starting the lazy DFA. Whatever is not ASCII before the
//! tail is left to the DFA, which knows Unicode spaces, digits and case folding.

use super::WebKind;
use crate::parse::is_space;

/// How a URL or DOI match starting at a given byte begins.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Head {
    /// The head matches; the open tail (`[^\s"<>`]+`) starts at byte `from`.
    Tail { from: usize, kind: WebKind },
    /// No URL or DOI match starts there.
    NoMatch,
    /// Not read by hand (another kind of match, or a non-ASCII byte in the head).
    Unsure,
}

/// The head of the [`WEB_PATTERN`](super::WEB_PATTERN) match starting at `start`,
/// for the two alternatives with an open tail: `https?://` and
/// `(?:doi:?\s?)?10\.\d{4,9}/`, in any case.
pub(super) fn open_head(bytes: &[u8], start: usize) -> Head {
    match bytes[start] {
        b'h' | b'H' => url_head(bytes, start),
        b'd' | b'D' | b'1' => doi_head(bytes, start),
        _ => Head::Unsure,
    }
}

/// `https?://`.
fn url_head(bytes: &[u8], start: usize) -> Head {
    let mut at = start;
    if let Err(head) = expect(bytes, &mut at, b"http") {
        return head;
    }
    match bytes.get(at) {
        Some(b's' | b'S') => at += 1,
        // `ſ` reads as `s` in any case.
        Some(b) if !b.is_ascii() => return Head::Unsure,
        _ => {}
    }
    match expect(bytes, &mut at, b"://") {
        Ok(()) => Head::Tail {
            from: at,
            kind: WebKind::Url,
        },
        Err(head) => head,
    }
}

/// `(?:doi:?\s?)?10\.\d{4,9}/`.
fn doi_head(bytes: &[u8], start: usize) -> Head {
    let mut at = start;
    if bytes[start] != b'1' {
        if let Err(head) = expect(bytes, &mut at, b"doi") {
            return head;
        }
        if bytes.get(at) == Some(&b':') {
            at += 1;
        }
        match bytes.get(at) {
            Some(&b) if is_space(b) => at += 1,
            Some(b) if !b.is_ascii() => return Head::Unsure,
            _ => {}
        }
    }
    if let Err(head) = expect(bytes, &mut at, b"10.") {
        return head;
    }
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    at += digits;
    if digits > 9 {
        // The tenth digit stands where the `/` should.
        return Head::NoMatch;
    }
    match bytes.get(at) {
        Some(b'/') if digits >= 4 => Head::Tail {
            from: at + 1,
            kind: WebKind::Doi,
        },
        // A Unicode digit may go on with the number.
        Some(b) if !b.is_ascii() => Head::Unsure,
        _ => Head::NoMatch,
    }
}

/// Step `at` over `word` (ASCII, in any case): `Err` with what the pattern makes
/// of a mismatch.
fn expect(bytes: &[u8], at: &mut usize, word: &[u8]) -> Result<(), Head> {
    for &w in word {
        match bytes.get(*at) {
            Some(b) if b.eq_ignore_ascii_case(&w) => *at += 1,
            Some(b) if !b.is_ascii() => return Err(Head::Unsure),
            _ => return Err(Head::NoMatch),
        }
    }
    Ok(())
}
