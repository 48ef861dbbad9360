//! The flags that choose and tune the network stages (`--no-resolve`, `--verify`,
//! the resolution and verification flags), turned into configuration layers: a flag
//! is one more layer over the files and the environment, so it overrides them, and
//! `citeproof config` shows it as the origin of the keys it sets.

use clap::Args;

use citeproof::config::Layer;

pub use super::flag_layers::{Layers, command_config};
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
