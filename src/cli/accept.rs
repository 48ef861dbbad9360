//! `citeproof accept KEY|FINDING`: record a reference as a work confirmed real, in
//! the project's `.citeproof/accepted.toml` (or, with `--user`, the user's file), so
//! its not-found, not-indexed and unverified findings are not reported again.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;

use citeproof::accept::{self, Entry};
use citeproof::fs::Vfs;
use citeproof::load::{self, Project};
use citeproof::model::Reference;

use super::InputArgs;

#[derive(Debug, Args)]
pub struct AcceptArgs {
    /// The reference: its bibliography key (`nash1950`), or the place of one of its
    /// findings as `check` prints it (`refs.bib:12` or `refs.bib:12:3`).
    pub target: String,
    /// Record it in the user-level file (`$CITEPROOF_USER_ACCEPTED`, else
    /// `accepted.toml` in the user's configuration folder) instead of the project's.
    #[arg(long)]
    pub user: bool,
    /// Why it was accepted (kept in the record for readers).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(args: AcceptArgs) -> anyhow::Result<ExitCode> {
    let project = load::load(&args.input.paths, &args.input.load_options());
    let reference = find(&project, &args.target)?;
    let mut entry = Entry::of_reference(&reference.key, &reference.fields)
        .map_err(|why| anyhow::anyhow!("cannot accept `{}`: {why}", reference.key))?;
    entry.note = args.note.clone();
    let path = if args.user {
        accept::user_file().context(
            "no user-level file: the user's configuration folder is unknown and \
             $CITEPROOF_USER_ACCEPTED is not set",
        )?
    } else {
        let start = project.sources.get(reference.file).path.clone();
        accept::target_file(&*Vfs::disk(), &start)
    };
    let text = if path.is_file() {
        std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read `{}`", path.display()))?
    } else {
        String::new()
    };
    let described = entry.describe();
    match accept::file::append(&text, &entry)
        .map_err(|why| anyhow::anyhow!("cannot add to `{}`: {why}", path.display()))?
    {
        Some(new) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create `{}`", dir.display()))?;
            }
            std::fs::write(&path, new)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            eprintln!(
                "citeproof: accepted `{}` as real: {described} (in `{}`)",
                reference.key,
                path.display()
            );
        }
        None => eprintln!(
            "citeproof: `{}` is already accepted: {described} (in `{}`)",
            reference.key,
            path.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// The reference `target` names: a place (`file:line[:column]`) or a key.
fn find<'p>(project: &'p Project, target: &str) -> anyhow::Result<&'p Reference> {
    if let Some((path, line)) = place(target) {
        return at_place(project, &path, line);
    }
    let found: Vec<&Reference> = project
        .documents
        .iter()
        .flat_map(|d| d.references.iter())
        .filter(|r| r.key == target)
        .collect();
    let Some(&first) = found.first() else {
        bail!(
            "no reference has the key `{target}` in the documents read (give the documents or --bib)"
        );
    };
    // A bibliography shared by several documents is read once per document.
    if found
        .iter()
        .any(|r| r.file != first.file || r.span != first.span)
    {
        let places: Vec<String> = found
            .iter()
            .map(|r| {
                let file = project.sources.get(r.file);
                format!(
                    "{}:{}",
                    file.display_path(),
                    file.line_col(r.span.start).line
                )
            })
            .collect();
        bail!(
            "the key `{target}` names several references ({}): give the place instead",
            places.join(", ")
        );
    }
    Ok(first)
}

/// `file:line` or `file:line:column` where the file exists.
fn place(target: &str) -> Option<(PathBuf, u32)> {
    let mut parts = target.rsplitn(3, ':');
    let last = parts.next()?;
    let middle = parts.next()?;
    let (path, line) = match (middle.parse::<u32>(), parts.next()) {
        (Ok(line), Some(path)) if last.parse::<usize>().is_ok() => (path, line),
        _ => (target.rsplit_once(':')?.0, last.parse::<u32>().ok()?),
    };
    let path = PathBuf::from(path);
    Vfs::disk().is_file(&path).then_some((path, line))
}

fn at_place<'p>(project: &'p Project, path: &Path, line: u32) -> anyhow::Result<&'p Reference> {
    let wanted = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let same = |p: &Path| std::path::absolute(p).is_ok_and(|p| p == wanted);
    project
        .documents
        .iter()
        .flat_map(|d| d.references.iter())
        .find(|r| {
            let file = project.sources.get(r.file);
            let first = file.line_col(r.span.start).line;
            let last = file
                .line_col(r.span.end.saturating_sub(1).max(r.span.start))
                .line;
            same(&file.path) && (first..=last).contains(&line)
        })
        .with_context(|| {
            format!(
                "no reference is written at line {line} of `{}` in the documents read",
                path.display()
            )
        })
}
