//! Defensive reading of JSON bodies: the services are not consistent about types
//! (a title is a string or a list, a year a number or a string, fields go missing or
//! turn `null`), so parsers read `serde_json::Value`s through these helpers.

use serde_json::Value;

use super::SourceError;
use crate::net::HttpReply;

/// Whether a body (or its content type) is an HTML page.
pub(crate) fn is_html(reply: &HttpReply) -> bool {
    let ct_html = reply
        .content_type
        .as_deref()
        .is_some_and(|ct| ct.to_ascii_lowercase().contains("text/html"));
    ct_html || body_is_html(&reply.body)
}

pub(crate) fn body_is_html(body: &[u8]) -> bool {
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace() && !matches!(b, 0xEF | 0xBB | 0xBF))
        .unwrap_or(body.len());
    let head: Vec<u8> = body[start..]
        .iter()
        .take(15)
        .map(u8::to_ascii_lowercase)
        .collect();
    head.starts_with(b"<!doctype html") || head.starts_with(b"<html") || head.starts_with(b"<head")
}

/// The first characters of a body, for error messages.
pub(crate) fn snippet(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let collapsed = super::text::collapse_whitespace(&text);
    let mut cut: String = collapsed.chars().take(120).collect();
    if collapsed.chars().count() > 120 {
        cut.push('…');
    }
    cut
}

/// Parse a JSON body, refusing HTML pages and telling what arrived instead.
pub(crate) fn parse_body(reply: &HttpReply) -> Result<Value, SourceError> {
    if body_is_html(&reply.body) {
        return Err(SourceError::Malformed(format!(
            "HTML page instead of JSON (HTTP {}): {}",
            reply.status,
            snippet(&reply.body)
        )));
    }
    serde_json::from_slice(&reply.body).map_err(|e| {
        SourceError::Malformed(format!(
            "invalid JSON ({e}) (HTTP {}): {}",
            reply.status,
            snippet(&reply.body)
        ))
    })
}

/// An error status the caller does not treat as "not found".
pub(crate) fn status_error(reply: &HttpReply) -> SourceError {
    let message = match serde_json::from_slice::<Value>(&reply.body) {
        Ok(v) => error_message(&v).unwrap_or_else(|| snippet(&reply.body)),
        Err(_) => snippet(&reply.body),
    };
    SourceError::Status {
        status: reply.status,
        message,
    }
}

/// The message of the common JSON error shapes (`{"error": …}`, `{"message": …}`,
/// Crossref's `{"message": [{"message": …}]}`, JSON:API `{"errors": [{"title": …}]}`).
pub(crate) fn error_message(v: &Value) -> Option<String> {
    if let Some(s) = v.get("error").and_then(Value::as_str) {
        return Some(s.to_string());
    }
    if let Some(s) = v.get("message").and_then(Value::as_str) {
        return Some(s.to_string());
    }
    let first = |key: &str, field: &str| {
        v.get(key)?
            .as_array()?
            .iter()
            .find_map(|e| e.get(field).and_then(Value::as_str).map(str::to_string))
    };
    first("message", "message").or_else(|| first("errors", "title"))
}

/// A string field, or the first string of a list (Crossref titles, CSL container titles).
pub(crate) fn first_str(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => items.iter().find_map(|i| i.as_str().map(str::to_string)),
        _ => None,
    }
    .filter(|s| !s.trim().is_empty())
}

/// A string field (numbers are written out, as some services quote ids and some do not).
pub(crate) fn str_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.trim().is_empty())
}

/// An integer given as a number or a numeric string.
pub(crate) fn int_of(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A year given as a number or a string (`2017`, `"2017"`, `"2017-06-01"`).
pub(crate) fn year_of(v: Option<&Value>) -> Option<i32> {
    match v? {
        Value::String(s) => super::text::year_in(s),
        other => int_of(Some(other)).and_then(|y| i32::try_from(y).ok()),
    }
    .filter(|y| (1000..3000).contains(y))
}

/// The year of a citeproc date: `{"date-parts": [[2012, 3, 21]]}` (parts may be strings
/// or `null`), or its `raw`/`literal` text.
pub(crate) fn date_parts_year(v: Option<&Value>) -> Option<i32> {
    let v = v?;
    let from_parts = v
        .get("date-parts")
        .and_then(Value::as_array)
        .and_then(|parts| parts.first())
        .and_then(Value::as_array)
        .and_then(|first| first.first())
        .and_then(|y| year_of(Some(y)));
    from_parts
        .or_else(|| year_of(v.get("raw")))
        .or_else(|| year_of(v.get("literal")))
}

/// The elements of a list field (`null`, missing or a non-list gives nothing).
pub(crate) fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tolerant_accessors() {
        let v = json!({"t": ["A", "B"], "s": "x", "n": 12, "y": "2019-02", "bad": {"a": 1}});
        assert_eq!(first_str(v.get("t")).as_deref(), Some("A"));
        assert_eq!(first_str(v.get("s")).as_deref(), Some("x"));
        assert_eq!(str_of(v.get("n")).as_deref(), Some("12"));
        assert_eq!(year_of(v.get("y")), Some(2019));
        assert_eq!(first_str(v.get("bad")), None);
        assert_eq!(
            date_parts_year(Some(&json!({"date-parts": [["2012", 3]]}))),
            Some(2012)
        );
        assert_eq!(
            date_parts_year(Some(&json!({"date-parts": [[null]]}))),
            None
        );
    }

    #[test]
    fn html_is_recognised() {
        assert!(body_is_html(b"\n  <!DOCTYPE html><html>"));
        assert!(body_is_html(b"<HTML><body>Error</body></HTML>"));
        assert!(!body_is_html(b"{\"a\": 1}"));
        let reply = HttpReply::new(200, Some("text/html"), "<html></html>");
        assert!(matches!(parse_body(&reply), Err(SourceError::Malformed(_))));
    }
}
