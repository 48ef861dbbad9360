//! `citeproof config`: the effective configuration for a path, with origins.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use citeproof::config::{self, ConfigSet, Overrides};

use super::stage_args::StageArgs;

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// The file or folder whose configuration to show.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Use this configuration file instead of discovering one.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The flags of `check` that set configuration keys, to see their effect.
    #[command(flatten)]
    pub stages: StageArgs,
}

pub fn run(args: ConfigArgs) -> anyhow::Result<ExitCode> {
    let mut overrides = Overrides::from_process_env();
    overrides.config_file = args.config.clone();
    overrides.cli = args.stages.layers()?;
    let set = ConfigSet::load(Some(&args.path), overrides)?;
    let resolved = if args.path.is_file() {
        set.for_path(&args.path)?
    } else {
        std::sync::Arc::new(set.run().clone())
    };
    let cwd = std::env::current_dir()?;
    print!("{}", config::render_effective(&resolved, &cwd));
    Ok(ExitCode::SUCCESS)
}
