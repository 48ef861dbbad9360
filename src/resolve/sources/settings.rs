//! Which sources exist, their default base URLs and published rate limits, and the
//! plain settings each client is built from (environment overrides included).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use url::Url;

use crate::net::urlpolicy::UrlPolicy;
use crate::net::{BreakerPolicy, DEFAULT_MAX_BODY_BYTES, Rate, RetryPolicy, SourcePolicy};

/// A scholarly source with its own client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceName {
    Crossref,
    OpenAlex,
    S2,
    Arxiv,
    Pubmed,
    EuropePmc,
    Doi,
    DataCite,
    Unpaywall,
    /// Books: editions by ISBN, works by title and author.
    OpenLibrary,
    /// The RFC Editor's index of RFCs.
    Rfc,
    Pypi,
    Cran,
    Crates,
    Npm,
    /// The Internet Archive's Wayback Machine (archived copies of cited pages).
    Wayback,
    /// DBLP's publication search (computer science).
    Dblp,
    /// OpenReview's API v2: submissions to ICLR, NeurIPS, ICML, TMLR … with their
    /// decisions.
    OpenReview,
    /// The ACL Anthology: papers of ACL, EMNLP, NAACL … by Anthology id.
    Acl,
}

impl SourceName {
    pub const ALL: [SourceName; 19] = [
        SourceName::Crossref,
        SourceName::OpenAlex,
        SourceName::S2,
        SourceName::Arxiv,
        SourceName::Pubmed,
        SourceName::EuropePmc,
        SourceName::Doi,
        SourceName::DataCite,
        SourceName::Unpaywall,
        SourceName::OpenLibrary,
        SourceName::Rfc,
        SourceName::Pypi,
        SourceName::Cran,
        SourceName::Crates,
        SourceName::Npm,
        SourceName::Wayback,
        SourceName::Dblp,
        SourceName::OpenReview,
        SourceName::Acl,
    ];

    /// The name used in configuration, cache namespaces and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceName::Crossref => "crossref",
            SourceName::OpenAlex => "openalex",
            SourceName::S2 => "s2",
            SourceName::Arxiv => "arxiv",
            SourceName::Pubmed => "pubmed",
            SourceName::EuropePmc => "europepmc",
            SourceName::Doi => "doi",
            SourceName::DataCite => "datacite",
            SourceName::Unpaywall => "unpaywall",
            SourceName::OpenLibrary => "openlibrary",
            SourceName::Rfc => "rfc",
            SourceName::Pypi => "pypi",
            SourceName::Cran => "cran",
            SourceName::Crates => "crates",
            SourceName::Npm => "npm",
            SourceName::Wayback => "wayback",
            SourceName::Dblp => "dblp",
            SourceName::OpenReview => "openreview",
            SourceName::Acl => "acl",
        }
    }

    /// `CITEPROOF_<NAME>_…` environment variable prefix.
    pub fn env_name(self) -> String {
        self.as_str().to_ascii_uppercase()
    }

    /// Everything before the service's standard paths (DESIGN.md, "Sources and base URLs").
    pub fn default_base_url(self) -> &'static str {
        match self {
            SourceName::Crossref => "https://api.crossref.org",
            SourceName::OpenAlex => "https://api.openalex.org",
            SourceName::S2 => "https://api.semanticscholar.org",
            SourceName::Arxiv => "https://export.arxiv.org",
            SourceName::Pubmed => "https://eutils.ncbi.nlm.nih.gov",
            SourceName::EuropePmc => "https://www.ebi.ac.uk/europepmc",
            SourceName::Doi => "https://doi.org",
            SourceName::DataCite => "https://api.datacite.org",
            SourceName::Unpaywall => "https://api.unpaywall.org",
            SourceName::OpenLibrary => "https://openlibrary.org",
            SourceName::Rfc => "https://www.rfc-editor.org",
            SourceName::Pypi => "https://pypi.org",
            SourceName::Cran => "https://crandb.r-pkg.org",
            SourceName::Crates => "https://crates.io",
            SourceName::Npm => "https://registry.npmjs.org",
            SourceName::Wayback => "https://archive.org",
            SourceName::Dblp => "https://dblp.org",
            SourceName::OpenReview => "https://api2.openreview.net",
            SourceName::Acl => "https://aclanthology.org",
        }
    }

    /// The published rate limit, which for some services depends on a key or a mailto.
    pub fn default_rate(self, has_api_key: bool, has_mailto: bool) -> Rate {
        match self {
            SourceName::Arxiv => Rate::every(Duration::from_secs(3)),
            SourceName::Crossref if has_mailto => Rate::per_second(10),
            SourceName::Crossref => Rate::per_second(5),
            SourceName::OpenAlex => Rate::per_second(10),
            SourceName::S2 => Rate::per_second(1),
            SourceName::Pubmed if has_api_key => Rate::per_second(10),
            SourceName::Pubmed => Rate::per_second(3),
            SourceName::EuropePmc
            | SourceName::Doi
            | SourceName::DataCite
            | SourceName::Unpaywall
            | SourceName::Rfc
            | SourceName::Cran => Rate::per_second(5),
            // Open Library asks API users to stay well below its page rate; crates.io's
            // crawler policy is one request per second; the Wayback Machine throttles hard.
            SourceName::OpenLibrary => Rate::per_second(2),
            SourceName::Crates | SourceName::Wayback => Rate::per_second(1),
            SourceName::Pypi | SourceName::Npm => Rate::per_second(10),
            // DBLP answers bursts with 429 and a long Retry-After; OpenReview's API
            // throttles anonymous clients; the Anthology is a static site.
            SourceName::Dblp | SourceName::OpenReview => Rate::per_second(1),
            SourceName::Acl => Rate::per_second(2),
        }
    }

    /// Requests in flight at once (arXiv asks for a single connection; Crossref allows
    /// 3 concurrent requests in its polite pool and 1 in the public one).
    pub fn default_concurrency(self, has_mailto: bool) -> usize {
        match self {
            SourceName::Arxiv | SourceName::S2 => 1,
            SourceName::Crossref if has_mailto => 3,
            SourceName::Crossref => 1,
            SourceName::Pubmed => 3,
            SourceName::OpenAlex => 10,
            SourceName::EuropePmc
            | SourceName::Doi
            | SourceName::DataCite
            | SourceName::Unpaywall
            | SourceName::Rfc
            | SourceName::Pypi
            | SourceName::Cran
            | SourceName::Npm => 5,
            SourceName::OpenLibrary => 2,
            SourceName::Crates | SourceName::Wayback | SourceName::Dblp => 1,
            SourceName::OpenReview | SourceName::Acl => 2,
        }
    }

    fn default_timeout(self) -> Duration {
        match self {
            // arXiv's API is slow on large id lists.
            SourceName::Arxiv => Duration::from_secs(60),
            _ => Duration::from_secs(30),
        }
    }
}

impl fmt::Display for SourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SourceName {
    type Err = SettingsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        let alias = match lower.as_str() {
            "semanticscholar" | "semantic_scholar" => "s2",
            "europe_pmc" | "epmc" => "europepmc",
            "doi.org" => "doi",
            "open_library" | "open-library" => "openlibrary",
            "crates.io" | "cratesio" => "crates",
            "archive.org" | "internet_archive" => "wayback",
            "open_review" | "open-review" => "openreview",
            "acl_anthology" | "acl-anthology" | "aclanthology" => "acl",
            other => other,
        };
        SourceName::ALL
            .into_iter()
            .find(|n| n.as_str() == alias)
            .ok_or_else(|| SettingsError::UnknownSource(s.to_string()))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error(
        "unknown source `{0}` (expected one of crossref, openalex, s2, arxiv, pubmed, europepmc, doi, datacite, unpaywall, openlibrary, rfc, pypi, cran, crates, npm, wayback, dblp, openreview, acl)"
    )]
    UnknownSource(String),
    #[error("{var}: `{value}` is not an http(s) base URL")]
    BadUrl { var: String, value: String },
    #[error("{var}: `{value}` is not a positive number of requests per second")]
    BadRate { var: String, value: String },
}

/// A rate written as requests per second (`10`, `0.33`).
pub fn parse_rate(text: &str) -> Option<Rate> {
    let per_second: f64 = text.trim().parse().ok()?;
    (per_second.is_finite() && per_second > 0.0)
        .then(|| Rate::every(Duration::from_secs_f64(1.0 / per_second)))
}

/// How one source's client talks to its service.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceSettings {
    pub name: SourceName,
    /// Everything before the standard paths, without a trailing slash.
    pub base_url: String,
    pub api_key: Option<String>,
    /// Contact e-mail (Crossref polite pool, PubMed `email`, Unpaywall `email`).
    pub mailto: Option<String>,
    /// `None`: the published default, which depends on the key and the mailto.
    pub rate: Option<Rate>,
    /// `None`: the source's default.
    pub max_concurrency: Option<usize>,
    /// Total time for one attempt.
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// When the source's hosts count as unreachable, and for how long.
    pub breaker: BreakerPolicy,
    pub max_body_bytes: u64,
    pub enabled: bool,
}

impl SourceSettings {
    /// Defaults for `name`: its public base URL and published limits.
    pub fn new(name: SourceName) -> SourceSettings {
        SourceSettings {
            name,
            base_url: name.default_base_url().to_string(),
            api_key: None,
            mailto: None,
            rate: None,
            max_concurrency: None,
            timeout: name.default_timeout(),
            retry: RetryPolicy::default(),
            breaker: BreakerPolicy::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            enabled: true,
        }
    }

    /// Defaults overridden by `CITEPROOF_<NAME>_URL`, `CITEPROOF_<NAME>_API_KEY`,
    /// `CITEPROOF_<NAME>_RATE` (requests per second) and `CITEPROOF_MAILTO`.
    pub fn from_env(name: SourceName) -> Result<SourceSettings, SettingsError> {
        SourceSettings::from_env_with(name, |var| std::env::var(var).ok())
    }

    /// [`SourceSettings::from_env`] reading variables through `get`.
    pub fn from_env_with(
        name: SourceName,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<SourceSettings, SettingsError> {
        let mut settings = SourceSettings::new(name);
        let non_empty = |var: &str| {
            get(var)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let url_var = format!("CITEPROOF_{}_URL", name.env_name());
        if let Some(url) = non_empty(&url_var) {
            settings = settings
                .with_base_url(&url)
                .map_err(|_| SettingsError::BadUrl {
                    var: url_var,
                    value: url,
                })?;
        }
        settings.api_key = non_empty(&format!("CITEPROOF_{}_API_KEY", name.env_name()));
        let rate_var = format!("CITEPROOF_{}_RATE", name.env_name());
        if let Some(value) = non_empty(&rate_var) {
            settings.rate = Some(parse_rate(&value).ok_or(SettingsError::BadRate {
                var: rate_var,
                value,
            })?);
        }
        settings.mailto = non_empty("CITEPROOF_MAILTO");
        Ok(settings)
    }

    /// The same settings with another base URL (validated; trailing slash dropped).
    pub fn with_base_url(mut self, url: &str) -> Result<SourceSettings, SettingsError> {
        let trimmed = url.trim().trim_end_matches('/');
        let parsed = Url::parse(trimmed).map_err(|_| SettingsError::BadUrl {
            var: format!("{} base URL", self.name),
            value: url.to_string(),
        })?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
            return Err(SettingsError::BadUrl {
                var: format!("{} base URL", self.name),
                value: url.to_string(),
            });
        }
        self.base_url = trimmed.to_string();
        Ok(self)
    }

    pub fn effective_rate(&self) -> Rate {
        self.rate.unwrap_or_else(|| {
            self.name
                .default_rate(self.api_key.is_some(), self.mailto.is_some())
        })
    }

    /// What the network layer enforces for this source.
    pub fn policy(&self) -> SourcePolicy {
        SourcePolicy {
            rate: self.effective_rate(),
            max_concurrency: self
                .max_concurrency
                .unwrap_or_else(|| self.name.default_concurrency(self.mailto.is_some())),
            timeout: self.timeout,
            retry: self.retry.clone(),
            breaker: self.breaker,
            max_body_bytes: self.max_body_bytes,
        }
    }
}

/// The variable naming where cited URLs are fetched through.
pub const WEB_URL_VAR: &str = "CITEPROOF_WEB_URL";

/// Settings of every source.
#[derive(Debug, Clone, PartialEq)]
pub struct SourcesSettings {
    pub sources: Vec<SourceSettings>,
    /// Where cited URLs are fetched through (`CITEPROOF_WEB_URL`): a cited
    /// `https://host/path` is asked of `{web}/https/host/path`. `None`: asked directly.
    /// For tests, mirrors and archives of the web.
    pub web: Option<String>,
}

impl Default for SourcesSettings {
    fn default() -> Self {
        SourcesSettings {
            sources: SourceName::ALL
                .into_iter()
                .map(SourceSettings::new)
                .collect(),
            web: None,
        }
    }
}

impl SourcesSettings {
    /// The download policy that trusts every configured source's base URL.
    pub fn url_policy(&self) -> UrlPolicy {
        UrlPolicy::trusting(self.sources.iter().map(|s| s.base_url.as_str()))
    }

    /// Every source with its environment overrides applied.
    pub fn from_env() -> Result<SourcesSettings, SettingsError> {
        SourcesSettings::from_env_with(|var| std::env::var(var).ok())
    }

    pub fn from_env_with(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<SourcesSettings, SettingsError> {
        let sources = SourceName::ALL
            .into_iter()
            .map(|n| SourceSettings::from_env_with(n, &get))
            .collect::<Result<Vec<_>, _>>()?;
        let web = get(WEB_URL_VAR)
            .map(|v| v.trim().trim_end_matches('/').to_string())
            .filter(|v| !v.is_empty());
        Ok(SourcesSettings { sources, web })
    }

    /// Every source pointed at `base` + `/<name>` (a mock world serving all APIs).
    pub fn all_at(base: &str) -> Result<SourcesSettings, SettingsError> {
        let base = base.trim_end_matches('/');
        let sources = SourceName::ALL
            .into_iter()
            .map(|n| SourceSettings::new(n).with_base_url(&format!("{base}/{}", n.as_str())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SourcesSettings {
            sources,
            web: Some(format!("{base}/web")),
        })
    }

    pub fn get(&self, name: SourceName) -> &SourceSettings {
        self.sources
            .iter()
            .find(|s| s.name == name)
            .expect("every source has settings")
    }

    pub fn get_mut(&mut self, name: SourceName) -> &mut SourceSettings {
        self.sources
            .iter_mut()
            .find(|s| s.name == name)
            .expect("every source has settings")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_overrides_url_key_and_mailto() {
        let env = |var: &str| match var {
            "CITEPROOF_S2_URL" => Some("http://127.0.0.1:9/s2/".to_string()),
            "CITEPROOF_S2_API_KEY" => Some("k".to_string()),
            "CITEPROOF_MAILTO" => Some("me@example.org".to_string()),
            _ => None,
        };
        let s2 = SourceSettings::from_env_with(SourceName::S2, env).unwrap();
        assert_eq!(s2.base_url, "http://127.0.0.1:9/s2");
        assert_eq!(s2.api_key.as_deref(), Some("k"));
        assert_eq!(s2.mailto.as_deref(), Some("me@example.org"));
        let crossref = SourceSettings::from_env_with(SourceName::Crossref, env).unwrap();
        assert_eq!(crossref.base_url, "https://api.crossref.org");
        assert_eq!(crossref.effective_rate(), Rate::per_second(10));
        assert_eq!(crossref.policy().max_concurrency, 3);
    }

    #[test]
    fn rate_override_in_requests_per_second() {
        let s2 = SourceSettings::from_env_with(SourceName::S2, |v| {
            (v == "CITEPROOF_S2_RATE").then(|| "4".to_string())
        })
        .unwrap();
        assert_eq!(s2.effective_rate().interval(), Duration::from_millis(250));
        let err = SourceSettings::from_env_with(SourceName::S2, |v| {
            (v == "CITEPROOF_S2_RATE").then(|| "fast".to_string())
        })
        .unwrap_err();
        assert!(err.to_string().contains("CITEPROOF_S2_RATE"), "{err}");
        assert!(parse_rate("0").is_none() && parse_rate("-1").is_none());
    }

    #[test]
    fn bad_url_names_the_variable() {
        let err = SourceSettings::from_env_with(SourceName::Arxiv, |v| {
            (v == "CITEPROOF_ARXIV_URL").then(|| "ftp://x".to_string())
        })
        .unwrap_err();
        assert!(err.to_string().contains("CITEPROOF_ARXIV_URL"), "{err}");
    }

    #[test]
    fn published_rates() {
        use SourceName::*;
        assert_eq!(
            Arxiv.default_rate(false, false).interval(),
            Duration::from_secs(3)
        );
        assert_eq!(Crossref.default_rate(false, false), Rate::per_second(5));
        assert_eq!(Pubmed.default_rate(true, false), Rate::per_second(10));
        assert_eq!(Pubmed.default_rate(false, true), Rate::per_second(3));
        assert_eq!(S2.default_rate(true, true), Rate::per_second(1));
        assert_eq!(Arxiv.default_concurrency(true), 1);
    }

    #[test]
    fn names_round_trip() {
        for n in SourceName::ALL {
            assert_eq!(n.as_str().parse::<SourceName>().unwrap(), n);
        }
        assert_eq!(
            "semanticscholar".parse::<SourceName>().unwrap(),
            SourceName::S2
        );
        assert!("scholar".parse::<SourceName>().is_err());
    }
}
