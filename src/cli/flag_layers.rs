//! Flags as configuration layers: a flag is one more layer over the files and the
//! environment, so it overrides them, and `citeproof config` shows it as the origin
//! of the keys it sets.

use std::path::{Path, PathBuf};

use toml::Value;

use citeproof::config::layers::from_keys;
use citeproof::config::{ConfigSet, Layer, Origin, Overrides};

/// Configuration layers from flags, one per flag, in the order they are added.
#[derive(Debug, Default)]
pub struct Layers(pub Vec<Layer>);

impl Layers {
    /// `flag` sets these keys; a value the key does not accept is an error naming
    /// the flag.
    pub fn push(&mut self, flag: &str, entries: Vec<(String, Value)>) -> anyhow::Result<()> {
        let layer = from_keys(Origin::Cli(flag.to_string()), entries)
            .map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
        self.0.push(layer);
        Ok(())
    }

    /// `flag` sets one key.
    pub fn set(&mut self, flag: &str, key: &str, value: impl Into<Value>) -> anyhow::Result<()> {
        self.push(flag, vec![(key.to_string(), value.into())])
    }

    /// `flag` sets one key to a path, made absolute against the current folder (a
    /// path in a file is relative to the file instead); a database URL stays as given.
    pub fn set_path(&mut self, flag: &str, key: &str, path: &Path) -> anyhow::Result<()> {
        if citeproof::storage::Location::is_database(path) {
            return self.set(flag, key, path.display().to_string());
        }
        self.set(flag, key, absolute(path).display().to_string())
    }
}

pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The configuration of a command that reads one input (`resolve`, `verify`): the
/// nearest configuration file to it (the current folder's for standard input), or
/// `--config FILE`, under the process environment and the command's flags.
pub fn command_config(
    input: &Path,
    config_file: Option<PathBuf>,
    cli: Vec<Layer>,
) -> anyhow::Result<ConfigSet> {
    let mut overrides = Overrides::from_process_env();
    overrides.config_file = config_file;
    overrides.cli = cli;
    let start = if input == Path::new("-") {
        Path::new(".")
    } else {
        input
    };
    ConfigSet::load(Some(start), overrides)
}
