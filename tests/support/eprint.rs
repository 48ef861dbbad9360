//! arXiv's and OpenReview's web sites, for papers checked by identifier:
//! `arxiv.org/e-print/{id}` (a `.tar.gz` source bundle, or the PDF of a PDF-only
//! submission), `arxiv.org/pdf/{id}` and `openreview.net/pdf?id=…`. The bundles
//! and the PDF are the demo manuscript of `fixtures/inputs/demo` (its LaTeX source
//! with the `.bbl`, as arXiv ships sources, and its typeset PDF); other ids 404.

use std::io::Write;
use std::path::Path;

use axum::Router;
use axum::extract::Path as UrlPath;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;

use super::service::{AppState, reply};
use super::text::{param, query_pairs};

/// arXiv ids whose e-print is a source bundle: (path in the bundle, repository file).
const BUNDLES: &[(&str, &[(&str, &str)])] = &[(
    "2106.03010",
    &[
        ("demo/paper.tex", "fixtures/inputs/demo/paper.tex"),
        ("demo/paper.bbl", "fixtures/inputs/demo/paper.bbl"),
    ],
)];

/// arXiv ids (e-print and PDF) and OpenReview notes (`openreview:` + id) whose
/// PDF is the demo manuscript's.
const PDFS: &[&str] = &["2302.00539", "openreview:DemoPaper01"];

const PDF_FILE: &str = "fixtures/inputs/demo/paper.pdf";

pub fn arxiv_router() -> Router<AppState> {
    Router::new()
        .route("/e-print/{*id}", get(eprint))
        .route("/pdf/{*id}", get(arxiv_pdf))
        .fallback(|| async { not_found() })
}

pub fn openreview_router() -> Router<AppState> {
    Router::new()
        .route("/pdf", get(openreview_pdf))
        .fallback(|| async { not_found() })
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        "text/html; charset=utf-8",
        "<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>",
    )
}

fn repo_file(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("mock e-print file {path}: {e}"))
}

fn pdf() -> Response {
    reply(StatusCode::OK, "application/pdf", repo_file(PDF_FILE))
}

/// A gzipped tar of the bundle's files.
fn tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, file) in files {
        let bytes = repo_file(file);
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, name, bytes.as_slice())
            .unwrap();
    }
    let tar = builder.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

/// An id as the path writes it, without a version (`2106.03010v2` → `2106.03010`).
fn unversioned(id: &str) -> &str {
    match id.rfind('v') {
        Some(v) if v > 0 && id[v + 1..].chars().all(|c| c.is_ascii_digit()) && v + 1 < id.len() => {
            &id[..v]
        }
        _ => id,
    }
}

async fn eprint(UrlPath(id): UrlPath<String>) -> Response {
    let id = unversioned(&id);
    if let Some((_, files)) = BUNDLES.iter().find(|(bundle, _)| *bundle == id) {
        return reply(StatusCode::OK, "application/gzip", tar_gz(files));
    }
    if PDFS.contains(&id) {
        return pdf();
    }
    not_found()
}

async fn arxiv_pdf(UrlPath(id): UrlPath<String>) -> Response {
    let id = unversioned(id.trim_end_matches(".pdf"));
    if PDFS.contains(&id) || BUNDLES.iter().any(|(bundle, _)| *bundle == id) {
        return pdf();
    }
    not_found()
}

async fn openreview_pdf(uri: Uri) -> Response {
    let pairs = query_pairs(uri.query());
    match param(&pairs, "id") {
        Some(id) if PDFS.contains(&format!("openreview:{id}").as_str()) => pdf(),
        _ => not_found(),
    }
}
