//! Model usage: rolling-window limits on requests and tokens, a concurrency cap, and
//! per-model accounting (requests, tokens, cost when prices are configured).

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Limits on the requests sent to one model server.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageLimits {
    /// Length of the rolling window the two budgets below apply to.
    pub window: Duration,
    /// Requests started within any window.
    pub max_requests: Option<u32>,
    /// Prompt + completion tokens within any window (estimated until the reply says).
    pub max_tokens: Option<u64>,
    /// Requests in flight at once.
    pub max_concurrency: usize,
    /// A request that would have to wait longer than this for the budget fails instead.
    pub max_wait: Duration,
}

impl Default for UsageLimits {
    fn default() -> Self {
        UsageLimits {
            window: Duration::from_secs(60),
            max_requests: None,
            max_tokens: None,
            max_concurrency: 4,
            max_wait: Duration::from_secs(300),
        }
    }
}

/// The budget would not allow the request within `max_wait`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "request budget exhausted: the next slot opens in {wait:?}, more than the {max_wait:?} allowed"
)]
pub struct BudgetExhausted {
    pub wait: Duration,
    pub max_wait: Duration,
}

#[derive(Debug)]
struct Entry {
    id: u64,
    at: Instant,
    tokens: u64,
}

#[derive(Debug, Default)]
struct Window {
    entries: VecDeque<Entry>,
    next_id: u64,
    /// Every grant, for reports and tests.
    granted: Vec<Instant>,
}

/// Enforces [`UsageLimits`] for every request to one server. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Limiter {
    limits: UsageLimits,
    window: Arc<Mutex<Window>>,
    slots: Arc<Semaphore>,
}

/// Permission to send one request; holds a concurrency slot until dropped.
#[derive(Debug)]
pub struct Grant {
    id: u64,
    window: Arc<Mutex<Window>>,
    _slot: OwnedSemaphorePermit,
}

impl Grant {
    /// Replace the estimated tokens with what the reply reported.
    pub fn settle(&self, tokens: u64) {
        let mut w = self.window.lock().expect("usage window lock");
        if let Some(e) = w.entries.iter_mut().find(|e| e.id == self.id) {
            e.tokens = tokens;
        }
    }
}

impl Limiter {
    pub fn new(limits: UsageLimits) -> Limiter {
        let slots = Arc::new(Semaphore::new(limits.max_concurrency.max(1)));
        Limiter {
            limits,
            window: Arc::new(Mutex::new(Window::default())),
            slots,
        }
    }

    pub fn limits(&self) -> &UsageLimits {
        &self.limits
    }

    /// Wait for a concurrency slot, then for room in the window for one request of
    /// about `estimated_tokens`. A single request larger than the token budget goes
    /// alone into an empty window rather than never.
    pub async fn acquire(&self, estimated_tokens: u64) -> Result<Grant, BudgetExhausted> {
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the limiter never closes its semaphore");
        let started = Instant::now();
        loop {
            let wait = {
                let mut w = self.window.lock().expect("usage window lock");
                let now = Instant::now();
                while w
                    .entries
                    .front()
                    .is_some_and(|e| now.duration_since(e.at) >= self.limits.window)
                {
                    w.entries.pop_front();
                }
                if self.fits(&w, estimated_tokens) {
                    let id = w.next_id;
                    w.next_id += 1;
                    w.entries.push_back(Entry {
                        id,
                        at: now,
                        tokens: estimated_tokens,
                    });
                    w.granted.push(now);
                    return Ok(Grant {
                        id,
                        window: self.window.clone(),
                        _slot: slot,
                    });
                }
                let oldest = w.entries.front().expect("a full window has entries").at;
                (oldest + self.limits.window).saturating_duration_since(now)
            };
            let waited = started.elapsed();
            if waited + wait > self.limits.max_wait {
                return Err(BudgetExhausted {
                    wait: waited + wait,
                    max_wait: self.limits.max_wait,
                });
            }
            tokio::time::sleep(wait.max(Duration::from_millis(1))).await;
        }
    }

    fn fits(&self, w: &Window, tokens: u64) -> bool {
        if w.entries.is_empty() {
            return true;
        }
        let requests_ok = self
            .limits
            .max_requests
            .is_none_or(|max| w.entries.len() < max as usize);
        let used: u64 = w.entries.iter().map(|e| e.tokens).sum();
        let tokens_ok = self
            .limits
            .max_tokens
            .is_none_or(|max| used.saturating_add(tokens) <= max);
        requests_ok && tokens_ok
    }

    /// When every request so far was granted.
    pub fn grants(&self) -> Vec<Instant> {
        self.window
            .lock()
            .expect("usage window lock")
            .granted
            .clone()
    }
}

/// Prices per 1,000 tokens, in any currency the user likes.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Prices {
    pub prompt_per_1k: f64,
    pub completion_per_1k: f64,
}

/// What one model was asked and answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelUsage {
    pub model: String,
    /// Chat or embedding requests sent (retries for invalid output included).
    pub requests: u64,
    /// Requests that got no usable reply.
    pub failures: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Cost at the configured prices; `None` when no prices are configured.
    pub cost: Option<f64>,
}

/// Usage of a whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UsageSummary {
    pub models: Vec<ModelUsage>,
    /// Verdicts answered from the cache without asking a model.
    pub cache_hits: u64,
    /// What the reader should be told about how verification ran (the structured
    /// output each model server accepted; the embedded backend's scoring).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl UsageSummary {
    pub fn requests(&self) -> u64 {
        self.models.iter().map(|m| m.requests).sum()
    }

    pub fn total_cost(&self) -> Option<f64> {
        let costs: Vec<f64> = self.models.iter().filter_map(|m| m.cost).collect();
        (!costs.is_empty()).then(|| costs.iter().sum())
    }
}

impl fmt::Display for UsageSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.models {
            write!(
                f,
                "{}: {} requests ({} failed), {} prompt + {} completion tokens",
                m.model, m.requests, m.failures, m.prompt_tokens, m.completion_tokens
            )?;
            if let Some(cost) = m.cost {
                write!(f, ", cost {cost:.4}")?;
            }
            writeln!(f)?;
        }
        write!(f, "verdicts from cache: {}", self.cache_hits)
    }
}

#[derive(Debug, Default)]
struct Ledger {
    models: BTreeMap<String, (ModelUsage, Option<Prices>)>,
    cache_hits: u64,
}

/// Accumulates usage across models; shared by every client of a run. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct UsageTracker {
    ledger: Arc<Mutex<Ledger>>,
}

impl UsageTracker {
    pub fn new() -> UsageTracker {
        UsageTracker::default()
    }

    /// Record one request to `model`: its token counts when it got a reply.
    pub fn record(&self, model: &str, prices: Option<Prices>, tokens: Option<(u64, u64)>) {
        let mut ledger = self.ledger.lock().expect("usage ledger lock");
        let (usage, price) = ledger.models.entry(model.to_string()).or_insert_with(|| {
            (
                ModelUsage {
                    model: model.to_string(),
                    ..ModelUsage::default()
                },
                prices,
            )
        });
        usage.requests += 1;
        match tokens {
            Some((prompt, completion)) => {
                usage.prompt_tokens += prompt;
                usage.completion_tokens += completion;
            }
            None => usage.failures += 1,
        }
        usage.cost = price.map(|p| {
            usage.prompt_tokens as f64 / 1000.0 * p.prompt_per_1k
                + usage.completion_tokens as f64 / 1000.0 * p.completion_per_1k
        });
    }

    pub fn record_cache_hit(&self) {
        self.ledger.lock().expect("usage ledger lock").cache_hits += 1;
    }

    pub fn summary(&self) -> UsageSummary {
        let ledger = self.ledger.lock().expect("usage ledger lock");
        UsageSummary {
            models: ledger.models.values().map(|(u, _)| u.clone()).collect(),
            cache_hits: ledger.cache_hits,
            notes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_requests: Option<u32>, max_tokens: Option<u64>) -> UsageLimits {
        UsageLimits {
            window: Duration::from_secs(3600),
            max_requests,
            max_tokens,
            max_concurrency: 8,
            max_wait: Duration::ZERO,
        }
    }

    #[tokio::test]
    async fn requests_beyond_the_window_budget_are_refused_without_waiting() {
        let limiter = Limiter::new(limits(Some(2), None));
        let a = limiter.acquire(10).await.unwrap();
        let b = limiter.acquire(10).await.unwrap();
        drop((a, b));
        let err = limiter.acquire(10).await.unwrap_err();
        assert!(err.wait > Duration::from_secs(3000), "{err:?}");
        assert_eq!(limiter.grants().len(), 2);
    }

    #[tokio::test]
    async fn settled_tokens_count_against_the_token_budget() {
        let limiter = Limiter::new(limits(None, Some(1000)));
        let a = limiter.acquire(100).await.unwrap();
        a.settle(950);
        drop(a);
        assert!(limiter.acquire(100).await.is_err());
        // A request alone larger than the budget still goes into an empty window.
        let lone = Limiter::new(limits(None, Some(10)));
        assert!(lone.acquire(500).await.is_ok());
    }

    #[test]
    fn cost_follows_the_prices() {
        let t = UsageTracker::new();
        let prices = Prices {
            prompt_per_1k: 0.5,
            completion_per_1k: 2.0,
        };
        t.record("m", Some(prices), Some((2000, 500)));
        t.record("m", Some(prices), None);
        t.record("free", None, Some((10, 10)));
        let s = t.summary();
        let m = s.models.iter().find(|m| m.model == "m").unwrap();
        assert_eq!((m.requests, m.failures), (2, 1));
        assert!((m.cost.unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(
            s.models.iter().find(|m| m.model == "free").unwrap().cost,
            None
        );
        assert!((s.total_cost().unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(s.requests(), 3);
    }
}
