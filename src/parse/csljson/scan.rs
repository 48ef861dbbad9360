//! A structural JSON scanner: where each value of the top-level array begins and
//! ends, and where a key's value sits inside an object. Iterative (an explicit stack,
//! no recursion), so deeply nested input costs memory, not stack.

use crate::model::Span;

/// A structural error: where and what was expected.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanError {
    pub at: usize,
    pub expected: &'static str,
}

pub fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string whose opening quote is at `open`.
fn string_end(bytes: &[u8], open: usize) -> Result<usize, ScanError> {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(ScanError {
        at: open,
        expected: "a closing `\"` for this string",
    })
}

/// The end (exclusive) of the JSON value starting at `start`.
pub fn value_end(bytes: &[u8], start: usize) -> Result<usize, ScanError> {
    let mut stack: Vec<u8> = Vec::new();
    let mut i = start;
    loop {
        let Some(&b) = bytes.get(i) else {
            return Err(ScanError {
                at: start,
                expected: match stack.last() {
                    Some(b'{') => "a closing `}` for this object",
                    Some(_) => "a closing `]` for this array",
                    None => "a value",
                },
            });
        };
        match b {
            b'"' => i = string_end(bytes, i)?,
            b'{' | b'[' => {
                stack.push(b);
                i += 1;
            }
            b'}' | b']' => {
                let open = if b == b'}' { b'{' } else { b'[' };
                if stack.pop() != Some(open) {
                    return Err(ScanError {
                        at: i,
                        expected: "matching brackets",
                    });
                }
                i += 1;
            }
            _ if stack.is_empty() => {
                // A scalar: runs until a delimiter.
                while i < bytes.len()
                    && !matches!(bytes[i], b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t')
                {
                    i += 1;
                }
                return Ok(i);
            }
            _ => i += 1,
        }
        if stack.is_empty() {
            return Ok(i);
        }
    }
}

/// The spans of the values of the array whose `[` is at `open`, and the error
/// that stopped the scan early, if any.
pub fn array_items(bytes: &[u8], open: usize) -> (Vec<Span>, Option<ScanError>) {
    let mut items = Vec::new();
    let mut i = skip_ws(bytes, open + 1);
    if bytes.get(i) == Some(&b']') {
        return (items, None);
    }
    loop {
        let end = match value_end(bytes, i) {
            Ok(end) => end,
            Err(e) => return (items, Some(e)),
        };
        items.push(Span::new(i, end));
        i = skip_ws(bytes, end);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') => return (items, None),
            _ => {
                return (
                    items,
                    Some(ScanError {
                        at: i.min(bytes.len()),
                        expected: "`,` or `]` after an item",
                    }),
                );
            }
        }
    }
}

/// The span of the value of `key` in the object written at `object` (the string's
/// content, without quotes, for string values). Only the object's own keys count.
pub fn key_value(text: &str, object: Span, key: &str) -> Option<Span> {
    let bytes = &text.as_bytes()[..object.end];
    let mut depth = 0usize;
    let mut i = object.start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i).ok()?;
                let after = skip_ws(bytes, end);
                if depth == 1 && bytes.get(after) == Some(&b':') && &text[i + 1..end - 1] == key {
                    let value = skip_ws(bytes, after + 1);
                    if bytes.get(value) == Some(&b'"') {
                        let value_end = string_end(bytes, value).ok()?;
                        return Some(Span::new(value + 1, value_end - 1));
                    }
                    let value_end = value_end(bytes, value).ok()?;
                    return Some(Span::new(value, value_end));
                }
                i = end;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_and_keys() {
        let text = r#"[ {"id": "a", "x": {"id": "inner"}}, {"title": "t]", "id":"b"} ]"#;
        let (items, error) = array_items(text.as_bytes(), 0);
        assert!(error.is_none());
        assert_eq!(items.len(), 2);
        let id = key_value(text, items[0], "id").unwrap();
        assert_eq!(&text[id.start..id.end], "a");
        let id = key_value(text, items[1], "id").unwrap();
        assert_eq!(&text[id.start..id.end], "b");
    }

    #[test]
    fn errors_say_where() {
        let text = r#"[{"id": "a"}, {"id": "b"#;
        let (items, error) = array_items(text.as_bytes(), 0);
        assert_eq!(items.len(), 1);
        assert_eq!(error.unwrap().at, text.rfind('"').unwrap());
        let (_, error) = array_items(b"[{} {}]", 0);
        assert_eq!(error.unwrap().expected, "`,` or `]` after an item");
        let deep = "[".repeat(100_000);
        let (_, error) = array_items(deep.as_bytes(), 0);
        assert!(error.is_some());
    }
}
