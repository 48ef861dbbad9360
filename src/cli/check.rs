//! `citeproof check`: run the rules and report.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;

use citeproof::diagnostic::Severity;
use citeproof::{check, load, output};

use super::InputArgs;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Exit with 1 when a finding is at or above this severity.
    #[arg(long, value_name = "SEVERITY", default_value = "error")]
    pub fail_on: Severity,
    /// Always exit with 0 when the check ran (2 is still used for usage errors).
    #[arg(long)]
    pub exit_zero: bool,
    /// Local checks only: do not resolve cited works against the scholarly record.
    #[arg(long)]
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
    let mut project = load::load(&args.input.paths, &args.input.load_options());
    check::link_all(&mut project);
    let diagnostics = if args.no_resolve {
        check::local_diagnostics(&project)
    } else {
        let (mut found, resolved, options) =
            super::resolve::project_resolution(&project, &args.resolution)?;
        if args.verify {
            found.extend(super::check_verify::diagnostics(
                &project,
                &resolved,
                &options,
                &args.verification,
            )?);
        }
        check::diagnostics_with(&project, found)
    };
    let colour = output::text::use_colour(std::io::stdout().is_terminal());
    let rendered = output::text::render(&project.sources, &diagnostics, colour);
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(rendered.as_bytes())?;
    let failing = diagnostics.iter().any(|d| d.severity >= args.fail_on);
    Ok(if failing && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
