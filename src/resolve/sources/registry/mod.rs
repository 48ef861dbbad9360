//! The package registries: PyPI, CRAN (through crandb), crates.io and npm. Each holds
//! every package ever published on it, so "no such package" from a registry is an
//! answer, not a gap. A package is looked up by name; its record lists every release
//! with the year it was published, so the cited version and year can be checked.

mod cran;
mod crates;
mod npm;
mod pypi;

pub use cran::parse_cran;
pub use crates::parse_crate;
pub use npm::parse_npm;
pub use pypi::parse_pypi;

use serde_json::Value;

use super::json::{is_html, parse_body, status_error};
use super::{Endpoint, Lookup, LookupResult, SourceError, SourceName, SourceSettings, encode_path};
use crate::model::{PackageRef, Registry, Release, Work};
use crate::net::{HttpReply, HttpRequest, Net};

/// The source name of a registry's records (and its cache namespace).
pub fn source_of(registry: Registry) -> SourceName {
    match registry {
        Registry::Pypi => SourceName::Pypi,
        Registry::Cran => SourceName::Cran,
        Registry::Crates => SourceName::Crates,
        Registry::Npm => SourceName::Npm,
    }
}

/// One client per registry.
#[derive(Debug, Clone)]
pub struct RegistryClients {
    pypi: Endpoint,
    cran: Endpoint,
    crates: Endpoint,
    npm: Endpoint,
}

impl RegistryClients {
    pub fn new(net: &Net, get: impl Fn(SourceName) -> SourceSettings) -> RegistryClients {
        let ep = |name| Endpoint::new(net, get(name));
        RegistryClients {
            pypi: ep(SourceName::Pypi),
            cran: ep(SourceName::Cran),
            crates: ep(SourceName::Crates),
            npm: ep(SourceName::Npm),
        }
    }

    /// The package's record: its name as title, its releases with their years.
    pub async fn lookup(&self, package: &PackageRef) -> LookupResult {
        let name = package.name.trim();
        match package.registry {
            Registry::Pypi => {
                let url = self
                    .pypi
                    .url(&format!("/pypi/{}/json", encode_path(name)), &[])?;
                parse_pypi(&self.pypi.send(HttpRequest::get(url)).await?)
            }
            Registry::Cran => {
                let url = self.cran.url(&format!("/{}/all", encode_path(name)), &[])?;
                parse_cran(&self.cran.send(HttpRequest::get(url)).await?)
            }
            Registry::Crates => {
                let path = format!("/api/v1/crates/{}", encode_path(name));
                let url = self.crates.url(&path, &[])?;
                parse_crate(&self.crates.send(HttpRequest::get(url)).await?)
            }
            Registry::Npm => {
                // A scoped name's slash is part of the name: `/@babel%2fcore`.
                let url = self
                    .npm
                    .url(&format!("/{}", name.replace('/', "%2f")), &[])?;
                parse_npm(&self.npm.send(HttpRequest::get(url)).await?)
            }
        }
    }
}

/// A package record from its name, summary, project URL and dated releases.
pub(crate) fn package_work(
    registry: Registry,
    name: &str,
    summary: Option<String>,
    url: String,
    mut releases: Vec<Release>,
) -> Work {
    releases.sort_by(|a, b| a.year.cmp(&b.year).then(a.version.cmp(&b.version)));
    let first = releases.iter().filter_map(|r| r.year).min();
    Work {
        source: registry.as_str().to_string(),
        title: name.to_string(),
        year: first,
        venue: Some(registry.display().to_string()),
        work_type: Some("software".into()),
        url: Some(url),
        abstract_text: summary.filter(|s| !s.trim().is_empty()),
        releases,
        ..Work::default()
    }
}

/// A registry's reply: the record `read` makes of its JSON on 200, "no such package"
/// on the registry's own (JSON) 404; anything else — an HTML 404 from a proxy or a
/// wrong base URL included — a failure.
pub(crate) fn parse_reply(
    reply: &HttpReply,
    read: impl FnOnce(&Value) -> Result<Work, SourceError>,
) -> LookupResult {
    match reply.status {
        200 => Ok(Lookup::Found(read(&parse_body(reply)?)?)),
        404 if !is_html(reply) => Ok(Lookup::NotFound),
        _ => Err(status_error(reply)),
    }
}

/// Releases from `(version, ISO 8601 timestamp)` pairs (`2011-09-21T16:47:32`).
pub(crate) fn dated(pairs: impl IntoIterator<Item = (String, Option<String>)>) -> Vec<Release> {
    pairs
        .into_iter()
        .map(|(version, stamp)| Release {
            version,
            year: stamp.and_then(|s| s.get(..4).and_then(|y| y.parse().ok())),
        })
        .collect()
}

/// What a package record says of a cited version and year: the release year of the
/// cited version (`Err` when the registry never published that version), or, without
/// a version, whether the package existed in the cited year.
pub fn release_year(work: &Work, version: Option<&str>) -> Result<Option<i32>, String> {
    let Some(version) = version.map(|v| v.trim().trim_start_matches(['v', 'V'])) else {
        return Ok(None);
    };
    let same = |a: &str, b: &str| a == b || a.trim_end_matches(".0") == b.trim_end_matches(".0");
    match work.releases.iter().find(|r| same(&r.version, version)) {
        Some(r) => Ok(r.year),
        None if work.releases.is_empty() => Ok(None),
        None => Err(format!(
            "{} never published version {version} ({} releases, the last {})",
            work.title,
            work.releases.len(),
            work.releases.last().map_or("", |r| r.version.as_str())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cited_versions_against_releases() {
        let work = package_work(
            Registry::Pypi,
            "demo",
            None,
            "https://pypi.org/project/demo/".into(),
            vec![
                Release {
                    version: "1.0".into(),
                    year: Some(2019),
                },
                Release {
                    version: "1.2.0".into(),
                    year: Some(2021),
                },
            ],
        );
        assert_eq!(work.year, Some(2019));
        assert_eq!(release_year(&work, Some("1.2.0")), Ok(Some(2021)));
        assert_eq!(release_year(&work, Some("v1.2")), Ok(Some(2021)));
        assert_eq!(release_year(&work, Some("1.0.0")), Ok(Some(2019)));
        assert!(release_year(&work, Some("3.0")).is_err());
        assert_eq!(release_year(&work, None), Ok(None));
    }
}
