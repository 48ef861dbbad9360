//! Configuration: `citeproof.toml` / `.citeproof.toml`, the nearest one walking up
//! from each file, `extend` chains, environment overrides and command-line flags.
//!
//! Precedence, lowest first: built-in defaults, the configuration files (a file after
//! the files it extends), `CITEPROOF_*` environment variables, command-line flags.
//! Rule severities and include/exclude globs are taken per file from that file's
//! nearest configuration; every other setting is run-wide and taken from the
//! configuration of the run (`--config FILE`, or the nearest one to the first path).

mod apply;
pub mod file;
pub mod layers;
mod print;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::diagnostic::Diagnostic;
use crate::resolve::sources::SourceName;
use crate::source::SourceMap;
use crate::walk::PathFilter;

pub use file::ConfigFile;
pub use layers::{Flat, Layer, Origin};

/// Settings from outside the files: environment variables and command-line flags.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--config FILE`: use this file for every path, no discovery.
    pub config_file: Option<PathBuf>,
    /// Layers from command-line flags (`--fail-on` …), applied last.
    pub cli: Vec<Layer>,
    /// Environment variables (read through this map so tests need not touch the
    /// process environment).
    pub env: HashMap<String, String>,
}

impl Overrides {
    /// The process environment (`CITEPROOF_*` overrides and the API-key variables
    /// the configuration names).
    pub fn from_process_env() -> Overrides {
        Overrides {
            env: std::env::vars().collect(),
            ..Overrides::default()
        }
    }

    fn env(&self, name: &str) -> Option<&str> {
        self.env
            .get(name)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// The effective configuration at one place: merged values with their origins.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The configuration file that applies (none: defaults only).
    pub file: Option<PathBuf>,
    pub flat: Flat,
    pub config: ConfigFile,
    /// Directory globs are relative to, per key (`include`, `exclude`).
    include_base: PathBuf,
    exclude_base: PathBuf,
    env: HashMap<String, String>,
}

impl Resolved {
    /// Merge defaults, `file`'s chain, the environment and the command line.
    pub fn build(file: Option<&Path>, overrides: &Overrides) -> anyhow::Result<Resolved> {
        let mut flat = Flat::new();
        layers::flatten(&apply::defaults(), &mut flat);
        if let Some(path) = file {
            for layer in layers::file_chain(path)? {
                layers::flatten(&layer, &mut flat);
            }
        }
        for (key, var) in env_keys() {
            if let Some(value) = overrides.env(&var) {
                check_env_value(&key, &var, value)?;
                flat.insert(
                    key,
                    (toml::Value::String(value.to_string()), Origin::Env(var)),
                );
            }
        }
        for layer in &overrides.cli {
            layers::flatten(layer, &mut flat);
        }
        let config = layers::unflatten(&flat)?;
        let cwd = std::env::current_dir().unwrap_or_default();
        let base = |key: &str| match flat.get(key) {
            Some((_, Origin::File(path))) => {
                path.parent().map(Path::to_path_buf).unwrap_or_default()
            }
            _ => cwd.clone(),
        };
        Ok(Resolved {
            file: file.map(Path::to_path_buf),
            include_base: base("include"),
            exclude_base: base("exclude"),
            config,
            flat,
            env: overrides.env.clone(),
        })
    }

    /// Where a dotted key's value came from.
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.flat.get(key).map(|(_, origin)| origin)
    }
}

/// The environment variables that set configuration keys.
fn env_keys() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = SourceName::ALL
        .iter()
        .map(|n| {
            (
                format!("sources.{}.url", n.as_str()),
                format!("CITEPROOF_{}_URL", n.env_name()),
            )
        })
        .collect();
    out.push(("sources.mailto".into(), "CITEPROOF_MAILTO".into()));
    out.push(("verify.url".into(), "CITEPROOF_LLM_URL".into()));
    out.push(("verify.model".into(), "CITEPROOF_LLM_MODEL".into()));
    out
}

/// Check an environment variable's value as a file's would be checked (URLs in
/// particular), naming the variable when it is wrong.
fn check_env_value(key: &str, var: &str, value: &str) -> anyhow::Result<()> {
    let mut value = toml::Value::String(value.to_string());
    for part in key.split('.').rev() {
        let mut table = toml::Table::new();
        table.insert(part.to_string(), value);
        value = toml::Value::Table(table);
    }
    value
        .try_into::<ConfigFile>()
        .map(drop)
        .map_err(|e| anyhow::anyhow!("environment variable {var}: {}", e.message()))
}

/// Configuration for every file of a run, discovered once per folder.
#[derive(Debug)]
pub struct ConfigSet {
    run: Arc<Resolved>,
    overrides: Overrides,
    /// Folder → the configuration file that applies there.
    nearest: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    /// Configuration file → its resolved configuration.
    resolved: Mutex<HashMap<Option<PathBuf>, Arc<Resolved>>>,
}

impl ConfigSet {
    /// The run's configuration: `--config FILE`, else the nearest file to `first_path`
    /// (a folder, or a file's folder), else the current folder's.
    pub fn load(first_path: Option<&Path>, overrides: Overrides) -> anyhow::Result<ConfigSet> {
        let file = match &overrides.config_file {
            Some(path) => {
                if !path.is_file() {
                    anyhow::bail!("--config: no such file `{}`", path.display());
                }
                Some(path.clone())
            }
            None => {
                let start = first_path
                    .map(absolute)
                    .map(|p| if p.is_dir() { p } else { parent(&p) })
                    .unwrap_or_else(|| absolute(Path::new(".")));
                layers::discover(&start)?
            }
        };
        let run = Arc::new(Resolved::build(file.as_deref(), &overrides)?);
        let set = ConfigSet {
            run: run.clone(),
            overrides,
            nearest: Mutex::new(HashMap::new()),
            resolved: Mutex::new(HashMap::new()),
        };
        set.resolved.lock().expect("not poisoned").insert(file, run);
        Ok(set)
    }

    pub fn run(&self) -> &Resolved {
        &self.run
    }

    /// The configuration that applies to one file.
    pub fn for_path(&self, path: &Path) -> anyhow::Result<Arc<Resolved>> {
        if self.overrides.config_file.is_some() {
            return Ok(self.run.clone());
        }
        let dir = parent(&absolute(path));
        let file = {
            let mut nearest = self.nearest.lock().expect("not poisoned");
            match nearest.get(&dir) {
                Some(found) => found.clone(),
                None => {
                    let found = layers::discover(&dir)?;
                    nearest.insert(dir, found.clone());
                    found
                }
            }
        };
        let mut resolved = self.resolved.lock().expect("not poisoned");
        if let Some(r) = resolved.get(&file) {
            return Ok(r.clone());
        }
        let r = Arc::new(Resolved::build(file.as_deref(), &self.overrides)?);
        resolved.insert(file, r.clone());
        Ok(r)
    }

    /// Apply each file's rule levels: change severities, drop rules that are off.
    pub fn apply_rule_levels(
        &self,
        sources: &SourceMap,
        diagnostics: Vec<Diagnostic>,
    ) -> anyhow::Result<Vec<Diagnostic>> {
        let mut out = Vec::with_capacity(diagnostics.len());
        for mut d in diagnostics {
            let resolved = self.for_path(&sources.get(d.file).path)?;
            if let Some(severity) = resolved.rule_severity(d.rule) {
                d.severity = severity;
                out.push(d);
            }
        }
        Ok(out)
    }

    /// The include/exclude filter for searched folders, per file's configuration.
    /// A file whose configuration cannot be read is kept, so that [`Self::check_all`]
    /// reports the error instead of the file silently disappearing.
    pub fn path_filter(self: &Arc<Self>) -> PathFilter {
        let set = self.clone();
        PathFilter::new(move |path| set.for_path(path).map(|r| r.accepts(path)).unwrap_or(true))
    }

    /// Read the configuration of every file of a run, failing on the first that is
    /// invalid.
    pub fn check_all(&self, sources: &SourceMap) -> anyhow::Result<()> {
        for file in sources.files() {
            self.for_path(&file.path)?;
        }
        Ok(())
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn parent(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

pub use print::render as render_effective;
