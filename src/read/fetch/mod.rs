//! Papers named by an identifier fetched for a check: an arXiv id gets its source
//! bundle (arXiv's e-print, `{arxiv-web}/e-print/{id}`: a `.tar.gz`, a gzipped
//! `.tex`, or the PDF when no source was submitted), else its PDF; a DOI the
//! e-print of the arXiv version the scholarly sources know, else an open-access
//! PDF they link; an OpenReview forum its PDF (`{openreview-web}/pdf?id=…`).
//!
//! Requests go through the network layer (rate limits, retries, size caps) with the
//! download rules of full texts ([`UrlPolicy`]: configured bases trusted, links
//! from records only to public hosts). The bytes stay in memory: they are put in an
//! [`Overlay`] under a name (`arXiv-2401.01234.gz`) that the loader reads like a
//! file, so an archive is opened and a PDF converted as if downloaded by hand.

pub(crate) mod identifier;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use url::Url;

pub use identifier::Identifier;

use crate::fs::{Overlay, Vfs};
use crate::model::Work;
use crate::net::urlpolicy::UrlPolicy;
use crate::net::{HttpRequest, Net, NetConfig, RetryPolicy, SourceHandle, SourcePolicy};
use crate::resolve::sources::{Sources, SourcesSettings, encode_path};
use crate::verify::evidence::{Asked, Evidence};

/// arXiv's web site (`/e-print/{id}`, `/pdf/{id}`).
pub const DEFAULT_ARXIV_WEB: &str = crate::verify::fulltext::DEFAULT_ARXIV_WEB;
/// OpenReview's web site (`/pdf?id=…`).
pub const DEFAULT_OPENREVIEW_WEB: &str = "https://openreview.net";

/// Where and how papers are fetched.
#[derive(Debug, Clone)]
pub struct FetchSettings {
    pub arxiv_web: String,
    pub openreview_web: String,
    /// The scholarly sources asked for a DOI's arXiv id and open-access links.
    pub sources: SourcesSettings,
    /// Links from records may point to internal addresses (tests, intranet mirrors).
    pub allow_private_urls: bool,
    /// Nothing is fetched: an identifier is reported as unreadable.
    pub offline: bool,
    /// Larger downloads fail (the loader's file-size limit).
    pub max_bytes: u64,
    pub timeout: Duration,
}

impl Default for FetchSettings {
    fn default() -> FetchSettings {
        FetchSettings {
            arxiv_web: DEFAULT_ARXIV_WEB.to_string(),
            openreview_web: DEFAULT_OPENREVIEW_WEB.to_string(),
            sources: SourcesSettings::default(),
            allow_private_urls: false,
            offline: false,
            max_bytes: 50 * 1024 * 1024,
            timeout: Duration::from_secs(60),
        }
    }
}

/// A fetched paper: a file name (with the extension its bytes call for) and bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetched {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Fetches papers by identifier.
pub struct Fetcher {
    settings: FetchSettings,
    policy: UrlPolicy,
    http: SourceHandle,
    sources: Sources,
    _nets: (Net, Net),
}

impl Fetcher {
    pub fn new(settings: FetchSettings) -> Result<Fetcher, String> {
        let mut policy = settings.sources.url_policy();
        policy.trust(&settings.arxiv_web);
        policy.trust(&settings.openreview_web);
        policy.allow_private = settings.allow_private_urls;
        let mailto = settings
            .sources
            .sources
            .iter()
            .find_map(|s| s.mailto.clone());
        let guarded = Arc::new(policy.clone())
            .guarded_net(mailto.clone())
            .map_err(|e| e.to_string())?;
        let http = guarded.source(
            "fetch",
            SourcePolicy {
                timeout: settings.timeout,
                max_body_bytes: settings.max_bytes,
                retry: RetryPolicy {
                    max_retries: 1,
                    ..RetryPolicy::default()
                },
                ..SourcePolicy::default()
            },
        );
        let net = Net::new(&NetConfig {
            mailto,
            ..NetConfig::default()
        })
        .map_err(|e| e.to_string())?;
        let sources = Sources::new(&net, &settings.sources);
        Ok(Fetcher {
            settings,
            policy,
            http,
            sources,
            _nets: (guarded, net),
        })
    }

    /// Fetch the paper `id` names; the error says what was tried.
    pub async fn fetch(&self, id: &Identifier) -> Result<Fetched, String> {
        if self.settings.offline {
            return Err("not fetched: the run is offline".into());
        }
        match id {
            Identifier::Arxiv(arxiv) => self.arxiv(id, arxiv).await,
            Identifier::OpenReview(note) => {
                let url = format!(
                    "{}/pdf?id={}",
                    self.settings.openreview_web.trim_end_matches('/'),
                    encode_path(note)
                );
                self.pdf(id, &url).await
            }
            Identifier::Doi(doi) => self.doi(id, doi).await,
        }
    }

    /// The e-print (source bundle, or the PDF arXiv gives for PDF-only
    /// submissions), else the PDF.
    async fn arxiv(&self, id: &Identifier, arxiv: &str) -> Result<Fetched, String> {
        let base = self.settings.arxiv_web.trim_end_matches('/');
        let eprint = format!("{base}/e-print/{}", encode_path(arxiv));
        let why = match self.get(&eprint).await {
            Ok(bytes) => match bundle_name(id, &bytes) {
                Some(name) => return Ok(Fetched { name, bytes }),
                None => format!("{eprint}: neither a source bundle nor a PDF"),
            },
            Err(why) => why,
        };
        let pdf = format!("{base}/pdf/{}", encode_path(arxiv));
        self.pdf(id, &pdf)
            .await
            .map_err(|pdf_why| format!("{why}; {pdf_why}"))
    }

    /// A DOI: the arXiv version's e-print when a source knows one, else the first
    /// open-access PDF a source links.
    async fn doi(&self, id: &Identifier, doi: &str) -> Result<Fetched, String> {
        let mut evidence = Evidence::new(&Work {
            doi: Some(doi.to_string()),
            ..Work::default()
        });
        let mut tried: Vec<String> = Vec::new();
        for source in [Asked::S2, Asked::Unpaywall, Asked::OpenAlex] {
            evidence.ask(&self.sources, source).await;
            if let Some(arxiv) = evidence.work.arxiv.clone() {
                let as_arxiv = Identifier::Arxiv(arxiv.clone());
                match self.arxiv(&as_arxiv, &arxiv).await {
                    Ok(fetched) => return Ok(fetched),
                    Err(why) => tried.push(why),
                }
                evidence.work.arxiv = None;
            }
        }
        for (url, _) in evidence.open_access_links() {
            match self.pdf(id, &url).await {
                Ok(fetched) => return Ok(fetched),
                Err(why) => tried.push(why),
            }
        }
        if tried.is_empty() {
            tried.push("no source knows an arXiv version or an open-access PDF".into());
        }
        Err(tried.join("; "))
    }

    /// A PDF at `url`.
    async fn pdf(&self, id: &Identifier, url: &str) -> Result<Fetched, String> {
        let bytes = self.get(url).await?;
        if super::BinaryFormat::sniff(&bytes) != Some(super::BinaryFormat::Pdf) {
            return Err(format!("{url}: not a PDF"));
        }
        Ok(Fetched {
            name: format!("{}.pdf", id.file_stem()),
            bytes,
        })
    }

    async fn get(&self, url: &str) -> Result<Vec<u8>, String> {
        let parsed = Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
        self.policy
            .check(&parsed)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let reply = self
            .http
            .send(&HttpRequest::get(parsed))
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        match reply.status {
            200 => Ok(reply.body),
            status => Err(format!("{url}: HTTP {status}")),
        }
    }
}

/// The file name an e-print's bytes call for: gzip (a `.tar.gz` or one gzipped
/// `.tex`), tar, or PDF; `None` for anything else (an HTML error page).
fn bundle_name(id: &Identifier, bytes: &[u8]) -> Option<String> {
    let stem = id.file_stem();
    if super::BinaryFormat::sniff(bytes) == Some(super::BinaryFormat::Pdf) {
        return Some(format!("{stem}.pdf"));
    }
    match super::archive::ArchiveFormat::sniff(bytes)? {
        super::archive::ArchiveFormat::Gzip => Some(format!("{stem}.gz")),
        super::archive::ArchiveFormat::Tar => Some(format!("{stem}.tar")),
        super::archive::ArchiveFormat::Zip => Some(format!("{stem}.zip")),
    }
}

/// The inputs with every identifier (an input that is no file or folder and reads
/// as one) replaced by the paper fetched for it, put in an overlay over `fs`. An
/// identifier that cannot be fetched stays, unreadable with the reason, so the
/// loader reports it (CP001) and checks the rest. `None` for the view when no input
/// is an identifier (nothing is fetched, no runtime started).
pub fn fetch_inputs(
    inputs: &[PathBuf],
    fs: &Vfs,
    settings: &FetchSettings,
) -> (Vec<PathBuf>, Option<Vfs>) {
    let wanted: Vec<(usize, Identifier)> = inputs
        .iter()
        .enumerate()
        .filter(|(_, p)| !fs.is_file(p) && !fs.is_dir(p))
        .filter_map(|(k, p)| Identifier::parse(&p.to_string_lossy()).map(|id| (k, id)))
        .collect();
    if wanted.is_empty() {
        return (inputs.to_vec(), None);
    }
    let results = fetch_all(&wanted, settings);
    let mut overlay = Overlay::new(fs.clone());
    let mut out = inputs.to_vec();
    for ((k, _), result) in wanted.iter().zip(results) {
        match result {
            Ok(fetched) => {
                let path = PathBuf::from(&fetched.name);
                overlay.set_bytes(&path, Arc::from(fetched.bytes), None);
                out[*k] = path;
            }
            Err(why) => overlay.set_unreadable(&inputs[*k], &why),
        }
    }
    (out, Some(Vfs::new(overlay)))
}

/// Fetch every identifier, one after the other, on a runtime of their own.
fn fetch_all(
    wanted: &[(usize, Identifier)],
    settings: &FetchSettings,
) -> Vec<Result<Fetched, String>> {
    let fail_all = |why: String| wanted.iter().map(|_| Err(why.clone())).collect();
    let runtime = match crate::resolve::cascade::runtime() {
        Ok(runtime) => runtime,
        Err(e) => return fail_all(format!("not fetched: {e}")),
    };
    runtime.block_on(async {
        let fetcher = match Fetcher::new(settings.clone()) {
            Ok(fetcher) => fetcher,
            Err(e) => return fail_all(format!("not fetched: {e}")),
        };
        let mut out = Vec::new();
        for (_, id) in wanted {
            out.push(
                fetcher
                    .fetch(id)
                    .await
                    .map_err(|why| format!("could not be fetched: {why}")),
            );
        }
        out
    })
}

/// Whether `path` may name a paper rather than a file (for callers that decide
/// whether fetch settings are needed at all).
pub fn is_identifier(path: &Path) -> bool {
    !path.exists() && Identifier::parse(&path.to_string_lossy()).is_some()
}
