//! Whether the cursor is where a citation key goes, and which key is being typed:
//! inside the key list of a LaTeX citation command (`\citep[p.~3]{a, b|}`,
//! `\cites(x)[y]{a}{b|}`), or after `@` in Markdown prose (`[@sm|`, `-@sm|`,
//! `@sm|`) outside front matter and code.

use crate::model::Span;

/// The key being typed: what precedes the cursor, and the bytes a chosen key
/// replaces (the whole key under the cursor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAt {
    pub prefix: String,
    pub replace: Span,
}

/// How far back a key list is looked for.
const LOOK_BACK: usize = 4096;

/// Bytes that end a LaTeX key.
fn latex_stop(b: u8) -> bool {
    matches!(
        b,
        b',' | b'{' | b'}' | b'\\' | b'%' | b' ' | b'\t' | b'\r' | b'\n' | b'[' | b']'
    )
}

fn skip_space_back(bytes: &[u8], mut p: usize, floor: usize) -> usize {
    while p > floor && matches!(bytes[p - 1], b' ' | b'\t' | b'\r' | b'\n') {
        p -= 1;
    }
    p
}

/// The start of the bracket group that ends just before `p` (`bytes[p-1]` is the
/// closing bracket).
fn group_start_back(bytes: &[u8], p: usize, open: u8, close: u8, floor: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut q = p;
    while q > floor {
        q -= 1;
        match bytes[q] {
            c if c == close => depth += 1,
            c if c == open => {
                depth -= 1;
                if depth == 0 {
                    return Some(q);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a `%` that starts a comment precedes `offset` on its line.
fn in_latex_comment(bytes: &[u8], offset: usize) -> bool {
    let line_start = memchr::memrchr(b'\n', &bytes[..offset]).map_or(0, |i| i + 1);
    let mut escaped = false;
    for &b in &bytes[line_start..offset] {
        match b {
            b'\\' => escaped = !escaped,
            b'%' if !escaped => return true,
            _ => escaped = false,
        }
    }
    false
}

/// The key under the cursor when it is in the key list of a command `is_cite`
/// accepts (name without backslash and star).
pub fn latex(text: &str, offset: usize, is_cite: impl Fn(&str) -> bool) -> Option<KeyAt> {
    let bytes = text.as_bytes();
    let offset = text.floor_char_boundary(offset.min(text.len()));
    if in_latex_comment(bytes, offset) {
        return None;
    }
    let floor = offset.saturating_sub(LOOK_BACK);
    let mut start = offset;
    while start > floor && !latex_stop(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = offset;
    while end < bytes.len() && !latex_stop(bytes[end]) {
        end += 1;
    }
    // Back over the keys before this one to the list's `{`.
    let mut p = start;
    let open = loop {
        p = skip_space_back(bytes, p, floor);
        if p == floor {
            return None;
        }
        match bytes[p - 1] {
            b'{' => break p - 1,
            b',' => {
                p = skip_space_back(bytes, p - 1, floor);
                while p > floor && !latex_stop(bytes[p - 1]) {
                    p -= 1;
                }
            }
            _ => return None,
        }
    };
    // Back over optional arguments, notes and earlier key lists to the command.
    let mut q = open;
    let name = loop {
        q = skip_space_back(bytes, q, floor);
        if q == floor {
            return None;
        }
        match bytes[q - 1] {
            b']' => q = group_start_back(bytes, q, b'[', b']', floor)?,
            b')' => q = group_start_back(bytes, q, b'(', b')', floor)?,
            b'}' => q = group_start_back(bytes, q, b'{', b'}', floor)?,
            b'*' => q -= 1,
            b if b.is_ascii_alphabetic() => {
                let name_end = q;
                while q > floor && bytes[q - 1].is_ascii_alphabetic() {
                    q -= 1;
                }
                if q == 0 || bytes[q - 1] != b'\\' {
                    return None;
                }
                break &text[q..name_end];
            }
            _ => return None,
        }
    };
    is_cite(name).then(|| KeyAt {
        prefix: text[start..offset].to_string(),
        replace: Span::new(start, end),
    })
}

/// Characters of a pandoc citation key (internal punctuation included).
fn markdown_key_char(c: char) -> bool {
    c.is_alphanumeric() || "_:.#$%&-+?<>~/".contains(c)
}

/// The key under the cursor when it follows an `@` that starts a citation.
pub fn markdown(text: &str, offset: usize) -> Option<KeyAt> {
    let offset = text.floor_char_boundary(offset.min(text.len()));
    let before = &text[..offset];
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| markdown_key_char(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let at = start
        .checked_sub(1)
        .filter(|&i| text.as_bytes()[i] == b'@')?;
    // `name@example.org` is an address, not a citation.
    if text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
    {
        return None;
    }
    if in_front_matter(text, at) || in_code(text, at) {
        return None;
    }
    let end = offset
        + text[offset..]
            .char_indices()
            .find(|&(_, c)| !markdown_key_char(c))
            .map_or(text.len() - offset, |(i, _)| i);
    Some(KeyAt {
        prefix: text[start..offset].to_string(),
        replace: Span::new(start, end),
    })
}

/// Whether `offset` lies in a YAML front matter block at the top of the text.
fn in_front_matter(text: &str, offset: usize) -> bool {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return false;
    };
    let body_start = text.len() - rest.len();
    let mut at = body_start;
    for line in rest.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == "---" || trimmed == "..." {
            return offset < at + line.len();
        }
        at += line.len();
    }
    false
}

/// Whether `offset` lies in a fenced code block or an inline code span.
fn in_code(text: &str, offset: usize) -> bool {
    let mut fence: Option<&str> = None;
    let mut line_start = 0;
    for line in text[..offset].split_inclusive('\n') {
        let is_last = line_start + line.len() >= offset && !line.ends_with('\n');
        if !is_last {
            let trimmed = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            match (fence, marker) {
                (None, Some(m)) => fence = Some(m),
                (Some(open), Some(m)) if open == m => fence = None,
                _ => {}
            }
        }
        line_start += line.len();
    }
    if fence.is_some() {
        return true;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..offset].matches('`').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cite(name: &str) -> bool {
        ["cite", "citep", "Citep", "parencite", "cites", "nocite"].contains(&name)
    }

    fn latex_at(text: &str) -> Option<KeyAt> {
        let offset = text.find('|').unwrap();
        let text = text.replace('|', "");
        latex(&text, offset, cite)
    }

    fn md_at(text: &str) -> Option<KeyAt> {
        let offset = text.find('|').unwrap();
        let text = text.replace('|', "");
        markdown(&text, offset)
    }

    #[test]
    fn latex_key_lists() {
        assert_eq!(latex_at("\\cite{|}").unwrap().prefix, "");
        assert_eq!(latex_at("see \\citep{sm|}").unwrap().prefix, "sm");
        let at = latex_at("\\citep[p.~3][]{a, b|c}").unwrap();
        assert_eq!(at.prefix, "b");
        assert_eq!(at.replace.len(), 2);
        assert_eq!(latex_at("\\Citep*{x,|}").unwrap().prefix, "");
        assert_eq!(latex_at("\\cites(all)[p]{a}[q]{b|").unwrap().prefix, "b");
        assert_eq!(latex_at("\\nocite{\n  a,\n  b|").unwrap().prefix, "b");
        assert!(latex_at("\\textbf{b|}").is_none());
        assert!(latex_at("% \\cite{b|}").is_none());
        assert!(latex_at("\\cite{a} b|").is_none());
        assert_eq!(latex_at("100\\% \\cite{é|}").unwrap().prefix, "é");
    }

    #[test]
    fn markdown_citations() {
        assert_eq!(md_at("As shown [@|]").unwrap().prefix, "");
        let at = md_at("As shown [@smi|th; @b]").unwrap();
        assert_eq!((at.prefix.as_str(), at.replace.len()), ("smi", 5));
        assert_eq!(md_at("@vas| says").unwrap().prefix, "vas");
        assert_eq!(md_at("[-@x|]").unwrap().prefix, "x");
        assert!(md_at("mail me@exa|").is_none());
        assert!(md_at("---\nauthor: @x|\n---\ntext").is_none());
        assert!(md_at("```\n@x|\n```").is_none());
        assert!(md_at("`@x|`").is_none());
        assert_eq!(
            md_at("---\na: b\n---\n```\nx\n```\n[@é|").unwrap().prefix,
            "é"
        );
    }
}
