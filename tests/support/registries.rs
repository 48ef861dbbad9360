//! The package registries, each in its documented reply format: PyPI `/pypi/{name}/json`
//! (`info`, `releases`), crandb `/{name}/all` (`name`, `title`, `timeline`), crates.io
//! `/api/v1/crates/{name}` (`crate`, `versions`) and npm `/{name}` (`name`, `time`). An
//! unknown name gets each registry's own 404 body.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Map, Value, json};

use super::service::{AppState, Source, json as json_reply};
use super::text::percent_decode;
use super::world::{Entry, Package};

const JSON: &str = "application/json";

fn package<'a>(
    state: &'a AppState,
    source: Source,
    name: &str,
) -> Option<(&'a Entry, &'a Package)> {
    let wanted = normalise(name);
    state.world.entries.iter().find_map(|e| {
        let p = e.work.package.as_ref()?;
        (p.registry == source.name() && normalise(&p.name) == wanted && e.held_by(source))
            .then_some((e, p))
    })
}

/// PEP 503 style: case and `-`/`_`/`.` runs do not tell names apart.
fn normalise(name: &str) -> String {
    name.to_lowercase().replace(['_', '.'], "-")
}

pub fn pypi_router() -> Router<AppState> {
    Router::new()
        .route("/pypi/{name}/json", get(pypi))
        .fallback(|| async { pypi_missing() })
}

fn pypi_missing() -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON,
        &json!({"message": "Not Found"}),
    )
}

async fn pypi(State(state): State<AppState>, uri: Uri) -> Response {
    let name = percent_decode(
        uri.path()
            .trim_start_matches("/pypi/")
            .trim_end_matches("/json"),
    );
    let Some((e, p)) = package(&state, Source::Pypi, &name) else {
        return pypi_missing();
    };
    let releases: Map<String, Value> = p
        .releases
        .iter()
        .map(|(v, date)| {
            let file = json!({"upload_time": format!("{date}T12:00:00"), "upload_time_iso_8601": format!("{date}T12:00:00.000000Z"), "packagetype": "sdist"});
            (v.clone(), json!([file]))
        })
        .collect();
    let latest = p.releases.last().map(|(v, _)| v.clone());
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({
            "info": {"name": p.name, "version": latest, "summary": e.work.abstract_text,
                     "author": e.work.authors.first().map(|a| a.display_name()),
                     "project_url": format!("https://pypi.org/project/{}/", p.name),
                     "home_page": e.work.page.as_ref().map(|pg| pg.url.clone())},
            "releases": releases,
            "urls": []
        }),
    )
}

pub fn cran_router() -> Router<AppState> {
    Router::new()
        .route("/{name}/all", get(cran))
        .fallback(|| async { cran_missing() })
}

fn cran_missing() -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON,
        &json!({"error": "not_found", "reason": "missing"}),
    )
}

async fn cran(State(state): State<AppState>, uri: Uri) -> Response {
    let name = percent_decode(uri.path().trim_start_matches('/').trim_end_matches("/all"));
    let Some((e, p)) = package(&state, Source::Cran, &name) else {
        return cran_missing();
    };
    let timeline: Map<String, Value> = p
        .releases
        .iter()
        .map(|(v, date)| (v.clone(), json!(format!("{date}T10:00:00+00:00"))))
        .collect();
    let versions: Map<String, Value> = p
        .releases
        .iter()
        .map(|(v, date)| {
            (v.clone(), json!({"Package": p.name, "Version": v, "Title": e.work.title, "Date/Publication": format!("{date} 10:00:00 UTC")}))
        })
        .collect();
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({"_id": p.name, "name": p.name, "title": e.work.title, "archived": false,
                "latest": p.releases.last().map(|(v, _)| v.clone()),
                "versions": versions, "timeline": timeline}),
    )
}

pub fn crates_router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/crates/{name}", get(krate))
        .fallback(|| async { crates_missing("") })
}

fn crates_missing(name: &str) -> Response {
    json_reply(
        StatusCode::NOT_FOUND,
        JSON,
        &json!({"errors": [{"detail": format!("crate `{name}` does not exist")}]}),
    )
}

async fn krate(State(state): State<AppState>, uri: Uri) -> Response {
    let name = percent_decode(uri.path().trim_start_matches("/api/v1/crates/"));
    let Some((e, p)) = package(&state, Source::Crates, &name) else {
        return crates_missing(&name);
    };
    let versions: Vec<Value> = p
        .releases
        .iter()
        .rev()
        .map(|(v, date)| json!({"num": v, "created_at": format!("{date}T08:00:00.000000+00:00"), "yanked": false}))
        .collect();
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({"crate": {"id": p.name, "name": p.name, "description": e.work.abstract_text,
                          "max_version": p.releases.last().map(|(v, _)| v.clone())},
                "versions": versions}),
    )
}

pub fn npm_router() -> Router<AppState> {
    Router::new().fallback(npm)
}

async fn npm(State(state): State<AppState>, uri: Uri) -> Response {
    let name = percent_decode(uri.path().trim_start_matches('/'));
    let Some((e, p)) = package(&state, Source::Npm, &name) else {
        return json_reply(StatusCode::NOT_FOUND, JSON, &json!({"error": "Not found"}));
    };
    let mut time = Map::new();
    if let Some((_, first)) = p.releases.first() {
        time.insert("created".into(), json!(format!("{first}T00:00:00.000Z")));
    }
    for (v, date) in &p.releases {
        time.insert(v.clone(), json!(format!("{date}T00:00:00.000Z")));
    }
    json_reply(
        StatusCode::OK,
        JSON,
        &json!({"_id": p.name, "name": p.name, "description": e.work.abstract_text,
                "dist-tags": {"latest": p.releases.last().map(|(v, _)| v.clone())},
                "time": time}),
    )
}
