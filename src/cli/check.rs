//! `citeproof check`: run the rules and report.

use std::process::ExitCode;

use clap::Args;

use citeproof::check;
use citeproof::report::Facts;

use super::InputArgs;
use super::session::{ReportArgs, Session};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let session = Session::new(&args.input, &args.report)?;
    session.run(|project| {
        check::link_all(project);
        Ok((check::local_diagnostics(project), Facts::default()))
    })
}
