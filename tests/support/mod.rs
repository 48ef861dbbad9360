//! The mock scholarly world: one HTTP server on 127.0.0.1 that serves a set of real works
//! through every API citeproof talks to (Crossref, OpenAlex, Semantic Scholar, arXiv,
//! PubMed E-utilities, Europe PMC, doi.org, DataCite, Unpaywall, DBLP, OpenReview, the
//! ACL Anthology, landing pages), in the
//! response formats recorded in `../shared/data/api_responses`, with per-source knobs for
//! latency, rate limits and faults, and a request log.
//!
//! ```ignore
//! let world = MockWorld::start(MockConfig::fixtures());
//! let out = Command::new(env!("CARGO_BIN_EXE_citeproof")).envs(world.env()).args([...]).output();
//! assert_eq!(world.request_count(Source::Crossref), 0);
//! ```
#![allow(dead_code)]

pub mod acl;
pub mod admin;
pub mod arxiv;
pub mod crossref;
pub mod datacite;
pub mod dblp;
pub mod doi;
pub mod eprint;
pub mod europepmc;
pub mod faults;
pub mod fulltext;
pub mod ids;
pub mod knobs;
pub mod landing;
pub mod openalex;
pub mod openlibrary;
pub mod openreview;
pub mod pubmed;
pub mod pubmed_records;
pub mod registries;
pub mod rfc;
pub mod s2;
pub mod search;
pub mod server;
pub mod service;
pub mod text;
pub mod unpaywall;
pub mod wayback;
pub mod web;
pub mod world;
pub mod zotero;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

#[allow(unused_imports)]
pub use knobs::{FaultKind, FaultRule, Knobs, Latency, LoggedRequest, RateLimit, Trigger};
pub use service::Source;
#[allow(unused_imports)]
pub use world::{Author, Update, Work, World};

use knobs::Control;
use service::AppState;

/// The crate root (where Cargo.toml is).
fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/data` relative to the crate root.
pub fn shared_data_dir() -> PathBuf {
    crate_root().join("../shared/data")
}

/// The full shared world, when `../shared` is present.
pub fn shared_world_path() -> Option<PathBuf> {
    let path = shared_data_dir().join("world/works.jsonl");
    path.exists().then_some(path)
}

/// The bundled fixture world (`fixtures/world/*.jsonl`).
pub fn fixture_world_dir() -> PathBuf {
    crate_root().join("fixtures/world")
}

/// Where the works come from.
#[derive(Clone, Debug)]
pub enum WorldSource {
    /// `fixtures/world/*.jsonl`.
    Fixtures,
    /// JSONL files or directories of them.
    Files(Vec<PathBuf>),
    /// Works given directly (tests that construct a record).
    Works(Vec<Work>),
}

/// How to start a mock world.
#[derive(Clone, Debug)]
pub struct MockConfig {
    pub world: WorldSource,
    /// 0 picks a free port.
    pub port: u16,
    pub seed: u64,
    pub knobs: HashMap<Source, Knobs>,
}

impl MockConfig {
    /// The fixture world, no latency, no faults, no rate limits.
    pub fn fixtures() -> MockConfig {
        MockConfig {
            world: WorldSource::Fixtures,
            port: 0,
            seed: 0,
            knobs: HashMap::new(),
        }
    }

    /// The shared world of ../shared/data/world/works.jsonl, or `None` when it is absent.
    pub fn shared() -> Option<MockConfig> {
        shared_world_path().map(|p| MockConfig::files(vec![p]))
    }

    pub fn files(paths: Vec<PathBuf>) -> MockConfig {
        MockConfig {
            world: WorldSource::Files(paths),
            ..MockConfig::fixtures()
        }
    }

    pub fn works(works: Vec<Work>) -> MockConfig {
        MockConfig {
            world: WorldSource::Works(works),
            ..MockConfig::fixtures()
        }
    }

    pub fn seed(mut self, seed: u64) -> MockConfig {
        self.seed = seed;
        self
    }

    pub fn port(mut self, port: u16) -> MockConfig {
        self.port = port;
        self
    }

    fn knobs_mut(&mut self, source: Source) -> &mut Knobs {
        self.knobs.entry(source).or_default()
    }

    pub fn latency(mut self, source: Source, latency: Latency) -> MockConfig {
        self.knobs_mut(source).latency = latency;
        self
    }

    pub fn latency_all(mut self, latency: Latency) -> MockConfig {
        for source in Source::ALL {
            self.knobs_mut(source).latency = latency;
        }
        self
    }

    pub fn rate_limit(mut self, source: Source, limit: RateLimit) -> MockConfig {
        self.knobs_mut(source).rate_limit = Some(limit);
        self
    }

    /// Enforce every service's published rate limit (see [`RateLimit::published`]).
    pub fn published_rate_limits(mut self) -> MockConfig {
        for source in Source::ALL {
            self.knobs_mut(source).rate_limit = RateLimit::published(source);
        }
        self
    }

    pub fn fault(mut self, source: Source, rule: FaultRule) -> MockConfig {
        self.knobs_mut(source).faults.push(rule);
        self
    }

    pub fn fault_all(mut self, rule: FaultRule) -> MockConfig {
        for source in Source::ALL {
            self.knobs_mut(source).faults.push(rule.clone());
        }
        self
    }

    /// Every source fails every request, in the ways a network fails without saying
    /// "not found": error statuses, error pages, empty and cut bodies, resets.
    pub fn every_source_failing(self) -> MockConfig {
        self.fault_all(FaultRule {
            trigger: Trigger::Always,
            kinds: vec![
                FaultKind::Status(503),
                FaultKind::HtmlErrorPage,
                FaultKind::EmptyBody,
                FaultKind::TruncatedBody,
                FaultKind::ConnectionReset,
            ],
        })
    }

    pub fn down(mut self, source: Source) -> MockConfig {
        self.knobs_mut(source).down = true;
        self
    }

    fn load_world(&self) -> Result<World, String> {
        let roots = vec![shared_data_dir(), crate_root()];
        match &self.world {
            WorldSource::Fixtures => World::load(&[fixture_world_dir()], roots),
            WorldSource::Files(paths) => World::load(paths, roots),
            WorldSource::Works(works) => Ok(World::from_works(works.clone(), roots)),
        }
    }
}

/// A running mock world. Shuts down on drop.
pub struct MockWorld {
    origin: String,
    world: Arc<World>,
    control: Arc<Control>,
    shutdown: Option<tokio::sync::watch::Sender<bool>>,
    thread: Option<JoinHandle<()>>,
}

impl MockWorld {
    /// Load the world, bind 127.0.0.1, serve on a runtime thread of its own, and return once
    /// the server answers. Panics when the world cannot be loaded or the port bound.
    pub fn start(config: MockConfig) -> MockWorld {
        let world = Arc::new(
            config
                .load_world()
                .unwrap_or_else(|e| panic!("mock world: cannot load works: {e}")),
        );
        let listener = std::net::TcpListener::bind(("127.0.0.1", config.port))
            .unwrap_or_else(|e| panic!("mock world: cannot bind 127.0.0.1:{}: {e}", config.port));
        listener
            .set_nonblocking(true)
            .expect("mock world: nonblocking listener");
        let addr = listener.local_addr().expect("mock world: local address");
        let origin = format!("http://{addr}");
        let control = Arc::new(Control::new(config.seed, &config.knobs));
        let app = service::router(
            AppState {
                world: world.clone(),
                origin: Arc::new(origin.clone()),
            },
            control.clone(),
        );
        let (tx, rx) = tokio::sync::watch::channel(false);
        let thread = std::thread::Builder::new()
            .name("mock-world".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("mock world: tokio runtime");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)
                        .expect("mock world: tokio listener");
                    server::serve(listener, app, rx).await;
                });
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .expect("mock world: spawn server thread");
        server::wait_until_ready(addr);
        MockWorld {
            origin,
            world,
            control,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT`
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Base URL of a service, as citeproof's `[sources.<name>] url` expects it.
    pub fn base_url(&self, source: Source) -> String {
        format!("{}/{}", self.origin, source.name())
    }

    /// `CITEPROOF_<NAME>_URL` for every configurable service.
    pub fn env(&self) -> Vec<(String, String)> {
        Source::ALL
            .iter()
            .filter_map(|&s| {
                s.env_name()
                    .map(|name| (format!("CITEPROOF_{name}_URL"), self.base_url(s)))
            })
            .collect()
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn requests(&self, source: Source) -> Vec<LoggedRequest> {
        self.control.requests(source)
    }

    pub fn request_count(&self, source: Source) -> usize {
        self.control.request_count(source)
    }

    /// Requests to every service together.
    pub fn total_requests(&self) -> usize {
        Source::ALL.iter().map(|&s| self.request_count(s)).sum()
    }

    /// Forget the request log (and restart per-request fault sequences).
    pub fn clear_requests(&self) {
        self.control.clear_requests();
    }

    pub fn knobs(&self, source: Source) -> Knobs {
        self.control.knobs(source)
    }

    /// Replace the fault rules of a source with one rule.
    pub fn set_fault(&self, source: Source, rule: FaultRule) {
        self.set_faults(source, vec![rule]);
    }

    pub fn set_faults(&self, source: Source, rules: Vec<FaultRule>) {
        self.control.update(source, |k| k.faults = rules);
    }

    pub fn clear_faults(&self, source: Source) {
        self.set_faults(source, Vec::new());
    }

    pub fn set_latency(&self, source: Source, latency: Latency) {
        self.control.update(source, |k| k.latency = latency);
    }

    pub fn set_latency_all(&self, latency: Latency) {
        for source in Source::ALL {
            self.set_latency(source, latency);
        }
    }

    pub fn set_rate_limit(&self, source: Source, limit: Option<RateLimit>) {
        self.control.update(source, |k| k.rate_limit = limit);
    }

    /// Take a source down (every connection to it is reset) or bring it back.
    pub fn set_down(&self, source: Source, down: bool) {
        self.control.update(source, |k| k.down = down);
    }

    /// Stop serving and join the server thread.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(true);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for MockWorld {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether `path` exists relative to the shared data directory (for skip messages).
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    let path = shared_data_dir().join(rel);
    path.exists().then_some(path)
}

/// Read a file relative to the shared data directory, if present.
pub fn read_shared(rel: &str) -> Option<String> {
    shared_file(rel).and_then(|p| std::fs::read_to_string(Path::new(&p)).ok())
}
