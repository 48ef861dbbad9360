//! One entry point for both verification paths: the LLM path ([`Verifier`]) when a
//! model is configured, the embedded backend ([`OfflineVerifier`]) otherwise; what
//! either concludes ([`Judgement`]) in one shape for the `verify` command, and as a
//! diagnostic (CP301–CP305) for `check --verify`.

use std::path::PathBuf;
use std::sync::Arc;

use super::escalate::{Verifier, VerifyConfig, VerifyError, VerifyRequest};
use super::fulltext::FullTextConfig;
use super::hybrid::{Scorer, ScoringMode};
use super::offline::{OfflineConfig, OfflineVerdict, OfflineVerifier};
use super::select::{PassageSettings, Ranker};
use super::sentence_model::{SentenceModel, SentenceModelError};
use super::usage::UsageSummary;
use super::verdict::{PassageRef, Stage, Verdict};
use crate::cache::Cache;
use crate::net::{Net, NetError};
use crate::resolve::sources::Sources;

/// How verification is set up (from flags, environment and, later, the config file).
#[derive(Debug, Clone)]
pub struct VerifySettings {
    /// The LLM path, when a model is configured.
    pub llm: Option<VerifyConfig>,
    /// A local sentence-embedding model directory: the configured one, else the one
    /// found in [`VerifySettings::standard_model_dir`].
    pub embedding_model: Option<PathBuf>,
    /// `embedding_model` was found in the standard place rather than configured (a
    /// model there that cannot be loaded is then skipped with a note, not an error).
    pub embedding_model_found: bool,
    /// The standard place of the model (`<cache dir>/models/all-minilm-l6-v2`).
    pub standard_model_dir: Option<PathBuf>,
    /// The embedded backend's scoring mode (default: hybrid with a model, lexical without).
    pub scoring: Option<ScoringMode>,
    /// Escalate to the full text.
    pub full_text: bool,
    pub fulltext: FullTextConfig,
    pub passages: PassageSettings,
    /// Verifications in flight at once.
    pub parallel: usize,
}

impl VerifySettings {
    pub fn new(fulltext: FullTextConfig) -> VerifySettings {
        VerifySettings {
            llm: None,
            embedding_model: None,
            embedding_model_found: false,
            standard_model_dir: None,
            scoring: None,
            full_text: true,
            fulltext,
            passages: PassageSettings::default(),
            parallel: 4,
        }
    }
}

/// Why verification could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    #[error(transparent)]
    Llm(#[from] VerifyError),
    #[error(transparent)]
    Model(#[from] SentenceModelError),
    #[error("full-text client: {0}")]
    Net(#[from] NetError),
    #[error("scoring mode {0} needs an embedding model (--embedding-model DIR)")]
    NeedsModel(&'static str),
}

/// A ready verification path.
#[derive(Debug)]
pub enum Backend {
    Llm(Box<Verifier>),
    Embedded(Box<OfflineVerifier>),
}

/// What one verification concluded.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    Llm(Verdict),
    Embedded(OfflineVerdict),
}

impl Backend {
    /// Build the backend the settings ask for: the LLM path when a model is configured,
    /// else the embedded backend (loading the sentence model when one is named).
    pub fn build(
        net: &Net,
        settings: &VerifySettings,
        sources: Option<Sources>,
        cache: Option<Cache>,
    ) -> Result<Backend, BackendError> {
        let mut notes = Vec::new();
        let model = match &settings.embedding_model {
            Some(dir) if settings.embedding_model_found => match SentenceModel::load(dir) {
                Ok(m) => Some(Arc::new(m)),
                Err(e) => {
                    notes.push(format!(
                        "the sentence-embedding model found is not used: {e}"
                    ));
                    None
                }
            },
            Some(dir) => Some(Arc::new(SentenceModel::load(dir)?)),
            None => {
                if let Some(place) = &settings.standard_model_dir {
                    notes.push(format!(
                        "no sentence-embedding model in {} (scripts/fetch-embedding-model.sh \
                         puts all-MiniLM-L6-v2 there; or --embedding-model DIR)",
                        place.display()
                    ));
                }
                None
            }
        };
        let ranker = Ranker::for_model(model.clone());
        if let Some(llm) = &settings.llm {
            let mut config = llm.clone();
            config.full_text = settings.full_text;
            config.fulltext = settings.fulltext.clone();
            config.passages = settings.passages;
            config.parallel = settings.parallel;
            config.ranker = ranker;
            let verifier = Verifier::new(net, config, sources, cache)?;
            return Ok(Backend::Llm(Box::new(verifier)));
        }
        let scorer = match (settings.scoring, model) {
            (None, m) => Scorer::for_model(m),
            (Some(ScoringMode::Lexical), _) => Scorer::lexical(),
            (Some(mode), Some(m)) => Scorer::with_model(m, mode),
            (Some(mode), None) => return Err(BackendError::NeedsModel(mode.as_str())),
        };
        let mut config = OfflineConfig::new(scorer, ranker, settings.fulltext.clone());
        config.notes = notes;
        config.full_text = settings.full_text;
        config.passages = settings.passages;
        config.parallel = settings.parallel;
        let verifier = OfflineVerifier::new(config, sources, cache)?;
        Ok(Backend::Embedded(Box::new(verifier)))
    }

    /// `llm` or `embedded`.
    pub fn kind(&self) -> &'static str {
        match self {
            Backend::Llm(_) => "llm",
            Backend::Embedded(_) => "embedded",
        }
    }

    /// Verify several pairs; judgements in request order.
    pub async fn verify_all(&self, requests: &[VerifyRequest<'_>]) -> Vec<Judgement> {
        match self {
            Backend::Llm(v) => v
                .verify_all(requests)
                .await
                .into_iter()
                .map(Judgement::Llm)
                .collect(),
            Backend::Embedded(v) => v
                .verify_all(requests)
                .await
                .into_iter()
                .map(Judgement::Embedded)
                .collect(),
        }
    }

    /// Model usage so far and what the reader should be told about the set-up (the
    /// structured output each model server accepted; the embedded backend's scoring).
    pub fn usage(&self) -> Option<UsageSummary> {
        match self {
            Backend::Llm(v) => Some(v.usage()),
            Backend::Embedded(v) => Some(UsageSummary {
                notes: v.describe(),
                ..UsageSummary::default()
            }),
        }
    }
}

impl Judgement {
    /// `SUPPORTS` / `CONTRADICTS` / `NOT_ENOUGH_INFO` / `UNVERIFIABLE` (LLM) or
    /// `related` / `unrelated` / `uncertain` (embedded).
    pub fn label(&self) -> &'static str {
        match self {
            Judgement::Llm(v) => v.label.as_str(),
            Judgement::Embedded(v) => v.relation.as_str(),
        }
    }

    pub fn stage(&self) -> Stage {
        match self {
            Judgement::Llm(v) => v.stage,
            Judgement::Embedded(v) => v.stage,
        }
    }

    pub fn rationale(&self) -> &str {
        match self {
            Judgement::Llm(v) => &v.rationale,
            Judgement::Embedded(v) => &v.rationale,
        }
    }

    pub fn evidence(&self) -> Option<&str> {
        match self {
            Judgement::Llm(v) => v.evidence.as_deref(),
            Judgement::Embedded(v) => v.evidence.as_deref(),
        }
    }

    pub fn passage(&self) -> Option<&PassageRef> {
        match self {
            Judgement::Llm(v) => v.passage.as_ref(),
            Judgement::Embedded(v) => v.passage.as_ref(),
        }
    }

    pub fn model(&self) -> Option<&str> {
        match self {
            Judgement::Llm(v) => v.model.as_deref(),
            Judgement::Embedded(v) => Some(&v.model),
        }
    }

    pub fn notes(&self) -> &[String] {
        match self {
            Judgement::Llm(v) => &v.notes,
            Judgement::Embedded(v) => &v.notes,
        }
    }
}
