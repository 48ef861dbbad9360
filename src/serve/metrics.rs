//! `GET /metrics` in the Prometheus text format: requests by route, method and status,
//! latency histograms by route, requests in flight and waiting, and — read from the
//! shared resolver at each scrape — upstream requests per source and cache lookups
//! per namespace.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::cache::Cache;
use crate::net::SourceStats;

/// The content type of the Prometheus text format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

type HistogramMaker = fn() -> Histogram;

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, HistogramMaker>,
    in_flight: Gauge,
    waiting: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// Where the upstream and cache counters are read at each scrape.
pub trait Upstream: Send + Sync + 'static {
    fn source_stats(&self) -> Vec<SourceStats>;
    fn cache(&self) -> Option<Cache>;
}

/// Latency buckets from 1 ms to about 33 s.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

impl Metrics {
    pub fn new(upstream: Option<Arc<dyn Upstream>>) -> Metrics {
        let mut registry = Registry::with_prefix("citeproof");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency: Family<RouteLabels, Histogram, HistogramMaker> =
            Family::new_with_constructor(latency_histogram);
        let in_flight = Gauge::default();
        let waiting = Gauge::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's arrival to its response, by route",
            latency.clone(),
        );
        registry.register(
            "http_requests_in_flight",
            "Requests being handled now",
            in_flight.clone(),
        );
        registry.register(
            "http_requests_waiting",
            "Requests waiting for a slot now",
            waiting.clone(),
        );
        if let Some(upstream) = upstream {
            registry.register_collector(Box::new(UpstreamCollector(upstream)));
        }
        Metrics {
            registry,
            requests,
            latency,
            in_flight,
            waiting,
        }
    }

    /// Count one answered request.
    pub fn record(&self, route: &str, method: &str, status: u16, elapsed: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(elapsed.as_secs_f64());
    }

    pub fn in_flight(&self) -> &Gauge {
        &self.in_flight
    }

    pub fn waiting(&self) -> &Gauge {
        &self.waiting
    }

    /// The text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut out, &self.registry)
            .expect("writing to a String does not fail");
        out
    }
}

/// Upstream requests per source and cache lookups per namespace, read at scrape.
struct UpstreamCollector(Arc<dyn Upstream>);

impl std::fmt::Debug for UpstreamCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UpstreamCollector")
    }
}

/// One counter per label set under one name.
fn counters(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    values: &[(Vec<(&str, String)>, u64)],
) -> Result<(), std::fmt::Error> {
    let kind = ConstCounter::new(0u64).metric_type();
    let mut family = encoder.encode_descriptor(name, help, None, kind)?;
    for (labels, value) in values {
        let metric = family.encode_family(labels)?;
        ConstCounter::new(*value).encode(metric)?;
    }
    Ok(())
}

impl Collector for UpstreamCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let stats = self.0.source_stats();
        let per_source = |pick: fn(&SourceStats) -> u64| -> Vec<(Vec<(&str, String)>, u64)> {
            stats
                .iter()
                .map(|s| (vec![("source", s.source.clone())], pick(s)))
                .collect()
        };
        counters(
            &mut encoder,
            "upstream_requests",
            "Requests sent to scholarly sources and model servers (retries included), by source",
            &per_source(|s| s.requests),
        )?;
        counters(
            &mut encoder,
            "upstream_failures",
            "Upstream requests that failed, by source",
            &per_source(|s| s.failures),
        )?;
        counters(
            &mut encoder,
            "upstream_rate_limited",
            "429 answers received, by source",
            &per_source(|s| s.rate_limited),
        )?;
        counters(
            &mut encoder,
            "upstream_short_circuited",
            "Requests failed at once because their host was unreachable, by source",
            &per_source(|s| s.short_circuited),
        )?;
        let lookups = self
            .0
            .cache()
            .map(|c| c.lookup_counts())
            .unwrap_or_default();
        let mut values = Vec::new();
        for (namespace, hits, misses) in lookups {
            values.push((
                vec![("namespace", namespace.clone()), ("result", "hit".into())],
                hits,
            ));
            values.push((
                vec![("namespace", namespace), ("result", "miss".into())],
                misses,
            ));
        }
        counters(
            &mut encoder,
            "cache_lookups",
            "Lookups in the resolution cache, by namespace and result (hit or miss)",
            &values,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed;

    impl Upstream for Fixed {
        fn source_stats(&self) -> Vec<SourceStats> {
            vec![SourceStats {
                source: "crossref".into(),
                requests: 7,
                failures: 1,
                ..SourceStats::default()
            }]
        }
        fn cache(&self) -> Option<Cache> {
            None
        }
    }

    #[test]
    fn the_exposition_has_every_family() {
        let metrics = Metrics::new(Some(Arc::new(Fixed)));
        metrics.record("/v1/clean", "POST", 200, Duration::from_millis(3));
        metrics.record("/v1/clean", "POST", 200, Duration::from_millis(5));
        metrics.in_flight().inc();
        let text = metrics.render();
        for want in [
            "citeproof_http_requests_total{route=\"/v1/clean\",method=\"POST\",status=\"200\"} 2",
            "# TYPE citeproof_http_request_duration_seconds histogram",
            "citeproof_http_request_duration_seconds_bucket{route=\"/v1/clean\",le=\"0.004\"} 1",
            "citeproof_http_request_duration_seconds_count{route=\"/v1/clean\"} 2",
            "citeproof_http_requests_in_flight 1",
            "citeproof_upstream_requests_total{source=\"crossref\"} 7",
            "citeproof_upstream_failures_total{source=\"crossref\"} 1",
            "# TYPE citeproof_cache_lookups_total counter",
        ] {
            assert!(text.contains(want), "`{want}` missing from:\n{text}");
        }
    }
}
