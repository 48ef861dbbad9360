//! Bearer tokens: when the service has tokens (`[serve] tokens-file`,
//! `CITEPROOF_SERVE_TOKENS`), every `/v1/` request needs `Authorization: Bearer
//! TOKEN` (401 with `WWW-Authenticate` without it), and each token keeps its own rate
//! limit and number of requests in flight (429 with `Retry-After` beyond them).
//!
//! Only SHA-256 digests of the tokens are kept; a presented token's digest is compared
//! with every one of them in constant time (`subtle`), so neither the answer's timing
//! nor an early exit tells how much of a guess was right. Tokens never reach the log:
//! the access log writes the method and target, not the headers.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, RateLimiter};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::errors::json_error;
use crate::config::serve::ServeSettings;

/// The tokens and their quotas; no tokens: every request passes.
#[derive(Debug, Clone)]
pub struct Gate(Arc<Vec<Entry>>);

#[derive(Debug)]
struct Entry {
    digest: [u8; 32],
    rate: Option<DefaultDirectRateLimiter>,
    running: Option<Arc<Semaphore>>,
}

/// A token's place among its requests in flight, held with the request's slot until
/// its work ends.
#[derive(Debug, Clone)]
pub struct TokenPermit(#[allow(dead_code)] Arc<OwnedSemaphorePermit>);

/// Why a request is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No `Authorization: Bearer …`.
    Missing,
    /// A bearer token that is not one of the service's.
    Invalid,
    /// The token's rate is spent; it may try again after this long.
    RateLimited(Duration),
    /// The token has as many requests in flight as it may.
    Busy,
}

impl Gate {
    pub fn new(settings: &ServeSettings) -> Gate {
        let entries = settings
            .tokens
            .secrets()
            .map(|token| Entry {
                digest: digest(token.as_bytes()),
                rate: settings.token_rate.map(|r| RateLimiter::direct(r.quota())),
                running: settings
                    .token_concurrency
                    .map(|n| Arc::new(Semaphore::new(n))),
            })
            .collect();
        Gate(Arc::new(entries))
    }

    pub fn is_open(&self) -> bool {
        self.0.is_empty()
    }

    /// Admit a request with these headers, or say why not.
    pub fn admit(
        &self,
        authorization: Option<&HeaderValue>,
    ) -> Result<Option<TokenPermit>, Refusal> {
        if self.is_open() {
            return Ok(None);
        }
        let presented = authorization
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .ok_or(Refusal::Missing)?;
        let entry = self.find(presented).ok_or(Refusal::Invalid)?;
        let permit = match &entry.running {
            Some(running) => Some(TokenPermit(Arc::new(
                running
                    .clone()
                    .try_acquire_owned()
                    .map_err(|_| Refusal::Busy)?,
            ))),
            None => None,
        };
        if let Some(rate) = &entry.rate
            && let Err(not_until) = rate.check()
        {
            return Err(Refusal::RateLimited(
                not_until.wait_time_from(DefaultClock::default().now()),
            ));
        }
        Ok(permit)
    }

    /// The entry whose digest equals the presented token's, looking at every entry
    /// whatever matches.
    fn find(&self, presented: &str) -> Option<&Entry> {
        let wanted = digest(presented.as_bytes());
        let mut found = subtle::Choice::from(0);
        let mut index = 0u64;
        for (i, entry) in self.0.iter().enumerate() {
            let same = entry.digest.ct_eq(&wanted);
            index = u64::conditional_select(&index, &(i as u64), same);
            found |= same;
        }
        bool::from(found).then(|| &self.0[index as usize])
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The token of `Bearer TOKEN` (the scheme in any case, RFC 7235).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Middleware: admit the request (its token's permit as an extension, for the slot)
/// or answer 401 or 429.
pub async fn authenticate(State(gate): State<Gate>, mut request: Request, next: Next) -> Response {
    match gate.admit(request.headers().get(header::AUTHORIZATION)) {
        Ok(permit) => {
            if let Some(permit) = permit {
                request.extensions_mut().insert(permit);
            }
            next.run(request).await
        }
        Err(refusal) => refused(refusal),
    }
}

fn refused(refusal: Refusal) -> Response {
    let (status, challenge, retry_after, message) = match refusal {
        Refusal::Missing => (
            StatusCode::UNAUTHORIZED,
            Some("Bearer realm=\"citeproof\""),
            None,
            "this server needs a token: send `Authorization: Bearer TOKEN`".to_string(),
        ),
        Refusal::Invalid => (
            StatusCode::UNAUTHORIZED,
            Some("Bearer realm=\"citeproof\", error=\"invalid_token\""),
            None,
            "the bearer token is not one this server accepts".to_string(),
        ),
        Refusal::RateLimited(wait) => (
            StatusCode::TOO_MANY_REQUESTS,
            None,
            Some(retry_seconds(wait)),
            format!(
                "this token's request rate ([serve] token-rate-limit) is spent: retry in {} s",
                retry_seconds(wait)
            ),
        ),
        Refusal::Busy => (
            StatusCode::TOO_MANY_REQUESTS,
            None,
            Some(1),
            "this token has as many requests in flight as it may ([serve] token-concurrency): \
             retry when one ends"
                .to_string(),
        ),
    };
    let mut response = json_error(status, &message);
    if let Some(challenge) = challenge {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static(challenge),
        );
    }
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// Whole seconds, rounded up, at least 1 (Retry-After has no fractions).
fn retry_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::serve_access::Tokens;
    use crate::net::Rate;

    fn gate(tokens: &str, rate: Option<Rate>, concurrency: Option<usize>) -> Gate {
        Gate::new(&ServeSettings {
            tokens: Tokens::gather(None, Some(tokens)).unwrap(),
            token_rate: rate,
            token_concurrency: concurrency,
            ..ServeSettings::default()
        })
    }

    fn header(text: &str) -> HeaderValue {
        HeaderValue::from_str(text).unwrap()
    }

    #[test]
    fn only_a_listed_token_passes() {
        let open = gate("", None, None);
        assert!(open.is_open());
        assert!(open.admit(None).unwrap().is_none());
        let g = gate("first-token-aaaaaaaa,second-token-bbbbbbb", None, None);
        assert_eq!(g.admit(None).unwrap_err(), Refusal::Missing);
        assert_eq!(
            g.admit(Some(&header("Basic x"))).unwrap_err(),
            Refusal::Missing
        );
        assert_eq!(
            g.admit(Some(&header("Bearer  "))).unwrap_err(),
            Refusal::Missing
        );
        for wrong in [
            "first-token-aaaaaaa",
            "first-token-aaaaaaaaa",
            "second-token-bbbbbbB",
        ] {
            let v = header(&format!("Bearer {wrong}"));
            assert_eq!(g.admit(Some(&v)).unwrap_err(), Refusal::Invalid, "{wrong}");
        }
        for right in ["Bearer first-token-aaaaaaaa", "BEARER second-token-bbbbbbb"] {
            assert!(g.admit(Some(&header(right))).is_ok(), "{right}");
        }
    }

    #[test]
    fn each_token_keeps_its_own_quotas() {
        let g = gate(
            "first-token-aaaaaaaa,second-token-bbbbbbb",
            Some(Rate {
                requests: 2,
                per: Duration::from_secs(60),
                burst: 2,
            }),
            Some(1),
        );
        let first = header("Bearer first-token-aaaaaaaa");
        let held = g.admit(Some(&first)).unwrap();
        assert!(held.is_some());
        assert_eq!(g.admit(Some(&first)).unwrap_err(), Refusal::Busy);
        drop(held);
        assert!(g.admit(Some(&first)).is_ok());
        match g.admit(Some(&first)).unwrap_err() {
            Refusal::RateLimited(wait) => {
                assert!(
                    wait > Duration::ZERO && wait <= Duration::from_secs(30),
                    "{wait:?}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(
            g.admit(Some(&header("Bearer second-token-bbbbbbb")))
                .is_ok()
        );
        assert_eq!(retry_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_seconds(Duration::from_millis(29_001)), 30);
    }
}
