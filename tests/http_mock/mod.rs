//! A tiny HTTP server on 127.0.0.1 for the network and client tests: every request is
//! recorded (arrival time, method, raw path, decoded query, headers, body) and answered
//! by a closure.

#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, Response, StatusCode, Uri};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub at: Instant,
    pub method: String,
    /// The path as sent (percent-encoding kept).
    pub path: String,
    /// Query parameters, decoded, in order.
    pub query: Vec<(String, String)>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Query pairs sorted, for order-insensitive comparison.
    pub fn sorted_query(&self) -> Vec<(String, String)> {
        let mut q = self.query.clone();
        q.sort();
        q
    }
}

/// What to answer.
#[derive(Debug, Clone)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before answering.
    pub delay: Duration,
    /// Send the body in chunks without a Content-Length.
    pub chunked: bool,
}

impl Canned {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Canned {
        Canned {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
            chunked: false,
        }
    }

    pub fn json(status: u16, body: impl Into<Vec<u8>>) -> Canned {
        Canned::new(status, "application/json", body)
    }

    pub fn text(status: u16, body: &str) -> Canned {
        Canned::new(status, "text/plain", body.as_bytes().to_vec())
    }

    pub fn header(mut self, name: &str, value: &str) -> Canned {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn delayed(mut self, delay: Duration) -> Canned {
        self.delay = delay;
        self
    }

    pub fn chunked(mut self) -> Canned {
        self.chunked = true;
        self
    }
}

/// Answers request number `n` (0-based) given what was sent.
pub type Responder = Arc<dyn Fn(&Seen, usize) -> Canned + Send + Sync>;

#[derive(Clone)]
struct ServerState {
    responder: Responder,
    seen: Arc<Mutex<Vec<Seen>>>,
    count: Arc<AtomicUsize>,
    in_flight: Arc<AtomicUsize>,
    max_in_flight: Arc<AtomicUsize>,
}

pub struct MockServer {
    pub base: String,
    state: ServerState,
}

impl MockServer {
    pub async fn start(
        responder: impl Fn(&Seen, usize) -> Canned + Send + Sync + 'static,
    ) -> MockServer {
        let state = ServerState {
            responder: Arc::new(responder),
            seen: Arc::default(),
            count: Arc::default(),
            in_flight: Arc::default(),
            max_in_flight: Arc::default(),
        };
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        MockServer { base, state }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.state.count.load(Ordering::SeqCst)
    }

    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }

    /// Wait until `n` requests have arrived (panics after `deadline`).
    pub async fn wait_for(&self, n: usize, deadline: Duration) {
        let start = Instant::now();
        while self.count() < n {
            assert!(
                start.elapsed() < deadline,
                "only {} of {n} requests arrived",
                self.count()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

async fn handle(
    State(state): State<ServerState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response<Body> {
    let seen = Seen {
        at: Instant::now(),
        method: method.to_string(),
        path: uri.path().to_string(),
        query: uri
            .query()
            .map(|q| {
                url::form_urlencoded::parse(q.as_bytes())
                    .into_owned()
                    .collect()
            })
            .unwrap_or_default(),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
            .collect(),
        body: body.to_vec(),
    };
    let n = {
        let mut seen_list = state.seen.lock().unwrap();
        seen_list.push(seen.clone());
        state.count.fetch_add(1, Ordering::SeqCst)
    };
    let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    state.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let canned = (state.responder)(&seen, n);
    if !canned.delay.is_zero() {
        tokio::time::sleep(canned.delay).await;
    }
    state.in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut response = Response::builder().status(StatusCode::from_u16(canned.status).unwrap());
    for (k, v) in &canned.headers {
        response = response.header(k, v);
    }
    let body = if canned.chunked {
        let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
            canned.body.chunks(1024).map(|c| Ok(c.to_vec())).collect();
        Body::from_stream(futures::stream::iter(chunks))
    } else {
        Body::from(canned.body)
    };
    response.body(body).unwrap()
}
