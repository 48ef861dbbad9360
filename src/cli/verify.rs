//! `citeproof verify INPUT`: verify claims against the works they cite.
//!
//! INPUT is JSONL (`-` for standard input), one pair per line:
//! `{"id", "claim", "doi" | "arxiv" | "pmid" | "pmcid"}` or `{"id", "claim", "reference"}`.
//! Output is JSONL, one line per input line in input order:
//! `{"id", "label", "stage", "rationale", "evidence", "passage": {"source", "section",
//! "offset"} | null, "model"}`; with `--format json`, one object
//! `{"verdicts": [those objects], "usage": {…}}`. The cited works are found by the resolution cascade
//! (identifiers batched across the run; reference strings parsed and searched; local
//! corpora with `--corpus`); only pairs whose work was found are verified. The LLM
//! backend is used when a model is configured, the embedded backend otherwise. A usage
//! summary goes to stderr at the end.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use citeproof::model::{IdScheme, RefFields};
use citeproof::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmcid, normalize_pmid};
use citeproof::resolve::cascade::Resolver;
use citeproof::resolve::outcome::Status;
use citeproof::resolve::query::{QueryKind, RefQuery};
use citeproof::resolve::resolution::Resolution;
use citeproof::verify::backend::{Backend, Judgement};
use citeproof::verify::escalate::VerifyRequest;
use citeproof::verify::verdict::unverifiable_rationale;

use super::resolve::{ResolveArgs, resolve_options};
use super::stage_args::{Layers, command_config};
use super::verify_flags::{VerifyFlags, report_usage};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// JSONL input: {"id","claim","doi"|"arxiv"|"pmid"|"pmcid"} or {"id","claim","reference"}
    /// per line; `-` reads standard input.
    pub input: PathBuf,
    /// Write the output here instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: Format,
    /// Use this configuration file (default: the nearest one to INPUT).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub flags: VerifyFlags,
    #[command(flatten)]
    pub resolution: ResolveArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per input line: id, label, stage, rationale, evidence, passage, model.
    Jsonl,
    /// One JSON object: {"verdicts": [the JSONL objects], "usage": model requests, tokens
    /// and set-up notes}.
    Json,
}

/// What a line asks to verify the claim against.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Id(IdScheme, String),
    Reference(String),
}

impl Target {
    /// The query the resolution cascade answers.
    fn query(&self) -> RefQuery {
        match self {
            Target::Reference(r) => RefQuery::from_string(r),
            Target::Id(scheme, id) => {
                let mut fields = RefFields::default();
                *fields.identifier_mut(*scheme) = Some(id.clone());
                RefQuery::new(
                    fields,
                    format!("{}:{id}", scheme.prefix()),
                    QueryKind::Identifier,
                )
            }
        }
    }
}

/// The identifier in its normal form, or `None` when it is not one of its scheme.
fn normalize(scheme: IdScheme, raw: &str) -> Option<String> {
    match scheme {
        IdScheme::Doi => normalize_doi(raw),
        IdScheme::Arxiv => normalize_arxiv(raw),
        IdScheme::Pmid => normalize_pmid(raw),
        IdScheme::Pmcid => normalize_pmcid(raw),
        IdScheme::Isbn | IdScheme::Url => None,
    }
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
            Some(r) if !r.is_empty() => Ok((claim.to_string(), Target::Reference(r.to_string()))),
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
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
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
        "rationale": unverifiable_rationale(reason),
        "evidence": null, "passage": null, "model": null,
    })
}

fn judged(id: &str, j: &Judgement) -> Value {
    let passage = j
        .passage()
        .map(|p| json!({"source": p.source, "section": p.section, "offset": p.offset}));
    json!({
        "id": id, "label": j.label(), "stage": j.stage().as_str(),
        "rationale": j.rationale(), "evidence": j.evidence(),
        "passage": passage, "model": j.model(),
    })
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let lines = read_input(&args.input)?;
    let mut layers = Layers::default();
    args.resolution.add_layers(&mut layers)?;
    args.flags.add_layers(&mut layers)?;
    let configs = command_config(&args.input, args.config.clone(), layers.0)?;
    let options = resolve_options(configs.run())?;
    let settings = configs.run().verify_settings()?;
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
    let cache = options.cache.clone();
    let (outputs, usage) = runtime.block_on(async {
        // Verification shares the resolver's clients, so each service's rate limit
        // holds across both stages.
        let resolver = Resolver::new(options).context("resolution")?;
        let backend = Backend::build(
            resolver.net(),
            &settings,
            Some(resolver.sources().clone()),
            cache,
        )
        .context("verification backend")?;
        let outputs = verify_lines(&lines, &resolver, &backend).await;
        Ok::<_, anyhow::Error>((outputs, backend.usage()))
    })?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let written = match args.format {
        Format::Jsonl => outputs.iter().try_for_each(|v| writeln!(out, "{v}")),
        Format::Json => {
            let document = json!({"verdicts": outputs, "usage": usage});
            writeln!(out, "{document:#}")
        }
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stopped early (`| head`) is not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other?,
    }
    report_usage(usage.as_ref());
    Ok(if invalid > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// Why a resolution gives no work to verify against, or `None` when it gives one.
fn unresolved_reason(r: &Resolution) -> Option<String> {
    if r.identified_work().is_some() {
        return None;
    }
    Some(match r.status {
        Status::NotFound => "no source has the cited work (not found)".to_string(),
        Status::Unverified if !r.failures.is_empty() => format!(
            "the cited work could not be resolved: {}",
            r.failures.join("; ")
        ),
        _ => "the cited work could not be resolved".to_string(),
    })
}

/// Resolve the cited works, verify, and give one output value per line with a
/// readable id.
async fn verify_lines(lines: &[Line], resolver: &Resolver, backend: &Backend) -> Vec<Value> {
    let usable: Vec<(&str, &Target)> = lines
        .iter()
        .filter_map(|l| l.parsed.as_ref().ok().map(|(c, t)| (c.as_str(), t)))
        .collect();
    let queries: Vec<RefQuery> = usable.iter().map(|(_, t)| t.query()).collect();
    let resolutions = resolver.resolve(&queries).await;

    let mut requests: Vec<VerifyRequest<'_>> = Vec::new();
    let mut slots: Vec<Result<usize, String>> = Vec::new();
    let mut next = usable.iter().zip(&resolutions).zip(&queries);
    for line in lines {
        let slot = match &line.parsed {
            Err(e) => Err(format!("invalid input line {}: {e}", line.number)),
            Ok(_) => {
                let Some((((claim, _), resolution), query)) = next.next() else {
                    break;
                };
                match (unresolved_reason(resolution), &resolution.work) {
                    (None, Some(work)) => {
                        requests.push(VerifyRequest {
                            claim,
                            work,
                            citation_url: query.fields.url.as_deref(),
                            rivals: &[],
                        });
                        Ok(requests.len() - 1)
                    }
                    (reason, _) => Err(reason.unwrap_or_default()),
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_or_refused_with_a_reason() {
        let ok = parse_line(
            1,
            r#"{"id": 7, "claim": "X causes Y.", "doi": "doi:10.1038/NPHYS1170"}"#,
        );
        assert_eq!(ok.id.as_deref(), Some("7"));
        assert_eq!(
            ok.parsed.unwrap(),
            (
                "X causes Y.".to_string(),
                Target::Id(IdScheme::Doi, "10.1038/nphys1170".into())
            )
        );
        let reference = parse_line(
            2,
            r#"{"id": "r", "claim": "c", "reference": "Vaswani et al. Attention is all you need. arXiv:1706.03762"}"#,
        );
        let query = reference.parsed.unwrap().1.query();
        assert_eq!(query.fields.arxiv.as_deref(), Some("1706.03762"));
        let id = parse_line(3, r#"{"id": "p", "claim": "c", "pmid": "PMID: 42"}"#);
        let query = id.parsed.unwrap().1.query();
        assert_eq!(
            (query.fields.pmid.as_deref(), query.kind),
            (Some("42"), QueryKind::Identifier)
        );
        for bad in [
            "not json",
            r#"["id"]"#,
            r#"{"claim": "c", "doi": "10.1038/x"}"#,
            r#"{"id": "a", "claim": "", "doi": "10.1038/x"}"#,
            r#"{"id": "a", "claim": "c", "doi": "nonsense"}"#,
            r#"{"id": "a", "claim": "c"}"#,
        ] {
            assert!(parse_line(9, bad).parsed.is_err(), "{bad}");
        }
    }
}
