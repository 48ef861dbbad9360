//! Configuration: `citeproof.toml` / `.citeproof.toml`, the nearest one walking up
//! from each file, `extend` chains, environment overrides and command-line flags.
//!
//! Precedence, lowest first: built-in defaults, the configuration files (a file after
//! the files it extends), `CITEPROOF_*` environment variables, command-line flags.
//! Rule severities and include/exclude globs are taken per file from that file's
//! nearest configuration; every other setting is run-wide and taken from the
//! configuration of the run (`--config FILE`, or the nearest one to the first path).

mod apply;
pub mod clean;
pub mod file;
pub mod layers;
mod origin;
mod print;
pub mod serve;
pub mod serve_access;
mod stages;
pub mod validate;
pub mod values;
pub mod venue_policy;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::diagnostic::Diagnostic;
use crate::fs::{FileSystem, Vfs};
use crate::resolve::sources::SourceName;
use crate::source::SourceMap;
use crate::walk::PathFilter;

pub use file::ConfigFile;
pub use layers::{Flat, Layer};
pub use origin::Origin;
pub use stages::ResolveSetup;

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
    pub fn build(
        fs: &dyn FileSystem,
        file: Option<&Path>,
        overrides: &Overrides,
    ) -> anyhow::Result<Resolved> {
        let mut flat = Flat::new();
        layers::flatten(&apply::defaults(), &mut flat);
        if let Some(path) = file {
            for layer in layers::file_chain(fs, path)? {
                layers::flatten(&layer, &mut flat);
            }
        }
        for EnvKey { key, var, kind } in env_keys() {
            if let Some(value) = overrides.env(&var) {
                let value = kind.value(value);
                check_env_value(&key, &var, &value)?;
                flat.insert(key, (value, Origin::Env(var)));
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

/// How an environment variable's text becomes a configuration value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EnvKind {
    Text,
    /// A switch: anything but empty, `0`, `false`, `no`, `off` (any case) is on.
    Switch,
    /// A switch that turns the key off (`CITEPROOF_NO_RESOLVE=1` → `enabled = false`).
    NegatedSwitch,
    Integer,
}

impl EnvKind {
    fn value(self, text: &str) -> toml::Value {
        let on = || {
            !matches!(
                text.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "n" | "f" | "off"
            )
        };
        match self {
            EnvKind::Text => toml::Value::String(text.to_string()),
            EnvKind::Switch => toml::Value::Boolean(on()),
            EnvKind::NegatedSwitch => toml::Value::Boolean(!on()),
            // A number that does not parse stays text, so the key's check names it.
            EnvKind::Integer => text
                .trim()
                .parse::<i64>()
                .map(toml::Value::Integer)
                .unwrap_or_else(|_| toml::Value::String(text.to_string())),
        }
    }
}

/// One environment variable that sets a configuration key.
struct EnvKey {
    key: String,
    var: String,
    kind: EnvKind,
}

/// The environment variables that set configuration keys. A variable that applies to
/// every source (`CITEPROOF_TIMEOUT`) sets each source's key, as the flag does.
fn env_keys() -> Vec<EnvKey> {
    let entry = |key: &str, var: &str, kind| EnvKey {
        key: key.to_string(),
        var: var.to_string(),
        kind,
    };
    let mut out = Vec::new();
    for n in SourceName::ALL {
        let (name, env) = (n.as_str(), n.env_name());
        out.push(entry(
            &format!("sources.{name}.url"),
            &format!("CITEPROOF_{env}_URL"),
            EnvKind::Text,
        ));
        out.push(entry(
            &format!("sources.{name}.rate-limit"),
            &format!("CITEPROOF_{env}_RATE"),
            EnvKind::Text,
        ));
        out.push(entry(
            &format!("sources.{name}.timeout"),
            "CITEPROOF_TIMEOUT",
            EnvKind::Text,
        ));
        out.push(entry(
            &format!("sources.{name}.retries"),
            "CITEPROOF_RETRIES",
            EnvKind::Integer,
        ));
    }
    for (key, var, kind) in [
        ("sources.mailto", "CITEPROOF_MAILTO", EnvKind::Text),
        ("sources.zotero.url", crate::zotero::URL_ENV, EnvKind::Text),
        (
            "sources.zotero.enabled",
            crate::zotero::ENABLED_ENV,
            EnvKind::Switch,
        ),
        (
            "resolve.enabled",
            "CITEPROOF_NO_RESOLVE",
            EnvKind::NegatedSwitch,
        ),
        ("resolve.offline", "CITEPROOF_OFFLINE", EnvKind::Switch),
        ("resolve.index", "CITEPROOF_INDEX", EnvKind::Text),
        ("cache.dir", crate::cache::CACHE_DIR_ENV, EnvKind::Text),
        ("verify.url", "CITEPROOF_LLM_URL", EnvKind::Text),
        ("verify.model", "CITEPROOF_LLM_MODEL", EnvKind::Text),
        (
            "verify.stage2-model",
            "CITEPROOF_LLM_STAGE2_MODEL",
            EnvKind::Text,
        ),
        (
            "verify.stage2-url",
            "CITEPROOF_LLM_STAGE2_URL",
            EnvKind::Text,
        ),
        (
            "verify.embeddings-model",
            "CITEPROOF_LLM_EMBEDDINGS_MODEL",
            EnvKind::Text,
        ),
        (
            "verify.local-embedding-model",
            "CITEPROOF_EMBEDDING_MODEL",
            EnvKind::Text,
        ),
        (
            "verify.arxiv-web-url",
            "CITEPROOF_ARXIV_WEB_URL",
            EnvKind::Text,
        ),
        (
            "verify.openreview-web-url",
            "CITEPROOF_OPENREVIEW_WEB_URL",
            EnvKind::Text,
        ),
    ] {
        out.push(entry(key, var, kind));
    }
    out
}

/// Check an environment variable's value as a file's would be checked (URLs in
/// particular), naming the variable when it is wrong.
fn check_env_value(key: &str, var: &str, value: &toml::Value) -> anyhow::Result<()> {
    layers::from_keys(
        Origin::Env(var.to_string()),
        vec![(key.to_string(), value.clone())],
    )
    .map(drop)
    .map_err(|e| anyhow::anyhow!("environment variable {var}: {e}"))
}

/// Configuration for every file of a run, discovered once per folder.
#[derive(Debug)]
pub struct ConfigSet {
    run: Arc<Resolved>,
    overrides: Overrides,
    /// Where configuration files are read (the editor's buffers in the language server).
    fs: Vfs,
    /// Folder → the configuration file that applies there.
    nearest: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    /// Configuration file → its resolved configuration.
    resolved: Mutex<HashMap<Option<PathBuf>, Arc<Resolved>>>,
}

impl ConfigSet {
    /// The run's configuration: `--config FILE`, else the nearest file to `first_path`
    /// (a folder, or a file's folder), else the current folder's.
    pub fn load(first_path: Option<&Path>, overrides: Overrides) -> anyhow::Result<ConfigSet> {
        ConfigSet::load_in(Vfs::disk(), first_path, overrides)
    }

    /// [`ConfigSet::load`] reading files through `fs`.
    pub fn load_in(
        fs: Vfs,
        first_path: Option<&Path>,
        overrides: Overrides,
    ) -> anyhow::Result<ConfigSet> {
        let file = match &overrides.config_file {
            Some(path) => {
                if !fs.is_file(path) {
                    anyhow::bail!("--config: no such file `{}`", path.display());
                }
                Some(path.clone())
            }
            None => {
                let start = first_path
                    .map(absolute)
                    .map(|p| if fs.is_dir(&p) { p } else { parent(&p) })
                    .unwrap_or_else(|| absolute(Path::new(".")));
                layers::discover(&*fs, &start)?
            }
        };
        let run = Arc::new(Resolved::build(&*fs, file.as_deref(), &overrides)?);
        let set = ConfigSet {
            run: run.clone(),
            overrides,
            fs,
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
                    let found = layers::discover(&*self.fs, &dir)?;
                    nearest.insert(dir, found.clone());
                    found
                }
            }
        };
        let mut resolved = self.resolved.lock().expect("not poisoned");
        if let Some(r) = resolved.get(&file) {
            return Ok(r.clone());
        }
        let r = Arc::new(Resolved::build(
            &*self.fs,
            file.as_deref(),
            &self.overrides,
        )?);
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
        // Each file's configuration looked up once, not once per finding.
        let mut per_file: Vec<Option<Arc<Resolved>>> = vec![None; sources.files().len()];
        for mut d in diagnostics {
            let resolved = match per_file.get(d.file.index()) {
                Some(Some(known)) => known.clone(),
                _ => {
                    let found = self.for_path(&sources.get(d.file).path)?;
                    if let Some(slot) = per_file.get_mut(d.file.index()) {
                        *slot = Some(found.clone());
                    }
                    found
                }
            };
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
