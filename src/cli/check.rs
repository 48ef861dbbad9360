//! `citeproof check`: run the rules and report.

use std::process::ExitCode;

use clap::Args;

use super::InputArgs;
use super::session::{ReportArgs, Session};
use super::stage_args::StageArgs;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub stages: StageArgs,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    Session::new(&args.input, &args.report, &args.stages)?.run()
}
