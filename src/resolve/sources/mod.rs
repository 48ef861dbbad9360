//! One client per scholarly API. Each client builds the service's requests, sends them
//! through [`crate::net`] under the source's rate limit, and turns the replies into
//! [`Work`] records.
//!
//! Every lookup distinguishes three answers: [`Lookup::Found`], [`Lookup::NotFound`]
//! (the source answered and does not have it) and `Err(`[`SourceError`]`)` (the source
//! could not be asked or gave an unusable answer: we do not know). The pure `parse_*`
//! functions of each module make that decision from a status and a body, so recorded
//! bodies can be checked without a network.
//!
//! A 404 counts as "not found" only when its body is the service's own not-found reply;
//! an HTML 404 page from a JSON API (a wrong base URL, a proxy) is a failure.

pub mod acl;
pub mod arxiv;
pub mod crossref;
pub mod datacite;
pub mod dblp;
pub mod doi;
pub mod europepmc;
mod json;
pub mod openalex;
pub mod openlibrary;
pub mod openreview;
pub mod pubmed;
pub mod registry;
pub mod rfc;
pub mod s2;
mod settings;
pub mod text;
pub mod unpaywall;
pub mod wayback;
pub mod xml;

use serde::{Deserialize, Serialize};
use url::Url;

pub use settings::{
    SettingsError, SourceName, SourceSettings, SourcesSettings, WEB_URL_VAR, parse_rate,
};

use crate::model::Work;
use crate::net::{HttpReply, HttpRequest, Net, NetError, SourceHandle};

/// What a source said about one thing asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome", content = "record")]
pub enum Lookup<T> {
    Found(T),
    /// The source answered, and it does not have it.
    NotFound,
}

impl<T> Lookup<T> {
    pub fn found(self) -> Option<T> {
        match self {
            Lookup::Found(t) => Some(t),
            Lookup::NotFound => None,
        }
    }

    pub fn is_found(&self) -> bool {
        matches!(self, Lookup::Found(_))
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Lookup<U> {
        match self {
            Lookup::Found(t) => Lookup::Found(f(t)),
            Lookup::NotFound => Lookup::NotFound,
        }
    }
}

/// Why a source gave no usable answer. Never means "not found".
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SourceError {
    /// Transport failure, timeout, too large, or transient status after the retries.
    #[error(transparent)]
    Net(#[from] NetError),
    /// A final status the service does not use for "not found" (400, 401, 403, an HTML 404…).
    #[error("HTTP {status}: {message}")]
    Status { status: u16, message: String },
    /// The body is not what the service sends (an HTML page, truncated JSON, bad XML).
    #[error("unexpected response: {0}")]
    Malformed(String),
    /// The service answered with an error document (arXiv error entry, E-utilities ERROR).
    #[error("the service reported an error: {0}")]
    Api(String),
    /// doi.org answered with a landing page, not metadata: the DOI resolves, but no
    /// record could be read.
    #[error("the DOI resolves to {url} but no metadata was returned")]
    NoMetadata { url: String },
    #[error("source disabled")]
    Disabled,
    #[error("not configured: {0}")]
    Config(String),
}

/// The answer for one lookup.
pub type LookupResult = Result<Lookup<Work>, SourceError>;

/// One answer per identifier asked for, in the order asked.
pub type BatchResult = Vec<(String, LookupResult)>;

/// The shared plumbing of every client: settings, the network handle and URL building.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub(crate) settings: SourceSettings,
    http: SourceHandle,
}

impl Endpoint {
    pub(crate) fn new(net: &Net, settings: SourceSettings) -> Endpoint {
        let http = net.source(settings.name.as_str(), settings.policy());
        Endpoint { settings, http }
    }

    /// `base + path` (path already percent-encoded) with `query` form-encoded.
    pub(crate) fn url(&self, path: &str, query: &[(&str, &str)]) -> Result<Url, SourceError> {
        let raw = format!("{}{}", self.settings.base_url, path);
        let mut url = Url::parse(&raw)
            .map_err(|e| SourceError::Config(format!("bad request URL {raw}: {e}")))?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        Ok(url)
    }

    pub(crate) async fn send(&self, request: HttpRequest) -> Result<HttpReply, SourceError> {
        if !self.settings.enabled {
            return Err(SourceError::Disabled);
        }
        Ok(self.http.send(&request).await?)
    }
}

/// Percent-encode a DOI (or another identifier) for use in a URL path: `/` stays, so
/// `/works/10.1038/nphys1170` reads as the services document it; everything outside
/// the unreserved set (`;`, `#`, `?`, `%`, brackets, spaces …) is encoded.
pub fn encode_path(id: &str) -> String {
    use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
    const PATH: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/');
    utf8_percent_encode(id, PATH).to_string()
}

/// Every client, built from one set of settings over one shared network layer.
#[derive(Debug, Clone)]
pub struct Sources {
    pub crossref: crossref::CrossrefClient,
    pub openalex: openalex::OpenAlexClient,
    pub s2: s2::S2Client,
    pub arxiv: arxiv::ArxivClient,
    pub pubmed: pubmed::PubmedClient,
    pub europepmc: europepmc::EuropePmcClient,
    pub doi: doi::DoiClient,
    pub datacite: datacite::DataCiteClient,
    pub unpaywall: unpaywall::UnpaywallClient,
    pub openlibrary: openlibrary::OpenLibraryClient,
    pub rfc: rfc::RfcClient,
    pub registries: registry::RegistryClients,
    pub wayback: wayback::WaybackClient,
    pub dblp: dblp::DblpClient,
    pub openreview: openreview::OpenReviewClient,
    pub acl: acl::AclClient,
}

impl Sources {
    pub fn new(net: &Net, settings: &SourcesSettings) -> Sources {
        let get = |n: SourceName| settings.get(n).clone();
        Sources {
            crossref: crossref::CrossrefClient::new(net, get(SourceName::Crossref)),
            openalex: openalex::OpenAlexClient::new(net, get(SourceName::OpenAlex)),
            s2: s2::S2Client::new(net, get(SourceName::S2)),
            arxiv: arxiv::ArxivClient::new(net, get(SourceName::Arxiv)),
            pubmed: pubmed::PubmedClient::new(net, get(SourceName::Pubmed)),
            europepmc: europepmc::EuropePmcClient::new(net, get(SourceName::EuropePmc)),
            doi: doi::DoiClient::new(net, get(SourceName::Doi)),
            datacite: datacite::DataCiteClient::new(net, get(SourceName::DataCite)),
            unpaywall: unpaywall::UnpaywallClient::new(net, get(SourceName::Unpaywall)),
            openlibrary: openlibrary::OpenLibraryClient::new(net, get(SourceName::OpenLibrary)),
            rfc: rfc::RfcClient::new(net, get(SourceName::Rfc)),
            registries: registry::RegistryClients::new(net, get),
            wayback: wayback::WaybackClient::new(net, get(SourceName::Wayback)),
            dblp: dblp::DblpClient::new(net, get(SourceName::Dblp)),
            openreview: openreview::OpenReviewClient::new(net, get(SourceName::OpenReview)),
            acl: acl::AclClient::new(net, get(SourceName::Acl)),
        }
    }
}

/// Split `ids` into chunks of at most `size`, keeping apart the ids that contain a
/// character the batch syntax uses as a separator (those go one per chunk).
pub(crate) fn batches<'a>(
    ids: &'a [String],
    size: usize,
    separators: &[char],
) -> Vec<Vec<&'a String>> {
    let (plain, odd): (Vec<&String>, Vec<&String>) = ids
        .iter()
        .partition(|id| !id.contains(|c| separators.contains(&c)));
    let mut out: Vec<Vec<&String>> = plain.chunks(size.max(1)).map(<[_]>::to_vec).collect();
    out.extend(odd.into_iter().map(|id| vec![id]));
    out
}

/// Answers for one chunk of a batch.
pub(crate) type ChunkAnswers = Vec<(String, LookupResult)>;

/// The answers of all chunks, in the order the ids were asked. An id no chunk answered
/// is a failure, never "not found".
pub(crate) fn in_order(ids: &[String], chunks: Vec<ChunkAnswers>) -> BatchResult {
    let mut answers: std::collections::HashMap<String, LookupResult> =
        chunks.into_iter().flatten().collect();
    ids.iter()
        .map(|id| {
            let answer = answers
                .remove(id)
                .unwrap_or_else(|| Err(SourceError::Malformed(format!("no answer for {id}"))));
            (id.clone(), answer)
        })
        .collect()
}

/// Match the works of a list answer to the ids of a chunk: found where the keys agree,
/// not found otherwise (the source answered for all of them).
pub(crate) fn match_ids(
    chunk: &[&String],
    works: Vec<Work>,
    id_key: impl Fn(&str) -> String,
    work_key: impl Fn(&Work) -> Option<String>,
) -> ChunkAnswers {
    let by_key: std::collections::HashMap<String, Work> = works
        .into_iter()
        .filter_map(|w| Some((work_key(&w)?, w)))
        .collect();
    chunk
        .iter()
        .map(|id| {
            let found = by_key.get(&id_key(id)).cloned();
            (
                (*id).clone(),
                Ok(found.map_or(Lookup::NotFound, Lookup::Found)),
            )
        })
        .collect()
}

/// The same failure for every id of a chunk.
pub(crate) fn fail_all(chunk: &[&String], error: &SourceError) -> ChunkAnswers {
    chunk
        .iter()
        .map(|id| ((*id).clone(), Err(error.clone())))
        .collect()
}

/// A DOI as the sources' records carry it, for matching.
pub(crate) fn doi_key(doi: &str) -> String {
    crate::parse::ids::normalize_doi(doi).unwrap_or_else(|| doi.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doi_path_encoding_keeps_slashes_and_encodes_the_rest() {
        assert_eq!(encode_path("10.1038/nphys1170"), "10.1038/nphys1170");
        assert_eq!(
            encode_path("10.1890/0012-9615(1999)069[0569:edilsa]2.0.co;2"),
            "10.1890/0012-9615%281999%29069%5B0569%3Aedilsa%5D2.0.co%3B2"
        );
        assert_eq!(encode_path("10.1/a b#c?d%"), "10.1/a%20b%23c%3Fd%25");
    }

    #[test]
    fn batches_split_and_isolate_separator_ids() {
        let ids: Vec<String> = ["a", "b", "c,d", "e"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let chunks = batches(&ids, 2, &[',']);
        let flat: Vec<Vec<&str>> = chunks
            .iter()
            .map(|c| c.iter().map(|s| s.as_str()).collect())
            .collect();
        assert_eq!(flat, vec![vec!["a", "b"], vec!["e"], vec!["c,d"]]);
    }
}
