//! Inputs of `citeproof resolve`: a BibTeX file, a text file with one reference string
//! per line, or JSONL lines `{"id", "reference"}` / `{"id", "bibtex"}`.

use std::path::Path;

use serde_json::Value;

use crate::model::FileId;
use crate::parse::ParseOptions;
use crate::resolve::query::RefQuery;

/// One reference to resolve, with the id the output carries.
#[derive(Debug, Clone)]
pub struct InputReference {
    pub id: String,
    pub query: RefQuery,
}

/// Problems that did not stop the reading: each names the file and the place.
pub type Warnings = Vec<String>;

fn bibtex_queries(text: &str) -> (Vec<InputReference>, Warnings) {
    let parsed = crate::parse::bibtex::parse(FileId(0), text, &ParseOptions::default());
    let warnings = parsed.problems.iter().map(|p| p.message.clone()).collect();
    let refs = parsed
        .references
        .iter()
        .map(|r| InputReference {
            id: r.key.clone(),
            query: RefQuery::from_reference(r),
        })
        .collect();
    (refs, warnings)
}

/// Read references from `text`; `name` (the file name) picks the format: `.bib`,
/// `.jsonl`/`.ndjson`, anything else one reference string per line.
pub fn read(name: &Path, text: &str) -> (Vec<InputReference>, Warnings) {
    let ext = name
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let shown = name.display();
    match ext.as_deref() {
        Some("bib" | "bibtex") => {
            let (refs, problems) = bibtex_queries(text);
            let warnings = problems
                .into_iter()
                .map(|p| format!("{shown}: {p}"))
                .collect();
            (refs, warnings)
        }
        Some("jsonl" | "ndjson") => read_jsonl(name, text),
        _ => {
            let refs = text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(n, line)| InputReference {
                    id: (n + 1).to_string(),
                    query: RefQuery::from_string(line.trim()),
                })
                .collect();
            (refs, Vec::new())
        }
    }
}

fn read_jsonl(name: &Path, text: &str) -> (Vec<InputReference>, Warnings) {
    let mut refs = Vec::new();
    let mut warnings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = format!("{}:{}", name.display(), n + 1);
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                warnings.push(format!("{place}: not JSON ({e}); line skipped"));
                continue;
            }
        };
        let id = match &v["id"] {
            Value::String(s) => s.clone(),
            Value::Number(x) => x.to_string(),
            _ => (n + 1).to_string(),
        };
        if let Some(reference) = v["reference"].as_str() {
            refs.push(InputReference {
                id,
                query: RefQuery::from_string(reference),
            });
        } else if let Some(bibtex) = v["bibtex"].as_str() {
            let (mut found, problems) = bibtex_queries(bibtex);
            warnings.extend(problems.into_iter().map(|p| format!("{place}: {p}")));
            match found.len() {
                0 => warnings.push(format!(
                    "{place}: no BibTeX entry could be read; line skipped"
                )),
                1 => {}
                k => warnings.push(format!(
                    "{place}: {k} BibTeX entries; only the first is resolved"
                )),
            }
            if !found.is_empty() {
                let mut first = found.swap_remove(0);
                first.id = id;
                refs.push(first);
            }
        } else {
            warnings.push(format!(
                "{place}: expected a \"reference\" or \"bibtex\" string; line skipped"
            ));
        }
    }
    (refs, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines_and_jsonl_references() {
        let (refs, warnings) = read(
            Path::new("refs.txt"),
            "He K, Zhang X. Deep residual learning for image recognition. CVPR 2016.\n\n  Second reference title here. 2020.\n",
        );
        assert!(warnings.is_empty());
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[1].id, "3");
        let (refs, warnings) = read(
            Path::new("in.jsonl"),
            "{\"id\": \"a\", \"reference\": \"Vaswani A. Attention is all you need. NeurIPS 2017.\"}\nnot json\n{\"id\": 7}\n",
        );
        assert_eq!(refs.len(), 1);
        assert_eq!(refs[0].id, "a");
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains("in.jsonl:2"), "{warnings:?}");
        assert!(warnings[1].contains("in.jsonl:3"), "{warnings:?}");
    }
}
