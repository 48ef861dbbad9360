//! The shape of `citeproof.toml`. Every table rejects unknown keys, and every value is
//! checked as it is read, so an error points at the line and names the key.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::values::{
    BaseUrl, CommandName, EnvName, FailOnValue, Fraction, Glob, Lifetime, RateLimit, RuleKey,
    RuleLevel, ScoringValue, SearchOrderValue, Seconds, Size,
};

/// One configuration file (or the merge of several). Every key is optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// Another configuration file this one builds on (relative to this file).
    pub extend: Option<String>,
    /// Findings that make `check` exit with 1: a severity and/or rule codes or names.
    pub fail_on: Option<FailOnValue>,
    /// The venue policy findings are classified by (`iclr-2026`, `neurips-2026`,
    /// `icml-2026`, or one of `policies`); its failing classes replace `fail-on`.
    pub policy: Option<String>,
    /// In-document suppression comments hide nothing (a chair checking submissions):
    /// each one that would hide a finding is reported instead (CP904).
    pub ignore_inline_suppressions: Option<bool>,
    /// Venue policies defined here, by name.
    pub policies: Option<BTreeMap<String, super::venue_policy::PolicySection>>,
    /// Globs of files checked when a directory is searched (relative to this file).
    pub include: Option<Vec<Glob>>,
    /// Globs of files and folders never searched (relative to this file).
    pub exclude: Option<Vec<Glob>>,
    /// LaTeX citation commands in addition to the built-in ones (no backslash).
    pub cite_commands: Option<Vec<CommandName>>,
    /// Files larger than this are not read (`50M`, `2048K` or bytes).
    pub max_file_size: Option<Size>,
    /// Severity per rule (code or name): `error`, `warning`, `info`, `hint` or `off`.
    pub rules: Option<BTreeMap<RuleKey, RuleLevel>>,
    pub resolve: Option<ResolveSection>,
    pub sources: Option<SourcesSection>,
    pub cache: Option<CacheSection>,
    pub verify: Option<VerifySection>,
    pub clean: Option<super::clean::CleanSection>,
    pub validate: Option<super::validate::ValidateSection>,
    pub serve: Option<super::serve::ServeSection>,
}

/// `[resolve]`: whether and where cited works are looked up, and how sure a match
/// must be.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ResolveSection {
    /// `check` resolves cited works (false: local checks only, as `--no-resolve`).
    pub enabled: Option<bool>,
    /// Use only the cache and local corpora.
    pub offline: Option<bool>,
    /// Local corpora consulted before any network source (relative to this file).
    pub corpora: Option<Vec<String>>,
    /// The corpora hold every work that may be cited.
    pub corpus_complete: Option<bool>,
    /// An offline index folder (`citeproof index build`), relative to this file.
    pub index: Option<String>,
    /// The index holds every work that may be cited.
    pub index_complete: Option<bool>,
    /// Title-search order: tiers separated by `,`, sources of a tier joined by `+`.
    pub search_order: Option<SearchOrderValue>,
    /// Fetch cited URLs on private or loopback addresses too.
    pub allow_private_urls: Option<bool>,
    /// Title similarity that accepts a candidate record on its title alone.
    pub title_similarity: Option<Fraction>,
    /// Lower bar when an identifier, or the first author and the year, agree.
    pub corroborated_title_similarity: Option<Fraction>,
    /// Words of a record's title that may be missing from a raw reference string.
    pub raw_max_missing_words: Option<u32>,
}

/// `[sources]`: one table per scholarly source, and a contact e-mail for all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SourcesSection {
    pub mailto: Option<String>,
    pub crossref: Option<SourceSection>,
    pub openalex: Option<SourceSection>,
    pub s2: Option<SourceSection>,
    pub arxiv: Option<SourceSection>,
    pub pubmed: Option<SourceSection>,
    pub europepmc: Option<SourceSection>,
    pub doi: Option<SourceSection>,
    pub datacite: Option<SourceSection>,
    pub unpaywall: Option<SourceSection>,
    pub openlibrary: Option<SourceSection>,
    pub rfc: Option<SourceSection>,
    pub pypi: Option<SourceSection>,
    pub cran: Option<SourceSection>,
    pub crates: Option<SourceSection>,
    pub npm: Option<SourceSection>,
    pub wayback: Option<SourceSection>,
    pub dblp: Option<SourceSection>,
    pub openreview: Option<SourceSection>,
    pub acl: Option<SourceSection>,
    /// Where cited URLs are fetched through (`url`; see `CITEPROOF_WEB_URL`).
    pub web: Option<SourceSection>,
    pub zotero: Option<ZoteroSection>,
}

/// `[sources.zotero]`: the user's Zotero 7 (its local API and Better BibTeX), read
/// by the language server and `check --zotero`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ZoteroSection {
    /// Where Zotero listens (`http://localhost:23119`).
    pub url: Option<BaseUrl>,
    /// `true`/`false`: Zotero features on/off; unset: on when Zotero answers.
    pub enabled: Option<bool>,
}

/// `[sources.<name>]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SourceSection {
    /// Base URL: everything before the service's standard paths.
    pub url: Option<BaseUrl>,
    /// Name of the environment variable holding the API key (never the key itself).
    pub api_key_env: Option<EnvName>,
    pub mailto: Option<String>,
    /// Requests per period: `10/s`, `1/3s`, `100/min`.
    pub rate_limit: Option<RateLimit>,
    pub max_concurrency: Option<u32>,
    pub timeout: Option<Seconds>,
    /// Retries of a request that failed transiently (429, 5xx, connection errors).
    pub retries: Option<u32>,
    /// Attempts in a row without an answer after which a host is given up on (0: never).
    pub breaker_failures: Option<u32>,
    /// How long a host that was given up on is left alone before it is tried again.
    pub breaker_cooldown: Option<Seconds>,
    pub disabled: Option<bool>,
}

/// `[cache]`: the resolution and verdict cache.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CacheSection {
    pub enabled: Option<bool>,
    /// The cache directory (relative to this file).
    pub dir: Option<String>,
    /// How long a lookup that got no answer (rate-limited, timed out, an error page)
    /// is remembered before a rerun asks again (`0s`: always ask again).
    pub retry_failed_after: Option<Lifetime>,
}

/// `[verify]`: the model that judges claims and how far verification goes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifySection {
    /// `check` verifies that each cited work supports its claim (as `--verify`).
    pub enabled: Option<bool>,
    /// OpenAI-compatible base URL including `/v1`.
    pub url: Option<BaseUrl>,
    pub model: Option<String>,
    pub api_key_env: Option<EnvName>,
    /// Model for full-text passages (default: `model`).
    pub stage2_model: Option<String>,
    /// Base URL of the stage-2 model when it is served elsewhere (default: `url`).
    pub stage2_url: Option<BaseUrl>,
    /// Rank passages with embeddings from this model instead of BM25.
    pub embeddings_model: Option<String>,
    pub timeout: Option<Seconds>,
    pub max_tokens: Option<u32>,
    /// Escalate to the full text when the abstract does not settle a claim.
    pub full_text: Option<bool>,
    pub escalate_below_confidence: Option<Fraction>,
    pub max_invalid_retries: Option<u32>,
    pub parallel: Option<u32>,
    pub max_requests_per_minute: Option<u32>,
    pub max_tokens_per_minute: Option<u64>,
    pub max_concurrency: Option<u32>,
    /// Least title similarity between a downloaded full text and the cited work.
    pub fulltext_title_similarity: Option<Fraction>,
    /// Fewest characters a downloaded full text must have to be used.
    pub min_full_text_chars: Option<u32>,
    /// Characters per full-text passage.
    pub chunk_size: Option<u32>,
    /// Characters of whole sentences repeated between consecutive passages.
    pub chunk_overlap: Option<u32>,
    /// How many of the best-ranked passages are judged.
    pub passages: Option<u32>,
    /// Use the embedded backend even when a model server is configured.
    pub embedded: Option<bool>,
    /// A local sentence-embedding model directory (all-MiniLM-L6-v2 in safetensors)
    /// for the embedded backend and passage ranking (relative to this file).
    pub local_embedding_model: Option<String>,
    /// Embedded backend scoring: `lexical`, `embeddings` or `hybrid`.
    pub scoring: Option<ScoringValue>,
    /// arXiv's web site, for HTML and PDF full texts and the e-prints of
    /// `check arXiv:…`.
    pub arxiv_web_url: Option<BaseUrl>,
    /// OpenReview's web site, for the PDFs of `check <forum URL>`.
    pub openreview_web_url: Option<BaseUrl>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::values::{RuleKey, RuleLevel};
    use crate::diagnostic::Severity;

    #[test]
    fn unknown_keys_and_bad_values_name_the_key_and_line() {
        let err = toml::from_str::<ConfigFile>("fail-on = \"error\"\ncolour = true\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("colour") && text.contains("line 2"), "{text}");
        let err = toml::from_str::<ConfigFile>("[sources.scholar]\nurl = \"http://x\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("scholar"), "{err}");
        let err = toml::from_str::<ConfigFile>("[rules]\nCP999 = \"off\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown rule `CP999`"), "{err}");
        let err = toml::from_str::<ConfigFile>("[rules]\nCP101 = \"loud\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown level `loud`"), "{err}");
    }

    #[test]
    fn rule_names_become_codes() {
        let file: ConfigFile =
            toml::from_str("[rules]\nunused-entry = \"off\"\nCP101 = \"warning\"\n").unwrap();
        let rules = file.rules.unwrap();
        assert_eq!(rules[&RuleKey("CP102")], RuleLevel::Off);
        assert_eq!(
            rules[&RuleKey("CP101")],
            RuleLevel::Severity(Severity::Warning)
        );
    }
}
