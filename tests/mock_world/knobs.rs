//! Faults, rate limits, the down switch, latency draws and the request log, as a client sees
//! them.

use std::collections::HashMap;
use std::time::Duration;

use crate::helpers::{client, get, send};
use crate::support::knobs::{Arrival, Control, Knobs};
use crate::support::{
    FaultKind, FaultRule, Latency, MockConfig, MockWorld, RateLimit, Source, Trigger,
};

const WORK: &str = "/works/10.1109/cvpr.2016.90";

fn always(kind: FaultKind) -> FaultRule {
    FaultRule::new(Trigger::Always, kind)
}

/// The outcome of one GET as a label: a status, or the kind of transport error.
async fn outcome(world: &MockWorld, source: Source, path: &str) -> String {
    let request = client()
        .get(format!("{}{path}", world.base_url(source)))
        .timeout(Duration::from_millis(400));
    match request.send().await {
        Err(e) if e.is_timeout() => "timeout".into(),
        Err(_) => "error".into(),
        Ok(response) => {
            let status = response.status().as_u16();
            match response.bytes().await {
                Ok(_) => status.to_string(),
                Err(_) => format!("{status}+broken"),
            }
        }
    }
}

#[tokio::test]
async fn each_fault_kind_looks_like_the_real_failure() {
    let world = MockWorld::start(MockConfig::fixtures());
    for code in [500, 502, 503] {
        world.set_fault(Source::Crossref, always(FaultKind::Status(code)));
        let reply = get(&world, Source::Crossref, WORK).await;
        assert_eq!(reply.status, code);
        assert!(reply.content_type.starts_with("text/html"));
    }
    world.set_fault(Source::Crossref, always(FaultKind::HtmlErrorPage));
    let page = get(&world, Source::Crossref, WORK).await;
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html") && page.body.contains("<html"));
    world.set_fault(Source::Crossref, always(FaultKind::EmptyBody));
    let empty = get(&world, Source::Crossref, WORK).await;
    assert_eq!(
        (
            empty.status,
            empty.content_type.as_str(),
            empty.body.as_str()
        ),
        (200, "application/json", "")
    );
    world.set_fault(Source::Crossref, always(FaultKind::TruncatedBody));
    assert_eq!(outcome(&world, Source::Crossref, WORK).await, "200+broken");
    world.set_fault(Source::Crossref, always(FaultKind::ConnectionReset));
    assert_eq!(outcome(&world, Source::Crossref, WORK).await, "error");
    world.set_fault(Source::Crossref, always(FaultKind::Timeout));
    assert_eq!(outcome(&world, Source::Crossref, WORK).await, "timeout");
    world.clear_faults(Source::Crossref);
    assert_eq!(outcome(&world, Source::Crossref, WORK).await, "200");
    // Other sources were never affected.
    assert_eq!(
        outcome(&world, Source::OpenAlex, "/works/W2194775991").await,
        "200"
    );
    let outcomes: Vec<Option<String>> = world
        .requests(Source::Crossref)
        .into_iter()
        .map(|r| r.outcome)
        .collect();
    assert_eq!(outcomes.iter().filter(|o| o.is_some()).count(), 8);
    assert_eq!(outcomes.last().unwrap(), &None);
}

#[tokio::test]
async fn nth_request_fault_hits_only_that_request() {
    let world = MockWorld::start(MockConfig::fixtures().fault(
        Source::S2,
        FaultRule::new(Trigger::Nth(3), FaultKind::Status(500)),
    ));
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            get(&world, Source::S2, "/graph/v1/paper/ARXIV:1512.03385")
                .await
                .status,
        );
    }
    assert_eq!(statuses, [200, 200, 500, 200, 200]);
}

async fn fault_sequence(seed: u64) -> Vec<String> {
    let world = MockWorld::start(MockConfig::fixtures().seed(seed).fault(
        Source::OpenAlex,
        FaultRule {
            trigger: Trigger::Probability(0.5),
            kinds: vec![
                FaultKind::Status(500),
                FaultKind::Status(503),
                FaultKind::EmptyBody,
            ],
        },
    ));
    let mut out = Vec::new();
    for i in 0..30 {
        // Half the paths repeat, so occurrences of one URL get fresh draws.
        let path = format!("/works?search=learning&page={}", i % 15 + 1);
        let reply = get(&world, Source::OpenAlex, &path).await;
        out.push(format!("{}:{}", reply.status, reply.body.is_empty()));
    }
    out
}

#[tokio::test]
async fn probabilistic_faults_are_deterministic_per_seed() {
    let a = fault_sequence(7).await;
    let b = fault_sequence(7).await;
    let c = fault_sequence(8).await;
    assert_eq!(a, b, "same seed, same faults");
    assert_ne!(a, c, "another seed, other faults");
    let failed = a.iter().filter(|s| !s.starts_with("200:false")).count();
    assert!(
        (5..=25).contains(&failed),
        "about half fail: {failed} of 30"
    );
}

#[tokio::test]
async fn rate_limits_answer_429_with_retry_after_except_s2() {
    let limit = RateLimit::new(0.01, 2);
    let world = MockWorld::start(
        MockConfig::fixtures()
            .rate_limit(Source::Crossref, limit)
            .rate_limit(Source::S2, limit),
    );
    let mut statuses = Vec::new();
    let mut last = None;
    for _ in 0..4 {
        let reply = get(&world, Source::Crossref, WORK).await;
        statuses.push(reply.status);
        last = Some(reply);
    }
    assert_eq!(statuses, [200, 200, 429, 429]);
    let retry: u64 = last.unwrap().headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    let mut s2 = Vec::new();
    for _ in 0..3 {
        s2.push(get(&world, Source::S2, "/graph/v1/paper/ARXIV:1512.03385").await);
    }
    assert_eq!(
        s2.iter().map(|r| r.status).collect::<Vec<_>>(),
        [200, 200, 429]
    );
    assert!(s2[2].headers.get("retry-after").is_none());
    assert!(
        s2[2].json()["message"]
            .as_str()
            .unwrap()
            .starts_with("Too Many Requests")
    );
    world.set_rate_limit(Source::Crossref, None);
    assert_eq!(get(&world, Source::Crossref, WORK).await.status, 200);
    let logged: Vec<Option<String>> = world
        .requests(Source::Crossref)
        .into_iter()
        .map(|r| r.outcome)
        .collect();
    assert_eq!(
        logged
            .iter()
            .filter(|o| o.as_deref() == Some("rate_limited"))
            .count(),
        2
    );
}

#[tokio::test]
async fn a_source_taken_down_resets_connections_and_comes_back() {
    let world = MockWorld::start(MockConfig::fixtures().down(Source::Arxiv));
    assert_eq!(
        outcome(&world, Source::Arxiv, "/api/query?id_list=1512.03385").await,
        "error"
    );
    assert_eq!(
        outcome(&world, Source::S2, "/graph/v1/paper/ARXIV:1512.03385").await,
        "200"
    );
    world.set_down(Source::Arxiv, false);
    assert_eq!(
        outcome(&world, Source::Arxiv, "/api/query?id_list=1512.03385").await,
        "200"
    );
    let log = world.requests(Source::Arxiv);
    assert_eq!(
        (log[0].status, log[0].outcome.as_deref()),
        (None, Some("down"))
    );
    assert_eq!(log[1].status, Some(200));
}

#[tokio::test]
async fn the_request_log_counts_what_each_source_received() {
    let world = MockWorld::start(MockConfig::fixtures());
    assert_eq!(world.total_requests(), 0);
    get(&world, Source::Crossref, WORK).await;
    get(&world, Source::Crossref, "/works/10.9999/none").await;
    let batch = client()
        .post(format!(
            "{}/graph/v1/paper/batch?fields=title",
            world.base_url(Source::S2)
        ))
        .header("User-Agent", "citeproof-test (mailto:test@example.org)")
        .json(&serde_json::json!({"ids": ["ARXIV:1512.03385"]}));
    send(batch).await;
    let crossref = world.requests(Source::Crossref);
    assert_eq!(crossref.len(), 2);
    assert_eq!(
        (
            crossref[0].method.as_str(),
            crossref[0].path_and_query.as_str(),
            crossref[0].status
        ),
        ("GET", WORK, Some(200))
    );
    assert_eq!(crossref[1].status, Some(404));
    let s2 = world.requests(Source::S2);
    assert_eq!(s2[0].path_and_query, "/graph/v1/paper/batch?fields=title");
    assert!(s2[0].body.contains("ARXIV:1512.03385"));
    assert_eq!(
        s2[0].header("user-agent"),
        Some("citeproof-test (mailto:test@example.org)")
    );
    assert_eq!(world.total_requests(), 3);
    let counts = send(client().get(format!("{}/_mock/requests", world.origin())))
        .await
        .json();
    assert_eq!(
        (
            counts["crossref"].as_u64(),
            counts["s2"].as_u64(),
            counts["total"].as_u64()
        ),
        (Some(2), Some(1), Some(3))
    );
    world.clear_requests();
    assert_eq!(world.total_requests(), 0);
}

#[test]
fn latency_draws_are_within_bounds_and_reproducible() {
    let knobs = Knobs {
        latency: Latency::jittered_ms(100, 50),
        ..Knobs::default()
    };
    let draws = |seed: u64| -> Vec<Duration> {
        let control = Control::new(seed, &HashMap::from([(Source::Crossref, knobs.clone())]));
        (0..20)
            .map(|i| {
                let arrival = Arrival {
                    method: "GET".into(),
                    path_and_query: format!("/works/{}", i % 7),
                    headers: Vec::new(),
                    body: String::new(),
                };
                control.admit(Source::Crossref, arrival).1
            })
            .collect()
    };
    let a = draws(1);
    assert!(
        a.iter()
            .all(|d| *d >= Duration::from_millis(100) && *d <= Duration::from_millis(150))
    );
    assert_eq!(a, draws(1));
    assert_ne!(a, draws(2));
    assert!(a.iter().any(|d| *d != a[0]), "jitter varies");
}

#[test]
fn env_names_every_configurable_service() {
    let world = MockWorld::start(MockConfig::fixtures());
    let env = world.env();
    let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "CITEPROOF_CROSSREF_URL",
            "CITEPROOF_OPENALEX_URL",
            "CITEPROOF_S2_URL",
            "CITEPROOF_ARXIV_URL",
            "CITEPROOF_PUBMED_URL",
            "CITEPROOF_EUROPEPMC_URL",
            "CITEPROOF_DOI_URL",
            "CITEPROOF_DATACITE_URL",
            "CITEPROOF_UNPAYWALL_URL",
            "CITEPROOF_OPENLIBRARY_URL",
            "CITEPROOF_RFC_URL",
            "CITEPROOF_PYPI_URL",
            "CITEPROOF_CRAN_URL",
            "CITEPROOF_CRATES_URL",
            "CITEPROOF_NPM_URL",
            "CITEPROOF_WAYBACK_URL",
            "CITEPROOF_WEB_URL",
            "CITEPROOF_ARXIV_WEB_URL",
            "CITEPROOF_OPENREVIEW_WEB_URL",
            "CITEPROOF_DBLP_URL",
            "CITEPROOF_OPENREVIEW_URL",
            "CITEPROOF_ACL_URL",
        ]
    );
    assert!(env.iter().all(|(_, url)| url.starts_with(world.origin())));
    world.shutdown();
}
