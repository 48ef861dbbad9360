//! From the merged configuration to the settings of the network stages: source
//! clients ([`SourcesSettings`]), the title gate ([`GateThresholds`]), a whole
//! resolution run ([`ResolveOptions`]: offline, corpora, cache, search order) and
//! verification ([`VerifySettings`], with the model's [`VerifyConfig`]).
//!
//! `check`, `resolve` and `verify` all build their settings here, so a key set in a
//! file, the environment or on the command line means the same to each.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::Resolved;
use super::file::{SourceSection, SourcesSection};
use super::origin::Origin;
use crate::cache::{Cache, CacheConfig, system_clock};
use crate::read::fetch::{DEFAULT_OPENREVIEW_WEB, FetchSettings};
use crate::resolve::corpus::Corpus;
use crate::resolve::gate::GateThresholds;
use crate::resolve::options::{ResolveOptions, SourcePlan};
use crate::resolve::sources::{SourceName, SourcesSettings};
use crate::verify::backend::VerifySettings;
use crate::verify::escalate::VerifyConfig;
use crate::verify::fulltext::{DEFAULT_ARXIV_WEB, FullTextConfig};
use crate::verify::llm::ModelConfig;
use crate::verify::select::PassageSettings;
use crate::verify::sentence_model;

/// Resolution options and what the reader should be told about them (a corpus
/// record that could not be read, a cache that had to be recreated or is missing).
#[derive(Debug)]
pub struct ResolveSetup {
    pub options: ResolveOptions,
    pub warnings: Vec<String>,
}

impl Resolved {
    /// Whether `check` resolves cited works (`[resolve] enabled`, `--no-resolve`).
    pub fn resolve_enabled(&self) -> bool {
        self.resolve_section().enabled.unwrap_or(true)
    }

    /// Whether `check` verifies claims (`[verify] enabled`, `--verify`).
    pub fn verify_enabled(&self) -> bool {
        self.verify_section().enabled.unwrap_or(false)
    }

    /// Where a path-valued key points: relative to the folder of the file that set
    /// it, or to the current folder when the environment or a flag set it.
    pub fn path_value(&self, key: &str, value: &str) -> PathBuf {
        let path = PathBuf::from(value);
        // A database URL (`postgres://…` for the cache or the index) is no path.
        if path.is_absolute() || crate::storage::is_database_url(value) {
            return path;
        }
        match self.origin(key) {
            Some(Origin::File(file)) => file.parent().map(|p| p.join(&path)).unwrap_or(path),
            _ => std::env::current_dir()
                .map(|d| d.join(&path))
                .unwrap_or(path),
        }
    }

    /// The cache directory, `None` when the cache is off or the platform has none.
    pub fn cache_dir(&self) -> Option<PathBuf> {
        let cache = self.config.cache.clone().unwrap_or_default();
        if !cache.enabled.unwrap_or(true) {
            return None;
        }
        let dir = cache.dir.filter(|d| !d.trim().is_empty())?;
        Some(self.path_value("cache.dir", &dir))
    }

    /// How long a failed lookup is remembered (`cache.retry-failed-after`).
    pub fn failed_ttl(&self) -> Duration {
        let cache = self.config.cache.clone().unwrap_or_default();
        cache
            .retry_failed_after
            .map_or(crate::cache::DEFAULT_FAILED_TTL, |s| s.value)
    }

    /// The standard place of the sentence-embedding model,
    /// `<cache dir>/models/all-minilm-l6-v2` (whether or not the cache is enabled).
    pub fn standard_model_dir(&self) -> Option<PathBuf> {
        let dir = self.config.cache.clone().unwrap_or_default().dir;
        let dir = dir.filter(|d| !d.trim().is_empty())?;
        Some(sentence_model::standard_dir(
            &self.path_value("cache.dir", &dir),
        ))
    }

    /// The sentence-embedding model in use: the configured directory
    /// (`verify.local-embedding-model`), else the standard place when a model is
    /// there; and whether it was found there rather than configured.
    pub fn embedding_model(&self) -> Option<(PathBuf, bool)> {
        let configured = self.verify_section().local_embedding_model;
        if let Some(p) = configured.filter(|p| !p.trim().is_empty()) {
            return Some((self.path_value("verify.local-embedding-model", &p), false));
        }
        self.standard_model_dir()
            .filter(|d| sentence_model::is_model_dir(d))
            .map(|d| (d, true))
    }

    /// The local corpora, as paths.
    pub fn corpora(&self) -> Vec<PathBuf> {
        self.resolve_section()
            .corpora
            .unwrap_or_default()
            .iter()
            .map(|c| self.path_value("resolve.corpora", c))
            .collect()
    }

    pub fn gate_thresholds(&self) -> GateThresholds {
        let mut gate = GateThresholds::default();
        let resolve = self.resolve_section();
        if let Some(v) = resolve.title_similarity {
            gate.accept = v.0;
        }
        if let Some(v) = resolve.corroborated_title_similarity {
            gate.corroborated = v.0;
        }
        if let Some(v) = resolve.raw_max_missing_words {
            gate.raw_max_missing = v as usize;
        }
        gate
    }

    /// The settings of every source client. API keys are read from the environment
    /// variables the configuration names.
    pub fn sources_settings(&self) -> SourcesSettings {
        let mut settings = SourcesSettings::default();
        let sources = self.config.sources.clone().unwrap_or_default();
        for name in SourceName::ALL {
            let section = source_section(&sources, name).unwrap_or_default();
            let s = settings.get_mut(name);
            if let Some(url) = &section.url {
                s.base_url = url.value.clone();
            }
            let key_var = section
                .api_key_env
                .as_ref()
                .map(|v| v.value.clone())
                .unwrap_or_else(|| format!("CITEPROOF_{}_API_KEY", name.env_name()));
            s.api_key = self.env_value(&key_var);
            s.mailto = section
                .mailto
                .clone()
                .or_else(|| sources.mailto.clone())
                .filter(|m| !m.trim().is_empty());
            s.rate = section.rate_limit.as_ref().map(|r| r.value);
            s.max_concurrency = section.max_concurrency.map(|n| n.max(1) as usize);
            if let Some(timeout) = &section.timeout {
                s.timeout = timeout.value;
            }
            if let Some(retries) = section.retries {
                s.retry.max_retries = retries;
            }
            if let Some(failures) = section.breaker_failures {
                s.breaker.failures = failures;
            }
            if let Some(cooldown) = &section.breaker_cooldown {
                s.breaker.cooldown = cooldown.value;
            }
            s.enabled = !section.disabled.unwrap_or(false);
        }
        settings.web = self
            .env_value(crate::resolve::sources::WEB_URL_VAR)
            .or_else(|| {
                sources
                    .web
                    .as_ref()
                    .and_then(|w| w.url.as_ref())
                    .map(|u| u.value.clone())
            })
            .map(|v| v.trim_end_matches('/').to_string());
        settings
    }

    /// Where the user's Zotero listens and whether its features are on
    /// (`[sources.zotero]`, `CITEPROOF_ZOTERO_URL`, `CITEPROOF_ZOTERO`).
    pub fn zotero(&self) -> crate::zotero::ZoteroSettings {
        let section = self
            .config
            .sources
            .as_ref()
            .and_then(|s| s.zotero.clone())
            .unwrap_or_default();
        crate::zotero::ZoteroSettings {
            url: section
                .url
                .map(|u| u.value.trim_end_matches('/').to_string())
                .unwrap_or_else(|| crate::zotero::DEFAULT_URL.to_string()),
            enabled: section.enabled,
        }
    }

    /// Everything a resolution run needs: sources, search order, offline, corpora,
    /// cache and the gate. A corpus that cannot be read is an error; a cache that
    /// cannot be opened is a warning (a run without a cache is slower, not wrong).
    pub fn resolve_options(&self) -> anyhow::Result<ResolveSetup> {
        let resolve = self.resolve_section();
        let mut warnings = Vec::new();
        let corpora = self.corpora();
        let corpus = if corpora.is_empty() {
            None
        } else {
            let (corpus, more) = Corpus::load(&corpora)?;
            warnings.extend(more);
            Some(Arc::new(corpus))
        };
        let corpus_complete = resolve.corpus_complete.unwrap_or(false);
        if corpus_complete && corpus.is_none() {
            anyhow::bail!(
                "`resolve.corpus-complete` ({}) needs a corpus (`--corpus FILE` or \
                 `[resolve] corpora`)",
                self.origin("resolve.corpus-complete")
                    .map_or("default".to_string(), Origin::to_string)
            );
        }
        let index = match resolve.index.as_deref().filter(|i| !i.trim().is_empty()) {
            Some(dir) => Some(crate::index::open(&self.path_value("resolve.index", dir))?),
            None => None,
        };
        let index_complete = resolve.index_complete.unwrap_or(false);
        if index_complete && index.is_none() {
            anyhow::bail!(
                "`resolve.index-complete` ({}) needs an index (`--index DIR`, CITEPROOF_INDEX \
                 or `[resolve] index`)",
                self.origin("resolve.index-complete")
                    .map_or("default".to_string(), Origin::to_string)
            );
        }
        let cache_config = CacheConfig {
            failed_ttl: self.failed_ttl(),
            ..CacheConfig::default()
        };
        let cache = match self.cache_dir() {
            Some(dir) => match Cache::open_with(&dir, cache_config, system_clock()) {
                Ok(cache) => {
                    warnings.extend(cache.warnings().iter().cloned());
                    Some(cache)
                }
                Err(e) => {
                    warnings.push(format!("running without a cache: {e}"));
                    None
                }
            },
            None => None,
        };
        let mut plan = SourcePlan::default();
        if let Some(order) = &resolve.search_order {
            plan.search = order.value.0.clone();
        }
        Ok(ResolveSetup {
            options: ResolveOptions {
                sources: self.sources_settings(),
                plan,
                offline: resolve.offline.unwrap_or(false),
                corpus,
                corpus_complete,
                index,
                index_complete,
                cache,
                gate: self.gate_thresholds(),
                allow_private_urls: resolve.allow_private_urls.unwrap_or(false),
                ..ResolveOptions::default()
            },
            warnings,
        })
    }

    /// The model verification, when one is configured (`[verify] url` and `model`,
    /// or `CITEPROOF_LLM_URL` and `CITEPROOF_LLM_MODEL`).
    pub fn verify_config(&self) -> Option<VerifyConfig> {
        let v = self.verify_section();
        let url = v.url.as_ref()?.value.clone();
        let model_name = v.model.clone().filter(|m| !m.trim().is_empty())?;
        let model = |base: &str, name: &str| {
            let mut m = ModelConfig::new(base, name);
            if let Some(var) = &v.api_key_env {
                m.api_key_env = Some(var.value.clone());
            }
            if let Some(t) = &v.timeout {
                m.timeout = t.value;
            }
            if let Some(n) = v.max_tokens {
                m.max_tokens = n;
            }
            if v.max_requests_per_minute.is_some() || v.max_tokens_per_minute.is_some() {
                m.limits.window = Duration::from_secs(60);
                m.limits.max_requests = v.max_requests_per_minute;
                m.limits.max_tokens = v.max_tokens_per_minute;
            }
            if let Some(n) = v.max_concurrency {
                m.limits.max_concurrency = n.max(1) as usize;
            }
            m
        };
        let mut config = VerifyConfig::new(model(&url, &model_name));
        let stage2_url = v
            .stage2_url
            .as_ref()
            .map_or(url.clone(), |u| u.value.clone());
        config.stage2 = v
            .stage2_model
            .as_deref()
            .filter(|m| !m.trim().is_empty())
            .map(|m| model(&stage2_url, m));
        config.embeddings = v
            .embeddings_model
            .as_deref()
            .filter(|m| !m.trim().is_empty())
            .map(|m| model(&url, m));
        config.escalate_below_confidence = v.escalate_below_confidence.map(|f| f.0);
        if let Some(n) = v.max_invalid_retries {
            config.max_invalid_retries = n;
        }
        // Full text, passages and parallelism are shared with the embedded backend:
        // `verify_settings` carries them and `Backend::build` applies them.
        Some(config)
    }

    /// Verification settings: the model path when a model is configured (and the
    /// embedded backend is not asked for), the embedded backend otherwise. A server
    /// without a model, or a model without a server, is an error naming both keys.
    pub fn verify_settings(&self) -> anyhow::Result<VerifySettings> {
        let v = self.verify_section();
        let mut s = VerifySettings::new(self.fulltext_config());
        if let Some((dir, found)) = self.embedding_model() {
            s.embedding_model = Some(dir);
            s.embedding_model_found = found;
        }
        s.standard_model_dir = self.standard_model_dir();
        s.scoring = v.scoring.as_ref().map(|m| m.value);
        s.full_text = v.full_text.unwrap_or(true);
        s.passages = self.passage_settings()?;
        if let Some(n) = v.parallel {
            s.parallel = n.max(1) as usize;
        }
        if v.embedded.unwrap_or(false) {
            return Ok(s);
        }
        let named = |key: &str| {
            self.origin(key)
                .map_or("default".to_string(), Origin::to_string)
        };
        let has_model = v.model.as_deref().is_some_and(|m| !m.trim().is_empty());
        match (v.url.is_some(), has_model) {
            (true, false) => anyhow::bail!(
                "a model server is configured (`verify.url`, {}) but no model \
                 (`verify.model`, `--model` or CITEPROOF_LLM_MODEL)",
                named("verify.url")
            ),
            (false, true) => anyhow::bail!(
                "a model is named (`verify.model`, {}) but no server (`verify.url`, \
                 `--llm-url` or CITEPROOF_LLM_URL)",
                named("verify.model")
            ),
            _ => {}
        }
        s.llm = self.verify_config();
        Ok(s)
    }

    /// The full-text cascade: the configured sources and arXiv's web site.
    fn fulltext_config(&self) -> FullTextConfig {
        let v = self.verify_section();
        let arxiv_web = v
            .arxiv_web_url
            .as_ref()
            .map_or(DEFAULT_ARXIV_WEB.to_string(), |u| u.value.clone());
        let mut config = FullTextConfig::for_sources(&self.sources_settings(), &arxiv_web);
        if let Some(f) = v.fulltext_title_similarity {
            config.min_title_similarity = f.0;
        }
        if let Some(n) = v.min_full_text_chars {
            config.min_chars = n as usize;
        }
        config
    }

    /// Where papers named by an identifier (`check arXiv:…`, `check doi:…`, an
    /// OpenReview forum) are fetched from: the web sites and sources configured,
    /// offline and private-address settings of resolution, the file-size limit.
    pub fn fetch_settings(&self) -> FetchSettings {
        let v = self.verify_section();
        let resolve = self.resolve_section();
        let base = |url: &Option<super::values::BaseUrl>, default: &str| {
            url.as_ref()
                .map_or(default.to_string(), |u| u.value.clone())
        };
        let sources = self.sources_settings();
        FetchSettings {
            arxiv_web: base(&v.arxiv_web_url, DEFAULT_ARXIV_WEB),
            openreview_web: base(&v.openreview_web_url, DEFAULT_OPENREVIEW_WEB),
            sources,
            allow_private_urls: resolve.allow_private_urls.unwrap_or(false),
            offline: resolve.offline.unwrap_or(false),
            max_bytes: self.parse_options().max_file_size,
            ..FetchSettings::default()
        }
    }

    /// Chunking of full texts and how many passages are judged.
    fn passage_settings(&self) -> anyhow::Result<PassageSettings> {
        let v = self.verify_section();
        let mut p = PassageSettings::default();
        if let Some(n) = v.chunk_size {
            p.size = n as usize;
        }
        if let Some(n) = v.chunk_overlap {
            p.overlap = n as usize;
        }
        if let Some(n) = v.passages {
            p.top = n as usize;
        }
        if p.size == 0 || p.top == 0 {
            anyhow::bail!("`verify.chunk-size` and `verify.passages` must be at least 1");
        }
        if p.overlap >= p.size {
            anyhow::bail!(
                "`verify.chunk-overlap` ({}) must be smaller than `verify.chunk-size` ({})",
                p.overlap,
                p.size
            );
        }
        Ok(p)
    }

    fn resolve_section(&self) -> super::file::ResolveSection {
        self.config.resolve.clone().unwrap_or_default()
    }

    fn verify_section(&self) -> super::file::VerifySection {
        self.config.verify.clone().unwrap_or_default()
    }
}

fn source_section(sources: &SourcesSection, name: SourceName) -> Option<SourceSection> {
    let section = match name {
        SourceName::Crossref => &sources.crossref,
        SourceName::OpenAlex => &sources.openalex,
        SourceName::S2 => &sources.s2,
        SourceName::Arxiv => &sources.arxiv,
        SourceName::Pubmed => &sources.pubmed,
        SourceName::EuropePmc => &sources.europepmc,
        SourceName::Doi => &sources.doi,
        SourceName::DataCite => &sources.datacite,
        SourceName::Unpaywall => &sources.unpaywall,
        SourceName::OpenLibrary => &sources.openlibrary,
        SourceName::Rfc => &sources.rfc,
        SourceName::Pypi => &sources.pypi,
        SourceName::Cran => &sources.cran,
        SourceName::Crates => &sources.crates,
        SourceName::Npm => &sources.npm,
        SourceName::Wayback => &sources.wayback,
        SourceName::Dblp => &sources.dblp,
        SourceName::OpenReview => &sources.openreview,
        SourceName::Acl => &sources.acl,
    };
    section.clone()
}
