//! `citeproof lsp`: the language server on standard input and output.

use std::process::ExitCode;

use clap::Args;

use citeproof::lsp::{self, Ending};

#[derive(Debug, Args)]
pub struct LspArgs {
    /// Accepted for editors that pass it; standard input and output are the only
    /// transport.
    #[arg(long)]
    pub stdio: bool,
}

pub fn run(_args: LspArgs) -> anyhow::Result<ExitCode> {
    Ok(match lsp::serve_stdio()? {
        Ending::Clean => ExitCode::SUCCESS,
        Ending::Abrupt => ExitCode::from(1),
    })
}
