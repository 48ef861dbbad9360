//! Back-pressure: at most `max-concurrency` requests are handled at once and at most
//! `max-queue` more wait for a slot; a request beyond those is answered at once with
//! 503 and `Retry-After`, so a client backs off instead of piling up work. The slot a
//! request holds travels with its work ([`Slot`]): work that outlives its request (a
//! timed-out check still finishing on its worker thread) keeps the slot until it ends.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::auth::TokenPermit;
use super::errors::json_error;
use super::metrics::Metrics;

/// The slots of the service.
#[derive(Debug, Clone)]
pub struct Limiter {
    /// Handled plus waiting.
    admitted: Arc<Semaphore>,
    /// Handled.
    running: Arc<Semaphore>,
    max_concurrency: usize,
    max_queue: usize,
    metrics: Arc<Metrics>,
}

/// A request's place: admission, a running slot and its token's permit (when tokens
/// limit their requests in flight), released when the last clone (the handler's, or
/// the blocking work it started) is dropped.
#[derive(Debug, Clone)]
pub struct Slot(#[allow(dead_code)] Arc<Held>);

#[derive(Debug)]
struct Held {
    _admitted: OwnedSemaphorePermit,
    _running: OwnedSemaphorePermit,
    _in_flight: InFlight,
    _token: Option<TokenPermit>,
}

/// Keeps the in-flight gauge right however the slot ends.
#[derive(Debug)]
struct InFlight(Arc<Metrics>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight().dec();
    }
}

impl Limiter {
    pub fn new(max_concurrency: usize, max_queue: usize, metrics: Arc<Metrics>) -> Limiter {
        let max_concurrency = max_concurrency.max(1);
        Limiter {
            admitted: Arc::new(Semaphore::new(max_concurrency + max_queue)),
            running: Arc::new(Semaphore::new(max_concurrency)),
            max_concurrency,
            max_queue,
            metrics,
        }
    }

    /// A slot, waiting for one when every slot is taken and the queue has room;
    /// `None` when the queue is full too. The token's permit is held with the slot.
    pub async fn acquire(&self, token: Option<TokenPermit>) -> Option<Slot> {
        let admitted = self.admitted.clone().try_acquire_owned().ok()?;
        let running = match self.running.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                self.metrics.waiting().inc();
                let permit = self.running.clone().acquire_owned().await;
                self.metrics.waiting().dec();
                permit.expect("the semaphore is never closed")
            }
        };
        self.metrics.in_flight().inc();
        Some(Slot(Arc::new(Held {
            _admitted: admitted,
            _running: running,
            _in_flight: InFlight(self.metrics.clone()),
            _token: token,
        })))
    }
}

/// Middleware: a slot for the request (as an extension), or 503 with Retry-After.
pub async fn limit(State(limiter): State<Limiter>, mut request: Request, next: Next) -> Response {
    let token = request.extensions_mut().remove::<TokenPermit>();
    let Some(slot) = limiter.acquire(token).await else {
        let message = format!(
            "the server is at capacity ({} requests handled at once, {} waiting): retry later",
            limiter.max_concurrency, limiter.max_queue
        );
        let mut response = json_error(StatusCode::SERVICE_UNAVAILABLE, &message);
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    };
    request.extensions_mut().insert(slot);
    next.run(request).await.into_response()
}

/// The request timeout as a layer answering 504 (made JSON by `json_errors`).
pub fn timeout(limit: Duration) -> tower_http::timeout::TimeoutLayer {
    tower_http::timeout::TimeoutLayer::with_status_code(StatusCode::GATEWAY_TIMEOUT, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_is_refused_and_slots_come_back() {
        let metrics = Arc::new(Metrics::new(None));
        let limiter = Limiter::new(1, 1, metrics.clone());
        let first = limiter.acquire(None).await.expect("a free slot");
        let waiting = tokio::spawn({
            let limiter = limiter.clone();
            async move { limiter.acquire(None).await.is_some() }
        });
        // The second request waits in the queue; a third finds the queue full.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while metrics.waiting().get() == 0 {
            assert!(tokio::time::Instant::now() < deadline, "never queued");
            tokio::task::yield_now().await;
        }
        assert!(limiter.acquire(None).await.is_none());
        assert_eq!(metrics.in_flight().get(), 1);
        let kept = first.clone();
        drop(first);
        assert!(!waiting.is_finished(), "a clone still holds the slot");
        drop(kept);
        assert!(waiting.await.unwrap());
        assert_eq!(metrics.in_flight().get(), 0);
    }
}
