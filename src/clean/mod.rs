//! Cleaning LLM answers: every citation marker of an answer is checked against the
//! article it names — among the articles the pipeline retrieved (closed world), or in
//! the scholarly record (open world) — and against the text that cites it; markers of
//! hallucinated (`not_found`) and mismatched articles are removed, retracted ones
//! marked, the rest renumbered, the reference list rewritten, and a report says what
//! was done to each citation and why.
//!
//! The CLI (`citeproof clean`), the HTTP service and the Python bindings call
//! [`clean`] (or [`clean_blocking`]) with a [`Cleaner`] built once from the
//! configuration and one [`CleanRequest`] per answer.
//!
//! ```
//! use citeproof::clean::{clean_blocking, Cleaner, CleanRequest, Status, Taken};
//!
//! let request: CleanRequest = serde_json::from_value(serde_json::json!({
//!     "answer": "Regular aerobic exercise improves sleep quality in older adults [1]. \
//!                Exercise also cures baldness [2].\n\n\
//!                References:\n\
//!                [1] Yang PY et al. Exercise training improves sleep quality in middle-aged \
//!                and older adults with sleep problems. J Physiother. 2012. PMCID: PMC3321\n\
//!                [2] Doe J. A miracle cure. 2021. doi:10.9999/invented.42\n",
//!     "sources": [{
//!         "pmcid": "PMC3321",
//!         "title": "Exercise training improves sleep quality in middle-aged and older \
//!                   adults with sleep problems: a systematic review",
//!         "abstract": "Exercise training improved sleep quality in older adults with \
//!                      sleep problems, as measured by the Pittsburgh Sleep Quality Index.",
//!         "journal": "Journal of Physiotherapy", "year": 2012, "citation_count": 250,
//!         "is_peer_reviewed": true, "is_retracted": false
//!     }]
//! }))?;
//! let cleaner = Cleaner::default(); // lexical alignment, no network
//! let cleaned = clean_blocking(&cleaner, &request)?;
//! assert_eq!(
//!     cleaned.cleaned,
//!     "Regular aerobic exercise improves sleep quality in older adults [1]. \
//!      Exercise also cures baldness.\n\n\
//!      References:\n\
//!      [1] Yang PY et al. Exercise training improves sleep quality in middle-aged \
//!      and older adults with sleep problems. J Physiother. 2012. PMCID: PMC3321\n"
//! );
//! let report = &cleaned.report;
//! assert_eq!(report.citations[0].status, Status::Valid);
//! assert_eq!(report.citations[1].status, Status::NotFound);
//! assert_eq!(report.citations[1].action, Taken::Removed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod accepted;
pub mod align;
pub mod article;
pub mod closed;
pub mod decide;
pub mod edit;
pub mod find;
pub mod judging;
pub mod many;
pub mod options;
pub mod read;
pub mod report;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::model::Work;
use crate::net::{Net, NetConfig};
use crate::resolve::cascade::{ResolveError, Resolver};
use crate::resolve::options::ResolveOptions;
use crate::settle::Settle;
use crate::source::LineIndex;
use crate::verify::backend::VerifySettings;
use crate::verify::escalate::{Verifier, VerifyRequest};
use crate::verify::hybrid::{Scorer, ScoringMode};
use crate::verify::judge::Judge;
use crate::verify::sentence_model::{SentenceModel, SentenceModelError};
use crate::verify::verdict::Verdict;

pub use align::Aligner;
pub use article::{Article, parse_sources};
pub use options::{
    Action, CleanOptions, Context, FailOn, Metric, Numbering, Policy, Preset, Settled,
};
pub use report::{CitationReport, CleanReport, Identifier, Record, Status, Summary, Taken};

/// One answer to clean: the body of `POST /v1/clean`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CleanRequest {
    /// The answer (Markdown or plain text), with its reference list or without.
    pub answer: String,
    /// A separate reference list (`[n] …` or `n. …` lines, URLs, DOIs).
    #[serde(default)]
    pub references: Option<String>,
    /// The articles the pipeline retrieved: given, the world is closed.
    #[serde(default)]
    pub sources: Option<Vec<Article>>,
    /// Options over the cleaner's configured defaults.
    #[serde(default)]
    pub options: Option<CleanOptions>,
}

/// The cleaned answer and the report (`{"cleaned", "report"}`; `references` only
/// when the reference list was given separately).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cleaned {
    pub cleaned: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<String>,
    pub report: CleanReport,
}

/// Why an answer could not be cleaned (never a finding: those are in the report).
#[derive(Debug, thiserror::Error)]
pub enum CleanError {
    #[error("invalid options: {0}")]
    Options(String),
    #[error("invalid sources: {0}")]
    Sources(String),
    #[error("sentence model: {0}")]
    Model(#[from] SentenceModelError),
    #[error("resolution: {0}")]
    Resolve(#[from] ResolveError),
    #[error("model backend: {0}")]
    Llm(String),
    #[error("{0}")]
    Runtime(String),
}

impl CleanError {
    /// Whether the request itself was wrong (bad options or sources), as opposed to
    /// the cleaner (HTTP 422 versus 500).
    pub fn is_bad_request(&self) -> bool {
        matches!(self, CleanError::Options(_) | CleanError::Sources(_))
    }
}

/// How a [`Cleaner`] is set up: plain data, usually from the configuration
/// (`crate::config::Resolved::cleaner_settings`).
#[derive(Debug, Clone, Default)]
pub struct CleanerSettings {
    /// Options every request starts from (the `[clean]` section).
    pub defaults: CleanOptions,
    /// Resolution for the open world; `None` leaves references unverified.
    pub resolve: Option<ResolveOptions>,
    /// The sentence model, scoring mode and LLM backend (the `[verify]` section).
    pub verify: Option<VerifySettings>,
    /// Works confirmed real by hand: kept, never removed as not found.
    pub accepted: crate::accept::Accepted,
}

/// Everything that is expensive to set up — the sentence model, the resolver with
/// its clients and cache, the LLM client — built once and shared by many requests.
pub struct Cleaner {
    defaults: CleanOptions,
    aligner: Aligner,
    judge: Judge,
    resolver: Option<Resolver>,
    llm: Option<Verifier>,
    accepted: crate::accept::Accepted,
    runtime: OnceLock<Result<tokio::runtime::Runtime, String>>,
}

impl Default for Cleaner {
    /// Lexical alignment, no resolution (open-world references are `unverified`),
    /// no model.
    fn default() -> Cleaner {
        Cleaner {
            defaults: CleanOptions::default(),
            aligner: Aligner::default(),
            judge: Judge::default(),
            resolver: None,
            llm: None,
            accepted: crate::accept::Accepted::default(),
            runtime: OnceLock::new(),
        }
    }
}

impl std::fmt::Debug for Cleaner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cleaner")
            .field("defaults", &self.defaults)
            .field("judge", &self.judge.name())
            .field("resolver", &self.resolver.is_some())
            .field("llm", &self.llm.is_some())
            .finish()
    }
}

impl Cleaner {
    /// Load the sentence model, build the resolver and the LLM client.
    pub fn new(settings: CleanerSettings) -> Result<Cleaner, CleanError> {
        let verify = settings.verify.unwrap_or_else(|| {
            VerifySettings::new(crate::verify::fulltext::FullTextConfig::default())
        });
        let model = match &verify.embedding_model {
            Some(dir) => Some(Arc::new(SentenceModel::load(dir)?)),
            None => None,
        };
        let scorer = match (verify.scoring, model) {
            (None, m) => Scorer::for_model(m),
            (Some(ScoringMode::Lexical), _) => Scorer::lexical(),
            (Some(mode), Some(m)) => Scorer::with_model(m, mode),
            (Some(mode), None) => {
                return Err(CleanError::Options(format!(
                    "scoring mode {} needs an embedding model (--embedding-model DIR)",
                    mode.as_str()
                )));
            }
        };
        let resolver = settings.resolve.map(Resolver::new).transpose()?;
        let llm = match &verify.llm {
            Some(config) => {
                let mut config = config.clone();
                // Alignment is judged on title and abstract only.
                config.full_text = false;
                config.parallel = verify.parallel;
                let own_net;
                let net = match &resolver {
                    Some(r) => r.net(),
                    None => {
                        own_net = Net::new(&NetConfig::default())
                            .map_err(|e| CleanError::Llm(e.to_string()))?;
                        &own_net
                    }
                };
                let sources = resolver.as_ref().map(|r| r.sources().clone());
                let cache = resolver.as_ref().and_then(|r| r.options().cache.clone());
                Some(
                    Verifier::new(net, config, sources, cache)
                        .map_err(|e| CleanError::Llm(e.to_string()))?,
                )
            }
            None => None,
        };
        Ok(Cleaner {
            defaults: settings.defaults,
            aligner: Aligner::new(scorer.clone()),
            judge: Judge::new(scorer),
            resolver,
            llm,
            accepted: settings.accepted,
            runtime: OnceLock::new(),
        })
    }

    /// How citing text and articles are compared by the `cosine` metric (and by
    /// `validate`'s relevance).
    pub fn aligner(&self) -> &Aligner {
        &self.aligner
    }

    /// The judge of the `score` metric: whether each citing sentence is about the
    /// work it cites.
    pub fn judge(&self) -> &Judge {
        &self.judge
    }

    /// The same cleaner with another judge (calibration compares decision models).
    pub fn with_judge(mut self, judge: Judge) -> Cleaner {
        self.judge = judge;
        self
    }

    /// The options every request starts from.
    pub fn defaults(&self) -> &CleanOptions {
        &self.defaults
    }

    /// The resolver of the open world (its clients, cache and corpora), for a service
    /// that shares it with its other routes.
    pub fn resolver(&self) -> Option<&Resolver> {
        self.resolver.as_ref()
    }

    /// The options of a request settled over the defaults, and checked.
    pub fn settle(&self, options: Option<&CleanOptions>) -> Result<Settled, CleanError> {
        let settled = Settled::over(&self.defaults, options)?;
        self.aligner.check(settled.metric)?;
        Ok(settled)
    }

    /// Run `future` — [`clean`], or [`crate::validate::validate`] with this cleaner's
    /// [`Cleaner::resolver`] — on the runtime the cleaner keeps for its network
    /// clients (started on first use), so that callers without a runtime of their own
    /// (the Python bindings) reuse one set of connections. Not for use inside a tokio
    /// runtime.
    pub fn block_on<F: std::future::Future>(&self, future: F) -> Result<F::Output, CleanError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(CleanError::Runtime(
                "Cleaner::block_on was called inside a tokio runtime: await instead".into(),
            ));
        }
        let runtime = self
            .runtime
            .get_or_init(|| crate::resolve::cascade::runtime().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| CleanError::Runtime(e.clone()))?;
        Ok(runtime.block_on(future))
    }

    /// The thresholds of a run: those set, else those fitted for the metric and the
    /// judge's scoring mode.
    pub fn thresholds(&self, settled: &Settled) -> decide::Thresholds {
        match settled.metric {
            Metric::Cosine => {
                let t = settled
                    .threshold
                    .unwrap_or(options::DEFAULT_COSINE_THRESHOLD);
                decide::Thresholds {
                    remove_below: t,
                    doubt_below: t,
                }
            }
            Metric::Score => {
                let fitted = self.judge.decision();
                let remove_below = settled.threshold.unwrap_or(fitted.remove_below);
                let doubt_below = settled
                    .doubt_threshold
                    .unwrap_or(fitted.doubt_below)
                    .max(remove_below);
                decide::Thresholds {
                    remove_below,
                    doubt_below,
                }
            }
        }
    }

    /// Whether cleaning `request` needs the network (and so a tokio runtime).
    fn needs_io(&self, request: &CleanRequest) -> bool {
        self.llm.is_some() || (request.sources.is_none() && self.resolver.is_some())
    }
}

/// Clean one answer.
pub async fn clean(cleaner: &Cleaner, request: &CleanRequest) -> Result<Cleaned, CleanError> {
    let settled = cleaner.settle(request.options.as_ref())?;
    if let Some(sources) = &request.sources {
        article::check_sources(sources)?;
    }
    let answer = request.answer.as_str();
    let reading = read::read(
        answer,
        request.references.as_deref(),
        request.sources.as_ref().map(Vec::len),
        settled.numbering,
    );
    let findings = match &request.sources {
        Some(sources) => find::closed(&reading, sources),
        None => accepted::apply(
            &reading,
            find::open(&reading, cleaner.resolver.as_ref()).await,
            &cleaner.accepted,
        ),
    };
    let contexts: Vec<String> = (0..reading.cites.len())
        .map(|i| align::context_of(answer, &reading, i, &settled))
        .collect();
    let verdicts = match &cleaner.llm {
        Some(verifier) => ask_model(verifier, &findings, &contexts).await,
        None => vec![None; findings.len()],
    };
    let thresholds = cleaner.thresholds(&settled);
    let judged: Vec<decide::Judged> = match settled.metric {
        Metric::Cosine => {
            let similarities = measure(cleaner, &settled, &findings, &contexts)?;
            (0..findings.len())
                .map(|i| {
                    decide::judge(
                        &findings[i],
                        decide::Measured::Similarity(similarities[i]),
                        thresholds,
                        verdicts[i].as_ref(),
                    )
                })
                .collect()
        }
        Metric::Score => {
            let judgements = judging::judge_citations(
                &cleaner.judge,
                request.sources.as_deref(),
                &reading,
                &findings,
                &contexts,
                settled.swap_margin < 1.0,
            )?;
            (0..findings.len())
                .map(|i| {
                    decide::judge(
                        &findings[i],
                        decide::Measured::Judged(judgements[i].as_ref()),
                        thresholds,
                        verdicts[i].as_ref(),
                    )
                })
                .collect()
        }
    };
    let actions: Vec<(edit::Fate, Taken)> = judged
        .iter()
        .map(|j| decide::action(j.status, &settled.policy))
        .collect();
    let fates: Vec<edit::Fate> = actions.iter().map(|a| a.0).collect();
    let notes: Vec<edit::Note> = judged
        .iter()
        .map(|j| edit::Note {
            status: j.status.as_str(),
            reason: j.reason.clone(),
        })
        .collect();
    let edited = edit::apply(
        answer,
        request.references.as_deref(),
        &reading,
        &fates,
        &settled,
        &notes,
    );
    let index = LineIndex::new(answer);
    let citations = (0..reading.cites.len())
        .map(|i| {
            let citation = &reading.cites[i].citation;
            let group = citation.group_span;
            let at = index.line_col(answer, group.start);
            let record = match &findings[i] {
                find::Finding::Found(found) => Some(found.record.clone()),
                _ => None,
            };
            CitationReport {
                marker: answer[group.start..group.end].to_string(),
                number: reading.cites[i].number,
                line: at.line,
                column: at.column,
                span: [group.start, group.end],
                identifier: find::identifier_of(&reading, i)
                    .or_else(|| record.as_ref().and_then(identifier_of_record)),
                status: judged[i].status,
                // Four decimals: stable across platforms, and all a reader can use.
                similarity: judged[i].similarity.map(|s| (s * 1e4).round() / 1e4),
                action: actions[i].1,
                new_number: edited.new_numbers[i],
                reason: judged[i].reason.clone(),
                record,
                evidence: judged[i].evidence.clone(),
            }
        })
        .collect();
    let mut alignment = match settled.metric {
        Metric::Cosine => cleaner.aligner.describe(settled.metric),
        Metric::Score => cleaner.judge.name(),
    };
    if let Some(verifier) = &cleaner.llm {
        alignment.push_str(&format!("+llm:{}", verifier.stage1().model()));
    }
    let mut report = CleanReport {
        citations,
        summary: Summary {
            references_kept: edited.references_kept,
            references_removed: edited.references_removed,
            world: if request.sources.is_some() {
                "closed"
            } else {
                "open"
            }
            .into(),
            alignment,
            threshold: thresholds.remove_below,
            doubt_threshold: (settled.metric == Metric::Score).then_some(thresholds.doubt_below),
            ..Summary::default()
        },
    };
    report.count();
    Ok(Cleaned {
        cleaned: edited.answer,
        references: edited.references,
        report,
    })
}

/// [`clean`] for callers without a tokio runtime: an answer checked against its
/// sources without a model server runs on the calling thread; one that needs the
/// network runs on a runtime the cleaner keeps. Not for use inside a tokio runtime
/// (call [`clean`] there).
pub fn clean_blocking(cleaner: &Cleaner, request: &CleanRequest) -> Result<Cleaned, CleanError> {
    if !cleaner.needs_io(request) {
        return futures::executor::block_on(clean(cleaner, request));
    }
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(CleanError::Runtime(
            "clean_blocking was called inside a tokio runtime: await `clean` instead".into(),
        ));
    }
    cleaner.block_on(clean(cleaner, request))?
}

/// The similarity of each found article to its citation's context (computed once
/// per distinct pair).
fn measure(
    cleaner: &Cleaner,
    settled: &Settled,
    findings: &[find::Finding],
    contexts: &[String],
) -> Result<Vec<Option<f64>>, CleanError> {
    let mut memo: HashMap<(&str, &str, &str), Option<f64>> = HashMap::new();
    let mut out = Vec::with_capacity(findings.len());
    for (finding, context) in findings.iter().zip(contexts) {
        let find::Finding::Found(found) = finding else {
            out.push(None);
            continue;
        };
        let title = found.work.title.as_str();
        let abstract_text = found.work.abstract_text.as_deref().unwrap_or("");
        let key = (context.as_str(), title, abstract_text);
        let similarity = match memo.get(&key) {
            Some(s) => *s,
            None => {
                let s =
                    cleaner
                        .aligner
                        .similarity(settled.metric, context, title, abstract_text)?;
                memo.insert(key, s);
                s
            }
        };
        out.push(similarity);
    }
    Ok(out)
}

/// The model's verdict on each found article's abstract for its context.
async fn ask_model(
    verifier: &Verifier,
    findings: &[find::Finding],
    contexts: &[String],
) -> Vec<Option<Verdict>> {
    let asked: Vec<(usize, &Work)> = findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            find::Finding::Found(found) if !contexts[i].trim().is_empty() => Some((i, &found.work)),
            _ => None,
        })
        .collect();
    let requests: Vec<VerifyRequest> = asked
        .iter()
        .map(|(i, work)| VerifyRequest {
            claim: &contexts[*i],
            work,
            citation_url: None,
            rivals: &[],
        })
        .collect();
    let verdicts = verifier.verify_all(&requests).await;
    let mut out = vec![None; findings.len()];
    for ((i, _), verdict) in asked.iter().zip(verdicts) {
        out[*i] = Some(verdict);
    }
    out
}

/// The strongest identifier a record carries.
fn identifier_of_record(record: &Record) -> Option<Identifier> {
    use crate::model::IdScheme;
    [
        (IdScheme::Doi, &record.doi),
        (IdScheme::Pmcid, &record.pmcid),
        (IdScheme::Pmid, &record.pmid),
        (IdScheme::Arxiv, &record.arxiv),
    ]
    .into_iter()
    .find_map(|(scheme, value)| value.clone().map(|value| Identifier { scheme, value }))
}
