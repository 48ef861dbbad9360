//! From the merged configuration to the settings each stage uses: rule severities,
//! file globs, source clients ([`SourcesSettings`]), the title gate
//! ([`GateThresholds`]) and verification ([`VerifyConfig`]).

use std::path::Path;
use std::time::Duration;

use super::Resolved;
use super::file::{RuleKey, RuleLevel, SourceSection};
use super::layers::{Layer, Origin};
use crate::diagnostic::Severity;
use crate::parse::ParseOptions;
use crate::policy::FailOn;
use crate::resolve::gate::GateThresholds;
use crate::resolve::sources::{SourceName, SourcesSettings};
use crate::rules::{RULES, Rule};
use crate::verify::escalate::VerifyConfig;
use crate::verify::fulltext::{DEFAULT_ARXIV_WEB, FullTextConfig};
use crate::verify::llm::{DEFAULT_API_KEY_ENV, ModelConfig};

/// The built-in defaults as a layer, so that `citeproof config` can show them.
pub(super) fn defaults() -> Layer {
    let text = {
        let gate = GateThresholds::default();
        let verify = VerifyConfig::new(ModelConfig::new("http://localhost/v1", "-"));
        let model = &verify.stage1;
        let mut t = format!(
            "fail-on = \"error\"\ninclude = [\"**\"]\nexclude = []\ncite-commands = []\n\
             max-file-size = \"50M\"\n\
             [resolve]\ntitle-similarity = {}\ncorroborated-title-similarity = {}\n\
             raw-max-missing-words = {}\n\
             [verify]\napi-key-env = \"{DEFAULT_API_KEY_ENV}\"\ntimeout = \"{}s\"\n\
             max-tokens = {}\nfull-text = {}\nmax-invalid-retries = {}\nparallel = {}\n\
             max-concurrency = {}\nfulltext-title-similarity = {}\n[rules]\n",
            gate.accept,
            gate.corroborated,
            gate.raw_max_missing,
            model.timeout.as_secs(),
            model.max_tokens,
            verify.full_text,
            verify.max_invalid_retries,
            verify.parallel,
            model.limits.max_concurrency,
            verify.fulltext.min_title_similarity,
        );
        for rule in RULES {
            t.push_str(&format!("{} = \"{}\"\n", rule.code, rule.severity));
        }
        for name in SourceName::ALL {
            let timeout = crate::resolve::sources::SourceSettings::new(name).timeout;
            t.push_str(&format!(
                "[sources.{}]\nurl = \"{}\"\napi-key-env = \"CITEPROOF_{}_API_KEY\"\n\
                 timeout = \"{}s\"\ndisabled = false\n",
                name.as_str(),
                name.default_base_url(),
                name.env_name(),
                timeout.as_secs()
            ));
        }
        t
    };
    Layer {
        origin: Origin::Default,
        config: toml::from_str(&text).expect("built-in defaults are valid"),
    }
}

impl Resolved {
    /// The configured severity of a rule; `None` when it is off.
    pub fn rule_severity(&self, rule: &Rule) -> Option<Severity> {
        match self
            .config
            .rules
            .as_ref()
            .and_then(|r| r.get(&RuleKey(rule.code)))
        {
            Some(RuleLevel::Off) => None,
            Some(RuleLevel::Severity(s)) => Some(*s),
            None => Some(rule.severity),
        }
    }

    /// Whether a file found in a searched folder is checked: it matches an include
    /// glob and no exclude glob. Globs without `/` match a name at any depth.
    pub fn accepts(&self, path: &Path) -> bool {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let matches = |globs: &Option<Vec<super::file::Glob>>, base: &Path| {
            // A file outside the configuration's folder (`--config` elsewhere) is
            // matched on its whole path.
            let relative = absolute.strip_prefix(base).unwrap_or(&absolute);
            globs.iter().flatten().any(|glob| {
                let matcher = glob.value.compile_matcher();
                if glob.written.contains('/') {
                    matcher.is_match(relative)
                } else {
                    relative
                        .components()
                        .any(|c| matcher.is_match(c.as_os_str()))
                }
            })
        };
        let included =
            self.config.include.is_none() || matches(&self.config.include, &self.include_base);
        included && !matches(&self.config.exclude, &self.exclude_base)
    }

    pub fn fail_on(&self) -> FailOn {
        self.config
            .fail_on
            .as_ref()
            .map(|f| f.value.clone())
            .unwrap_or_default()
    }

    /// Parser options: the built-in citation commands plus the configured ones.
    pub fn parse_options(&self) -> ParseOptions {
        let mut options = ParseOptions::default();
        if let Some(size) = &self.config.max_file_size {
            options.max_file_size = size.value;
        }
        for command in self.config.cite_commands.iter().flatten() {
            if !options.cite_commands.contains(&command.value) {
                options.cite_commands.push(command.value.clone());
            }
        }
        options
    }

    pub fn gate_thresholds(&self) -> GateThresholds {
        let mut gate = GateThresholds::default();
        if let Some(resolve) = &self.config.resolve {
            if let Some(v) = resolve.title_similarity {
                gate.accept = v.0;
            }
            if let Some(v) = resolve.corroborated_title_similarity {
                gate.corroborated = v.0;
            }
            if let Some(v) = resolve.raw_max_missing_words {
                gate.raw_max_missing = v as usize;
            }
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
            s.mailto = section.mailto.clone().or_else(|| sources.mailto.clone());
            s.rate = section.rate_limit.as_ref().map(|r| r.value);
            s.max_concurrency = section.max_concurrency.map(|n| n.max(1) as usize);
            if let Some(timeout) = &section.timeout {
                s.timeout = timeout.value;
            }
            s.enabled = !section.disabled.unwrap_or(false);
        }
        settings
    }

    /// Verification settings, when a model is configured (`[verify] url` and `model`,
    /// or `CITEPROOF_LLM_URL` and `CITEPROOF_LLM_MODEL`).
    pub fn verify_config(&self) -> Option<VerifyConfig> {
        let v = self.config.verify.clone().unwrap_or_default();
        let url = v.url.as_ref()?.value.clone();
        let model_name = v.model.clone()?;
        let model = |name: &str| {
            let mut m = ModelConfig::new(&url, name);
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
        let mut config = VerifyConfig::new(model(&model_name));
        config.stage2 = v.stage2_model.as_deref().map(model);
        config.embeddings = v.embeddings_model.as_deref().map(model);
        config.escalate_below_confidence = v.escalate_below_confidence.map(|f| f.0);
        if let Some(full_text) = v.full_text {
            config.full_text = full_text;
        }
        if let Some(n) = v.max_invalid_retries {
            config.max_invalid_retries = n;
        }
        if let Some(n) = v.parallel {
            config.parallel = n.max(1) as usize;
        }
        config.fulltext = FullTextConfig::for_sources(&self.sources_settings(), DEFAULT_ARXIV_WEB);
        if let Some(f) = v.fulltext_title_similarity {
            config.fulltext.min_title_similarity = f.0;
        }
        Some(config)
    }

    /// An environment variable's value (through the run's overrides), if set.
    pub fn env_value(&self, var: &str) -> Option<String> {
        self.env
            .get(var)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }
}

fn source_section(
    sources: &super::file::SourcesSection,
    name: SourceName,
) -> Option<SourceSection> {
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
    };
    section.clone()
}
