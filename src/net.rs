//! HTTP for every scholarly source: one pooled reqwest client (rustls with the ring
//! provider), and per source a token-bucket rate limiter, a concurrency cap, a total
//! timeout, retries with exponential backoff and jitter on 429 / 5xx / connection errors
//! (honouring Retry-After, which also pauses the whole source), a circuit breaker per
//! host (a host that stops answering is skipped for a while), a streamed response-size
//! cap and counters a run can report.
//!
//! Interpreting a reply (found, not found, malformed) is the source module's job: this
//! layer returns every final status to the caller and fails only when the transport
//! failed or the retries for a transient status ran out.

mod breaker;
mod policy;
pub mod urlpolicy;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant, SystemTime};

use breaker::{Breakers, host_key};
use governor::{DefaultDirectRateLimiter, RateLimiter};
use serde::Serialize;
use tokio::sync::Semaphore;
use url::Url;

pub use breaker::BreakerPolicy;
pub use policy::{
    DEFAULT_MAX_BODY_BYTES, NetConfig, Rate, RetryPolicy, SourcePolicy, USER_AGENT_PRODUCT,
    is_transient_status, parse_retry_after, user_agent,
};

/// Why a request produced no reply the caller can interpret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    #[error("connection failed: {0}")]
    Connect(String),
    #[error("HTTP {status} after {attempts} attempts")]
    Status { status: u16, attempts: u32 },
    #[error(
        "rate limited: the server asks to wait {retry_after:?}, more than the {limit:?} allowed"
    )]
    RetryAfterTooLong {
        retry_after: Duration,
        limit: Duration,
    },
    #[error("response larger than the {limit}-byte cap")]
    TooLarge { limit: u64 },
    #[error("response body incomplete: {0}")]
    Body(String),
    #[error("invalid request: {0}")]
    Request(String),
    #[error("HTTP client could not be built: {0}")]
    Client(String),
    /// The host's circuit breaker is open: the request was not sent.
    #[error(
        "{host} unreachable: {failures} attempts in a row got no answer (last: {last}); not tried again for a while"
    )]
    Unreachable {
        host: String,
        failures: u32,
        last: String,
    },
}

impl NetError {
    fn is_transient(&self, retry: &RetryPolicy) -> bool {
        match self {
            NetError::Timeout(_) => retry.retry_timeouts,
            NetError::Connect(_) | NetError::Body(_) => true,
            _ => false,
        }
    }
}

/// An HTTP method this layer sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// One request to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    pub method: Method,
    pub url: Url,
    pub headers: Vec<(String, String)>,
    /// Content type and bytes of a request body.
    pub body: Option<(String, Vec<u8>)>,
}

impl HttpRequest {
    pub fn get(url: Url) -> HttpRequest {
        HttpRequest {
            method: Method::Get,
            url,
            headers: Vec::new(),
            body: None,
        }
    }

    pub fn post_json(url: Url, body: &serde_json::Value) -> HttpRequest {
        HttpRequest {
            method: Method::Post,
            url,
            headers: Vec::new(),
            body: Some((
                "application/json".to_string(),
                body.to_string().into_bytes(),
            )),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> HttpRequest {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
}

/// A complete reply: the final status (after redirects) and the whole body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpReply {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// The URL that answered (after redirects).
    pub url: String,
}

impl HttpReply {
    pub fn new(status: u16, content_type: Option<&str>, body: impl Into<Vec<u8>>) -> HttpReply {
        HttpReply {
            status,
            content_type: content_type.map(str::to_string),
            body: body.into(),
            url: String::new(),
        }
    }

    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

/// Counters of one source since the client was built.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SourceStats {
    pub source: String,
    /// Attempts sent upstream (retries included).
    pub requests: u64,
    pub retries: u64,
    /// Requests that ended in a [`NetError`].
    pub failures: u64,
    /// Body bytes received (after decompression).
    pub bytes: u64,
    /// 429 replies received.
    pub rate_limited: u64,
    /// Requests failed at once because their host was unreachable (breaker open).
    pub short_circuited: u64,
}

#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    retries: AtomicU64,
    failures: AtomicU64,
    bytes: AtomicU64,
    rate_limited: AtomicU64,
    short_circuited: AtomicU64,
}

struct SourceGate {
    name: String,
    policy: SourcePolicy,
    limiter: DefaultDirectRateLimiter,
    in_flight: Semaphore,
    /// After a 429, no request to this source starts before this instant.
    paused_until: Mutex<Option<Instant>>,
    breakers: Breakers,
    counters: Counters,
}

impl SourceGate {
    async fn wait_for_pause(&self) {
        loop {
            let until = *self.paused_until.lock().expect("pause lock");
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t.into()).await,
                _ => return,
            }
        }
    }

    fn pause(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut paused = self.paused_until.lock().expect("pause lock");
        if paused.is_none_or(|t| t < until) {
            *paused = Some(until);
        }
    }

    fn stats(&self) -> SourceStats {
        let c = &self.counters;
        SourceStats {
            source: self.name.clone(),
            requests: c.requests.load(Ordering::Relaxed),
            retries: c.retries.load(Ordering::Relaxed),
            failures: c.failures.load(Ordering::Relaxed),
            bytes: c.bytes.load(Ordering::Relaxed),
            rate_limited: c.rate_limited.load(Ordering::Relaxed),
            short_circuited: c.short_circuited.load(Ordering::Relaxed),
        }
    }
}

static CRYPTO_PROVIDER: Once = Once::new();

/// Install rustls' ring provider as the process default (once; keeps one installed
/// by the embedding application).
pub(crate) fn ensure_crypto_provider() {
    CRYPTO_PROVIDER.call_once(|| {
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            // Losing a race against another installer is fine: a provider is installed.
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
    });
}

/// The shared HTTP client and the registry of per-source gates.
pub struct Net {
    client: reqwest::Client,
    user_agent: String,
    sources: Mutex<HashMap<String, Arc<SourceGate>>>,
}

impl Net {
    pub fn new(config: &NetConfig) -> Result<Net, NetError> {
        Net::with_client_options(config, |builder| builder)
    }

    /// [`Net::new`] with extra client options (a DNS resolver, a redirect policy) added
    /// by `customize` to the standard builder.
    pub fn with_client_options(
        config: &NetConfig,
        customize: impl FnOnce(reqwest::ClientBuilder) -> reqwest::ClientBuilder,
    ) -> Result<Net, NetError> {
        ensure_crypto_provider();
        let user_agent = user_agent(config.mailto.as_deref());
        let builder = reqwest::Client::builder()
            .user_agent(user_agent.clone())
            .connect_timeout(config.connect_timeout)
            .pool_idle_timeout(config.pool_idle_timeout);
        let client = customize(builder)
            .build()
            .map_err(|e| NetError::Client(e.to_string()))?;
        Ok(Net {
            client,
            user_agent,
            sources: Mutex::new(HashMap::new()),
        })
    }

    pub fn user_agent(&self) -> &str {
        &self.user_agent
    }

    /// The handle through which requests to `name` go. The first registration of a
    /// name fixes its policy; later calls share the same limiter, cap and counters.
    pub fn source(&self, name: &str, policy: SourcePolicy) -> SourceHandle {
        let mut sources = self.sources.lock().expect("source registry lock");
        let gate = sources
            .entry(name.to_string())
            .or_insert_with(|| {
                Arc::new(SourceGate {
                    name: name.to_string(),
                    limiter: RateLimiter::direct(policy.rate.quota()),
                    in_flight: Semaphore::new(policy.max_concurrency.max(1)),
                    paused_until: Mutex::new(None),
                    breakers: Breakers::default(),
                    counters: Counters::default(),
                    policy,
                })
            })
            .clone();
        SourceHandle {
            client: self.client.clone(),
            gate,
        }
    }

    /// Counters of every registered source, sorted by name.
    pub fn stats(&self) -> Vec<SourceStats> {
        let sources = self.sources.lock().expect("source registry lock");
        let mut stats: Vec<SourceStats> = sources.values().map(|g| g.stats()).collect();
        stats.sort_by(|a, b| a.source.cmp(&b.source));
        stats
    }
}

/// Sends requests to one source under its policy. Cheap to clone.
#[derive(Clone)]
pub struct SourceHandle {
    client: reqwest::Client,
    gate: Arc<SourceGate>,
}

impl std::fmt::Debug for SourceHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceHandle")
            .field("source", &self.gate.name)
            .field("policy", &self.gate.policy)
            .finish()
    }
}

struct Attempt {
    reply: HttpReply,
    retry_after: Option<Duration>,
}

impl SourceHandle {
    pub fn name(&self) -> &str {
        &self.gate.name
    }

    pub fn policy(&self) -> &SourcePolicy {
        &self.gate.policy
    }

    pub fn stats(&self) -> SourceStats {
        self.gate.stats()
    }

    /// Send `request`, retrying transient failures. Any final status comes back as a
    /// reply; an error means no usable reply was obtained.
    pub async fn send(&self, request: &HttpRequest) -> Result<HttpReply, NetError> {
        self.send_unless(request, |_| false).await
    }

    /// [`SourceHandle::send`], except that a reply `is_final` accepts comes back as it
    /// is, never retried: a server's deterministic refusal sent with a 5xx status.
    pub async fn send_unless(
        &self,
        request: &HttpRequest,
        is_final: impl Fn(&HttpReply) -> bool,
    ) -> Result<HttpReply, NetError> {
        let gate = &self.gate;
        let retry = &gate.policy.retry;
        let mut attempt: u32 = 0;
        loop {
            let outcome = self.attempt_once(request).await;
            let wait = match &outcome {
                Ok(a) if is_transient_status(a.reply.status) && !is_final(&a.reply) => {
                    if a.reply.status == 429 {
                        gate.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
                    }
                    if attempt >= retry.max_retries {
                        return self.fail(NetError::Status {
                            status: a.reply.status,
                            attempts: attempt + 1,
                        });
                    }
                    match a.retry_after {
                        Some(d) if d > retry.max_retry_after => {
                            return self.fail(NetError::RetryAfterTooLong {
                                retry_after: d,
                                limit: retry.max_retry_after,
                            });
                        }
                        Some(d) => d,
                        None => retry.backoff(attempt),
                    }
                }
                Ok(_) => return outcome.map(|a| a.reply),
                Err(e) if e.is_transient(retry) && attempt < retry.max_retries => {
                    retry.backoff(attempt)
                }
                Err(e) => return self.fail(e.clone()),
            };
            if matches!(&outcome, Ok(a) if a.reply.status == 429) {
                gate.pause(wait);
            }
            gate.counters.retries.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    fn fail(&self, error: NetError) -> Result<HttpReply, NetError> {
        self.gate.counters.failures.fetch_add(1, Ordering::Relaxed);
        Err(error)
    }

    async fn attempt_once(&self, request: &HttpRequest) -> Result<Attempt, NetError> {
        let gate = &self.gate;
        let host = host_key(&request.url);
        // Checked before waiting and again after: requests queued behind the rate
        // limiter when the host stopped answering must not each wait for a token.
        self.short_circuit(&host)?;
        // The slot first, then the pause and the rate token: a token taken while waiting
        // for a slot would let queued requests leave in a burst when slots free up.
        let _permit = gate
            .in_flight
            .acquire()
            .await
            .map_err(|e| NetError::Request(e.to_string()))?;
        gate.wait_for_pause().await;
        self.short_circuit(&host)?;
        gate.limiter.until_ready().await;
        self.short_circuit(&host)?;
        gate.counters.requests.fetch_add(1, Ordering::Relaxed);
        let timeout = gate.policy.timeout;
        let outcome = match tokio::time::timeout(timeout, self.exchange(request)).await {
            Ok(result) => result,
            Err(_) => Err(NetError::Timeout(timeout)),
        };
        gate.breakers
            .record(&host, &gate.policy.breaker, &outcome, Instant::now());
        outcome
    }

    /// Fail at once while the breaker of `host` is open.
    fn short_circuit(&self, host: &str) -> Result<(), NetError> {
        let gate = &self.gate;
        let open = gate.breakers.check(host, Instant::now());
        if open.is_err() {
            gate.counters
                .short_circuited
                .fetch_add(1, Ordering::Relaxed);
        }
        open
    }

    async fn exchange(&self, request: &HttpRequest) -> Result<Attempt, NetError> {
        let method = match request.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
        };
        let mut builder = self.client.request(method, request.url.clone());
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if let Some((content_type, bytes)) = &request.body {
            builder = builder
                .header(reqwest::header::CONTENT_TYPE, content_type.as_str())
                .body(bytes.clone());
        }
        let mut response = builder.send().await.map_err(|e| classify(&e))?;
        let status = response.status().as_u16();
        let header = |name: reqwest::header::HeaderName| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header(reqwest::header::CONTENT_TYPE);
        let retry_after = header(reqwest::header::RETRY_AFTER)
            .and_then(|v| parse_retry_after(&v, SystemTime::now()));
        let url = response.url().to_string();
        let limit = self.gate.policy.max_body_bytes;
        if response.content_length().is_some_and(|n| n > limit) {
            return Err(NetError::TooLarge { limit });
        }
        let mut body = Vec::new();
        loop {
            let chunk = response
                .chunk()
                .await
                .map_err(|e| NetError::Body(error_chain(&e)))?;
            let Some(chunk) = chunk else { break };
            self.gate
                .counters
                .bytes
                .fetch_add(chunk.len() as u64, Ordering::Relaxed);
            if (body.len() + chunk.len()) as u64 > limit {
                return Err(NetError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Attempt {
            reply: HttpReply {
                status,
                content_type,
                body,
                url,
            },
            retry_after,
        })
    }
}

fn classify(error: &reqwest::Error) -> NetError {
    if error.is_builder() {
        NetError::Request(error_chain(error))
    } else {
        // Connection refused, reset, TLS and protocol errors are all worth a retry.
        NetError::Connect(error_chain(error))
    }
}

/// The error and its sources on one line (reqwest's own message is terse).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
