//! The `check` command's run: configuration (files, environment, flags), then for
//! each pass load → [`pipeline::run`] (local findings, resolution, verification,
//! suppressions) → configured severities, changed lines, baseline → fixes or the
//! report in the chosen format → the exit policy. `check.rs` stays a thin shell.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use citeproof::baseline::Baseline;
use citeproof::changed::ChangedLines;
use citeproof::config::{Layer, Overrides};
use citeproof::diagnostic::{Applicability, Diagnostic};
use citeproof::fs::{Overlay, Vfs};
use citeproof::load::Project;
use citeproof::output::{self, Format, Report};
use citeproof::pipeline::{CheckSetup, Checked, Checker, Stages};
use citeproof::policy::FailOn;
use citeproof::resolve::outcome::Status;
use citeproof::zotero::Bibliography;
use citeproof::{fix, output::text};

use super::resolve::{summary, unreachable_note, with_progress};
use super::stage_args::{Layers, StageArgs};
use super::verify_flags::report_usage;
use super::{InputArgs, ReadArgs};

/// Most passes of fix, re-check, fix again.
const MAX_FIX_PASSES: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour text output on a terminal unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

/// Reporting, configuration and exit options of `check`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Output format: text, json, jsonl, sarif, github, junit, gitlab or html.
    #[arg(long, short = 'f', value_name = "FORMAT", default_value = "text")]
    pub format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// When to colour text output.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub color: ColorChoice,
    #[command(flatten)]
    pub exit_policy: PolicyArgs,
    /// Apply safe fixes to the files, then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// With --fix, apply unsafe fixes too (they change what the document says).
    #[arg(long, requires = "fix")]
    pub unsafe_fixes: bool,
    /// Report only findings that are not in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in FILE as the baseline and exit with 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Report only findings on lines changed since this git revision.
    #[arg(long, value_name = "GIT_REF")]
    pub changed_since: Option<String>,
    /// Check only the I-th of N contiguous blocks of the documents found (1-based), so
    /// that N processes split one large check.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<citeproof::shard::Shard>,
}

/// Configuration and exit-policy options (`check`, `batch`).
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// Findings that make the run exit with 1: a severity (error, warning, info, hint)
    /// and/or rule codes or names, comma-separated or repeated [default: error, or
    /// `fail-on` from the configuration].
    #[arg(long, value_name = "SEVERITY|RULES")]
    pub fail_on: Vec<String>,
    /// Classify findings by a venue's reference criteria (iclr-2026, neurips-2026,
    /// icml-2026, or a `[policies.NAME]` of the configuration); the policy's failing
    /// classes decide the exit code [config: policy].
    #[arg(long, value_name = "NAME")]
    pub policy: Option<String>,
    /// The documents' own `citeproof: ignore`/`disable` comments hide nothing; each one
    /// that would hide a finding is reported (CP904). For chairs checking submissions
    /// [config: ignore-inline-suppressions].
    #[arg(long)]
    pub ignore_inline_suppressions: bool,
    /// Exit with 0 whatever is found (2 is still used for usage and config errors).
    #[arg(long)]
    pub exit_zero: bool,
    /// Use this configuration file for every path (no discovery).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl PolicyArgs {
    /// The environment, `--config FILE`, and the reading, exit-policy and stage flags
    /// as configuration layers.
    pub fn overrides(&self, read: &ReadArgs, stages: &StageArgs) -> anyhow::Result<Overrides> {
        let mut overrides = Overrides::from_process_env();
        overrides.config_file = self.config.clone();
        overrides.cli = cli_layers(read, self)?;
        overrides.cli.extend(stages.layers()?);
        Ok(overrides)
    }
}

/// A configured run of `check`.
pub struct Session<'a> {
    args: &'a ReportArgs,
    checker: Checker,
    fail_on: FailOn,
    changed: Option<ChangedLines>,
    baseline: Option<Baseline>,
    /// A Zotero library checked as a bibliography (`--zotero`): where its BibTeX
    /// text stands, and the text with its items.
    zotero: Option<(PathBuf, Bibliography)>,
}

/// Layers for the reading and exit-policy flags that are also configuration keys.
fn cli_layers(read: &ReadArgs, policy: &PolicyArgs) -> anyhow::Result<Vec<Layer>> {
    let mut layers = Layers::default();
    if !policy.fail_on.is_empty() {
        layers.set("--fail-on", "fail-on", policy.fail_on.to_vec())?;
    }
    if let Some(name) = &policy.policy {
        layers.set("--policy", "policy", name.clone())?;
    }
    if policy.ignore_inline_suppressions {
        let flag = "--ignore-inline-suppressions";
        layers.set(flag, "ignore-inline-suppressions", true)?;
    }
    if !read.cite_commands.is_empty() {
        let commands = read.cite_commands.clone();
        layers.set("--cite-command", "cite-commands", commands)?;
    }
    if let Some(size) = read.max_file_size {
        layers.set("--max-file-size", "max-file-size", size.to_string())?;
    }
    Ok(layers.0)
}

impl<'a> Session<'a> {
    pub fn new(
        input: &'a InputArgs,
        args: &'a ReportArgs,
        stages: &StageArgs,
        zotero: Option<(PathBuf, Bibliography)>,
    ) -> anyhow::Result<Session<'a>> {
        let overrides = args.exit_policy.overrides(&input.read, stages)?;
        let (mut inputs, mut fs) = super::fetch_named_papers(&input.paths, &overrides)?;
        if let Some((path, bibliography)) = &zotero {
            // The library is one more bibliography, read from memory; alone, unless
            // documents were named.
            let mut overlay = Overlay::new(fs);
            overlay.set(path, Arc::from(bibliography.text.as_str()));
            fs = Vfs::new(overlay);
            if input.paths == [PathBuf::from(".")] {
                inputs.clear();
            }
            inputs.push(path.clone());
        }
        let checker = Checker::new(CheckSetup {
            inputs,
            bibliographies: input.read.bibliographies.clone(),
            overrides,
            fs,
        })?;
        let fail_on = checker.fail_on();
        let changed = match &args.changed_since {
            Some(reference) => {
                let cwd = std::env::current_dir()?;
                Some(ChangedLines::since(&cwd, reference)?)
            }
            None => None,
        };
        let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
        Ok(Session {
            args,
            checker,
            fail_on,
            changed,
            baseline,
            zotero,
        })
    }

    fn load(&self) -> anyhow::Result<Project> {
        let mut project = self.checker.load()?;
        if let Some(shard) = self.args.shard {
            project.documents = shard.select(std::mem::take(&mut project.documents));
        }
        Ok(project)
    }

    /// Changed lines and baseline applied (the configured severities already are);
    /// returns the findings and how many the baseline held back.
    fn select(
        &self,
        project: &Project,
        mut diagnostics: Vec<Diagnostic>,
    ) -> (Vec<Diagnostic>, usize) {
        if let Some(changed) = &self.changed {
            diagnostics = changed.filter(&project.sources, diagnostics);
        }
        match &self.baseline {
            Some(baseline) => baseline.filter(&project.sources, diagnostics),
            None => (diagnostics, 0),
        }
    }

    /// The network stages the configuration asks for; what the reader should know
    /// about them is printed on stderr.
    fn stages(&self) -> anyhow::Result<Stages> {
        let planned = self.checker.stages()?;
        for warning in &planned.warnings {
            eprintln!("warning: {warning}");
        }
        Ok(planned.stages)
    }

    /// One pass of the pipeline, with a progress bar while resolving; `summarise`
    /// prints what resolution and verification did on stderr.
    fn check(
        &self,
        project: &mut Project,
        stages: &Stages,
        summarise: bool,
    ) -> anyhow::Result<Checked> {
        let mut stages = stages.clone();
        let bar = stages.resolve.take().map(|options| {
            let (options, bar) = with_progress(options);
            stages.resolve = Some(options);
            bar
        });
        let checked = self.checker.check(project, &stages);
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let checked = checked?;
        if summarise {
            if let Some(resolution) = &checked.resolution {
                let statuses: Vec<Status> = resolution
                    .entries
                    .iter()
                    .map(|e| e.resolution.status)
                    .collect();
                if !statuses.is_empty() {
                    eprintln!("resolved {}", summary(&statuses));
                }
                if let Some(note) = unreachable_note(&resolution.stats) {
                    eprintln!("{note}");
                }
            }
            if let Some(verification) = &checked.verification {
                eprintln!("verified {} claim–citation pair(s)", verification.pairs);
                report_usage(verification.usage.as_ref());
            }
        }
        Ok(checked)
    }

    /// Load, check, fix when asked, report and decide the exit code.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let stages = self.stages()?;
        let mut fixed = 0;
        if self.args.fix {
            let wanted = if self.args.unsafe_fixes {
                Applicability::Unsafe
            } else {
                Applicability::Safe
            };
            // No verification finding carries a fix: the fix passes skip verification
            // (and loading its model); the final check below runs it once.
            let fix_stages = Stages {
                verify: None,
                ..stages.clone()
            };
            for _ in 0..MAX_FIX_PASSES {
                let mut project = self.load()?;
                let checked = self.check(&mut project, &fix_stages, false)?;
                let (diagnostics, _) = self.select(&project, checked.diagnostics);
                let plan = fix::plan(&project.sources, &diagnostics, wanted);
                if plan.is_empty() {
                    break;
                }
                for (_, path, text) in fix::fixed_texts(&project.sources, &plan) {
                    std::fs::write(&path, text).map_err(|e| {
                        anyhow::anyhow!("cannot write fixes to `{}`: {e}", path.display())
                    })?;
                }
                fixed += plan.fixed;
            }
        }
        let mut project = self.load()?;
        let Checked {
            diagnostics, facts, ..
        } = self.check(&mut project, &stages, true)?;
        let (mut diagnostics, held_back) = self.select(&project, diagnostics);
        if let Some((path, bibliography)) = &self.zotero {
            let file = project.sources.find(path);
            bibliography.annotate(&mut diagnostics, |d| Some(d.file) == file);
        }
        if let Some(path) = &self.args.write_baseline {
            Baseline::from_diagnostics(&project.sources, &diagnostics).write(path)?;
            eprintln!(
                "citeproof: wrote {} finding(s) to the baseline `{}`",
                diagnostics.len(),
                path.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        let mut report = Report::new(&project, &diagnostics, &facts, &self.fail_on);
        report.colour = match self.args.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                self.args.output.is_none()
                    && self.args.format == Format::Text
                    && text::use_colour(std::io::stdout().is_terminal())
            }
        };
        let rendered = output::render(self.args.format, &report);
        match &self.args.output {
            Some(path) => std::fs::write(path, rendered)
                .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?,
            None => std::io::stdout().lock().write_all(rendered.as_bytes())?,
        }
        if fixed > 0 {
            eprintln!("citeproof: fixed {fixed} finding(s)");
        }
        if held_back > 0 {
            eprintln!("citeproof: {held_back} finding(s) in the baseline were not reported");
        }
        let failing = diagnostics.iter().any(|d| self.fail_on.fails(d));
        Ok(if failing && !self.args.exit_policy.exit_zero {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        })
    }
}
