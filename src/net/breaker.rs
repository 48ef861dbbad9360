//! A circuit breaker per host. After a few attempts in a row that got no answer
//! from a host (the connection failed or timed out), requests to it fail at once for a
//! cool-down. Without it a run with no network, or with one source down, spends minutes
//! pacing hundreds of doomed requests through rate limiters and retry backoffs (arXiv
//! alone allows one request every three seconds). Any answer, whatever its status,
//! closes the breaker again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::NetError;

/// When a host counts as unreachable, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerPolicy {
    /// Attempts in a row without an answer that open the breaker (0: never open it).
    pub failures: u32,
    /// How long requests fail at once before the host is tried again.
    pub cooldown: Duration,
}

impl Default for BreakerPolicy {
    fn default() -> Self {
        BreakerPolicy {
            failures: 3,
            cooldown: Duration::from_secs(60),
        }
    }
}

#[derive(Debug, Default)]
struct HostState {
    /// Attempts in a row that got no answer.
    failures: u32,
    /// While open: requests fail until this instant.
    open_until: Option<Instant>,
    /// What the last failed attempt said.
    last: String,
}

/// The breakers of the hosts one source talks to (a full-text source talks to many).
#[derive(Debug, Default)]
pub(super) struct Breakers {
    hosts: Mutex<HashMap<String, HostState>>,
}

impl Breakers {
    /// `Err(Unreachable)` while the breaker of `host` is open at `now`.
    pub(super) fn check(&self, host: &str, now: Instant) -> Result<(), NetError> {
        let hosts = self.hosts.lock().expect("breaker lock");
        match hosts.get(host) {
            Some(state) if state.open_until.is_some_and(|until| now < until) => {
                Err(NetError::Unreachable {
                    host: host.to_string(),
                    failures: state.failures,
                    last: state.last.clone(),
                })
            }
            _ => Ok(()),
        }
    }

    /// Record what an attempt to `host` found at `now`: any reply is an answer; a
    /// failed connection or a timeout is none; other errors (a body over the cap, a bad
    /// request) say nothing about the host.
    pub(super) fn record<T>(
        &self,
        host: &str,
        policy: &BreakerPolicy,
        outcome: &Result<T, NetError>,
        now: Instant,
    ) {
        let error = match outcome {
            Ok(_) => None,
            Err(e @ (NetError::Connect(_) | NetError::Timeout(_))) => Some(e),
            Err(_) => return,
        };
        if policy.failures == 0 {
            return;
        }
        let mut hosts = self.hosts.lock().expect("breaker lock");
        let Some(error) = error else {
            hosts.remove(host);
            return;
        };
        let state = hosts.entry(host.to_string()).or_default();
        state.failures = state.failures.saturating_add(1);
        state.last = brief(error);
        if state.failures >= policy.failures {
            // Opened again at once after a failed try past the cool-down.
            state.open_until = Some(now + policy.cooldown);
        }
    }
}

/// An attempt's error without the URL of its request, which is another request's
/// URL to whoever is told the host is unreachable.
fn brief(error: &NetError) -> String {
    let text = error.to_string();
    match text.split_once("error sending request for url (") {
        Some((head, rest)) => match rest.split_once("): ") {
            Some((_, cause)) => format!("{head}{cause}"),
            None => text,
        },
        None => text,
    }
}

/// The key a URL's breaker is kept under: its host and port.
pub(super) fn host_key(url: &url::Url) -> String {
    match (url.host_str(), url.port_or_known_default()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: &str = "api.example.org:443";

    fn policy() -> BreakerPolicy {
        BreakerPolicy {
            failures: 3,
            cooldown: Duration::from_secs(60),
        }
    }

    fn fail(b: &Breakers, now: Instant) {
        let error: Result<(), _> = Err(NetError::Connect("dns error".into()));
        b.record(HOST, &policy(), &error, now);
    }

    #[test]
    fn opens_after_the_failures_in_a_row_and_closes_after_the_cooldown() {
        let b = Breakers::default();
        let t0 = Instant::now();
        fail(&b, t0);
        fail(&b, t0);
        assert!(b.check(HOST, t0).is_ok(), "two failures keep it closed");
        fail(&b, t0);
        let err = b.check(HOST, t0).unwrap_err();
        assert!(
            matches!(&err, NetError::Unreachable { failures: 3, last, .. } if last.contains("dns error")),
            "{err:?}"
        );
        assert!(err.to_string().contains(HOST), "{err}");
        // Other hosts are not affected.
        assert!(b.check("other.org:443", t0).is_ok());
        let later = t0 + Duration::from_secs(61);
        assert!(
            b.check(HOST, later).is_ok(),
            "tried again after the cooldown"
        );
        // A failed try reopens it at once; an answer closes it.
        fail(&b, later);
        assert!(b.check(HOST, later).is_err());
        let again = later + Duration::from_secs(61);
        b.record(HOST, &policy(), &Ok(()), again);
        fail(&b, again);
        assert!(b.check(HOST, again).is_ok(), "the count restarted");
    }

    #[test]
    fn an_answer_resets_the_count_and_other_errors_say_nothing() {
        let b = Breakers::default();
        let t0 = Instant::now();
        fail(&b, t0);
        fail(&b, t0);
        b.record(HOST, &policy(), &Ok(()), t0);
        fail(&b, t0);
        fail(&b, t0);
        let big: Result<(), _> = Err(NetError::TooLarge { limit: 1 });
        b.record(HOST, &policy(), &big, t0);
        assert!(b.check(HOST, t0).is_ok());
        fail(&b, t0);
        assert!(b.check(HOST, t0).is_err());
    }

    #[test]
    fn a_zero_threshold_never_opens() {
        let b = Breakers::default();
        let off = BreakerPolicy {
            failures: 0,
            ..policy()
        };
        let t0 = Instant::now();
        for _ in 0..10 {
            let error: Result<(), _> = Err(NetError::Timeout(Duration::from_secs(1)));
            b.record(HOST, &off, &error, t0);
        }
        assert!(b.check(HOST, t0).is_ok());
    }

    #[test]
    fn the_last_error_is_kept_without_its_url() {
        let b = Breakers::default();
        let error: Result<(), _> = Err(NetError::Connect(
            "error sending request for url (https://api.crossref.org/works?filter=doi%3A10.1%2Fx): \
             client error (Connect): dns error: failed to lookup address information"
                .into(),
        ));
        for _ in 0..3 {
            b.record(HOST, &policy(), &error, Instant::now());
        }
        let Err(NetError::Unreachable { last, .. }) = b.check(HOST, Instant::now()) else {
            panic!("the breaker is open");
        };
        assert_eq!(
            last,
            "connection failed: client error (Connect): dns error: failed to lookup address information"
        );
    }

    #[test]
    fn hosts_are_keyed_with_their_port() {
        let key = |u: &str| host_key(&url::Url::parse(u).unwrap());
        assert_eq!(
            key("https://api.crossref.org/works"),
            "api.crossref.org:443"
        );
        assert_eq!(key("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
        assert_ne!(key("http://127.0.0.1:8080/"), key("http://127.0.0.1:8081/"));
    }
}
