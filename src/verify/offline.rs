//! The embedded backend as a verification path (no model server): the abstract is
//! judged first ([`Scorer`]); when it does not show the work plainly about the claim,
//! the full text is fetched like the LLM path does, its passages ranked for the claim
//! ([`Ranker`]) and the best ones judged in its place.
//!
//! On the abstract, the claim is also compared with the document's other cited works
//! (the request's rivals, by their titles and abstracts): the shared judge weighs the
//! cited work against the best of them, as `clean` does. The full text is judged alone
//! (rivals' full texts are not fetched); it overrules a rival's mismatch only when it
//! plainly supports the claim.
//!
//! It says only what it can honestly judge: `unrelated`, `related` or `uncertain`
//! ([`Relation`]). No evidence at all is `uncertain` with the reason, never an
//! accusation. Verdicts are cached (namespace `verdict-embedded`) unless they rest on a
//! failure that may not recur.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Relation;
use super::cached::{cached, digest_key, store};
use super::embedded::Assessment;
use super::escalate::{passage_ref, search_full_text};
use super::evidence::Evidence;
use super::fulltext::{FullText, FullTextConfig, FullTextFetcher};
use super::hybrid::Scorer;
use super::select::{self, PassageSettings, Ranker};
use super::verdict::{PassageRef, Stage, Unverifiable, unverifiable_rationale};
use crate::cache::Cache;
use crate::net::NetError;
use crate::resolve::sources::Sources;
use crate::verify::escalate::{Rival, VerifyRequest};
use crate::verify::judge::specific::SpecificCheck;
use crate::verify::judge::{Candidate, Judge, RivalEvidence};

/// Cache namespace of embedded-backend verdicts.
pub const NAMESPACE: &str = "verdict-embedded";
/// Bumped when scoring or escalation changes what a cached verdict would say.
const VERSION: u32 = 3;
/// Rivals' abstracts kept per verifier before the memo is emptied (a long-running
/// language server must not grow without bound).
const RIVAL_MEMO: usize = 10_000;

/// Settings of the embedded path.
#[derive(Debug, Clone)]
pub struct OfflineConfig {
    pub scorer: Scorer,
    pub ranker: Ranker,
    /// Fetch the full text when the abstract does not settle it.
    pub full_text: bool,
    pub fulltext: FullTextConfig,
    pub passages: PassageSettings,
    /// Verifications in flight at once in [`OfflineVerifier::verify_all`].
    pub parallel: usize,
    /// What the reader should be told about this set-up (a model found but unusable).
    pub notes: Vec<String>,
}

impl OfflineConfig {
    pub fn new(scorer: Scorer, ranker: Ranker, fulltext: FullTextConfig) -> OfflineConfig {
        OfflineConfig {
            scorer,
            ranker,
            full_text: true,
            fulltext,
            passages: PassageSettings::default(),
            parallel: 4,
            notes: Vec::new(),
        }
    }
}

/// What the embedded backend concluded about one claim–work pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OfflineVerdict {
    pub relation: Relation,
    pub stage: Stage,
    /// Calibrated score in [0, 1] (none when there was nothing to judge).
    pub score: Option<f64>,
    pub rationale: String,
    /// The evidence sentence closest to the claim.
    pub evidence: Option<String>,
    pub passage: Option<PassageRef>,
    /// `embedded-lexical`, or the sentence model's name.
    pub model: String,
    /// Set when no judgement could be made.
    pub unverifiable: Option<Unverifiable>,
    /// The claim's specific terms (numbers, entities, rare terms) the judged evidence
    /// holds and lacks (the shared judge's check, [`crate::verify::judge::specific`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specific: Option<SpecificCheck>,
    /// Another work the document cites that holds the claim better than the cited one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rival: Option<RivalEvidence>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The embedded verification path. Cheap to share behind a reference.
#[derive(Debug)]
pub struct OfflineVerifier {
    config: OfflineConfig,
    fetcher: FullTextFetcher,
    sources: Option<Sources>,
    cache: Option<Cache>,
    /// Rivals' abstracts by [`work_identity`], each looked up once.
    rival_abstracts: Mutex<HashMap<String, String>>,
}

impl OfflineVerifier {
    pub fn new(
        config: OfflineConfig,
        sources: Option<Sources>,
        cache: Option<Cache>,
    ) -> Result<OfflineVerifier, NetError> {
        let fetcher = FullTextFetcher::new(config.fulltext.clone())?;
        Ok(OfflineVerifier {
            config,
            fetcher,
            sources,
            cache,
            rival_abstracts: Mutex::new(HashMap::new()),
        })
    }

    /// The model name verdicts carry.
    pub fn model_name(&self) -> String {
        self.config.scorer.name()
    }

    /// How this backend scores, in words, with the set-up notes: "embedded backend,
    /// lexical scoring" or "embedded backend, hybrid scoring with the sentence model
    /// in DIR".
    pub fn describe(&self) -> Vec<String> {
        let scorer = &self.config.scorer;
        let mut out = vec![match scorer.model() {
            Some(m) => format!(
                "verification: embedded backend, {} scoring with the sentence model in {}",
                scorer.mode().as_str(),
                m.dir().display()
            ),
            None => "verification: embedded backend, lexical scoring (no sentence-embedding \
                     model in use)"
                .to_string(),
        }];
        out.extend(self.config.notes.iter().cloned());
        out
    }

    /// The cache key: claim, work identity, scorer, ranker, passage settings.
    pub fn cache_key(&self, request: &VerifyRequest<'_>) -> String {
        let w = request.work;
        let claim = request
            .claim
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let p = &self.config.passages;
        let material = json!({
            "claim": claim,
            "work": [w.doi, w.arxiv, w.pmid, w.pmcid, w.title.to_lowercase(), w.year,
                     w.abstract_text.as_ref().map(|a| a.len())],
            "url": request.citation_url,
            "rivals": request.rivals.iter().map(|r| (r.name, work_identity(r.work))).collect::<Vec<_>>(),
            "scorer": [self.config.scorer.name(), self.config.scorer.mode().as_str()],
            "ranker": self.config.ranker.describe(),
            "passages": [p.size, p.overlap, p.top],
            "full_text": self.config.full_text,
            "version": VERSION,
        });
        digest_key(&material)
    }

    /// Verify several pairs, at most `parallel` at once; verdicts in request order.
    pub async fn verify_all(&self, requests: &[VerifyRequest<'_>]) -> Vec<OfflineVerdict> {
        use futures::StreamExt;
        futures::stream::iter(requests.iter().map(|r| self.verify(r)))
            .buffered(self.config.parallel.max(1))
            .collect()
            .await
    }

    /// Verify one claim against one cited work.
    pub async fn verify(&self, request: &VerifyRequest<'_>) -> OfflineVerdict {
        let key = self.cache_key(request);
        if let Some(verdict) = cached(self.cache.as_ref(), NAMESPACE, &key).await {
            return verdict;
        }
        let (verdict, transient) = self.run(request).await;
        if !transient {
            store(self.cache.as_ref(), NAMESPACE, key, &verdict).await;
        }
        verdict
    }

    /// The verdict, and whether it rests on a failure that may not recur.
    async fn run(&self, request: &VerifyRequest<'_>) -> (OfflineVerdict, bool) {
        let mut ev = Evidence::new(request.work);
        if let Some(sources) = &self.sources {
            ev.find_abstract(sources).await;
        }
        let mut notes: Vec<String> = Vec::new();
        let mut first: Option<OfflineVerdict> = None;
        if let Some((text, from)) = ev.abstract_text.clone() {
            notes.push(format!("abstract from {from}"));
            let title = request.work.title.trim();
            let evidence: Vec<&str> = [title, text.as_str()]
                .into_iter()
                .filter(|t| !t.is_empty())
                .collect();
            let abstracts = self.rival_abstracts(request.rivals).await;
            let rivals: Vec<Candidate> = request
                .rivals
                .iter()
                .zip(&abstracts)
                .map(|(rival, abstract_text)| Candidate {
                    name: rival.name.to_string(),
                    title: &rival.work.title,
                    abstract_text,
                })
                .collect();
            if !rivals.is_empty() {
                notes.push(format!("compared with {} other cited works", rivals.len()));
            }
            let verdict = self
                .config
                .scorer
                .assess(request.claim, &evidence)
                .and_then(|a| {
                    self.judged(
                        a,
                        (request.claim, &evidence, &rivals),
                        Stage::Abstract,
                        "the abstract",
                        None,
                    )
                });
            let verdict = match verdict {
                Ok(v) => v,
                Err(e) => return (self.failed(Stage::Abstract, &e.to_string(), notes), false),
            };
            if verdict.relation == Relation::Related || !self.config.full_text {
                return (with_notes(verdict, notes), !ev.failures.is_empty());
            }
            first = Some(verdict);
        } else {
            notes.push("no abstract found".to_string());
        }
        notes.extend(ev.failures.iter().map(|f| format!("source failed: {f}")));
        if !self.config.full_text {
            return (self.no_evidence(notes), !ev.failures.is_empty());
        }
        let (search, transient) = search_full_text(
            &self.fetcher,
            &mut ev,
            self.sources.as_ref(),
            request.citation_url,
            &mut notes,
        )
        .await;
        let verdict = match &search.found {
            Some(full) => self.on_full_text(request.claim, full, &mut notes).await,
            None => {
                notes.push("no acceptable full text".to_string());
                None
            }
        };
        let verdict = match (verdict, first) {
            // A rival holds the claim better and the full text does not plainly
            // support it: the rival's evidence stands.
            (Some(full), Some(first))
                if full.relation != Relation::Related && first.rival.is_some() =>
            {
                first
            }
            (full, first) => full
                .or(first)
                .unwrap_or_else(|| self.no_evidence(Vec::new())),
        };
        (with_notes(verdict, notes), transient)
    }

    /// Judge the best passages of an accepted full text; `None` when it has none.
    async fn on_full_text(
        &self,
        claim: &str,
        full: &FullText,
        notes: &mut Vec<String>,
    ) -> Option<OfflineVerdict> {
        let settings = &self.config.passages;
        let chunks = select::chunks(&full.doc, settings);
        let (best, _) =
            select::best_passages(claim, chunks, settings.top, None, &self.config.ranker).await;
        if best.is_empty() {
            notes.push("the full text gave no passages".to_string());
            return None;
        }
        notes.push(format!(
            "{} passages ranked by {}",
            best.len(),
            self.config.ranker.describe()
        ));
        let texts: Vec<&str> = best.iter().map(|p| p.text.as_str()).collect();
        let assessment = match self.config.scorer.assess(claim, &texts) {
            Ok(a) => a,
            Err(e) => return Some(self.failed(Stage::FullText, &e.to_string(), Vec::new())),
        };
        let decisive = assessment
            .best
            .as_ref()
            .and_then(|b| best.get(b.passage))
            .unwrap_or(&best[0]);
        let passage = passage_ref(full, decisive);
        let judged = self.judged(
            assessment,
            (claim, &texts, &[]),
            Stage::FullText,
            "the most relevant passages of the full text",
            Some(passage),
        );
        Some(judged.unwrap_or_else(|e| self.failed(Stage::FullText, &e.to_string(), Vec::new())))
    }

    /// The verdict on an assessment of `judged` (the claim, the evidence texts and
    /// the rivals): the shared judge's call, with the claim's specific content it
    /// found and missed and the rival that holds the claim better, if one does.
    fn judged(
        &self,
        a: Assessment,
        judged: (&str, &[&str], &[Candidate]),
        stage: Stage,
        what: &str,
        passage: Option<PassageRef>,
    ) -> Result<OfflineVerdict, crate::verify::sentence_model::SentenceModelError> {
        let (claim, texts, rivals) = judged;
        let negation_mismatch = a.negation_mismatch;
        let evidence = a.best.as_ref().map(|b| b.text.clone());
        let judge = Judge::new(self.config.scorer.clone());
        let Some(j) = judge.judge_assessed_among(claim, a, texts, rivals)? else {
            return Ok(OfflineVerdict {
                relation: Relation::Uncertain,
                stage,
                score: None,
                rationale: format!("{what} and the claim share no content to compare"),
                evidence,
                passage,
                model: self.model_name(),
                unverifiable: None,
                specific: None,
                rival: None,
                notes: Vec::new(),
            });
        };
        let relation = j.call.relation();
        // The scorer's score, on the scale the verify documentation's thresholds use.
        let score = j.evidence.score;
        let rival = j.evidence.rival.clone();
        let rationale = match (relation, &rival) {
            (Relation::Unrelated, Some(r)) => format!(
                "{what} appears to be about something else (score {score:.2}); the document \
                 cites `{}` (\"{}\"), which holds the claim better (score {:.2})",
                r.name, r.title, r.score
            ),
            (Relation::Unrelated, None) => {
                format!("{what} appears to be about something else (score {score:.2})")
            }
            (Relation::Related, _) => {
                format!("{what} is plainly about the claim (score {score:.2})")
            }
            (Relation::Uncertain, _) if negation_mismatch => format!(
                "{what} is on the claim's topic but the closest sentence differs in negation \
                 (score {score:.2})"
            ),
            (Relation::Uncertain, _) => format!(
                "{what} neither plainly bears on the claim nor is clearly about something \
                 else (score {score:.2})"
            ),
        };
        Ok(OfflineVerdict {
            relation,
            stage,
            score: Some(score),
            rationale,
            evidence,
            passage,
            model: self.model_name(),
            unverifiable: None,
            specific: j.signals.has_specific.then_some(SpecificCheck {
                found: j.evidence.found,
                missing: j.evidence.missing,
                missing_share: j.signals.missing,
            }),
            // Only a mismatch rests on its rival; otherwise the rival is no finding.
            rival: rival.filter(|_| relation == Relation::Unrelated),
            notes: Vec::new(),
        })
    }

    /// Each rival's abstract (the record's, else one other sources give, looked up
    /// once per verifier); empty where none is known.
    async fn rival_abstracts(&self, rivals: &[Rival<'_>]) -> Vec<String> {
        let mut out = Vec::with_capacity(rivals.len());
        for rival in rivals {
            let key = work_identity(rival.work);
            let known = self.memo().get(&key).cloned();
            let text = match known {
                Some(text) => text,
                None => {
                    let mut ev = Evidence::new(rival.work);
                    if let Some(sources) = &self.sources {
                        ev.find_abstract(sources).await;
                    }
                    let text = ev.abstract_text.map(|(t, _)| t).unwrap_or_default();
                    // A lookup that failed may succeed later: remember only answers.
                    if ev.failures.is_empty() {
                        let mut memo = self.memo();
                        if memo.len() >= RIVAL_MEMO {
                            memo.clear();
                        }
                        memo.insert(key, text.clone());
                    }
                    text
                }
            };
            out.push(text);
        }
        out
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.rival_abstracts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn failed(&self, stage: Stage, detail: &str, notes: Vec<String>) -> OfflineVerdict {
        OfflineVerdict {
            relation: Relation::Uncertain,
            stage,
            score: None,
            rationale: unverifiable_rationale(&format!("the sentence model failed ({detail})")),
            evidence: None,
            passage: None,
            model: self.model_name(),
            unverifiable: Some(Unverifiable::ModelFailure),
            specific: None,
            rival: None,
            notes,
        }
    }

    fn no_evidence(&self, notes: Vec<String>) -> OfflineVerdict {
        let why = Unverifiable::NoEvidence;
        OfflineVerdict {
            relation: Relation::Uncertain,
            stage: Stage::Abstract,
            score: None,
            rationale: unverifiable_rationale(why.describe()),
            evidence: None,
            passage: None,
            model: self.model_name(),
            unverifiable: Some(why),
            specific: None,
            rival: None,
            notes,
        }
    }
}

fn with_notes(mut v: OfflineVerdict, notes: Vec<String>) -> OfflineVerdict {
    v.notes = notes;
    v
}

/// A work's identity for the rivals' memo and the cache key: its identifiers, title
/// and year.
fn work_identity(w: &crate::model::Work) -> String {
    json!([w.doi, w.arxiv, w.pmid, w.title.to_lowercase(), w.year]).to_string()
}
