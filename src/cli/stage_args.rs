//! The flags that choose and tune the network stages (`--no-resolve`, `--verify`,
//! the resolution and verification flags), turned into configuration layers: a flag
//! is one more layer over the files and the environment, so it overrides them, and
//! `citeproof config` shows it as the origin of the keys it sets.

use std::path::{Path, PathBuf};

use clap::Args;
use toml::Value;

use citeproof::config::layers::from_keys;
use citeproof::config::{ConfigSet, Layer, Origin, Overrides};

use super::resolve::ResolveArgs;
use super::verify_flags::VerifyFlags;

/// Whether `check` resolves and verifies, and how.
#[derive(Debug, Args)]
pub struct StageArgs {
    /// Local checks only: do not resolve cited works against the scholarly record
    /// [env: CITEPROOF_NO_RESOLVE; config: resolve.enabled = false].
    #[arg(long)]
    pub no_resolve: bool,
    #[command(flatten)]
    pub resolution: ResolveArgs,
    /// Verify that each resolved cited work supports its claim (CP301–CP305)
    /// [config: verify.enabled].
    #[arg(long, conflicts_with_all = ["no_resolve", "no_verify"])]
    pub verify: bool,
    /// Do not verify claims, even when the configuration enables it.
    #[arg(long)]
    pub no_verify: bool,
    #[command(flatten)]
    pub verification: VerifyFlags,
}

impl StageArgs {
    pub fn layers(&self) -> anyhow::Result<Vec<Layer>> {
        let mut layers = Layers::default();
        if self.no_resolve {
            layers.set("--no-resolve", "resolve.enabled", false)?;
        }
        if self.verify {
            layers.set("--verify", "verify.enabled", true)?;
        }
        if self.no_verify {
            layers.set("--no-verify", "verify.enabled", false)?;
        }
        self.resolution.add_layers(&mut layers)?;
        self.verification.add_layers(&mut layers)?;
        Ok(layers.0)
    }
}

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
