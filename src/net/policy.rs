//! Plain settings of the network layer: rates, retry policy, per-source policy, the
//! shared client's settings, the User-Agent, and the rules for retrying a reply.

use std::num::NonZeroU32;
use std::time::{Duration, SystemTime};

use governor::Quota;

use super::BreakerPolicy;

/// `citeproof/<version>`; the mailto is appended in parentheses when configured.
pub const USER_AGENT_PRODUCT: &str = concat!("citeproof/", env!("CARGO_PKG_VERSION"));

/// The User-Agent sent with every request.
pub fn user_agent(mailto: Option<&str>) -> String {
    match mailto.map(str::trim).filter(|m| !m.is_empty()) {
        Some(mailto) => format!("{USER_AGENT_PRODUCT} (mailto:{mailto})"),
        None => USER_AGENT_PRODUCT.to_string(),
    }
}

/// A request rate: `requests` per `per`, with bursts of at most `burst` requests.
/// The default burst of 1 spaces requests evenly, which never exceeds a published
/// "n per second" limit over any window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub requests: u32,
    pub per: Duration,
    pub burst: u32,
}

impl Rate {
    pub fn per_second(requests: u32) -> Rate {
        Rate {
            requests,
            per: Duration::from_secs(1),
            burst: 1,
        }
    }

    /// One request every `period`.
    pub fn every(period: Duration) -> Rate {
        Rate {
            requests: 1,
            per: period,
            burst: 1,
        }
    }

    /// The time between two requests at a steady pace.
    pub fn interval(&self) -> Duration {
        (self.per / self.requests.max(1)).max(Duration::from_nanos(1))
    }

    pub(crate) fn quota(&self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).expect("burst is at least 1");
        Quota::with_period(self.interval())
            .expect("interval is non-zero")
            .allow_burst(burst)
    }
}

/// When and how often to retry.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so `max_retries + 1` attempts at most).
    pub max_retries: u32,
    /// Backoff before retry `n` is drawn from `[d/2, d]` with `d = base_delay · 2ⁿ`.
    pub base_delay: Duration,
    /// Upper bound of a computed backoff.
    pub max_delay: Duration,
    /// A Retry-After longer than this fails the request at once instead of waiting.
    pub max_retry_after: Duration,
    /// Whether a request that ran into its total timeout is tried again.
    pub retry_timeouts: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(120),
            retry_timeouts: true,
        }
    }
}

impl RetryPolicy {
    /// The backoff before retry number `retry` (0-based), with jitter.
    pub fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX);
        let full = self.base_delay.saturating_mul(factor).min(self.max_delay);
        let half = full / 2;
        let jitter_nanos = half.as_nanos() as u64;
        let jitter = if jitter_nanos == 0 {
            0
        } else {
            rand::random_range(0..=jitter_nanos)
        };
        half + Duration::from_nanos(jitter)
    }
}

/// Everything that governs the requests to one source.
#[derive(Debug, Clone, PartialEq)]
pub struct SourcePolicy {
    pub rate: Rate,
    /// Requests in flight at once.
    pub max_concurrency: usize,
    /// Total time for one attempt: connecting, sending, and reading the whole body.
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// A larger (decompressed) body is a failure, never a silent truncation.
    pub max_body_bytes: u64,
    /// When a host that does not answer is given up on for a while.
    pub breaker: BreakerPolicy,
}

/// Default cap on a response body: 32 MiB (the largest recorded bodies are a few MiB).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 32 * 1024 * 1024;

impl Default for SourcePolicy {
    fn default() -> Self {
        SourcePolicy {
            rate: Rate::per_second(5),
            max_concurrency: 5,
            timeout: Duration::from_secs(30),
            retry: RetryPolicy::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            breaker: BreakerPolicy::default(),
        }
    }
}

/// Settings of the shared client.
#[derive(Debug, Clone, PartialEq)]
pub struct NetConfig {
    pub connect_timeout: Duration,
    /// Contact address put into the User-Agent.
    pub mailto: Option<String>,
    /// How long an idle pooled connection is kept.
    pub pool_idle_timeout: Duration,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            connect_timeout: Duration::from_secs(10),
            mailto: None,
            pool_idle_timeout: Duration::from_secs(90),
        }
    }
}

/// Statuses worth another attempt: rate limiting, timeouts and transient server errors.
pub fn is_transient_status(status: u16) -> bool {
    matches!(status, 408 | 429) || (500..600).contains(&status) && !matches!(status, 501 | 505)
}

/// A Retry-After header value: delay seconds or an HTTP date.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_http_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        // 784111777 is Sun, 06 Nov 1994 08:49:37 GMT.
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:57 GMT", now),
            Some(Duration::from_secs(20))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn backoff_grows_and_stays_within_bounds() {
        let policy = RetryPolicy {
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
            ..RetryPolicy::default()
        };
        for retry in 0..8 {
            let full =
                (Duration::from_millis(100) * 2u32.pow(retry)).min(Duration::from_millis(1000));
            let d = policy.backoff(retry);
            assert!(
                d >= full / 2 && d <= full,
                "retry {retry}: {d:?} outside {full:?}"
            );
        }
    }

    #[test]
    fn transient_statuses() {
        for s in [429, 500, 502, 503, 504, 408] {
            assert!(is_transient_status(s), "{s}");
        }
        for s in [200, 301, 400, 401, 403, 404, 501] {
            assert!(!is_transient_status(s), "{s}");
        }
    }

    #[test]
    fn user_agent_carries_the_mailto() {
        assert_eq!(
            user_agent(Some("me@example.org")),
            format!(
                "citeproof/{} (mailto:me@example.org)",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(user_agent(Some("  ")), USER_AGENT_PRODUCT);
    }

    #[test]
    fn rate_interval() {
        assert_eq!(Rate::per_second(10).interval(), Duration::from_millis(100));
        assert_eq!(
            Rate::every(Duration::from_secs(3)).interval(),
            Duration::from_secs(3)
        );
    }
}
