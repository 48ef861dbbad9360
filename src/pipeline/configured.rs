//! The configured check: configuration layers (files, environment, flags or editor
//! settings) → which stages run → load through a file-system view → [`super::run`]
//! → each file's rule severities. `citeproof check`, the language server and the
//! HTTP service all run exactly this, so they report the same findings for the same
//! text and settings; what each adds (baselines, fixes written to disk, rendering,
//! publishing to an editor) happens after it.

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::{ConfigSet, Overrides};
use crate::fs::Vfs;
use crate::load::{self, LoadOptions, ParseCache, Project};
use crate::policy::FailOn;
use crate::resolve::cascade::Resolver;
use crate::verify::backend::Backend;

use super::{Checked, Engines, Learned, Stages};

mod recheck;
pub use recheck::Recheck;

/// What a check needs from outside the files it reads.
#[derive(Debug, Clone, Default)]
pub struct CheckSetup {
    /// Files and folders to check (folders are searched for `.md`, `.tex`, `.bib`).
    pub inputs: Vec<PathBuf>,
    /// Bibliographies every document uses (`--bib`).
    pub bibliographies: Vec<PathBuf>,
    /// The environment, `--config FILE`, and flags or editor settings as layers.
    pub overrides: Overrides,
    /// Where files and configuration are read: the disk, or the disk under the
    /// editor's unsaved buffers.
    pub fs: Vfs,
}

/// The stages a configuration asks for, and what the reader should be told about
/// them (verification asked for without resolution, a corpus record that could not
/// be read …).
#[derive(Debug, Clone, Default)]
pub struct PlannedStages {
    pub stages: Stages,
    pub warnings: Vec<String>,
}

/// A check configured once and run as often as the caller likes (the CLI once per
/// fix pass, the language server on every change).
#[derive(Debug)]
pub struct Checker {
    configs: Arc<ConfigSet>,
    load: LoadOptions,
    inputs: Vec<PathBuf>,
}

impl Checker {
    /// Read the configuration that applies to the first input (or `--config`).
    /// Fails on an invalid configuration, naming the file and key.
    pub fn new(setup: CheckSetup) -> anyhow::Result<Checker> {
        let configs = Arc::new(ConfigSet::load_in(
            setup.fs.clone(),
            setup.inputs.first().map(PathBuf::as_path),
            setup.overrides,
        )?);
        // A venue policy that cannot be built is a configuration error, said once here.
        configs.run().venue_policy().map_err(anyhow::Error::msg)?;
        let load = LoadOptions {
            parse: configs.run().parse_options(),
            bibliographies: setup.bibliographies,
            filter: configs.path_filter(),
            fs: setup.fs,
            parse_cache: None,
            accepted: crate::accept::Lookup::standard(),
            inline_suppressions: configs.run().inline_suppressions(),
        };
        Ok(Checker {
            configs,
            load,
            inputs: setup.inputs,
        })
    }

    /// Keep parses across loads: files whose text did not change since an earlier
    /// load of this checker (a bibliography while the paper is edited) are not
    /// parsed again.
    pub fn with_parse_cache(mut self, cache: Arc<ParseCache>) -> Checker {
        self.load.parse_cache = Some(cache);
        self
    }

    pub fn configs(&self) -> &Arc<ConfigSet> {
        &self.configs
    }

    pub fn load_options(&self) -> &LoadOptions {
        &self.load
    }

    /// Which findings fail the run (`fail-on`).
    pub fn fail_on(&self) -> FailOn {
        self.configs.run().fail_on()
    }

    /// The network stages the configuration asks for: resolution unless it is off
    /// (`--no-resolve`, `[resolve] enabled = false`), verification when it is on
    /// (`--verify`, `[verify] enabled = true`) and resolution runs.
    pub fn stages(&self) -> anyhow::Result<PlannedStages> {
        let run = self.configs.run();
        if !run.resolve_enabled() {
            let mut warnings = Vec::new();
            if run.verify_enabled() {
                warnings.push("claims are not verified: resolution is off".to_string());
            }
            return Ok(PlannedStages {
                stages: Stages::default(),
                warnings,
            });
        }
        let verify = if run.verify_enabled() {
            Some(run.verify_settings()?)
        } else {
            None
        };
        let setup = run.resolve_options()?;
        Ok(PlannedStages {
            stages: Stages {
                resolve: Some(setup.options),
                verify,
            },
            warnings: setup.warnings,
        })
    }

    /// Read the inputs through the file-system view. Fails when the configuration of
    /// one of the files read is invalid.
    pub fn load(&self) -> anyhow::Result<Project> {
        let project = load::load(&self.inputs, &self.load);
        self.configs.check_all(&project.sources)?;
        Ok(project)
    }

    /// Run the stages on a loaded project, then apply each file's rule severities
    /// (a rule set to `off` drops its findings).
    pub fn check(&self, project: &mut Project, stages: &Stages) -> anyhow::Result<Checked> {
        let mut checked = super::run(project, stages)?;
        checked.diagnostics = self
            .configs
            .apply_rule_levels(&project.sources, checked.diagnostics)?;
        Ok(checked)
    }

    /// [`Self::check`] with a resolver and a verification backend built once and
    /// shared by many runs (see [`super::run_shared`]).
    pub async fn check_shared(
        &self,
        project: &mut Project,
        resolver: Option<&Resolver>,
        backend: Option<&Backend>,
    ) -> anyhow::Result<Checked> {
        let mut checked = super::run_shared(project, resolver, backend).await;
        checked.diagnostics = self
            .configs
            .apply_rule_levels(&project.sources, checked.diagnostics)?;
        Ok(checked)
    }

    /// The local stages plus what `learned` already knows about the current
    /// content (see [`super::replay`]), with each file's rule severities. Nothing
    /// is learned when the configuration turns resolution off.
    pub fn replay(&self, project: &mut Project, learned: &Learned) -> anyhow::Result<Checked> {
        let run = self.configs.run();
        let mut checked = if run.resolve_enabled() {
            super::replay(project, learned, run.verify_enabled())
        } else {
            super::replay(project, &Learned::default(), false)
        };
        checked.diagnostics = self
            .configs
            .apply_rule_levels(&project.sources, checked.diagnostics)?;
        Ok(checked)
    }

    /// Whether the configuration asks for resolution (and so for background runs).
    pub fn resolves(&self) -> bool {
        self.configs.run().resolve_enabled()
    }

    /// What decides the network stages' settings: two checkers with the same key
    /// can share [`Engines`] and what they learned. The configuration's values,
    /// the file they came from (relative paths are relative to it) and the source
    /// settings (API keys come from the environment).
    pub fn engines_key(&self) -> String {
        let run = self.configs.run();
        format!(
            "{:?}|{:?}|{:?}",
            run.file,
            run.config,
            run.sources_settings()
        )
    }

    /// [`Self::check`] with engines the caller keeps (a language server's session);
    /// the stages are the engines'.
    pub async fn check_with(
        &self,
        project: &mut Project,
        engines: &Engines,
    ) -> anyhow::Result<Checked> {
        self.check_shared(project, engines.resolver(), engines.backend())
            .await
    }

    /// Load and check in one call.
    pub fn run(&self, stages: &Stages) -> anyhow::Result<(Project, Checked)> {
        let mut project = self.load()?;
        let checked = self.check(&mut project, stages)?;
        Ok((project, checked))
    }
}
