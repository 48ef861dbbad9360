//! Per-source knobs (latency, rate limit, faults, down switch) and the request log.
//!
//! Every random choice is a hash of (seed, source, request key, occurrence of that key), so a
//! run is reproducible regardless of how concurrent requests interleave: the k-th time a given
//! URL (and body) reaches a source it meets the same fate in every run with the same seed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::ids::stable_hash;
use super::service::Source;

/// Added delay before a response: `base` plus a uniform draw in `0..=jitter`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Latency {
    pub base: Duration,
    pub jitter: Duration,
}

impl Latency {
    pub fn fixed_ms(ms: u64) -> Latency {
        Latency {
            base: Duration::from_millis(ms),
            jitter: Duration::ZERO,
        }
    }

    pub fn jittered_ms(base: u64, jitter: u64) -> Latency {
        Latency {
            base: Duration::from_millis(base),
            jitter: Duration::from_millis(jitter),
        }
    }
}

/// A token bucket: `per_second` tokens added per second, at most `burst` stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: u32,
}

impl RateLimit {
    pub fn new(per_second: f64, burst: u32) -> RateLimit {
        RateLimit { per_second, burst }
    }

    /// The published rate of each service (the defaults citeproof's client uses), with a
    /// burst of one second's worth of requests.
    pub fn published(source: Source) -> Option<RateLimit> {
        let per_second = match source {
            Source::Arxiv => 1.0 / 3.0,
            Source::Crossref => 10.0,
            Source::OpenAlex => 10.0,
            Source::S2 => 1.0,
            Source::Pubmed => 3.0,
            Source::EuropePmc | Source::Doi | Source::DataCite => 5.0,
            Source::Unpaywall => 10.0,
            Source::OpenLibrary => 2.0,
            Source::Rfc | Source::Cran => 5.0,
            Source::Pypi | Source::Npm => 10.0,
            Source::Crates | Source::Wayback | Source::Dblp | Source::OpenReview => 1.0,
            Source::Acl => 2.0,
            Source::Landing | Source::Web | Source::ArxivWeb | Source::OpenReviewWeb => {
                return None;
            }
        };
        Some(RateLimit::new(
            per_second,
            (per_second.ceil() as u32).max(1),
        ))
    }
}

/// What goes wrong with a faulted request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// An error status (500, 502, 503, …) with the body a gateway or the service sends.
    Status(u16),
    /// The connection is reset (RST) before any response byte.
    ConnectionReset,
    /// The request is accepted and never answered.
    Timeout,
    /// The headers announce the full length; the connection closes after half the body.
    TruncatedBody,
    /// HTTP 200 with an HTML error page instead of the API's format.
    HtmlErrorPage,
    /// HTTP 200 with the right headers and an empty body.
    EmptyBody,
}

impl FaultKind {
    /// Every kind of fault, for "fail in all the ways" configurations.
    pub const ALL: [FaultKind; 8] = [
        FaultKind::Status(500),
        FaultKind::Status(502),
        FaultKind::Status(503),
        FaultKind::ConnectionReset,
        FaultKind::Timeout,
        FaultKind::TruncatedBody,
        FaultKind::HtmlErrorPage,
        FaultKind::EmptyBody,
    ];
}

/// When a fault rule fires.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trigger {
    /// Each request independently, with this probability (deterministic per seed).
    Probability(f64),
    /// Exactly the n-th request to the source (1-based, counting every request it receives).
    Nth(u64),
    /// Every request.
    Always,
}

/// A fault rule: when `trigger` fires, one of `kinds` (chosen deterministically) happens.
#[derive(Clone, Debug, PartialEq)]
pub struct FaultRule {
    pub trigger: Trigger,
    pub kinds: Vec<FaultKind>,
}

impl FaultRule {
    pub fn new(trigger: Trigger, kind: FaultKind) -> FaultRule {
        FaultRule {
            trigger,
            kinds: vec![kind],
        }
    }

    /// A share of requests failing in every way the mock knows.
    pub fn any_fault(probability: f64) -> FaultRule {
        FaultRule {
            trigger: Trigger::Probability(probability),
            kinds: FaultKind::ALL.to_vec(),
        }
    }
}

/// All knobs of one source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Knobs {
    pub latency: Latency,
    pub rate_limit: Option<RateLimit>,
    pub faults: Vec<FaultRule>,
    pub down: bool,
}

/// One request as the source saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedRequest {
    pub method: String,
    /// Path and query relative to the source's base URL (what the real API would receive).
    pub path_and_query: String,
    /// Time of arrival since the mock started.
    pub at: Duration,
    /// Status sent; `None` when no response was sent (reset, timeout, down).
    pub status: Option<u16>,
    /// What the knobs did to it, if anything (`"rate_limited"`, `"down"`, a fault kind).
    pub outcome: Option<String>,
    /// Request headers, names lowercase.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl LoggedRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the knobs decided for one request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    Pass,
    Down,
    RateLimited { retry_after_secs: u64 },
    Fault(FaultKind),
}

struct Bucket {
    tokens: f64,
    last: Instant,
}

#[derive(Default)]
struct SourceState {
    knobs: Knobs,
    bucket: Option<Bucket>,
    received: u64,
    occurrences: HashMap<String, u64>,
    log: Vec<LoggedRequest>,
}

/// Knobs and logs of every source, shared by the server and the test's handle.
pub struct Control {
    seed: u64,
    start: Instant,
    states: Vec<Mutex<SourceState>>,
}

/// A request entering a source, as the knobs see it.
pub struct Arrival {
    pub method: String,
    pub path_and_query: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Control {
    pub fn new(seed: u64, knobs: &HashMap<Source, Knobs>) -> Control {
        let states = Source::ALL
            .iter()
            .map(|s| {
                Mutex::new(SourceState {
                    knobs: knobs.get(s).cloned().unwrap_or_default(),
                    ..SourceState::default()
                })
            })
            .collect();
        Control {
            seed,
            start: Instant::now(),
            states,
        }
    }

    fn state(&self, source: Source) -> std::sync::MutexGuard<'_, SourceState> {
        self.states[source as usize]
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    pub fn update(&self, source: Source, change: impl FnOnce(&mut Knobs)) {
        let mut state = self.state(source);
        change(&mut state.knobs);
        if state.knobs.rate_limit.is_none() {
            state.bucket = None;
        }
    }

    pub fn knobs(&self, source: Source) -> Knobs {
        self.state(source).knobs.clone()
    }

    /// Decide the fate of a request and log it. Returns the decision, the latency to add and
    /// the log index to complete with [`Control::finish`].
    pub fn admit(&self, source: Source, arrival: Arrival) -> (Decision, Duration, usize) {
        let now = Instant::now();
        let mut state = self.state(source);
        state.received += 1;
        let nth = state.received;
        let key = format!(
            "{} {}\n{}",
            arrival.method, arrival.path_and_query, arrival.body
        );
        let occurrence = {
            let n = state.occurrences.entry(key.clone()).or_insert(0);
            *n += 1;
            *n
        };
        let draw = |what: &str| -> u64 {
            stable_hash(&[
                what,
                &self.seed.to_string(),
                source.name(),
                &key,
                &occurrence.to_string(),
            ])
        };
        let knobs = state.knobs.clone();
        let latency = knobs.latency.base
            + if knobs.latency.jitter.is_zero() {
                Duration::ZERO
            } else {
                let span = knobs.latency.jitter.as_micros() as u64 + 1;
                Duration::from_micros(draw("latency") % span)
            };
        let decision = if knobs.down {
            Decision::Down
        } else if let Some(retry) = take_token(&mut state, now) {
            Decision::RateLimited {
                retry_after_secs: retry,
            }
        } else {
            knobs
                .faults
                .iter()
                .enumerate()
                .find_map(|(i, rule)| {
                    let fires = match rule.trigger {
                        Trigger::Always => true,
                        Trigger::Nth(n) => n == nth,
                        Trigger::Probability(p) => {
                            let u = (draw(&format!("fault{i}")) >> 11) as f64 / (1u64 << 53) as f64;
                            u < p
                        }
                    };
                    (fires && !rule.kinds.is_empty()).then(|| {
                        let pick = draw(&format!("kind{i}")) as usize % rule.kinds.len();
                        Decision::Fault(rule.kinds[pick])
                    })
                })
                .unwrap_or(Decision::Pass)
        };
        let outcome = match decision {
            Decision::Pass => None,
            Decision::Down => Some("down".to_string()),
            Decision::RateLimited { .. } => Some("rate_limited".to_string()),
            Decision::Fault(kind) => Some(fault_name(kind)),
        };
        let at = now.duration_since(self.start);
        state.log.push(LoggedRequest {
            method: arrival.method,
            path_and_query: arrival.path_and_query,
            at,
            status: None,
            outcome,
            headers: arrival.headers,
            body: arrival.body,
        });
        let index = state.log.len() - 1;
        (decision, latency, index)
    }

    /// Record the status a logged request was answered with.
    pub fn finish(&self, source: Source, index: usize, status: u16) {
        if let Some(entry) = self.state(source).log.get_mut(index) {
            entry.status = Some(status);
        }
    }

    pub fn requests(&self, source: Source) -> Vec<LoggedRequest> {
        self.state(source).log.clone()
    }

    pub fn request_count(&self, source: Source) -> usize {
        self.state(source).log.len()
    }

    /// Forget logged requests (and the per-key occurrence counts, so faults replay).
    pub fn clear_requests(&self) {
        for source in Source::ALL {
            let mut state = self.state(source);
            state.log.clear();
            state.occurrences.clear();
            state.received = 0;
        }
    }
}

/// Take a token; `Some(seconds until one is available)` when the bucket is empty.
fn take_token(state: &mut SourceState, now: Instant) -> Option<u64> {
    let limit = state.knobs.rate_limit?;
    let bucket = state.bucket.get_or_insert(Bucket {
        tokens: f64::from(limit.burst),
        last: now,
    });
    let elapsed = now.duration_since(bucket.last).as_secs_f64();
    bucket.tokens = (bucket.tokens + elapsed * limit.per_second).min(f64::from(limit.burst.max(1)));
    bucket.last = now;
    if bucket.tokens >= 1.0 {
        bucket.tokens -= 1.0;
        None
    } else {
        let wait = (1.0 - bucket.tokens) / limit.per_second.max(1e-9);
        Some(wait.ceil().max(1.0) as u64)
    }
}

pub fn fault_name(kind: FaultKind) -> String {
    match kind {
        FaultKind::Status(code) => format!("status_{code}"),
        FaultKind::ConnectionReset => "connection_reset".into(),
        FaultKind::Timeout => "timeout".into(),
        FaultKind::TruncatedBody => "truncated_body".into(),
        FaultKind::HtmlErrorPage => "html_error_page".into(),
        FaultKind::EmptyBody => "empty_body".into(),
    }
}
