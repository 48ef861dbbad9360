//! `citeproof serve`'s limits, errors and lifecycle, on the real binary: JSON errors
//! that say what was wrong (400, 404, 405, 413, 415, 422, 501), back-pressure (503
//! with Retry-After), the request timeout (504), graceful shutdown on SIGTERM, the
//! metrics of upstream requests and cache hits, and the private-address guard on
//! document-supplied URLs.

use serde_json::json;

use crate::serve_support::{Server, local_env, metric, wait_until, world_env};
use crate::support::{Latency, MockConfig, MockWorld, Source};

const DOI_REFERENCE: &str =
    "Oliveira AL. A blueprint for conscious machines. PNAS. 2022. doi:10.1073/pnas.2205971119";

#[test]
fn errors_are_json_and_say_what_was_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &local_env(), &["--max-body-size", "1K"]);
    let error =
        |reply: &crate::serve_support::Reply| reply.json()["error"].as_str().unwrap().to_string();

    let r = server.post_raw("/v1/clean", "{\"answer\": ", "application/json");
    assert_eq!(r.status, 400);
    assert!(error(&r).contains("not valid JSON"), "{}", r.body);
    let r = server.post_raw("/v1/clean", "{\"answer\": \"x\"}", "text/plain");
    assert_eq!(r.status, 415);
    assert!(error(&r).contains("application/json"), "{}", r.body);
    let r = server.post("/v1/clean", &json!({"answr": "x"}));
    assert_eq!(r.status, 422);
    assert!(error(&r).contains("answr"), "{}", r.body);
    let r = server.post("/v1/validate", &json!({"query": " ", "articles": []}));
    assert_eq!(r.status, 422);
    assert!(error(&r).contains("query is empty"), "{}", r.body);
    let r = server.post(
        "/v1/validate",
        &json!({"query": "q", "articles": [{"title": "T", "year": [2020]}]}),
    );
    assert_eq!(r.status, 422);
    assert!(error(&r).contains("articles[0]"), "{}", r.body);
    let r = server.post("/v1/check", &json!({"text": "x", "format": "pdf"}));
    assert_eq!(r.status, 422);
    assert!(error(&r).contains("unknown format `pdf`"), "{}", r.body);
    let big = "x".repeat(2048);
    let r = server.post("/v1/clean", &json!({ "answer": big }));
    assert_eq!(r.status, 413);
    assert!(error(&r).contains("max-body-size"), "{}", r.body);
    let r = server.get("/v1/check").unwrap();
    assert_eq!(r.status, 405);
    assert!(error(&r).contains("accepts POST"), "{}", r.body);
    let r = server.get("/v2/nothing").unwrap();
    assert_eq!(r.status, 404);
    assert!(error(&r).contains("openapi.json"), "{}", r.body);
    let r = server.post("/v1/resolve", &json!({"references": [DOI_REFERENCE]}));
    assert_eq!(r.status, 501, "resolution is off: {}", r.body);
    // The server still answers after all of that.
    assert_eq!(server.get("/healthz").unwrap().status, 200);
}

/// A server whose upstream sources answer after `latency_ms`.
fn slow_world(latency_ms: u64) -> MockWorld {
    MockWorld::start(MockConfig::fixtures().latency_all(Latency::fixed_ms(latency_ms)))
}

/// POST a slow resolve on a thread of its own.
fn slow_resolve(server: &Server) -> std::thread::JoinHandle<crate::serve_support::Reply> {
    let url = format!("{}/v1/resolve", server.base);
    std::thread::spawn(move || {
        crate::serve_support::request(
            &url,
            "POST",
            Some(
                json!({"references": [DOI_REFERENCE]})
                    .to_string()
                    .into_bytes(),
            ),
            &[("content-type", "application/json")],
        )
        .expect("the slow request is answered")
    })
}

fn in_flight(server: &Server) -> f64 {
    let text = server.get("/metrics").unwrap().body;
    metric(&text, "citeproof_http_requests_in_flight ").unwrap_or(0.0)
}

#[test]
fn a_full_server_answers_503_with_retry_after() {
    let world = slow_world(1500);
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        &world_env(world.env()),
        &["--max-concurrency", "1", "--max-queue", "0"],
    );
    let slow = slow_resolve(&server);
    wait_until(30, "the slow request to be in flight", || {
        in_flight(&server) >= 1.0
    });
    let refused = server.post("/v1/clean", &json!({"answer": "No citations here."}));
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert!(
        refused.json()["error"]
            .as_str()
            .unwrap()
            .contains("at capacity")
    );
    let answered = slow.join().unwrap();
    assert_eq!(answered.status, 200, "{}", answered.body);
    // Once the slot is free, the next request is served.
    let after = server.post("/v1/clean", &json!({"answer": "No citations here."}));
    assert_eq!(after.status, 200, "{}", after.body);
    let metrics = server.get("/metrics").unwrap().body;
    assert!(
        metrics.contains(
            "citeproof_http_requests_total{route=\"/v1/clean\",method=\"POST\",status=\"503\"} 1"
        ),
        "{metrics}"
    );
}

#[test]
fn a_slow_request_times_out_with_504() {
    let world = slow_world(4000);
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        &world_env(world.env()),
        &["--request-timeout", "1s"],
    );
    let r = server.post("/v1/resolve", &json!({"references": [DOI_REFERENCE]}));
    assert_eq!(r.status, 504, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("request-timeout")
    );
    // The slot comes back when the abandoned work ends.
    wait_until(30, "the timed-out work to end", || {
        in_flight(&server) == 0.0
    });
    assert_eq!(server.get("/healthz").unwrap().status, 200);
}

#[test]
fn sigterm_lets_the_requests_in_flight_finish() {
    let world = slow_world(1500);
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path(), &world_env(world.env()), &[]);
    let slow = slow_resolve(&server);
    wait_until(30, "the slow request to be in flight", || {
        in_flight(&server) >= 1.0
    });
    let status = server.terminate();
    assert!(status.success(), "exit status {status:?}");
    let answered = slow.join().unwrap();
    assert_eq!(answered.status, 200, "{}", answered.body);
    assert_eq!(answered.json()["results"][0]["status"], "verified");
    assert!(server.get("/healthz").is_err(), "no longer listening");
    let log = server.stderr.lock().unwrap().clone();
    assert!(
        log.contains("\"POST /v1/resolve HTTP/1.1\" 200"),
        "access log:\n{log}"
    );
    assert!(log.contains("stopped"), "{log}");
}

#[test]
fn metrics_count_upstream_requests_and_cache_hits() {
    let world = MockWorld::start(MockConfig::fixtures());
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &world_env(world.env()), &[]);
    for _ in 0..2 {
        let r = server.post("/v1/resolve", &json!({"references": [DOI_REFERENCE]}));
        assert_eq!(r.json()["results"][0]["status"], "verified", "{}", r.body);
    }
    let text = server.get("/metrics").unwrap().body;
    let upstream = metric(
        &text,
        "citeproof_upstream_requests_total{source=\"crossref\"}",
    )
    .unwrap();
    assert!(upstream >= 1.0, "{text}");
    assert_eq!(upstream as usize, world.request_count(Source::Crossref));
    let hits: f64 = text
        .lines()
        .filter(|l| l.starts_with("citeproof_cache_lookups_total") && l.contains("result=\"hit\""))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert!(
        hits >= 1.0,
        "the second resolve is answered from the cache:\n{text}"
    );
    assert!(text.contains("citeproof_http_request_duration_seconds_bucket{route=\"/v1/resolve\""));
}

#[test]
fn document_urls_keep_the_private_address_guard() {
    let world = MockWorld::start(MockConfig::fixtures());
    for source in [Source::Crossref, Source::OpenAlex, Source::S2] {
        world.set_down(source, true);
    }
    let landing = format!("{}/w001021", world.base_url(Source::Landing));
    let reference = format!("Turing, A. Checking a large routine. (1989). {landing}");
    let body = json!({"references": [reference]});
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), &world_env(world.env()), &["--no-cache"]);
    let r = server.post("/v1/resolve", &body);
    assert_eq!(r.json()["results"][0]["status"], "unverified", "{}", r.body);
    assert_eq!(
        world.request_count(Source::Landing),
        0,
        "a loopback URL is never fetched"
    );
    drop(server);
    let allowed = Server::start(
        dir.path(),
        &world_env(world.env()),
        &["--no-cache", "--allow-private-urls"],
    );
    let r = allowed.post("/v1/resolve", &body);
    assert_eq!(r.json()["results"][0]["status"], "verified", "{}", r.body);
    assert_eq!(world.request_count(Source::Landing), 1);
}
