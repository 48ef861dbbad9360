//! Who may use `citeproof serve`, on the real binary: bearer tokens (401 with
//! `WWW-Authenticate` for a missing, malformed or unknown token; tokens never in the
//! log), each token's rate limit and requests in flight (429 with `Retry-After`), the
//! CORS policy (closed by default, open to the configured origins), and `/healthz` and
//! `/metrics` on a listener of their own.

use serde_json::json;

use crate::serve_support::{Reply, Server, isolated, local_env, request, wait_until, world_env};
use crate::support::{Latency, MockConfig, MockWorld};

const TOKEN_A: &str = "tok-a-5b0c1f7e9d2a44c3";
const TOKEN_B: &str = "tok-b-81e6aa03c4d94f10";
const FILE_TOKEN: &str = "tok-file-3f9e2d7c1b0a";

fn clean_body() -> serde_json::Value {
    json!({"answer": "No citations here."})
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// The local environment with tokens in `CITEPROOF_SERVE_TOKENS`.
fn env_with_tokens() -> Vec<(String, String)> {
    let mut env = local_env();
    env.push((
        "CITEPROOF_SERVE_TOKENS".into(),
        format!("{TOKEN_A}, {TOKEN_B}"),
    ));
    env
}

fn assert_refused(reply: &Reply, status: u16, says: &str) {
    assert_eq!(reply.status, status, "{}", reply.body);
    let error = reply.json()["error"].as_str().unwrap().to_string();
    assert!(error.contains(says), "{error}");
}

#[test]
fn every_v1_request_needs_a_valid_bearer_token() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tokens"),
        format!("# the operator's tokens\n{FILE_TOKEN}\n"),
    )
    .unwrap();
    let server = Server::start(dir.path(), &env_with_tokens(), &["--tokens-file", "tokens"]);
    let none = server.post("/v1/clean", &clean_body());
    assert_refused(&none, 401, "Authorization: Bearer");
    assert_eq!(
        none.header("www-authenticate"),
        Some("Bearer realm=\"citeproof\"")
    );
    let near_miss = &TOKEN_A[..TOKEN_A.len() - 1];
    for (authorization, why) in [
        (format!("Basic {TOKEN_A}"), "another scheme"),
        ("Bearer".to_string(), "no token"),
        (bearer(near_miss), "a prefix of a token"),
        (bearer(&format!("{TOKEN_A}0")), "a token with more after it"),
        (bearer("tok-c-0000000000000000"), "an unknown token"),
    ] {
        let r = server.post_with(
            "/v1/clean",
            &clean_body(),
            &[("authorization", &authorization)],
        );
        assert_eq!(r.status, 401, "{why}: {}", r.body);
        let challenge = r.header("www-authenticate").unwrap_or_default();
        assert!(
            challenge.starts_with("Bearer realm=\"citeproof\""),
            "{why}: {challenge}"
        );
    }
    let unknown = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(near_miss))],
    );
    assert_refused(&unknown, 401, "not one this server accepts");
    assert!(
        unknown
            .header("www-authenticate")
            .unwrap()
            .contains("invalid_token")
    );
    // Every /v1/ route is behind the tokens, checked before the body is read.
    for path in ["/v1/check", "/v1/resolve", "/v1/validate"] {
        let r = server.post_raw(path, "not even JSON", "text/plain");
        assert_eq!(r.status, 401, "{path}: {}", r.body);
    }
    // The tokens of the environment and of the file are accepted, the scheme in any case.
    for authorization in [
        bearer(TOKEN_A),
        format!("bearer {TOKEN_B}"),
        bearer(FILE_TOKEN),
    ] {
        let r = server.post_with(
            "/v1/clean",
            &clean_body(),
            &[("authorization", &authorization)],
        );
        assert_eq!(r.status, 200, "{authorization}: {}", r.body);
    }
    // Health, metrics, the description and the page stay open.
    for path in ["/healthz", "/metrics", "/openapi.json", "/"] {
        assert_eq!(server.get(path).unwrap().status, 200, "{path}");
    }
    let metrics = server.get("/metrics").unwrap().body;
    assert!(
        metrics.contains("route=\"/v1/clean\",method=\"POST\",status=\"401\"} 7"),
        "{metrics}"
    );
    let log = server.stderr.lock().unwrap().clone();
    assert!(log.contains("\"POST /v1/clean HTTP/1.1\" 401"), "{log}");
    assert!(log.contains("3 bearer tokens"), "{log}");
    for token in [TOKEN_A, TOKEN_B, FILE_TOKEN, near_miss] {
        assert!(!log.contains(token), "a token reached the log:\n{log}");
    }
}

#[test]
fn a_bad_tokens_file_stops_the_server_naming_the_line_not_the_token() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tokens"), format!("{TOKEN_A}\nshort\n")).unwrap();
    let out = isolated(dir.path())
        .envs(local_env())
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--tokens-file",
            "tokens",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tokens:2:") && stderr.contains("too easy to guess"),
        "{stderr}"
    );
    assert!(!stderr.contains(TOKEN_A), "{stderr}");
    let out = isolated(dir.path())
        .envs(local_env())
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--tokens-file",
            "absent",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read the tokens file") && stderr.contains("absent"),
        "{stderr}"
    );
}

#[test]
fn a_token_over_its_rate_gets_429_with_retry_after_and_others_carry_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        &env_with_tokens(),
        &["--token-rate-limit", "2/min"],
    );
    let a = bearer(TOKEN_A);
    for _ in 0..2 {
        let r = server.post_with("/v1/clean", &clean_body(), &[("authorization", &a)]);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let spent = server.post_with("/v1/clean", &clean_body(), &[("authorization", &a)]);
    assert_refused(&spent, 429, "token-rate-limit");
    let wait: u64 = spent.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=30).contains(&wait),
        "a 2/min token waits up to 30 s: {wait}"
    );
    let b = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(TOKEN_B))],
    );
    assert_eq!(b.status, 200, "another token has its own rate: {}", b.body);
    // An unknown token is refused as such, not counted against anyone's rate.
    let r = server.post_with("/v1/clean", &clean_body(), &[("authorization", "Bearer x")]);
    assert_eq!(r.status, 401);
}

#[test]
fn a_token_over_its_requests_in_flight_gets_429() {
    let world = MockWorld::start(MockConfig::fixtures().latency_all(Latency::fixed_ms(1500)));
    let dir = tempfile::tempdir().unwrap();
    let mut env = world_env(world.env());
    env.push((
        "CITEPROOF_SERVE_TOKENS".into(),
        format!("{TOKEN_A},{TOKEN_B}"),
    ));
    let server = Server::start(dir.path(), &env, &["--token-concurrency", "1"]);
    let url = format!("{}/v1/resolve", server.base);
    let slow = std::thread::spawn(move || {
        let body = json!({"references": [
            "Oliveira AL. A blueprint for conscious machines. PNAS. 2022. doi:10.1073/pnas.2205971119"
        ]});
        request(
            &url,
            "POST",
            Some(body.to_string().into_bytes()),
            &[
                ("content-type", "application/json"),
                ("authorization", &bearer(TOKEN_A)),
            ],
        )
        .expect("the slow request is answered")
    });
    wait_until(30, "the slow request to be in flight", || {
        let text = server.get("/metrics").unwrap().body;
        crate::serve_support::metric(&text, "citeproof_http_requests_in_flight ") >= Some(1.0)
    });
    let busy = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(TOKEN_A))],
    );
    assert_refused(&busy, 429, "token-concurrency");
    assert_eq!(busy.header("retry-after"), Some("1"));
    let other = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(TOKEN_B))],
    );
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(slow.join().unwrap().status, 200);
    // The permit came back with the slow request's slot.
    let again = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(TOKEN_A))],
    );
    assert_eq!(again.status, 200, "{}", again.body);
}

fn preflight(server: &Server, origin: &str) -> Reply {
    request(
        &format!("{}/v1/clean", server.base),
        "OPTIONS",
        None,
        &[
            ("origin", origin),
            ("access-control-request-method", "POST"),
            (
                "access-control-request-headers",
                "authorization,content-type",
            ),
        ],
    )
    .unwrap()
}

#[test]
fn cors_is_closed_by_default_and_open_to_the_configured_origins() {
    const APP: &str = "https://app.example.org";
    let dir = tempfile::tempdir().unwrap();
    let closed = Server::start(dir.path(), &local_env(), &[]);
    let r = closed.post_with("/v1/clean", &clean_body(), &[("origin", APP)]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);
    let p = preflight(&closed, APP);
    assert_eq!(p.header("access-control-allow-origin"), None, "{p:?}");
    assert_eq!(p.header("access-control-allow-headers"), None, "{p:?}");
    drop(closed);

    let open = Server::start(dir.path(), &env_with_tokens(), &["--cors-origin", APP]);
    // The preflight carries no token and needs none.
    let p = preflight(&open, APP);
    assert!(p.status < 300, "{p:?}");
    assert_eq!(p.header("access-control-allow-origin"), Some(APP));
    let allowed = p
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization"), "{allowed}");
    let r = open.post_with(
        "/v1/clean",
        &clean_body(),
        &[("origin", APP), ("authorization", &bearer(TOKEN_A))],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("access-control-allow-origin"), Some(APP));
    // A refusal is readable by the page too, so it can ask for a token.
    let r = open.post_with("/v1/clean", &clean_body(), &[("origin", APP)]);
    assert_eq!(r.status, 401);
    assert_eq!(r.header("access-control-allow-origin"), Some(APP));
    let other = "https://elsewhere.example.com";
    assert_eq!(
        preflight(&open, other).header("access-control-allow-origin"),
        None
    );
    let r = open.post_with(
        "/v1/clean",
        &clean_body(),
        &[("origin", other), ("authorization", &bearer(TOKEN_A))],
    );
    assert_eq!(r.header("access-control-allow-origin"), None);
}

#[test]
fn health_and_metrics_move_to_the_admin_listener() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        &env_with_tokens(),
        &["--admin-listen", "127.0.0.1:0"],
    );
    let admin = server.admin.clone().expect("the admin listener");
    assert_ne!(admin, server.base);
    for path in ["/healthz", "/metrics"] {
        assert_eq!(
            server.get(path).unwrap().status,
            404,
            "{path} left the main listener"
        );
    }
    assert_eq!(server.get("/openapi.json").unwrap().status, 200);
    let r = server.post_with(
        "/v1/clean",
        &clean_body(),
        &[("authorization", &bearer(TOKEN_A))],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let health = request(&format!("{admin}/healthz"), "GET", None, &[]).unwrap();
    assert_eq!(health.json()["status"], "ok");
    let metrics = request(&format!("{admin}/metrics"), "GET", None, &[])
        .unwrap()
        .body;
    assert!(
        metrics.contains("route=\"/v1/clean\",method=\"POST\",status=\"200\"} 1"),
        "the admin listener counts the main one's requests:\n{metrics}"
    );
    let r = request(
        &format!("{admin}/v1/clean"),
        "POST",
        Some(clean_body().to_string().into_bytes()),
        &[
            ("content-type", "application/json"),
            ("authorization", &bearer(TOKEN_A)),
        ],
    )
    .unwrap();
    assert_eq!(r.status, 404, "the admin listener serves nothing else");
}
