//! `citeproof verify INPUT`: verify claims against the works they cite.
//!
//! INPUT is JSONL (`-` for standard input), one pair per line:
//! `{"id", "claim", "doi" | "arxiv" | "pmid" | "pmcid"}` or `{"id", "claim", "reference"}`.
//! Output is JSONL, one line per input line in input order:
//! `{"id", "label", "stage", "rationale", "evidence", "passage": {"source", "section",
//! "offset"} | null, "model"}`. The LLM backend is used when a model is configured,
//! the embedded backend otherwise. A usage summary goes to stderr at the end.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde_json::{Value, json};

use citeproof::model::{IdScheme, Work};
use citeproof::parse::ids::{find_arxiv_ids, find_dois, find_pmids};
use citeproof::verify::backend::{Backend, Judgement};
use citeproof::verify::escalate::VerifyRequest;
use citeproof::verify::lookup::{IdLookup, normalize, works_by_id};

use super::verify_flags::{Setup, VerifyFlags, report_usage};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// JSONL input: {"id","claim","doi"|"arxiv"|"pmid"|"pmcid"} or {"id","claim","reference"}
    /// per line; `-` reads standard input.
    pub input: PathBuf,
    /// Write the JSONL output here instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub flags: VerifyFlags,
}

/// What a line asks to verify the claim against.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Id(IdScheme, String),
    /// A reference string with no identifier in it.
    Reference(String),
}

/// One input line, or why it cannot be used.
#[derive(Debug)]
struct Line {
    number: usize,
    id: Option<String>,
    parsed: Result<(String, Target), String>,
}

const ID_FIELDS: [(&str, IdScheme); 4] = [
    ("doi", IdScheme::Doi),
    ("arxiv", IdScheme::Arxiv),
    ("pmid", IdScheme::Pmid),
    ("pmcid", IdScheme::Pmcid),
];

/// The identifier written in a reference string, if any (DOI, then arXiv, then PMID).
fn identifier_in(reference: &str) -> Option<(IdScheme, String)> {
    if let Some((_, doi)) = find_dois(reference).into_iter().next() {
        return Some((IdScheme::Doi, doi));
    }
    if let Some((_, id)) = find_arxiv_ids(reference).into_iter().next() {
        return Some((IdScheme::Arxiv, id));
    }
    find_pmids(reference)
        .into_iter()
        .next()
        .map(|(_, id)| (IdScheme::Pmid, id))
}

fn parse_line(number: usize, text: &str) -> Line {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Line {
                number,
                id: None,
                parsed: Err(format!("not a JSON object: {e}")),
            };
        }
    };
    let id = match &value["id"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let parsed = (|| {
        if !value.is_object() {
            return Err("expected a JSON object".to_string());
        }
        if id.is_none() {
            return Err("expected \"id\" (a string or number)".to_string());
        }
        let claim = value["claim"]
            .as_str()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .ok_or("expected \"claim\" (a non-empty string)")?;
        for (field, scheme) in ID_FIELDS {
            if let Some(raw) = value.get(field).filter(|v| !v.is_null()) {
                let raw = raw.as_str().map(str::to_string).unwrap_or(raw.to_string());
                let id = normalize(scheme, &raw)
                    .ok_or_else(|| format!("\"{field}\": `{raw}` is not a valid {field}"))?;
                return Ok((claim.to_string(), Target::Id(scheme, id)));
            }
        }
        match value["reference"].as_str().map(str::trim) {
            Some(r) if !r.is_empty() => {
                let target = identifier_in(r)
                    .map_or_else(|| Target::Reference(r.to_string()), |(s, i)| Target::Id(s, i));
                Ok((claim.to_string(), target))
            }
            _ => Err(
                "expected one of \"doi\", \"arxiv\", \"pmid\", \"pmcid\" or \"reference\""
                    .to_string(),
            ),
        }
    })();
    Line { number, id, parsed }
}

fn read_input(path: &Path) -> anyhow::Result<Vec<Line>> {
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut lines = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("{}:{}: cannot read", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        lines.push(parse_line(i + 1, &line));
    }
    Ok(lines)
}

/// An output line for a pair that could not be verified before any backend ran.
fn unverified(id: &str, backend: &Backend, reason: &str) -> Value {
    let label = match backend {
        Backend::Llm(_) => "UNVERIFIABLE",
        Backend::Embedded(_) => "uncertain",
    };
    json!({
        "id": id, "label": label, "stage": "abstract",
        "rationale": format!("could not be verified: {reason}"),
        "evidence": null, "passage": null, "model": null,
    })
}

fn judged(id: &str, j: &Judgement) -> Value {
    let passage = j.passage().map(|p| {
        json!({"source": p.source, "section": p.section, "offset": p.offset})
    });
    json!({
        "id": id, "label": j.label(), "stage": j.stage().as_str(),
        "rationale": j.rationale(), "evidence": j.evidence(),
        "passage": passage, "model": j.model(),
    })
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let lines = read_input(&args.input)?;
    let setup = Setup::new(&args.flags)?;
    let backend = setup.backend(&args.flags)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("async runtime")?;
    let name = args.input.display().to_string();
    let mut invalid = 0usize;
    for line in &lines {
        if let Err(e) = &line.parsed {
            invalid += 1;
            eprintln!("{name}:{}: {e}", line.number);
        }
    }
    let outputs = runtime.block_on(verify_lines(&lines, &setup, &backend));
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    for value in outputs {
        writeln!(out, "{value}")?;
    }
    out.flush()?;
    report_usage(&backend);
    Ok(if invalid > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Look up the cited works, verify, and give one output value per usable line (lines
/// without a readable id give none).
async fn verify_lines(lines: &[Line], setup: &Setup, backend: &Backend) -> Vec<Value> {
    let mut ids: Vec<(IdScheme, String)> = Vec::new();
    for line in lines {
        if let Ok((_, Target::Id(scheme, id))) = &line.parsed
            && !ids.iter().any(|(s, i)| s == scheme && i == id)
        {
            ids.push((*scheme, id.clone()));
        }
    }
    let found = works_by_id(&setup.sources, &ids).await;
    let works: HashMap<(IdScheme, String), IdLookup> = ids.into_iter().zip(found).collect();

    let mut requests: Vec<VerifyRequest<'_>> = Vec::new();
    let mut slots: Vec<Result<usize, String>> = Vec::new();
    for line in lines {
        let slot = match &line.parsed {
            Err(e) => Err(format!("invalid input line {}: {e}", line.number)),
            Ok((_, Target::Reference(_))) => Err(
                "the reference has no DOI, arXiv id or PMID, and reference strings without \
                 an identifier are not resolved by `verify` yet"
                    .to_string(),
            ),
            Ok((claim, Target::Id(scheme, id))) => match &works[&(*scheme, id.clone())] {
                IdLookup::Found(work) => {
                    requests.push(request(claim, work));
                    Ok(requests.len() - 1)
                }
                IdLookup::NotFound => Err(format!(
                    "no source knows the {} {id}",
                    scheme.prefix()
                )),
                IdLookup::Failed(why) => Err(format!(
                    "the {} {id} could not be looked up ({why})",
                    scheme.prefix()
                )),
            },
        };
        slots.push(slot);
    }
    let judgements = backend.verify_all(&requests).await;
    lines
        .iter()
        .zip(slots)
        .filter_map(|(line, slot)| {
            let id = line.id.as_deref()?;
            Some(match slot {
                Ok(i) => judged(id, &judgements[i]),
                Err(reason) => unverified(id, backend, &reason),
            })
        })
        .collect()
}

fn request<'a>(claim: &'a str, work: &'a Work) -> VerifyRequest<'a> {
    VerifyRequest {
        claim,
        work,
        citation_url: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_or_refused_with_a_reason() {
        let ok = parse_line(1, r#"{"id": 7, "claim": "X causes Y.", "doi": "doi:10.1/ABC"}"#);
        assert_eq!(ok.id.as_deref(), Some("7"));
        assert_eq!(
            ok.parsed.unwrap(),
            (
                "X causes Y.".to_string(),
                Target::Id(IdScheme::Doi, "10.1/abc".into())
            )
        );
        let reference = parse_line(
            2,
            r#"{"id": "r", "claim": "c", "reference": "Vaswani et al. Attention is all you need. arXiv:1706.03762"}"#,
        );
        assert_eq!(
            reference.parsed.unwrap().1,
            Target::Id(IdScheme::Arxiv, "1706.03762".into())
        );
        let plain = parse_line(3, r#"{"id": "p", "claim": "c", "reference": "Smith J. A study. 2020."}"#);
        assert!(matches!(plain.parsed.unwrap().1, Target::Reference(_)));
        for bad in [
            "not json",
            r#"["id"]"#,
            r#"{"claim": "c", "doi": "10.1/x"}"#,
            r#"{"id": "a", "claim": "", "doi": "10.1/x"}"#,
            r#"{"id": "a", "claim": "c", "doi": "nonsense"}"#,
            r#"{"id": "a", "claim": "c"}"#,
        ] {
            assert!(parse_line(9, bad).parsed.is_err(), "{bad}");
        }
    }
}
