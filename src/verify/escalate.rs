//! The LLM verification path, as DeepSciVerify does it: stage 1 judges the claim on the
//! abstract; when it answers NOT_ENOUGH_INFO (or, configurably, with low confidence),
//! the full text is fetched, chunked and ranked, and stage 2 judges the best passages
//! with the abstract as supplementary context.
//!
//! Failures never turn into accusations: an outage, a timeout, output that stays
//! unreadable after the corrective follow-up, or an exhausted budget give a "could not
//! be verified" verdict. Those of an outage, timeout or budget are not cached; an
//! unreadable answer is kept one day (the model at temperature 0 would say the same
//! again). A quote that does not occur in the evidence downgrades the answer to
//! NOT_ENOUGH_INFO ([`super::asking`]). Final verdicts are cached (namespace
//! `verdict`) by claim, work, models and prompt version.

use std::collections::HashMap;

use futures::StreamExt;
use serde_json::json;

use super::asking::{Asked, ask, checked};
use super::cached::digest_key;
use super::evidence::Evidence;
use super::fulltext::{FullText, FullTextConfig, FullTextFetcher, Rejection, Search};
use super::llm::{LlmClient, LlmError, ModelConfig};
use super::passages::Passage;
use super::prompt::{PROMPT_VERSION, abstract_messages, passage_messages, quote_occurs};
use super::select::{self, PassageSettings, RankedBy, Ranker};
use super::structured::ModeBook;
use super::usage::{Limiter, UsageSummary, UsageTracker};
use super::verdict::{Label, PassageRef, Stage, Unverifiable, Verdict};
use crate::cache::Cache;
use crate::model::Work;
use crate::net::{Net, NetError};
use crate::resolve::sources::Sources;

/// Cache namespace of verdicts.
pub const VERDICT_NAMESPACE: &str = "verdict";

/// Everything the LLM path is configured with.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyConfig {
    /// The model that judges abstracts (a conservative one).
    pub stage1: ModelConfig,
    /// The model that judges full-text passages; `None`: the stage-1 model.
    pub stage2: Option<ModelConfig>,
    /// Rank passages by embeddings from this model instead of the local ranker.
    pub embeddings: Option<ModelConfig>,
    /// How passages are ranked without an embeddings endpoint (BM25 by default).
    pub ranker: Ranker,
    /// Escalate a SUPPORTS / CONTRADICTS answer whose confidence is below this.
    pub escalate_below_confidence: Option<f64>,
    /// Escalate to the full text at all.
    pub full_text: bool,
    pub fulltext: FullTextConfig,
    pub passages: PassageSettings,
    /// Corrective follow-ups after a reply that cannot be read.
    pub max_invalid_retries: u32,
    /// Verifications in flight at once in [`Verifier::verify_all`].
    pub parallel: usize,
}

impl VerifyConfig {
    pub fn new(stage1: ModelConfig) -> VerifyConfig {
        VerifyConfig {
            stage1,
            stage2: None,
            embeddings: None,
            ranker: Ranker::default(),
            escalate_below_confidence: None,
            full_text: true,
            fulltext: FullTextConfig::default(),
            passages: PassageSettings::default(),
            max_invalid_retries: 1,
            parallel: 4,
        }
    }
}

/// Why a verifier could not be built.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Model(#[from] LlmError),
    #[error("full-text client: {0}")]
    Net(#[from] NetError),
}

/// One claim–work pair to verify.
#[derive(Debug, Clone, Copy)]
pub struct VerifyRequest<'a> {
    pub claim: &'a str,
    pub work: &'a Work,
    /// The URL the citation itself gives (first step of the full-text cascade).
    pub citation_url: Option<&'a str>,
    /// The other works the document cites (not those cited beside this one): the
    /// judge compares the claim with them too, so a claim that is another cited
    /// work's is caught (the embedded backend; the LLM path judges the pair alone).
    pub rivals: &'a [Rival<'a>],
}

/// Another work the document cites, with the key it is cited by.
#[derive(Debug, Clone, Copy)]
pub struct Rival<'a> {
    pub name: &'a str,
    pub work: &'a Work,
}

/// The LLM verification path. Cheap to share behind a reference.
#[derive(Debug)]
pub struct Verifier {
    config: VerifyConfig,
    stage1: LlmClient,
    stage2: LlmClient,
    embedder: Option<LlmClient>,
    fetcher: FullTextFetcher,
    sources: Option<Sources>,
    cache: Option<Cache>,
    usage: UsageTracker,
    modes: ModeBook,
}

impl Verifier {
    /// Models that share a base URL share its limits (the first configuration's).
    pub fn new(
        net: &Net,
        config: VerifyConfig,
        sources: Option<Sources>,
        cache: Option<Cache>,
    ) -> Result<Verifier, VerifyError> {
        let usage = UsageTracker::new();
        let modes = ModeBook::new(cache.clone());
        let mut limiters: HashMap<String, Limiter> = HashMap::new();
        let mut client = |c: &ModelConfig| {
            let limiter = limiters
                .entry(c.base_url.clone())
                .or_insert_with(|| Limiter::new(c.limits.clone()))
                .clone();
            LlmClient::new(net, c.clone(), limiter, usage.clone())
                .map(|client| client.with_modes(modes.clone()))
        };
        let stage1 = client(&config.stage1)?;
        let stage2 = client(config.stage2.as_ref().unwrap_or(&config.stage1))?;
        let embedder = config.embeddings.as_ref().map(&mut client).transpose()?;
        let fetcher = FullTextFetcher::new(config.fulltext.clone())?;
        Ok(Verifier {
            config,
            stage1,
            stage2,
            embedder,
            fetcher,
            sources,
            cache,
            usage,
            modes,
        })
    }

    /// Requests and tokens so far, and the structured-output form of each model.
    pub fn usage(&self) -> UsageSummary {
        let mut summary = self.usage.summary();
        summary.notes = self
            .modes
            .reports()
            .iter()
            .map(ToString::to_string)
            .collect();
        summary
    }

    pub fn stage1(&self) -> &LlmClient {
        &self.stage1
    }

    /// The cache key: claim (whitespace collapsed), the work's identity, the models,
    /// the passage settings and the prompt version.
    pub fn cache_key(&self, request: &VerifyRequest<'_>) -> String {
        let w = request.work;
        let claim = request
            .claim
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let identity = json!([
            w.doi,
            w.arxiv,
            w.pmid,
            w.pmcid,
            w.title.to_lowercase(),
            w.year
        ]);
        let p = &self.config.passages;
        let material = json!({
            "claim": claim,
            "work": identity,
            "url": request.citation_url,
            "stage1": [self.stage1.config().base_url, self.stage1.model()],
            "stage2": [self.stage2.config().base_url, self.stage2.model()],
            "embeddings": self.embedder.as_ref().map(|e| e.model().to_string()),
            "ranker": self.config.ranker.describe(),
            "passages": [p.size, p.overlap, p.top],
            "full_text": self.config.full_text,
            "escalate_below": self.config.escalate_below_confidence,
            "prompt": PROMPT_VERSION,
        });
        digest_key(&material)
    }

    /// Verify several pairs, at most `parallel` at once; verdicts in request order.
    pub async fn verify_all(&self, requests: &[VerifyRequest<'_>]) -> Vec<Verdict> {
        futures::stream::iter(requests.iter().map(|r| self.verify(r)))
            .buffered(self.config.parallel.max(1))
            .collect()
            .await
    }

    /// Verify one claim against one cited work.
    pub async fn verify(&self, request: &VerifyRequest<'_>) -> Verdict {
        let key = self.cache_key(request);
        if let Some(verdict) = cached_verdict(self.cache.as_ref(), &key).await {
            self.usage.record_cache_hit();
            return verdict;
        }
        let (verdict, transient) = self.run(request).await;
        let keep = match verdict.unverifiable {
            _ if transient => None,
            Some(Unverifiable::ModelFailure | Unverifiable::RateLimited) => None,
            // Kept for the shorter, not-found lifetime (a day by default).
            Some(Unverifiable::InvalidOutput) => Some(false),
            _ => Some(true),
        };
        if let (Some(cache), Some(long)) = (&self.cache, keep)
            && let Ok(value) = serde_json::to_value(&verdict)
        {
            // A cache that cannot be written only costs a later rerun.
            let _ = cache
                .put_many_async(VERDICT_NAMESPACE, vec![(key, long, value)])
                .await;
        }
        verdict
    }

    /// The verdict, and whether it rests on a failure that may not recur (a source
    /// or a download that failed), which keeps it out of the cache.
    async fn run(&self, request: &VerifyRequest<'_>) -> (Verdict, bool) {
        let mut ev = Evidence::new(request.work);
        if let Some(sources) = &self.sources {
            ev.find_abstract(sources).await;
        }
        let mut notes: Vec<String> = Vec::new();
        let abstract_text = ev.abstract_text.clone();
        let mut first: Option<Verdict> = None;
        if let Some((text, from)) = &abstract_text {
            notes.push(format!("abstract from {from}"));
            let messages = abstract_messages(request.claim, text);
            let retries = self.config.max_invalid_retries;
            let verdict = match ask(&self.stage1, messages, retries).await {
                Asked::Failed(why, detail) => {
                    let mut v = Verdict::unverifiable(Stage::Abstract, why, &detail);
                    v.model = Some(self.stage1.model().to_string());
                    v.notes = notes;
                    return (v, false);
                }
                Asked::Answer(answer) => checked(
                    answer,
                    &[text.as_str()],
                    "the abstract",
                    self.stage1.model(),
                ),
            };
            if !self.should_escalate(&verdict) {
                let mut v = verdict;
                v.notes = notes;
                return (v, false);
            }
            first = Some(verdict);
        } else {
            notes.push("no abstract found".to_string());
        }
        notes.extend(ev.failures.iter().map(|f| format!("source failed: {f}")));
        if !self.config.full_text {
            return self.without_full_text(first, notes, !ev.failures.is_empty());
        }
        let (search, transient) = search_full_text(
            &self.fetcher,
            &mut ev,
            self.sources.as_ref(),
            request.citation_url,
            &mut notes,
        )
        .await;
        let Some(full) = search.found else {
            notes.push("no acceptable full text".to_string());
            return self.without_full_text(first, notes, transient);
        };
        let abstract_only = abstract_text.as_ref().map(|(t, _)| t.as_str());
        match self
            .stage_two(request.claim, &full, abstract_only, &mut notes)
            .await
        {
            // Stage 2 failed after a low-confidence SUPPORTS / CONTRADICTS: that answer
            // stands, but a rerun may do better, so it is not cached.
            Some(v)
                if v.label == Label::Unverifiable
                    && first
                        .as_ref()
                        .is_some_and(|f| f.label != Label::NotEnoughInfo) =>
            {
                notes.push(format!("stage 2 failed: {}", v.rationale));
                self.without_full_text(first, notes, true)
            }
            Some(mut v) => {
                v.notes = notes;
                (v, transient)
            }
            None => self.without_full_text(first, notes, transient),
        }
    }

    fn should_escalate(&self, v: &Verdict) -> bool {
        match v.label {
            Label::NotEnoughInfo => true,
            Label::Supports | Label::Contradicts => self
                .config
                .escalate_below_confidence
                .is_some_and(|bar| v.confidence.is_some_and(|c| c < bar)),
            Label::Unverifiable => false,
        }
    }

    /// The outcome when the full text was not used: the abstract verdict, or "could not
    /// be verified" when there was none.
    fn without_full_text(
        &self,
        first: Option<Verdict>,
        notes: Vec<String>,
        transient: bool,
    ) -> (Verdict, bool) {
        let mut v = first.unwrap_or_else(|| {
            Verdict::unverifiable(Stage::Abstract, Unverifiable::NoEvidence, "")
        });
        v.notes = notes;
        (v, transient)
    }

    /// Stage 2 on the best passages; `None` when the text yields no passage.
    async fn stage_two(
        &self,
        claim: &str,
        full: &FullText,
        abstract_text: Option<&str>,
        notes: &mut Vec<String>,
    ) -> Option<Verdict> {
        let settings = &self.config.passages;
        let chunks = select::chunks(&full.doc, settings);
        let (best, how) = select::best_passages(
            claim,
            chunks,
            settings.top,
            self.embedder.as_ref(),
            &self.config.ranker,
        )
        .await;
        if best.is_empty() {
            notes.push("the full text gave no passages".to_string());
            return None;
        }
        notes.push(match how {
            RankedBy::Local(how) => format!("{} passages ranked by {how}", best.len()),
            RankedBy::Embeddings(m) => {
                format!("{} passages ranked by embeddings ({m})", best.len())
            }
            RankedBy::Fallback(e) => format!(
                "embeddings failed ({e}); ranked by {}",
                self.config.ranker.describe()
            ),
        });
        let blocks: Vec<(Option<&str>, &str)> = best
            .iter()
            .map(|p| (p.section.as_deref(), p.text.as_str()))
            .collect();
        let messages = passage_messages(claim, &blocks, abstract_text);
        let retries = self.config.max_invalid_retries;
        let answer = match ask(&self.stage2, messages, retries).await {
            Asked::Answer(a) => a,
            Asked::Failed(why, detail) => {
                let mut v = Verdict::unverifiable(Stage::FullText, why, &detail);
                v.model = Some(self.stage2.model().to_string());
                return Some(v);
            }
        };
        let mut evidence: Vec<&str> = best.iter().map(|p| p.text.as_str()).collect();
        evidence.extend(abstract_text);
        let quote = answer.evidence.clone();
        let mut v = checked(answer, &evidence, "the passages", self.stage2.model());
        v.stage = Stage::FullText;
        let decisive = quote
            .as_deref()
            .and_then(|q| best.iter().find(|p| quote_occurs(q, &[p.text.as_str()])))
            .unwrap_or(&best[0]);
        v.passage = Some(passage_ref(full, decisive));
        Some(v)
    }
}

/// Where a judged passage came from, for the verdict.
pub(super) fn passage_ref(full: &FullText, p: &Passage) -> PassageRef {
    PassageRef {
        source: full.url.clone(),
        origin: full.origin.clone(),
        format: full.format,
        section: p.section.clone(),
        offset: p.offset,
        text: p.text.clone(),
    }
}

/// A verdict found in the cache, a short-lived one (an unreadable answer) included.
async fn cached_verdict(cache: Option<&Cache>, key: &str) -> Option<Verdict> {
    let entry = cache?.get_async(VERDICT_NAMESPACE, key).await.ok()??;
    serde_json::from_value(entry.value).ok()
}

/// Look for the cited work's full text, noting every attempt in `notes`; also whether
/// a source or a download failed in a way that may not recur (then the verdict is
/// not cached).
pub(super) async fn search_full_text(
    fetcher: &FullTextFetcher,
    ev: &mut Evidence,
    sources: Option<&Sources>,
    citation_url: Option<&str>,
    notes: &mut Vec<String>,
) -> (Search, bool) {
    let search = fetcher.find(ev, sources, citation_url).await;
    let transient = !ev.failures.is_empty() || has_transient_failure(&search);
    notes.extend(search.attempts.iter().map(|a| match &a.outcome {
        Ok(()) => format!(
            "full text from {} ({})",
            a.candidate.url, a.candidate.origin
        ),
        Err(r) => format!("{} ({}): {r}", a.candidate.url, a.candidate.origin),
    }));
    (search, transient)
}

/// A download that failed in a way that may not recur (transport, 429, 5xx).
fn has_transient_failure(search: &Search) -> bool {
    search.attempts.iter().any(|a| {
        matches!(
            &a.outcome,
            Err(Rejection::Download(_)) | Err(Rejection::Status(429 | 500..=599))
        )
    })
}
