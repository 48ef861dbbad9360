//! Requests from Python, as JSON, read into the library's request types; an error
//! names the argument and, for articles, which one.

use serde_json::{Map, Value};

use citeproof::clean::{CleanOptions, CleanRequest};
use citeproof::validate::{ValidateOptions, ValidateRequest, output};

use crate::Failure;

fn object(json: &str) -> Result<Map<String, Value>, Failure> {
    match serde_json::from_str(json) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Failure::invalid("the request is not a JSON object")),
        Err(e) => Err(Failure::invalid(format!("the request is not JSON: {e}"))),
    }
}

fn text(map: &mut Map<String, Value>, key: &str) -> Result<Option<String>, Failure> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(Failure::invalid(format!(
            "{key}: expected a string, found {}",
            kind_of(&other)
        ))),
    }
}

/// Articles (`sources` or `articles`): a list of objects in the Article fields.
fn articles(
    map: &mut Map<String, Value>,
    key: &str,
) -> Result<Option<Vec<citeproof::clean::Article>>, Failure> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(values)) => output::articles_of(&values)
            .map(Some)
            // `articles_of` names the element `articles[i]`.
            .map_err(|e| Failure::invalid(rename_prefix(&e, key))),
        Some(other) => Err(Failure::invalid(format!(
            "{key}: expected a list of articles, found {}",
            kind_of(&other)
        ))),
    }
}

fn rename_prefix(message: &str, key: &str) -> String {
    if let Some(rest) = message
        .strip_prefix("articles")
        .filter(|r| r.starts_with('['))
    {
        return format!("{key}{rest}");
    }
    // `invalid sources: source 2 has neither a title nor an identifier`
    let message = message.strip_prefix("invalid sources: ").unwrap_or(message);
    format!("{key}: {message}")
}

fn options<T: serde::de::DeserializeOwned>(
    map: &mut Map<String, Value>,
) -> Result<Option<T>, Failure> {
    match map.remove("options") {
        None | Some(Value::Null) => Ok(None),
        Some(value) => serde_json::from_value(value)
            .map(Some)
            .map_err(|e| Failure::invalid(format!("options: {e}"))),
    }
}

fn no_more(map: &Map<String, Value>) -> Result<(), Failure> {
    match map.keys().next() {
        Some(key) => Err(Failure::invalid(format!("unknown request field `{key}`"))),
        None => Ok(()),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "None",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// `{"answer", "references"?, "sources"?, "options"?}`.
pub fn clean_request(json: &str) -> Result<CleanRequest, Failure> {
    let mut map = object(json)?;
    let answer = text(&mut map, "answer")?.ok_or_else(|| Failure::invalid("answer is missing"))?;
    let references = text(&mut map, "references")?;
    let sources = articles(&mut map, "sources")?;
    let options: Option<CleanOptions> = options(&mut map)?;
    no_more(&map)?;
    Ok(CleanRequest {
        answer,
        references,
        sources,
        options,
    })
}

/// `{"query", "articles", "options"?}`.
pub fn validate_request(json: &str) -> Result<ValidateRequest, Failure> {
    let mut map = object(json)?;
    let query = text(&mut map, "query")?.ok_or_else(|| Failure::invalid("query is missing"))?;
    let articles = articles(&mut map, "articles")?.unwrap_or_default();
    let options: Option<ValidateOptions> = options(&mut map)?;
    no_more(&map)?;
    Ok(ValidateRequest {
        query,
        articles,
        options,
    })
}
