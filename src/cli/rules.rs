//! `citeproof rules` and `citeproof explain`.

use std::process::ExitCode;

use clap::Args;

use citeproof::rules::{self, RULES};

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Print the rule table as JSON (the same as `--format json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// `text` (a table), `json`, or `markdown` (the rule reference, docs/rules.md).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: RulesFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule code (CP101) or name (undefined-citation).
    pub rule: String,
}

pub fn list(args: RulesArgs) -> anyhow::Result<ExitCode> {
    if args.json || args.format == RulesFormat::Json {
        println!("{}", serde_json::to_string_pretty(RULES)?);
        return Ok(ExitCode::SUCCESS);
    }
    if args.format == RulesFormat::Markdown {
        print!("{}", rules::reference::markdown());
        return Ok(ExitCode::SUCCESS);
    }
    // Names vary in length: pad to the longest so the columns line up.
    let name_width = RULES.iter().map(|rule| rule.name.len()).max().unwrap_or(0);
    for rule in RULES {
        println!(
            "{}  {:<name_width$} {:<8} {}",
            rule.code, rule.name, rule.severity, rule.summary
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn explain(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(rule) = rules::find(&args.rule) else {
        anyhow::bail!("unknown rule `{}` (see `citeproof rules`)", args.rule);
    };
    println!("{} {} ({})\n", rule.code, rule.name, rule.severity);
    println!("{}\n", rule.summary);
    println!("{}", rule.docs);
    Ok(ExitCode::SUCCESS)
}
