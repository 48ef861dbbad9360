//! `citeproof extract`: what the parsers found, as JSON.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use citeproof::{check, load, output, parse};

use super::InputArgs;

#[derive(Debug, Args)]
pub struct ExtractArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Treat each non-empty line of FILE as one reference string and print one JSON
    /// object of parsed fields per line (`-` reads standard input).
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    pub refs: Option<PathBuf>,
}

pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.refs {
        return extract_refs(path);
    }
    let overrides = citeproof::config::Overrides::from_process_env();
    let (paths, fs) = super::fetch_named_papers(&args.input.paths, &overrides)?;
    let options = load::LoadOptions {
        fs,
        ..args.input.load_options()
    };
    let mut project = load::load(&paths, &options);
    check::link_all(&mut project);
    let problems = check::local_diagnostics(&project);
    let problems: Vec<_> = problems
        .into_iter()
        .filter(|d| d.rule.family == citeproof::rules::Family::Input)
        .collect();
    let out = output::extract::build(&project, &problems);
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    serde_json::to_writer_pretty(&mut lock, &out)?;
    writeln!(lock)?;
    Ok(ExitCode::SUCCESS)
}

fn extract_refs(path: &PathBuf) -> anyhow::Result<ExitCode> {
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read `{}`", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (n, line) in reader.lines().enumerate() {
        let line =
            line.with_context(|| format!("`{}` line {}: not UTF-8 text", path.display(), n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let fields = parse::refstring::parse(&line);
        let mut value = serde_json::to_value(&fields)?;
        value["line"] = serde_json::json!(n + 1);
        value["raw"] = serde_json::json!(line);
        serde_json::to_writer(&mut out, &value)?;
        writeln!(out)?;
    }
    Ok(ExitCode::SUCCESS)
}
