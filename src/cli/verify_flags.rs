//! Verification flags shared by `verify`, `check` and `config`. Each flag sets a
//! `[verify]` configuration key (shown in brackets) over the files and the
//! environment; the settings themselves are built from the merged configuration.

use std::path::PathBuf;

use clap::Args;

use citeproof::verify::usage::UsageSummary;

use super::flag_layers::Layers;

#[derive(Debug, Args)]
pub struct VerifyFlags {
    /// OpenAI-compatible base URL, including /v1 (with --model: use the LLM backend)
    /// [env: CITEPROOF_LLM_URL; config: verify.url].
    #[arg(long, value_name = "URL")]
    pub llm_url: Option<String>,
    /// Model for stage 1 (abstracts) and, unless --stage2-model is given, stage 2
    /// [env: CITEPROOF_LLM_MODEL; config: verify.model].
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Model for stage 2 (full-text passages) [env: CITEPROOF_LLM_STAGE2_MODEL;
    /// config: verify.stage2-model].
    #[arg(long, value_name = "NAME")]
    pub stage2_model: Option<String>,
    /// Base URL of the stage-2 model when it is served elsewhere
    /// [env: CITEPROOF_LLM_STAGE2_URL; config: verify.stage2-url].
    #[arg(long, value_name = "URL")]
    pub stage2_url: Option<String>,
    /// Rank passages with this model of the embeddings endpoint (same base URL)
    /// [env: CITEPROOF_LLM_EMBEDDINGS_MODEL; config: verify.embeddings-model].
    #[arg(long, value_name = "NAME")]
    pub embeddings_model: Option<String>,
    /// Environment variable holding the model server's API key
    /// [default: CITEPROOF_LLM_API_KEY; config: verify.api-key-env].
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Local sentence-embedding model directory (e.g. all-MiniLM-L6-v2 in safetensors)
    /// for the embedded backend and passage ranking; never downloaded
    /// [env: CITEPROOF_EMBEDDING_MODEL; config: verify.local-embedding-model].
    #[arg(long, value_name = "DIR")]
    pub embedding_model: Option<PathBuf>,
    /// Embedded backend scoring: lexical, embeddings or hybrid (default: hybrid with an
    /// embedding model, lexical without) [config: verify.scoring].
    #[arg(long, value_name = "MODE")]
    pub scoring: Option<String>,
    /// Use the embedded backend even when a model server is configured
    /// [config: verify.embedded].
    #[arg(long)]
    pub embedded: bool,
    /// Judge on abstracts only; never fetch full texts [config: verify.full-text = false].
    #[arg(long)]
    pub no_full_text: bool,
    /// Verifications in flight at once [default: 4; config: verify.parallel].
    #[arg(long, value_name = "N")]
    pub parallel: Option<u32>,
    /// arXiv's web site, for HTML and PDF full texts [env: CITEPROOF_ARXIV_WEB_URL;
    /// config: verify.arxiv-web-url].
    #[arg(long, value_name = "URL")]
    pub arxiv_web: Option<String>,
}

impl VerifyFlags {
    /// The flags as configuration layers.
    pub fn add_layers(&self, layers: &mut Layers) -> anyhow::Result<()> {
        let texts = [
            ("--llm-url", "verify.url", &self.llm_url),
            ("--model", "verify.model", &self.model),
            ("--stage2-model", "verify.stage2-model", &self.stage2_model),
            ("--stage2-url", "verify.stage2-url", &self.stage2_url),
            (
                "--embeddings-model",
                "verify.embeddings-model",
                &self.embeddings_model,
            ),
            ("--api-key-env", "verify.api-key-env", &self.api_key_env),
            ("--scoring", "verify.scoring", &self.scoring),
            ("--arxiv-web", "verify.arxiv-web-url", &self.arxiv_web),
        ];
        for (flag, key, value) in texts {
            // An empty value (`--model ""`) leaves the key as configured.
            if let Some(value) = value.as_deref().filter(|v| !v.trim().is_empty()) {
                layers.set(flag, key, value)?;
            }
        }
        if let Some(dir) = self
            .embedding_model
            .as_deref()
            .filter(|d| !d.as_os_str().is_empty())
        {
            layers.set_path("--embedding-model", "verify.local-embedding-model", dir)?;
        }
        if self.embedded {
            layers.set("--embedded", "verify.embedded", true)?;
        }
        if self.no_full_text {
            layers.set("--no-full-text", "verify.full-text", false)?;
        }
        if let Some(n) = self.parallel {
            layers.set("--parallel", "verify.parallel", i64::from(n))?;
        }
        Ok(())
    }
}

/// The usage summary for stderr at the end of a run: how verification ran (the
/// structured output each model server accepted, or the embedded backend's scoring),
/// then the model requests when a model was used.
pub fn report_usage(usage: Option<&UsageSummary>) {
    let Some(usage) = usage else {
        return;
    };
    for note in &usage.notes {
        eprintln!("{note}");
    }
    if usage.models.is_empty() && usage.cache_hits == 0 && !usage.notes.is_empty() {
        return;
    }
    let cost = usage
        .total_cost()
        .map_or(String::new(), |c| format!(", total cost {c:.4}"));
    eprintln!("model usage: {} requests{cost}\n{usage}", usage.requests());
}
