//! The built-in defaults, and from the merged configuration to what the local stages
//! use: rule severities, file globs, parser options and the exit policy. The network
//! stages' settings are in `stages.rs`.

use std::path::Path;

use super::Resolved;
use super::layers::Layer;
use super::origin::Origin;
use super::values::{RuleKey, RuleLevel};
use crate::diagnostic::Severity;
use crate::parse::ParseOptions;
use crate::policy::FailOn;
use crate::read::fetch::DEFAULT_OPENREVIEW_WEB;
use crate::resolve::gate::GateThresholds;
use crate::resolve::options::{SearchOrder, SourcePlan};
use crate::resolve::sources::SourceName;
use crate::rules::{RULES, Rule};
use crate::verify::escalate::VerifyConfig;
use crate::verify::fulltext::DEFAULT_ARXIV_WEB;
use crate::verify::llm::{DEFAULT_API_KEY_ENV, ModelConfig};

/// The built-in defaults as a layer, so that `citeproof config` can show them.
pub(super) fn defaults() -> Layer {
    let text = {
        let gate = GateThresholds::default();
        let verify = VerifyConfig::new(ModelConfig::new("http://localhost/v1", "-"));
        let model = &verify.stage1;
        let mut t = format!(
            "fail-on = \"error\"\nignore-inline-suppressions = false\ninclude = [\"**\"]\nexclude = []\ncite-commands = []\n\
             max-file-size = \"50M\"\n\
             [resolve]\nenabled = true\noffline = false\ncorpora = []\n\
             corpus-complete = false\nindex-complete = false\nsearch-order = \"{}\"\nallow-private-urls = false\n\
             title-similarity = {}\ncorroborated-title-similarity = {}\n\
             raw-max-missing-words = {}\n\
             [cache]\nenabled = true\nretry-failed-after = \"{}s\"\n{}\
             [verify]\nenabled = false\nembedded = false\n\
             api-key-env = \"{DEFAULT_API_KEY_ENV}\"\n\
             max-tokens = {}\nfull-text = {}\nmax-invalid-retries = {}\nparallel = {}\n\
             fulltext-title-similarity = {}\n\
             min-full-text-chars = {}\nchunk-size = {}\nchunk-overlap = {}\npassages = {}\n\
             arxiv-web-url = \"{DEFAULT_ARXIV_WEB}\"\n\
             openreview-web-url = \"{DEFAULT_OPENREVIEW_WEB}\"\n[rules]\n",
            SearchOrder(SourcePlan::default().search),
            gate.accept,
            gate.corroborated,
            gate.raw_max_missing,
            crate::cache::DEFAULT_FAILED_TTL.as_secs(),
            // The platform's cache folder; `CITEPROOF_CACHE_DIR` is an override on top.
            dirs::cache_dir()
                .map(|d| toml::Value::String(d.join("citeproof").display().to_string()))
                .map_or(String::new(), |dir| format!("dir = {dir}\n")),
            model.max_tokens,
            verify.full_text,
            verify.max_invalid_retries,
            verify.parallel,
            verify.fulltext.min_title_similarity,
            verify.fulltext.min_chars,
            verify.passages.size,
            verify.passages.overlap,
            verify.passages.top,
        );
        for rule in RULES {
            t.push_str(&format!("{} = \"{}\"\n", rule.code, rule.severity));
        }
        t.push_str(&super::clean::defaults_text());
        t.push_str(&super::validate::defaults_text());
        t.push_str(&super::serve::defaults_text());
        for name in SourceName::ALL {
            let source = crate::resolve::sources::SourceSettings::new(name);
            t.push_str(&format!(
                "[sources.{}]\nurl = \"{}\"\napi-key-env = \"CITEPROOF_{}_API_KEY\"\n\
                 timeout = \"{}s\"\nretries = {}\nbreaker-failures = {}\n\
                 breaker-cooldown = \"{}s\"\ndisabled = false\n",
                name.as_str(),
                name.default_base_url(),
                name.env_name(),
                source.timeout.as_secs(),
                source.retry.max_retries,
                source.breaker.failures,
                source.breaker.cooldown.as_secs(),
            ));
        }
        // `enabled` has no default value: unset means "on when Zotero answers".
        t.push_str(&format!(
            "[sources.zotero]\nurl = \"{}\"\n",
            crate::zotero::DEFAULT_URL
        ));
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
        let matches = |globs: &Option<Vec<super::values::Glob>>, base: &Path| {
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

    /// Which findings fail the run: `fail-on`, or the venue policy's failing classes
    /// when a policy is chosen (a policy that cannot be built is reported by
    /// [`Self::venue_policy`], which every command calls first).
    pub fn fail_on(&self) -> FailOn {
        let mut fail_on = self
            .config
            .fail_on
            .as_ref()
            .map(|f| f.value.clone())
            .unwrap_or_default();
        fail_on.venue = self.venue_policy().ok().flatten();
        fail_on
    }

    /// Whether the documents' suppression comments hide findings
    /// (`ignore-inline-suppressions`, `--ignore-inline-suppressions`).
    pub fn inline_suppressions(&self) -> crate::suppress::InlineSuppressions {
        match self.config.ignore_inline_suppressions {
            Some(true) => crate::suppress::InlineSuppressions::Ignore,
            _ => crate::suppress::InlineSuppressions::Honour,
        }
    }

    /// The venue policy chosen (`policy`, `--policy`), if any.
    pub fn venue_policy(
        &self,
    ) -> Result<Option<std::sync::Arc<crate::venue_policy::VenuePolicy>>, String> {
        let Some(name) = &self.config.policy else {
            return Ok(None);
        };
        super::venue_policy::resolve_policy(name, self.config.policies.as_ref())
            .map(Some)
            .map_err(|e| format!("policy: {e}"))
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

    /// An environment variable's value (through the run's overrides), if set.
    pub fn env_value(&self, var: &str) -> Option<String> {
        self.env
            .get(var)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }
}
