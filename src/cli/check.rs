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
    /// Local checks only: do not resolve cited works against the scholarly record.
    #[arg(long, env = "CITEPROOF_NO_RESOLVE", value_parser = clap::builder::FalseyValueParser::new())]
    pub no_resolve: bool,
    #[command(flatten)]
    pub resolution: super::resolve::ResolveArgs,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let session = Session::new(&args.input, &args.report)?;
    session.run(|project| {
        check::link_all(project);
        let diagnostics = if args.no_resolve {
            check::local_diagnostics(project)
        } else {
            let found = super::resolve::project_diagnostics(project, &args.resolution)?;
            check::diagnostics_with(project, found)
        };
        Ok((diagnostics, Facts::default()))
    })
}
