//! The `[serve]` section: where `citeproof serve` listens and the limits it keeps.

use std::net::SocketAddr;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize, Serializer};

use super::Resolved;
use super::file::{Seconds, Size};
use crate::serve::ServeSettings;

/// `[serve]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ServeSection {
    /// `ADDR:PORT` to listen on.
    pub listen: Option<ListenAddr>,
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
    /// The service's settings: the built-in defaults under the `[serve]` section.
    pub fn serve_settings(&self) -> ServeSettings {
        let d = ServeSettings::default();
        let s = self.config.serve.clone().unwrap_or_default();
        ServeSettings {
            listen: s.listen.map_or(d.listen, |l| l.value),
            max_body_size: s.max_body_size.map_or(d.max_body_size, |v| v.value),
            max_upload_size: s.max_upload_size.map_or(d.max_upload_size, |v| v.value),
            request_timeout: s.request_timeout.map_or(d.request_timeout, |v| v.value),
            max_concurrency: s
                .max_concurrency
                .map_or(d.max_concurrency, |n| (n as usize).max(1)),
            max_queue: s.max_queue.map_or(d.max_queue, |n| n as usize),
            shutdown_timeout: s.shutdown_timeout.map_or(d.shutdown_timeout, |v| v.value),
            access_log: s.access_log.unwrap_or(d.access_log),
        }
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
             request-timeout = \"5s\"\nmax-concurrency = 8\n",
        )
        .unwrap();
        let serve = file.serve.unwrap();
        assert_eq!(serve.listen.unwrap().value.port(), 9000);
        assert_eq!(serve.max_body_size.unwrap().value, 1 << 20);
        for (text, named) in [
            ("[serve]\nlisen = \"x\"\n", "lisen"),
            ("[serve]\nlisten = \"localhost\"\n", "ADDR:PORT"),
            ("[serve]\nmax-body-size = \"lots\"\n", "not a size"),
        ] {
            let err = toml::from_str::<ConfigFile>(text).unwrap_err().to_string();
            assert!(err.contains(named), "{text}: {err}");
        }
    }

    #[test]
    fn settings_are_the_defaults_under_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("citeproof.toml");
        std::fs::write(&path, "[serve]\nmax-queue = 3\naccess-log = false\n").unwrap();
        let resolved =
            Resolved::build(&crate::fs::Disk, Some(&path), &Overrides::default()).unwrap();
        let settings = resolved.serve_settings();
        assert_eq!(settings.max_queue, 3);
        assert!(!settings.access_log);
        assert_eq!(
            settings.max_concurrency,
            ServeSettings::default().max_concurrency
        );
        let defaults = Resolved::build(&crate::fs::Disk, None, &Overrides::default()).unwrap();
        assert_eq!(defaults.serve_settings(), ServeSettings::default());
    }
}
