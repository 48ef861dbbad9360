//! The network layer against a local server: retries, Retry-After, backoff, giving up,
//! size cap, timeouts, truncated bodies, rate limiting, concurrency and counters.
//! Timing checks are lower bounds the limiter or backoff guarantees, never upper bounds.

mod http_mock;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use citeproof::net::{
    HttpRequest, Net, NetConfig, NetError, Rate, RetryPolicy, SourceHandle, SourcePolicy,
};
use http_mock::{Canned, MockServer};
use url::Url;

fn policy(max_retries: u32, base_delay_ms: u64) -> SourcePolicy {
    SourcePolicy {
        rate: Rate::per_second(1000),
        max_concurrency: 8,
        timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            max_retries,
            base_delay: Duration::from_millis(base_delay_ms),
            max_delay: Duration::from_secs(2),
            max_retry_after: Duration::from_secs(5),
            retry_timeouts: true,
        },
        max_body_bytes: 1 << 20,
        ..SourcePolicy::default()
    }
}

fn source(policy: SourcePolicy) -> (Arc<Net>, SourceHandle) {
    let net = Arc::new(
        Net::new(&NetConfig {
            mailto: Some("tests@example.org".into()),
            ..NetConfig::default()
        })
        .unwrap(),
    );
    let handle = net.source("test", policy);
    (net, handle)
}

fn get(server: &MockServer, path: &str) -> HttpRequest {
    HttpRequest::get(Url::parse(&format!("{}{path}", server.base)).unwrap())
}

#[tokio::test]
async fn retries_a_500_then_succeeds() {
    let server = MockServer::start(|_, n| {
        if n < 2 {
            Canned::text(500, "boom")
        } else {
            Canned::text(200, "ok")
        }
    })
    .await;
    let (_net, src) = source(policy(3, 5));
    let reply = src.send(&get(&server, "/x")).await.unwrap();
    assert_eq!((reply.status, reply.body.as_slice()), (200, &b"ok"[..]));
    assert_eq!(server.count(), 3);
    let stats = src.stats();
    assert_eq!((stats.requests, stats.retries, stats.failures), (3, 2, 0));
}

#[tokio::test]
async fn gives_up_after_the_retries_with_a_failure() {
    let server = MockServer::start(|_, _| Canned::text(503, "down")).await;
    let (_net, src) = source(policy(2, 5));
    let err = src.send(&get(&server, "/x")).await.unwrap_err();
    assert_eq!(
        err,
        NetError::Status {
            status: 503,
            attempts: 3
        }
    );
    assert_eq!(server.count(), 3);
    assert_eq!(src.stats().failures, 1);
}

#[tokio::test]
async fn final_statuses_are_replies_not_retried() {
    let server = MockServer::start(|_, _| Canned::text(404, "Resource not found.")).await;
    let (_net, src) = source(policy(3, 5));
    let reply = src.send(&get(&server, "/x")).await.unwrap();
    assert_eq!(reply.status, 404);
    assert_eq!(reply.content_type.as_deref(), Some("text/plain"));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn retry_after_seconds_is_honoured_and_pauses_the_source() {
    let server = MockServer::start(|_, n| {
        if n == 0 {
            Canned::text(429, "slow down").header("retry-after", "1")
        } else {
            Canned::text(200, "ok")
        }
    })
    .await;
    let (_net, src) = source(policy(3, 5));
    let first = tokio::spawn({
        let (src, req) = (src.clone(), get(&server, "/a"));
        async move { src.send(&req).await }
    });
    server.wait_for(1, Duration::from_secs(5)).await;
    // Another request to the same source, sent while the first waits out its 429.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let second = src.send(&get(&server, "/b")).await.unwrap();
    assert_eq!(second.status, 200);
    assert_eq!(first.await.unwrap().unwrap().status, 200);
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    for later in &seen[1..] {
        assert!(
            later.at.duration_since(seen[0].at) >= Duration::from_secs(1),
            "{} arrived {:?} after the 429",
            later.path,
            later.at.duration_since(seen[0].at)
        );
    }
    assert_eq!(src.stats().rate_limited, 1);
}

#[tokio::test]
async fn a_retry_after_beyond_the_limit_fails_at_once() {
    let server =
        MockServer::start(|_, _| Canned::text(503, "maintenance").header("retry-after", "3600"))
            .await;
    let (_net, src) = source(policy(3, 5));
    let err = src.send(&get(&server, "/x")).await.unwrap_err();
    assert!(matches!(err, NetError::RetryAfterTooLong { .. }), "{err:?}");
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn a_429_without_retry_after_backs_off_exponentially() {
    let server = MockServer::start(|_, n| {
        if n < 2 {
            Canned::text(429, "")
        } else {
            Canned::text(200, "ok")
        }
    })
    .await;
    let (_net, src) = source(policy(3, 60));
    assert_eq!(src.send(&get(&server, "/x")).await.unwrap().status, 200);
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    // Backoff n is drawn from [base·2ⁿ/2, base·2ⁿ]: at least 30 ms, then 60 ms.
    assert!(seen[1].at.duration_since(seen[0].at) >= Duration::from_millis(30));
    assert!(seen[2].at.duration_since(seen[1].at) >= Duration::from_millis(60));
    assert_eq!(src.stats().rate_limited, 2);
}

#[tokio::test]
async fn bodies_over_the_cap_fail_with_and_without_content_length() {
    let big = vec![b'x'; 64 * 1024];
    let server = MockServer::start(move |seen, _| {
        let canned = Canned::new(200, "application/json", big.clone());
        if seen.path == "/chunked" {
            canned.chunked()
        } else {
            canned
        }
    })
    .await;
    let (_net, src) = source(SourcePolicy {
        max_body_bytes: 10_000,
        ..policy(3, 5)
    });
    for path in ["/declared", "/chunked"] {
        let err = src.send(&get(&server, path)).await.unwrap_err();
        assert_eq!(err, NetError::TooLarge { limit: 10_000 }, "{path}");
    }
    assert_eq!(server.count(), 2, "a body too large is not retried");
    // Under the cap the same body arrives whole.
    let (_net, roomy) = source(policy(0, 5));
    let reply = roomy.send(&get(&server, "/chunked")).await.unwrap();
    assert_eq!(reply.body.len(), 64 * 1024);
    assert_eq!(roomy.stats().bytes, 64 * 1024);
}

#[tokio::test]
async fn a_stalled_server_times_out_as_a_failure() {
    let server =
        MockServer::start(|_, _| Canned::text(200, "late").delayed(Duration::from_secs(30))).await;
    let timeout = Duration::from_millis(200);
    let (_net, once) = source(SourcePolicy {
        timeout,
        retry: RetryPolicy {
            retry_timeouts: false,
            ..policy(3, 5).retry
        },
        ..policy(3, 5)
    });
    assert_eq!(
        once.send(&get(&server, "/x")).await.unwrap_err(),
        NetError::Timeout(timeout)
    );
    assert_eq!(server.count(), 1);
    let (_net, twice) = source(SourcePolicy {
        timeout,
        ..policy(1, 5)
    });
    assert_eq!(
        twice.send(&get(&server, "/y")).await.unwrap_err(),
        NetError::Timeout(timeout)
    );
    assert_eq!(
        server.count(),
        3,
        "a timed-out request is retried when allowed"
    );
}

/// A raw server that declares 100 bytes, sends a few and closes the connection.
fn truncating_server() -> (String, std::thread::JoinHandle<usize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let mut served = 0;
        for stream in listener.incoming().take(2) {
            let mut stream = stream.unwrap();
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"message\": {\"title\"");
            served += 1;
        }
        served
    });
    (base, handle)
}

#[tokio::test]
async fn a_truncated_body_is_a_failure_not_a_short_reply() {
    let (base, handle) = truncating_server();
    let (_net, src) = source(policy(1, 5));
    let err = src
        .send(&HttpRequest::get(Url::parse(&format!("{base}/x")).unwrap()))
        .await
        .unwrap_err();
    assert!(matches!(err, NetError::Body(_)), "{err:?}");
    assert_eq!(handle.join().unwrap(), 2, "retried once");
}

/// A URL on a loopback port nothing listens on (bound, then released).
fn closed_port_url() -> Url {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    Url::parse(&format!("http://127.0.0.1:{port}/x")).unwrap()
}

#[tokio::test]
async fn connection_refused_is_a_connect_failure() {
    let (_net, src) = source(policy(1, 5));
    let err = src
        .send(&HttpRequest::get(closed_port_url()))
        .await
        .unwrap_err();
    assert!(matches!(err, NetError::Connect(_)), "{err:?}");
    let stats = src.stats();
    assert_eq!((stats.requests, stats.retries, stats.failures), (2, 1, 1));
}

#[tokio::test]
async fn a_host_that_never_answers_is_given_up_on_after_three_attempts() {
    let (_net, src) = source(policy(0, 5));
    let url = closed_port_url();
    let mut errors = Vec::new();
    for _ in 0..6 {
        errors.push(src.send(&HttpRequest::get(url.clone())).await.unwrap_err());
    }
    assert!(
        errors[..3]
            .iter()
            .all(|e| matches!(e, NetError::Connect(_))),
        "{errors:?}"
    );
    assert!(
        errors[3..]
            .iter()
            .all(|e| matches!(e, NetError::Unreachable { failures: 3, .. })),
        "{errors:?}"
    );
    let stats = src.stats();
    assert_eq!((stats.requests, stats.short_circuited), (3, 3));
}

#[tokio::test]
async fn error_statuses_are_answers_and_never_open_the_breaker() {
    let server = MockServer::start(|_, _| Canned::text(503, "busy")).await;
    let (_net, src) = source(policy(0, 5));
    for _ in 0..6 {
        let err = src.send(&get(&server, "/x")).await.unwrap_err();
        assert!(
            matches!(err, NetError::Status { status: 503, .. }),
            "{err:?}"
        );
    }
    assert_eq!(src.stats().short_circuited, 0);
}

#[tokio::test]
async fn the_rate_limiter_spaces_requests() {
    let server = MockServer::start(|_, _| Canned::text(200, "ok")).await;
    let (_net, src) = source(SourcePolicy {
        rate: Rate::per_second(2),
        ..policy(0, 5)
    });
    let requests: Vec<_> = (0..5)
        .map(|i| {
            let (src, req) = (src.clone(), get(&server, &format!("/{i}")));
            tokio::spawn(async move { src.send(&req).await })
        })
        .collect();
    for r in requests {
        assert_eq!(r.await.unwrap().unwrap().status, 200);
    }
    let mut arrivals: Vec<Instant> = server.seen().iter().map(|s| s.at).collect();
    arrivals.sort();
    let first = arrivals[0];
    let early = arrivals
        .iter()
        .filter(|t| t.duration_since(first) < Duration::from_millis(500))
        .count();
    // Released at 0, 0.5, 1, 1.5 and 2 s; arrival latency varies by a few ms (the first
    // request also opens the connection), so the bounds keep a wide margin.
    assert!(
        early <= 2,
        "{early} requests within the first 500 ms at 2/s"
    );
    assert!(arrivals[4].duration_since(first) >= Duration::from_millis(1500));
}

#[tokio::test]
async fn the_concurrency_cap_holds() {
    let server =
        MockServer::start(|_, _| Canned::text(200, "ok").delayed(Duration::from_millis(150))).await;
    let (_net, src) = source(SourcePolicy {
        max_concurrency: 2,
        ..policy(0, 5)
    });
    let requests: Vec<_> = (0..6)
        .map(|i| {
            let (src, req) = (src.clone(), get(&server, &format!("/{i}")));
            tokio::spawn(async move { src.send(&req).await })
        })
        .collect();
    for r in requests {
        r.await.unwrap().unwrap();
    }
    assert_eq!(server.max_in_flight(), 2);
}

#[tokio::test]
async fn user_agent_headers_and_post_bodies_are_sent() {
    let server = MockServer::start(|_, _| Canned::json(200, "[]")).await;
    let (net, src) = source(policy(0, 5));
    let req = HttpRequest::post_json(
        Url::parse(&format!("{}/batch", server.base)).unwrap(),
        &serde_json::json!({"ids": ["a"]}),
    )
    .header("x-api-key", "secret");
    src.send(&req).await.unwrap();
    let seen = &server.seen()[0];
    assert_eq!(seen.method, "POST");
    assert_eq!(seen.header("user-agent"), Some(net.user_agent()));
    assert!(net.user_agent().ends_with("(mailto:tests@example.org)"));
    assert_eq!(seen.header("x-api-key"), Some("secret"));
    assert_eq!(seen.header("content-type"), Some("application/json"));
    assert_eq!(seen.body, br#"{"ids":["a"]}"#);
    let stats = net.stats();
    assert_eq!(stats.len(), 1);
    assert_eq!(
        (stats[0].source.as_str(), stats[0].requests, stats[0].bytes),
        ("test", 1, 2)
    );
}

#[tokio::test]
async fn queued_requests_do_not_burst_when_a_slot_frees() {
    // The first answer is slow; the others wait for the single slot. Each must still
    // take its own rate token after getting the slot, so they stay spaced.
    let server = MockServer::start(|_, n| {
        let canned = Canned::text(200, "ok");
        if n == 0 {
            canned.delayed(Duration::from_millis(900))
        } else {
            canned
        }
    })
    .await;
    let (_net, src) = source(SourcePolicy {
        rate: Rate::every(Duration::from_millis(300)),
        max_concurrency: 1,
        ..policy(0, 5)
    });
    let requests: Vec<_> = (0..4)
        .map(|i| {
            let (src, req) = (src.clone(), get(&server, &format!("/{i}")));
            tokio::spawn(async move { src.send(&req).await })
        })
        .collect();
    for r in requests {
        r.await.unwrap().unwrap();
    }
    let mut arrivals: Vec<Instant> = server.seen().iter().map(|s| s.at).collect();
    arrivals.sort();
    for pair in arrivals.windows(2).skip(1) {
        // 300 ms apart by the limiter; a wide margin for arrival latency.
        assert!(
            pair[1].duration_since(pair[0]) >= Duration::from_millis(200),
            "{:?}",
            pair[1].duration_since(pair[0])
        );
    }
}
