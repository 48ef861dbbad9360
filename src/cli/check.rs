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
    /// Verify that each resolved cited work supports its claim (CP301–CP305).
    #[arg(long, conflicts_with = "no_resolve")]
    pub verify: bool,
    #[command(flatten)]
    pub verification: super::verify_flags::VerifyFlags,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let session = Session::new(&args.input, &args.report)?;
    session.run(|project| {
        check::link_all(project);
        let diagnostics = if args.no_resolve {
            check::local_diagnostics(project)
        } else {
            let (mut found, resolved, options) =
                super::resolve::project_resolution(project, &args.resolution)?;
            if args.verify {
                found.extend(super::check_verify::diagnostics(
                    project,
                    &resolved,
                    &options,
                    &args.verification,
                )?);
            }
            check::diagnostics_with(project, found)
        };
        Ok((diagnostics, Facts::default()))
    })
}
