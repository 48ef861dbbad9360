//! The expensive state of the network stages — HTTP clients with their connection
//! pools, per-source rate limiters and circuit breakers, the cache, the local
//! corpora, the verification backend and its model — built once for a set of
//! [`Stages`] and used by as many runs as the caller makes. The CLI makes one run;
//! the language server keeps one per configuration for the whole session, so its
//! background runs share rate limits and connections and never reload a corpus or
//! a model.

use crate::resolve::cascade::Resolver;
use crate::verify::backend::Backend;

use super::{PipelineError, Stages};

/// Resolver and verification backend for one set of stages.
pub struct Engines {
    stages: Stages,
    resolver: Option<Resolver>,
    backend: Option<Backend>,
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engines")
            .field("stages", &self.stages)
            .field("backend", &self.backend.as_ref().map(Backend::kind))
            .finish_non_exhaustive()
    }
}

impl Engines {
    /// Build what `stages` needs: a resolver when it resolves, a backend when it
    /// also verifies (a sentence model that cannot be loaded fails here, before
    /// any request is made).
    pub fn new(stages: Stages) -> Result<Engines, PipelineError> {
        let Some(options) = &stages.resolve else {
            return Ok(Engines {
                stages,
                resolver: None,
                backend: None,
            });
        };
        let resolver = Resolver::new(options.clone())?;
        let backend = match &stages.verify {
            Some(settings) => Some(Backend::build(
                resolver.net(),
                settings,
                Some(resolver.sources().clone()),
                options.cache.clone(),
            )?),
            None => None,
        };
        Ok(Engines {
            stages,
            resolver: Some(resolver),
            backend,
        })
    }

    pub fn stages(&self) -> &Stages {
        &self.stages
    }

    pub fn resolver(&self) -> Option<&Resolver> {
        self.resolver.as_ref()
    }

    pub fn backend(&self) -> Option<&Backend> {
        self.backend.as_ref()
    }
}
