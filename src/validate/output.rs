//! Validations as JSON for pipelines: each article as it was sent — every field,
//! unknown ones included — with `validation_score`, `confidence_label` and a
//! `validation` object explaining them added, so the output can stand in for the
//! input. `citeproof validate-sources` and `POST /v1/validate` both write this.

use serde_json::{Map, Value, json};

use super::{Article, Validated, Validation};

/// Read articles sent as JSON values; an error names the article and the field.
pub fn articles_of(values: &[Value]) -> Result<Vec<Article>, String> {
    let articles = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if !v.is_object() {
                return Err(format!("articles[{i}]: expected an object, found {v}"));
            }
            serde_json::from_value::<Article>(v.clone()).map_err(|e| format!("articles[{i}]: {e}"))
        })
        .collect::<Result<Vec<Article>, String>>()?;
    crate::clean::article::check_sources(&articles).map_err(|e| e.to_string())?;
    Ok(articles)
}

/// One article as sent, with its validation added.
pub fn annotated(original: &Value, validation: &Validation) -> Value {
    let mut object = match original {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    object.insert(
        "validation_score".into(),
        json!(validation.validation_score),
    );
    object.insert(
        "confidence_label".into(),
        json!(validation.confidence_label.as_str()),
    );
    object.insert(
        "validation".into(),
        json!({
            "index": validation.index,
            "kept": validation.kept,
            "reason": validation.reason,
            "components": validation.components,
            "identifier": validation.identifier,
        }),
    );
    Value::Object(object)
}

/// `{"query", "articles": [kept], "filtered": [filtered], "summary"}`, articles in
/// the order they were sent.
pub fn report(query: &str, originals: &[Value], validated: &Validated) -> Value {
    let mut kept = Vec::new();
    let mut filtered = Vec::new();
    for v in &validated.articles {
        let item = annotated(&originals[v.index], v);
        if v.kept {
            kept.push(item);
        } else {
            filtered.push(item);
        }
    }
    json!({
        "query": query,
        "articles": kept,
        "filtered": filtered,
        "summary": validated.summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{ValidateRequest, Validator, validate_blocking};

    #[test]
    fn articles_keep_every_field_they_were_sent_with() {
        let originals = vec![json!({
            "pmcid": "PMC1", "title": "Sleep and exercise in older adults", "year": 2020,
            "journal": "Sleep", "retrieval_rank": 3
        })];
        let articles = articles_of(&originals).unwrap();
        let request = ValidateRequest {
            query: "exercise and sleep".into(),
            articles,
            options: None,
        };
        let validated = validate_blocking(&Validator::default(), &request, None).unwrap();
        let out = report(&request.query, &originals, &validated);
        let all: Vec<&Value> = out["articles"]
            .as_array()
            .unwrap()
            .iter()
            .chain(out["filtered"].as_array().unwrap())
            .collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0]["retrieval_rank"], 3);
        assert_eq!(all[0]["pmcid"], "PMC1");
        assert!(all[0]["validation_score"].is_number());
        assert!(all[0]["validation"]["components"]["recency"]["explanation"].is_string());
        assert_eq!(out["summary"]["articles"], 1);
    }

    #[test]
    fn bad_articles_are_named() {
        let err =
            articles_of(&[json!({"title": "ok"}), json!({"title": "x", "year": [1]})]).unwrap_err();
        assert!(err.starts_with("articles[1]:"), "{err}");
        let err = articles_of(&[json!("PMC1")]).unwrap_err();
        assert!(err.contains("expected an object"), "{err}");
        let err = articles_of(&[json!({"journal": "J"})]).unwrap_err();
        assert!(err.contains("neither a title nor an identifier"), "{err}");
    }
}
