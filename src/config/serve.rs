//! The `[serve]` section: where `citeproof serve` listens, the limits it keeps and who
//! may use it. The settings the service runs with ([`ServeSettings`]) live here too, so
//! the service depends on the configuration and not the other way round.

use std::net::SocketAddr;
use std::time::Duration;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize, Serializer};

use super::Resolved;
use super::serve_access::{CorsOrigins, TOKENS_ENV, Tokens};
use super::values::{RateLimit, Seconds, Size};
use crate::net::Rate;

/// `[serve]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ServeSection {
    /// `ADDR:PORT` to listen on.
    pub listen: Option<ListenAddr>,
    /// `ADDR:PORT` of a second listener for `/healthz` and `/metrics` alone; when set,
    /// the main listener no longer answers them.
    pub admin_listen: Option<ListenAddr>,
    /// Largest request body accepted (`2M`); larger ones get 413.
    pub max_body_size: Option<Size>,
    /// Largest body of `POST /v1/check` (`32M`: uploaded PDFs, Word files, bundles).
    pub max_upload_size: Option<Size>,
    /// Longest a request may take, body included; slower ones get 504.
    pub request_timeout: Option<Seconds>,
    /// Requests handled at once.
    pub max_concurrency: Option<u32>,
    /// Requests waiting for a slot beyond those; more get 503 with Retry-After.
    pub max_queue: Option<u32>,
    /// How long requests in flight may finish after SIGTERM or Ctrl-C.
    pub shutdown_timeout: Option<Seconds>,
    /// One line per request on standard error.
    pub access_log: Option<bool>,
    /// A file of bearer tokens, one per line; with it (or `CITEPROOF_SERVE_TOKENS`)
    /// every `/v1/` request needs `Authorization: Bearer TOKEN`.
    pub tokens_file: Option<String>,
    /// Requests one token may make (`10/s`, `600/min`); beyond, 429 with Retry-After.
    pub token_rate_limit: Option<RateLimit>,
    /// Requests one token may have in flight at once; beyond, 429 with Retry-After.
    pub token_concurrency: Option<u32>,
    /// Origins whose pages may call the service from a browser (`https://app.example.org`,
    /// or `*`); none by default.
    pub cors_origins: Option<Vec<String>>,
}

/// A socket address (`127.0.0.1:8080`, `[::1]:8080`), kept as written.
#[derive(Debug, Clone, PartialEq)]
pub struct ListenAddr {
    pub written: String,
    pub value: SocketAddr,
}

impl ListenAddr {
    pub fn parse(text: &str) -> Result<ListenAddr, String> {
        text.trim()
            .parse::<SocketAddr>()
            .map(|value| ListenAddr {
                written: text.trim().to_string(),
                value,
            })
            .map_err(|_| format!("`{text}` is not an ADDR:PORT to listen on (e.g. 127.0.0.1:8080)"))
    }
}

impl Serialize for ListenAddr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.written)
    }
}

impl<'de> Deserialize<'de> for ListenAddr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ListenAddr::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Where the service listens, the limits it keeps and who may use it: the `[serve]`
/// section over the built-in defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct ServeSettings {
    pub listen: SocketAddr,
    /// The listener of `/healthz` and `/metrics` when they are kept off the main one.
    pub admin_listen: Option<SocketAddr>,
    pub max_body_size: u64,
    /// Largest body of `POST /v1/check`, which takes whole documents (a PDF, a
    /// bundle); the other routes keep `max_body_size`.
    pub max_upload_size: u64,
    pub request_timeout: Duration,
    pub max_concurrency: usize,
    pub max_queue: usize,
    pub shutdown_timeout: Duration,
    pub access_log: bool,
    /// The bearer tokens; none: the service is open.
    pub tokens: Tokens,
    /// Each token's request rate (`None`: unlimited).
    pub token_rate: Option<Rate>,
    /// Each token's requests in flight at once (`None`: only `max_concurrency`).
    pub token_concurrency: Option<usize>,
    pub cors_origins: CorsOrigins,
}

impl Default for ServeSettings {
    fn default() -> ServeSettings {
        ServeSettings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            admin_listen: None,
            max_body_size: 2 << 20,
            max_upload_size: 32 << 20,
            request_timeout: Duration::from_secs(120),
            max_concurrency: default_concurrency(),
            max_queue: 256,
            shutdown_timeout: Duration::from_secs(30),
            access_log: true,
            tokens: Tokens::default(),
            token_rate: None,
            token_concurrency: None,
            cors_origins: CorsOrigins::default(),
        }
    }
}

/// Requests handled at once by default: four per CPU. Their work is mostly CPU-bound
/// (parsing, scoring) and each worker thread keeps per-thread caches (word stems), so
/// more slots add memory without adding throughput; waiting requests queue instead.
pub fn default_concurrency() -> usize {
    let cpus = std::thread::available_parallelism().map_or(2, usize::from);
    (4 * cpus).max(4)
}

/// The `[serve]` defaults as TOML, for the defaults layer.
pub(super) fn defaults_text() -> String {
    let s = ServeSettings::default();
    format!(
        "[serve]\nlisten = \"{}\"\nmax-body-size = \"{}\"\nmax-upload-size = \"{}\"\n\
         request-timeout = \"{}s\"\n\
         max-concurrency = {}\nmax-queue = {}\nshutdown-timeout = \"{}s\"\naccess-log = {}\n",
        s.listen,
        s.max_body_size,
        s.max_upload_size,
        s.request_timeout.as_secs(),
        s.max_concurrency,
        s.max_queue,
        s.shutdown_timeout.as_secs(),
        s.access_log,
    )
}

impl Resolved {
    /// The service's settings: the built-in defaults under the `[serve]` section, the
    /// tokens read from `tokens-file` and `CITEPROOF_SERVE_TOKENS`. An unreadable
    /// tokens file, a malformed token or origin is an error naming where it is.
    pub fn serve_settings(&self) -> anyhow::Result<ServeSettings> {
        let d = ServeSettings::default();
        let s = self.config.serve.clone().unwrap_or_default();
        let tokens_file = s
            .tokens_file
            .as_deref()
            .filter(|f| !f.trim().is_empty())
            .map(|f| self.path_value("serve.tokens-file", f.trim()));
        let tokens = Tokens::gather(
            tokens_file.as_deref(),
            self.env_value(TOKENS_ENV).as_deref(),
        )?;
        let cors_origins = CorsOrigins::parse(s.cors_origins.as_deref().unwrap_or_default())
            .map_err(|e| anyhow::anyhow!("[serve] cors-origins: {e}"))?;
        Ok(ServeSettings {
            listen: s.listen.map_or(d.listen, |l| l.value),
            admin_listen: s.admin_listen.map(|l| l.value),
            max_body_size: s.max_body_size.map_or(d.max_body_size, |v| v.value),
            max_upload_size: s.max_upload_size.map_or(d.max_upload_size, |v| v.value),
            request_timeout: s.request_timeout.map_or(d.request_timeout, |v| v.value),
            max_concurrency: s
                .max_concurrency
                .map_or(d.max_concurrency, |n| (n as usize).max(1)),
            max_queue: s.max_queue.map_or(d.max_queue, |n| n as usize),
            shutdown_timeout: s.shutdown_timeout.map_or(d.shutdown_timeout, |v| v.value),
            access_log: s.access_log.unwrap_or(d.access_log),
            tokens,
            // A token may spend its whole allowance at once, then waits for it to refill.
            token_rate: s.token_rate_limit.map(|r| Rate {
                burst: r.value.requests,
                ..r.value
            }),
            token_concurrency: s.token_concurrency.map(|n| (n as usize).max(1)),
            cors_origins,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfigFile, Overrides};

    #[test]
    fn the_section_reads_checks_and_rejects_unknown_keys() {
        let file: ConfigFile = toml::from_str(
            "[serve]\nlisten = \"0.0.0.0:9000\"\nmax-body-size = \"1M\"\n\
             request-timeout = \"5s\"\nmax-concurrency = 8\nadmin-listen = \"127.0.0.1:9001\"\n\
             token-rate-limit = \"60/min\"\ntoken-concurrency = 2\n",
        )
        .unwrap();
        let serve = file.serve.unwrap();
        assert_eq!(serve.listen.unwrap().value.port(), 9000);
        assert_eq!(serve.admin_listen.unwrap().value.port(), 9001);
        assert_eq!(serve.max_body_size.unwrap().value, 1 << 20);
        assert_eq!(serve.token_rate_limit.unwrap().value.requests, 60);
        for (text, named) in [
            ("[serve]\nlisen = \"x\"\n", "lisen"),
            ("[serve]\nlisten = \"localhost\"\n", "ADDR:PORT"),
            ("[serve]\nmax-body-size = \"lots\"\n", "not a size"),
            ("[serve]\ntoken-rate-limit = \"often\"\n", "not a rate"),
        ] {
            let err = toml::from_str::<ConfigFile>(text).unwrap_err().to_string();
            assert!(err.contains(named), "{text}: {err}");
        }
    }

    #[test]
    fn settings_are_the_defaults_under_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("citeproof.toml");
        std::fs::write(
            &path,
            "[serve]\nmax-queue = 3\naccess-log = false\ntoken-rate-limit = \"5/s\"\n",
        )
        .unwrap();
        let resolved =
            Resolved::build(&crate::fs::Disk, Some(&path), &Overrides::default()).unwrap();
        let settings = resolved.serve_settings().unwrap();
        assert_eq!(settings.max_queue, 3);
        assert!(!settings.access_log);
        assert_eq!(
            settings.max_concurrency,
            ServeSettings::default().max_concurrency
        );
        let rate = settings.token_rate.unwrap();
        assert_eq!((rate.requests, rate.burst), (5, 5));
        let defaults = Resolved::build(&crate::fs::Disk, None, &Overrides::default()).unwrap();
        assert_eq!(defaults.serve_settings().unwrap(), ServeSettings::default());
        assert!(ServeSettings::default().tokens.is_empty());
    }

    #[test]
    fn the_tokens_file_is_relative_to_the_configuration_and_joins_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("secrets")).unwrap();
        std::fs::write(
            dir.path().join("secrets/tokens"),
            "# ops\nalpha-token-00001\n\nbeta-token-000002\n",
        )
        .unwrap();
        let path = dir.path().join("citeproof.toml");
        std::fs::write(&path, "[serve]\ntokens-file = \"secrets/tokens\"\n").unwrap();
        let overrides = Overrides {
            env: [(
                TOKENS_ENV.to_string(),
                "gamma-token-00003, delta-token-00004".to_string(),
            )]
            .into(),
            ..Overrides::default()
        };
        let resolved = Resolved::build(&crate::fs::Disk, Some(&path), &overrides).unwrap();
        let tokens = resolved.serve_settings().unwrap().tokens;
        assert_eq!(tokens.len(), 4);
        for t in [
            "alpha-token-00001",
            "beta-token-000002",
            "gamma-token-00003",
            "delta-token-00004",
        ] {
            assert!(tokens.secrets().any(|s| s == t), "{t}");
        }
        std::fs::write(&path, "[serve]\ntokens-file = \"missing\"\n").unwrap();
        let resolved =
            Resolved::build(&crate::fs::Disk, Some(&path), &Overrides::default()).unwrap();
        let err = resolved.serve_settings().unwrap_err().to_string();
        assert!(err.contains("missing") && err.contains("tokens"), "{err}");
    }
}
