//! The web of cited URLs: `/web/{scheme}/{host}/{path}` serves the page a world work
//! has at `https://host/path` (its `page`): HTML with `<title>`, `og:title`, author and
//! date meta tags; a page that is gone answers 404, a refusing site 403, a bot wall a
//! captcha page; `web.archive.org/web/{timestamp}/{url}` serves the archived copies.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;

use super::service::{AppState, Source, reply};
use super::text::xml_escape;
use super::world::Entry;

const HTML: &str = "text/html; charset=utf-8";

pub fn router() -> Router<AppState> {
    Router::new().fallback(get(page))
}

/// Whether two URLs name one page (scheme, `www.` and a trailing slash aside).
pub fn same_url(a: &str, b: &str) -> bool {
    let key = |u: &str| {
        let u = u.trim();
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))
            .unwrap_or(u);
        let u = u.strip_prefix("www.").unwrap_or(u);
        u.trim_end_matches('/').to_lowercase()
    };
    key(a) == key(b)
}

fn not_found() -> Response {
    reply(
        StatusCode::NOT_FOUND,
        HTML,
        "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>Not Found</body></html>",
    )
}

async fn page(State(state): State<AppState>, uri: Uri) -> Response {
    // `/https/host/path?q` → `https://host/path?q`
    let path = uri.path().trim_start_matches('/');
    let Some((scheme, rest)) = path.split_once('/') else {
        return not_found();
    };
    let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
    let url = format!("{scheme}://{rest}{query}");
    if let Some(archived) = rest.strip_prefix("web.archive.org/web/") {
        return archived_copy(&state, archived);
    }
    let entry = state.world.entries.iter().find(|e| {
        e.held_by(Source::Web) && e.work.page.as_ref().is_some_and(|p| same_url(&p.url, &url))
    });
    let Some(e) = entry else {
        return not_found();
    };
    match e.work.page.as_ref().map_or(200, |p| p.status) {
        200 => reply(StatusCode::OK, HTML, page_html(e)),
        0 => reply(
            StatusCode::OK,
            HTML,
            "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div class=\"g-recaptcha\"></div></body></html>",
        ),
        403 => reply(
            StatusCode::FORBIDDEN,
            HTML,
            "<html><head><title>403 Forbidden</title></head></html>",
        ),
        429 => reply(
            StatusCode::TOO_MANY_REQUESTS,
            HTML,
            "<html><head><title>Too Many Requests</title></head></html>",
        ),
        410 => reply(
            StatusCode::GONE,
            HTML,
            "<html><head><title>Gone</title></head></html>",
        ),
        _ => not_found(),
    }
}

/// `{timestamp}/{original url}` of a copy the Wayback Machine holds.
fn archived_copy(state: &AppState, archived: &str) -> Response {
    let Some((stamp, original)) = archived.split_once('/') else {
        return not_found();
    };
    let entry = state.world.entries.iter().find(|e| {
        e.held_by(Source::Wayback)
            && e.work
                .page
                .as_ref()
                .is_some_and(|p| p.archived.as_deref() == Some(stamp) && same_url(&p.url, original))
    });
    match entry {
        Some(e) => reply(StatusCode::OK, HTML, page_html(e)),
        None => not_found(),
    }
}

fn page_html(e: &Entry) -> String {
    let w = &e.work;
    let title = xml_escape(&w.title);
    let mut head = format!(
        "<title>{title} | {}</title>\n<meta property=\"og:title\" content=\"{title}\">\n",
        xml_escape(w.venue.as_deref().unwrap_or("Site"))
    );
    if let Some(a) = w.authors.first() {
        head.push_str(&format!(
            "<meta name=\"author\" content=\"{}\">\n",
            xml_escape(&a.display_name())
        ));
    }
    if let Some(y) = w.year {
        head.push_str(&format!(
            "<meta property=\"article:published_time\" content=\"{y}-03-01T00:00:00Z\">\n"
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html><head>\n{head}</head><body><h1>{title}</h1><p>{}</p></body></html>\n",
        xml_escape(w.abstract_text.as_deref().unwrap_or(""))
    )
}
