//! Verification options shared by `verify` and `check --verify`, and the network,
//! sources and cache they need.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use citeproof::cache::Cache;
use citeproof::net::{Net, NetConfig};
use citeproof::resolve::options::ResolveOptions;
use citeproof::resolve::sources::{Sources, SourcesSettings};
use citeproof::verify::backend::{Backend, VerifySettings};
use citeproof::verify::escalate::VerifyConfig;
use citeproof::verify::fulltext::{DEFAULT_ARXIV_WEB, FullTextConfig};
use citeproof::verify::hybrid::ScoringMode;
use citeproof::verify::llm::ModelConfig;

#[derive(Debug, Args)]
pub struct VerifyFlags {
    /// OpenAI-compatible base URL, including /v1 (with --model: use the LLM backend).
    #[arg(long, value_name = "URL", env = "CITEPROOF_LLM_URL")]
    pub llm_url: Option<String>,
    /// Model for stage 1 (abstracts) and, unless --stage2-model is given, stage 2.
    #[arg(long, value_name = "NAME", env = "CITEPROOF_LLM_MODEL")]
    pub model: Option<String>,
    /// Model for stage 2 (full-text passages).
    #[arg(long, value_name = "NAME", env = "CITEPROOF_LLM_STAGE2_MODEL")]
    pub stage2_model: Option<String>,
    /// Base URL of the stage-2 model when it is served elsewhere.
    #[arg(long, value_name = "URL", env = "CITEPROOF_LLM_STAGE2_URL")]
    pub stage2_url: Option<String>,
    /// Rank passages with this model of the embeddings endpoint (same base URL).
    #[arg(long, value_name = "NAME", env = "CITEPROOF_LLM_EMBEDDINGS_MODEL")]
    pub embeddings_model: Option<String>,
    /// Environment variable holding the model server's API key.
    #[arg(long, value_name = "VAR", default_value = "CITEPROOF_LLM_API_KEY")]
    pub api_key_env: String,
    /// Local sentence-embedding model directory (e.g. all-MiniLM-L6-v2 in safetensors)
    /// for the embedded backend and passage ranking; never downloaded.
    #[arg(long, value_name = "DIR", env = "CITEPROOF_EMBEDDING_MODEL")]
    pub embedding_model: Option<PathBuf>,
    /// Embedded backend scoring: lexical, embeddings or hybrid (default: hybrid with an
    /// embedding model, lexical without).
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub scoring: Option<ScoringMode>,
    /// Use the embedded backend even when a model server is configured.
    #[arg(long)]
    pub embedded: bool,
    /// Judge on abstracts only; never fetch full texts.
    #[arg(long)]
    pub no_full_text: bool,
    /// Verifications in flight at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub parallel: usize,
    /// arXiv's web site, for HTML and PDF full texts.
    #[arg(long, value_name = "URL", env = "CITEPROOF_ARXIV_WEB_URL", default_value = DEFAULT_ARXIV_WEB)]
    pub arxiv_web: String,
}

fn parse_mode(text: &str) -> Result<ScoringMode, String> {
    ScoringMode::parse(text)
        .ok_or_else(|| format!("`{text}` is not a scoring mode (lexical, embeddings, hybrid)"))
}

/// Everything a verification run talks to.
pub struct Setup {
    pub net: Net,
    pub sources_settings: SourcesSettings,
    pub sources: Sources,
    pub cache: Option<Cache>,
}

impl Setup {
    /// Network, sources and cache as the resolution options set them up.
    pub fn new(options: &ResolveOptions) -> anyhow::Result<Setup> {
        let mailto = options
            .sources
            .sources
            .iter()
            .find_map(|s| s.mailto.clone());
        let net = Net::new(&NetConfig {
            mailto,
            ..NetConfig::default()
        })
        .context("network client")?;
        let sources = Sources::new(&net, &options.sources);
        Ok(Setup {
            net,
            sources_settings: options.sources.clone(),
            sources,
            cache: options.cache.clone(),
        })
    }

    /// The verification backend the flags ask for.
    pub fn backend(&self, flags: &VerifyFlags) -> anyhow::Result<Backend> {
        let settings = settings(flags, &self.sources_settings)?;
        Backend::build(
            &self.net,
            &settings,
            Some(self.sources.clone()),
            self.cache.clone(),
        )
        .context("verification backend")
    }
}

fn model(flags: &VerifyFlags, url: &str, name: &str) -> ModelConfig {
    let mut m = ModelConfig::new(url, name);
    m.api_key_env = Some(flags.api_key_env.clone());
    m
}

/// The verification settings the flags (and their environment variables) describe.
pub fn settings(flags: &VerifyFlags, sources: &SourcesSettings) -> anyhow::Result<VerifySettings> {
    let fulltext = FullTextConfig::for_sources(sources, &flags.arxiv_web);
    let mut s = VerifySettings::new(fulltext);
    s.embedding_model = flags
        .embedding_model
        .clone()
        .filter(|p| !p.as_os_str().is_empty());
    s.scoring = flags.scoring;
    s.full_text = !flags.no_full_text;
    s.parallel = flags.parallel.max(1);
    let url = flags
        .llm_url
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    let name = flags
        .model
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    if flags.embedded {
        return Ok(s);
    }
    match (url, name) {
        (Some(url), Some(name)) => {
            let mut config = VerifyConfig::new(model(flags, url, name));
            if let Some(second) = flags.stage2_model.as_deref().filter(|m| !m.is_empty()) {
                let base = flags.stage2_url.as_deref().unwrap_or(url);
                config.stage2 = Some(model(flags, base, second));
            }
            if let Some(embed) = flags.embeddings_model.as_deref().filter(|m| !m.is_empty()) {
                config.embeddings = Some(model(flags, url, embed));
            }
            s.llm = Some(config);
        }
        (Some(_), None) => anyhow::bail!(
            "a model server is configured (--llm-url / CITEPROOF_LLM_URL) but no model \
             (--model / CITEPROOF_LLM_MODEL)"
        ),
        (None, Some(_)) => anyhow::bail!(
            "a model is named (--model / CITEPROOF_LLM_MODEL) but no server \
             (--llm-url / CITEPROOF_LLM_URL)"
        ),
        (None, None) => {}
    }
    Ok(s)
}

/// The usage summary for stderr at the end of a run.
pub fn report_usage(backend: &Backend) {
    match backend.usage() {
        Some(usage) => {
            let cost = usage
                .total_cost()
                .map_or(String::new(), |c| format!(", total cost {c:.4}"));
            eprintln!("model usage: {} requests{cost}\n{usage}", usage.requests());
        }
        None => eprintln!("verification: embedded backend (no model server used)"),
    }
}
