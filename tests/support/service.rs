//! The services the mock impersonates, the router that puts each under its own path
//! prefix, and the response helpers they share. Adding a service = one module with a
//! `router()` plus one `Source` variant.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::Response;
use serde_json::Value;

use super::faults::{Gate, gate};
use super::knobs::Control;
use super::world::{Entry, World};
use super::{
    acl, admin, arxiv, crossref, datacite, dblp, doi, eprint, europepmc, landing, openalex,
    openlibrary, openreview, pubmed, registries, rfc, s2, unpaywall, wayback, web,
};

/// A scholarly service the mock serves, each under `/{name}` on the mock's port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    Crossref,
    OpenAlex,
    S2,
    Arxiv,
    Pubmed,
    EuropePmc,
    Doi,
    DataCite,
    Unpaywall,
    /// Publisher landing pages (`citation_*` meta tags, JSON-LD) for the URL fallback.
    Landing,
    OpenLibrary,
    Rfc,
    Pypi,
    Cran,
    Crates,
    Npm,
    Wayback,
    /// Cited URLs of the web, reached as `/web/{scheme}/{host}/{path}` (`CITEPROOF_WEB_URL`).
    Web,
    /// arXiv's web site: e-prints and PDFs (`check arXiv:…`, full texts).
    ArxivWeb,
    /// OpenReview's web site: PDFs (`check https://openreview.net/forum?id=…`).
    OpenReviewWeb,
    /// DBLP's publication search API.
    Dblp,
    /// OpenReview's API v2 (notes and their decisions).
    OpenReview,
    /// The ACL Anthology's per-paper BibTeX.
    Acl,
}

impl Source {
    pub const ALL: [Source; 23] = [
        Source::Crossref,
        Source::OpenAlex,
        Source::S2,
        Source::Arxiv,
        Source::Pubmed,
        Source::EuropePmc,
        Source::Doi,
        Source::DataCite,
        Source::Unpaywall,
        Source::Landing,
        Source::OpenLibrary,
        Source::Rfc,
        Source::Pypi,
        Source::Cran,
        Source::Crates,
        Source::Npm,
        Source::Wayback,
        Source::Web,
        Source::ArxivWeb,
        Source::OpenReviewWeb,
        Source::Dblp,
        Source::OpenReview,
        Source::Acl,
    ];

    /// Path prefix and name used in `--source` style arguments.
    pub fn name(self) -> &'static str {
        match self {
            Source::Crossref => "crossref",
            Source::OpenAlex => "openalex",
            Source::S2 => "s2",
            Source::Arxiv => "arxiv",
            Source::Pubmed => "pubmed",
            Source::EuropePmc => "europepmc",
            Source::Doi => "doi",
            Source::DataCite => "datacite",
            Source::Unpaywall => "unpaywall",
            Source::Landing => "landing",
            Source::OpenLibrary => "openlibrary",
            Source::Rfc => "rfc",
            Source::Pypi => "pypi",
            Source::Cran => "cran",
            Source::Crates => "crates",
            Source::Npm => "npm",
            Source::Wayback => "wayback",
            Source::Web => "web",
            Source::ArxivWeb => "arxiv-web",
            Source::OpenReviewWeb => "openreview-web",
            Source::Dblp => "dblp",
            Source::OpenReview => "openreview",
            Source::Acl => "acl",
        }
    }

    /// `<NAME>` of the `CITEPROOF_<NAME>_URL` variable; `None` for landing pages, which are
    /// reached through links in the records rather than configured.
    pub fn env_name(self) -> Option<&'static str> {
        Some(match self {
            Source::Crossref => "CROSSREF",
            Source::OpenAlex => "OPENALEX",
            Source::S2 => "S2",
            Source::Arxiv => "ARXIV",
            Source::Pubmed => "PUBMED",
            Source::EuropePmc => "EUROPEPMC",
            Source::Doi => "DOI",
            Source::DataCite => "DATACITE",
            Source::Unpaywall => "UNPAYWALL",
            Source::OpenLibrary => "OPENLIBRARY",
            Source::Rfc => "RFC",
            Source::Pypi => "PYPI",
            Source::Cran => "CRAN",
            Source::Crates => "CRATES",
            Source::Npm => "NPM",
            Source::Wayback => "WAYBACK",
            Source::Web => "WEB",
            Source::ArxivWeb => "ARXIV_WEB",
            Source::OpenReviewWeb => "OPENREVIEW_WEB",
            Source::Dblp => "DBLP",
            Source::OpenReview => "OPENREVIEW",
            Source::Acl => "ACL",
            Source::Landing => return None,
        })
    }

    pub fn from_name(name: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the real service sends `Retry-After` with its 429s (Semantic Scholar does not).
    pub fn sends_retry_after(self) -> bool {
        self != Source::S2
    }
}

/// What every handler can see.
#[derive(Clone)]
pub struct AppState {
    pub world: Arc<World>,
    /// `http://127.0.0.1:PORT`
    pub origin: Arc<String>,
}

impl AppState {
    pub fn base_url(&self, source: Source) -> String {
        format!("{}/{}", self.origin, source.name())
    }

    /// The mock publisher landing page of a work.
    pub fn landing_url(&self, entry: &Entry) -> String {
        format!("{}/{}", self.base_url(Source::Landing), entry.work.id)
    }
}

/// The whole mock: every service under its prefix behind its knobs, plus `/_mock` admin routes.
pub fn router(state: AppState, control: Arc<Control>) -> Router {
    let mut app = Router::new().nest("/_mock", admin::router(control.clone()));
    for source in Source::ALL {
        let service: Router<AppState> = match source {
            Source::Crossref => crossref::router(),
            Source::OpenAlex => openalex::router(),
            Source::S2 => s2::router(),
            Source::Arxiv => arxiv::router(),
            Source::Pubmed => pubmed::router(),
            Source::EuropePmc => europepmc::router(),
            Source::Doi => doi::router(),
            Source::DataCite => datacite::router(),
            Source::Unpaywall => unpaywall::router(),
            Source::Landing => landing::router(),
            Source::OpenLibrary => openlibrary::router(),
            Source::Rfc => rfc::router(),
            Source::Pypi => registries::pypi_router(),
            Source::Cran => registries::cran_router(),
            Source::Crates => registries::crates_router(),
            Source::Npm => registries::npm_router(),
            Source::Wayback => wayback::router(),
            Source::Web => web::router(),
            Source::ArxivWeb => eprint::arxiv_router(),
            Source::OpenReviewWeb => eprint::openreview_router(),
            Source::Dblp => dblp::router(),
            Source::OpenReview => openreview::router(),
            Source::Acl => acl::router(),
        };
        let gated = service.with_state(state.clone()).layer(from_fn_with_state(
            Gate {
                control: control.clone(),
                source,
            },
            gate,
        ));
        app = app.nest(&format!("/{}", source.name()), gated);
    }
    app
}

/// A response with a body and content type.
pub fn reply(status: StatusCode, content_type: &str, body: impl Into<Body>) -> Response {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    if let Ok(value) = HeaderValue::from_str(content_type) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    response
}

/// A JSON response.
pub fn json(status: StatusCode, content_type: &str, value: &Value) -> Response {
    reply(status, content_type, value.to_string())
}

/// `{"date-parts": [[y, m, d]], "date-time": …, "timestamp": …}` (Crossref style).
pub fn crossref_date(year: i32, month: u32, day: u32) -> Value {
    serde_json::json!({
        "date-parts": [[year, month, day]],
        "date-time": format!("{}T00:00:00Z", iso_date(year, month, day)),
        "timestamp": epoch_days(year, month, day) * 86_400_000,
    })
}

pub fn iso_date(year: i32, month: u32, day: u32) -> String {
    format!("{year:04}-{month:02}-{day:02}")
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
pub fn epoch_days(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Publisher names of common Crossref prefixes (Crossref records always name one).
pub fn publisher_for(doi: &str) -> &'static str {
    let prefix = doi.split('/').next().unwrap_or("");
    match prefix {
        "10.1109" => "Institute of Electrical and Electronics Engineers (IEEE)",
        "10.1016" => "Elsevier BV",
        "10.1007" | "10.1038" | "10.1186" => "Springer Science and Business Media LLC",
        "10.1145" => "Association for Computing Machinery (ACM)",
        "10.3390" => "MDPI AG",
        "10.18653" => "Association for Computational Linguistics",
        "10.1093" => "Oxford University Press (OUP)",
        "10.1002" | "10.1111" => "Wiley",
        "10.1080" => "Informa UK Limited",
        "10.3389" => "Frontiers Media SA",
        "10.1101" => "openRxiv",
        "10.1371" => "Public Library of Science (PLoS)",
        "10.1126" => "American Association for the Advancement of Science (AAAS)",
        "10.1073" => "Proceedings of the National Academy of Sciences",
        "10.1088" => "IOP Publishing",
        "10.1098" => "The Royal Society",
        "10.1117" => "SPIE-Intl Soc Optical Eng",
        "10.1136" => "BMJ",
        "10.1177" => "SAGE Publications",
        "10.2139" => "Elsevier BV",
        "10.1609" => "Association for the Advancement of Artificial Intelligence (AAAI)",
        "10.52202" => "Neural Information Processing Systems Foundation, Inc. (NeurIPS)",
        _ => "Crossref member",
    }
}
