//! Reading LaTeX command arguments from bytes: brace groups, optional `[…]` and
//! `(…)` arguments, command names. Every reader is iterative (a depth counter, no
//! recursion) so deeply nested input cannot overflow the stack.

/// Why an argument could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Unterminated;

/// Skip spaces, tabs and at most one line break (a blank line ends a paragraph and
/// so ends the argument list).
pub(super) fn skip_space(bytes: &[u8], mut p: usize) -> usize {
    let mut newline = false;
    while let Some(&b) = bytes.get(p) {
        match b {
            b' ' | b'\t' | b'\r' => p += 1,
            b'\n' if !newline => {
                newline = true;
                p += 1;
            }
            _ => break,
        }
    }
    p
}

/// Skip spaces and tabs only.
pub(super) fn skip_blanks(bytes: &[u8], mut p: usize) -> usize {
    while matches!(bytes.get(p), Some(b' ' | b'\t')) {
        p += 1;
    }
    p
}

/// End of the ASCII-letter command name starting at `p` (just after the backslash).
pub(super) fn name_end(bytes: &[u8], mut p: usize) -> usize {
    while bytes.get(p).is_some_and(u8::is_ascii_alphabetic) {
        p += 1;
    }
    p
}

/// Whether a blank line (a line break, optional blanks, another line break) starts at `p`.
fn blank_line_at(bytes: &[u8], p: usize) -> bool {
    if bytes[p] != b'\n' {
        return false;
    }
    let mut q = p + 1;
    while matches!(bytes.get(q), Some(b' ' | b'\t' | b'\r')) {
        q += 1;
    }
    bytes.get(q) == Some(&b'\n')
}

/// The end (after the closing brace) of the brace group opening at `open`.
/// Escaped braces do not count. With `short`, a blank line ends the search (the
/// argument of a command that cannot hold a paragraph).
pub(super) fn group_end(bytes: &[u8], open: usize, short: bool) -> Result<usize, Unterminated> {
    debug_assert_eq!(bytes.get(open), Some(&b'{'));
    let mut depth = 0usize;
    let mut p = open;
    loop {
        // Short arguments are scanned byte by byte to see blank lines; long ones jump.
        let next = if short {
            let i = bytes[p..]
                .iter()
                .position(|b| matches!(b, b'{' | b'}' | b'\\' | b'\n'));
            i.map(|i| p + i)
        } else {
            memchr::memchr3(b'{', b'}', b'\\', &bytes[p..]).map(|i| p + i)
        };
        let Some(next) = next else {
            return Err(Unterminated);
        };
        match bytes[next] {
            b'\\' => p = next + 2,
            b'{' => {
                depth += 1;
                p = next + 1;
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(next + 1);
                }
                p = next + 1;
            }
            _ if blank_line_at(bytes, next) => return Err(Unterminated),
            _ => p = next + 1,
        }
        if p >= bytes.len() {
            return Err(Unterminated);
        }
    }
}

/// The end (after the closer) of a bracketed argument opening at `open` with `[` or
/// `(`: braces protect the closer; a blank line or the end of text leaves it open.
pub(super) fn bracket_end(bytes: &[u8], open: usize) -> Result<usize, Unterminated> {
    let close = match bytes.get(open) {
        Some(b'[') => b']',
        Some(b'(') => b')',
        _ => return Err(Unterminated),
    };
    let mut depth = 0usize;
    let mut p = open + 1;
    while let Some(&b) = bytes.get(p) {
        match b {
            b'\\' => p += 1,
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'\n' if blank_line_at(bytes, p) => return Err(Unterminated),
            _ if b == close && depth == 0 => return Ok(p + 1),
            _ => {}
        }
        p += 1;
    }
    Err(Unterminated)
}

/// Skip any optional `[…]` arguments (and the space before them) from `p`; returns
/// the position after the last one, or `Err` with the opening of an unclosed one.
pub(super) fn skip_optionals(bytes: &[u8], mut p: usize) -> Result<usize, usize> {
    loop {
        let q = skip_space(bytes, p);
        if bytes.get(q) != Some(&b'[') {
            return Ok(p);
        }
        p = bracket_end(bytes, q).map_err(|_| q)?;
    }
}

/// The brace-group argument at `p` (after optional space): (open, end) where `open`
/// is the brace and `end` follows the closing one. `None` when no group starts there.
pub(super) fn mandatory(
    bytes: &[u8],
    p: usize,
    short: bool,
) -> Option<Result<(usize, usize), usize>> {
    let open = skip_space(bytes, p);
    if bytes.get(open) != Some(&b'{') {
        return None;
    }
    Some(
        group_end(bytes, open, short)
            .map(|end| (open, end))
            .map_err(|_| open),
    )
}

/// Find `needle` from `from`; the position of its first byte.
pub(super) fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes.get(from..)?, needle).map(|i| from + i)
}

/// The end of the line that contains `p` (the position of its `\n`, or the end).
pub(super) fn line_end(bytes: &[u8], p: usize) -> usize {
    memchr::memchr(b'\n', &bytes[p.min(bytes.len())..]).map_or(bytes.len(), |i| p + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_nest_and_respect_escapes() {
        let b = br"{a{b}\}c}rest";
        assert_eq!(group_end(b, 0, false), Ok(9));
        assert_eq!(group_end(b"{open", 0, false), Err(Unterminated));
        assert_eq!(group_end(b"{a\n\nb}", 0, true), Err(Unterminated));
        assert_eq!(group_end(b"{a\n\nb}", 0, false), Ok(6));
        assert_eq!(group_end(br"{a\\}", 0, true), Ok(5));
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let mut text = "{".repeat(200_000);
        text.push_str(&"}".repeat(200_000));
        assert_eq!(group_end(text.as_bytes(), 0, false), Ok(400_000));
    }

    #[test]
    fn brackets_are_protected_by_braces() {
        assert_eq!(bracket_end(b"[a{]}b]x", 0), Ok(7));
        assert_eq!(bracket_end(b"(pre)(post)", 0), Ok(5));
        assert_eq!(bracket_end(b"[open\n\n]", 0), Err(Unterminated));
        assert_eq!(skip_optionals(b" [a] [b]{k}", 0), Ok(8));
        assert_eq!(skip_optionals(b"[a][b", 0), Err(3));
    }
}
