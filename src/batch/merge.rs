//! `citeproof batch merge`: the output folders of several `batch --shard I/N` runs made
//! into one — the summary lines of every shard in id order (the summary an unsharded
//! run writes), the shards' reports, and `totals.json` with the batch's totals and
//! everything that keeps the merge from being the whole batch: a missing, duplicated
//! or unfinished shard, shards of different batches or settings, a submission missing
//! or found twice.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::files::{self, REPORTS_DIR, SUMMARY_JSONL};
use super::manifest::Manifest;
use super::summary::{Counts, Status, SubmissionLine};

/// One shard's output folder, read.
#[derive(Debug)]
struct ShardDir {
    dir: PathBuf,
    manifest: Manifest,
    /// `None` when the run did not finish (no summary yet).
    lines: Option<Vec<SubmissionLine>>,
}

/// The totals of a merged batch, and what keeps it from being complete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Every shard present once, finished, with every submission it should hold.
    pub complete: bool,
    /// Submissions of the whole batch (from the shards' manifests).
    pub batch_submissions: usize,
    /// Shards the batch was split into (1 for an unsharded batch).
    pub shards: usize,
    /// Summary lines merged.
    pub submissions: usize,
    pub checked: usize,
    /// Submissions that could not be checked.
    pub failed: usize,
    /// Submissions with a failing finding.
    pub failing: usize,
    pub references: usize,
    pub findings: usize,
    /// The venue policy the shards classed by, when they all name the same one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// Counts summed over the submissions, per class (or severity).
    pub counts: Counts,
    pub missing_shards: Vec<String>,
    pub duplicate_shards: Vec<String>,
    /// Folders whose run has not finished (no `summary.jsonl`): rerun them with the
    /// same arguments to resume.
    pub unfinished: Vec<String>,
    /// Ids a shard's manifest lists but its summary lacks.
    pub missing_submissions: Vec<String>,
    /// Ids found in more than one folder (the first folder's line is kept).
    pub duplicate_submissions: Vec<String>,
    /// Why the shards do not belong together (other batch sizes, shard counts or
    /// settings), each naming the folder.
    pub mismatches: Vec<String>,
}

/// The merge, before it is written.
#[derive(Debug)]
pub struct Merged {
    /// By id, each submission once.
    pub lines: Vec<SubmissionLine>,
    pub totals: Totals,
    /// The folder each line came from (for its reports).
    from: Vec<PathBuf>,
    settings: String,
}

/// Read and merge the output folders `dirs`. Fails only when a folder cannot be read
/// as a batch's output (no manifest, an unreadable summary); everything else is
/// counted in [`Totals`].
pub fn merge(dirs: &[PathBuf]) -> anyhow::Result<Merged> {
    let shards = dirs
        .iter()
        .map(|dir| read_dir(dir))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut totals = Totals {
        complete: false,
        batch_submissions: shards.first().map_or(0, |s| s.manifest.batch_submissions),
        shards: 0,
        submissions: 0,
        checked: 0,
        failed: 0,
        failing: 0,
        references: 0,
        findings: 0,
        policy: None,
        counts: Counts::default(),
        missing_shards: Vec::new(),
        duplicate_shards: Vec::new(),
        unfinished: Vec::new(),
        missing_submissions: Vec::new(),
        duplicate_submissions: Vec::new(),
        mismatches: Vec::new(),
    };
    check_shards(&shards, &mut totals);
    let mut by_id: BTreeMap<String, (SubmissionLine, PathBuf)> = BTreeMap::new();
    let mut duplicates = BTreeSet::new();
    for shard in &shards {
        let Some(lines) = &shard.lines else {
            totals.unfinished.push(shard.dir.display().to_string());
            continue;
        };
        let present: BTreeSet<&str> = lines.iter().map(|l| l.id.as_str()).collect();
        totals.missing_submissions.extend(
            (shard.manifest.submissions.iter())
                .filter(|id| !present.contains(id.as_str()))
                .cloned(),
        );
        for line in lines {
            if by_id.contains_key(&line.id) {
                duplicates.insert(line.id.clone());
            } else {
                by_id.insert(line.id.clone(), (line.clone(), shard.dir.clone()));
            }
        }
    }
    totals.duplicate_submissions = duplicates.into_iter().collect();
    let (lines, from): (Vec<_>, Vec<_>) = by_id.into_values().unzip();
    add_up(&lines, &mut totals);
    totals.complete = totals.missing_shards.is_empty()
        && totals.duplicate_shards.is_empty()
        && totals.unfinished.is_empty()
        && totals.missing_submissions.is_empty()
        && totals.duplicate_submissions.is_empty()
        && totals.mismatches.is_empty()
        && totals.submissions == totals.batch_submissions;
    let settings = shards
        .first()
        .map(|s| s.manifest.settings.clone())
        .unwrap_or_default();
    Ok(Merged {
        lines,
        totals,
        from,
        settings,
    })
}

fn read_dir(dir: &Path) -> anyhow::Result<ShardDir> {
    let manifest = Manifest::read(dir)?;
    let summary = dir.join(SUMMARY_JSONL);
    let lines = match std::fs::read_to_string(&summary) {
        Ok(text) => Some(
            text.lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(n, l)| {
                    serde_json::from_str(l)
                        .map_err(|e| anyhow::anyhow!("`{}` line {}: {e}", summary.display(), n + 1))
                })
                .collect::<anyhow::Result<Vec<SubmissionLine>>>()?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => anyhow::bail!("cannot read `{}`: {e}", summary.display()),
    };
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        manifest,
        lines,
    })
}

/// Shards present, missing, duplicated; batch sizes, shard counts and settings that
/// differ from the first folder's.
fn check_shards(shards: &[ShardDir], totals: &mut Totals) {
    let Some(first) = shards.first() else {
        return;
    };
    let count_of = |s: &ShardDir| s.manifest.shard().ok().flatten().map_or(1, |s| s.count);
    let index_of = |s: &ShardDir| s.manifest.shard().ok().flatten().map_or(1, |s| s.index);
    totals.shards = count_of(first);
    let name = |index: usize| match totals.shards {
        1 => "the whole batch".to_string(),
        n => format!("{index}/{n}"),
    };
    for shard in &shards[1..] {
        let dir = shard.dir.display();
        if count_of(shard) != totals.shards {
            totals.mismatches.push(format!(
                "`{dir}` is a shard of {} parts, `{}` of {}",
                count_of(shard),
                first.dir.display(),
                totals.shards
            ));
        }
        if shard.manifest.batch_submissions != first.manifest.batch_submissions {
            totals.mismatches.push(format!(
                "`{dir}` belongs to a batch of {} submissions, `{}` to one of {}",
                shard.manifest.batch_submissions,
                first.dir.display(),
                first.manifest.batch_submissions
            ));
        }
        if shard.manifest.settings != first.manifest.settings {
            totals.mismatches.push(format!(
                "`{dir}` was run with other settings than `{}` (configuration, flags, \
                 environment or shared bibliographies differ)",
                first.dir.display()
            ));
        }
    }
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    for shard in shards.iter().filter(|s| count_of(s) == totals.shards) {
        *seen.entry(index_of(shard)).or_default() += 1;
    }
    for index in 1..=totals.shards {
        match seen.get(&index).copied().unwrap_or(0) {
            0 => totals.missing_shards.push(name(index)),
            1 => {}
            _ => totals.duplicate_shards.push(name(index)),
        }
    }
}

fn add_up(lines: &[SubmissionLine], totals: &mut Totals) {
    totals.submissions = lines.len();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut policies = BTreeSet::new();
    for line in lines {
        match line.status {
            Status::Ok => totals.checked += 1,
            Status::Failed => totals.failed += 1,
        }
        totals.failing += usize::from(line.failing);
        totals.references += line.references;
        totals.findings += line.findings;
        if line.status == Status::Ok {
            policies.insert(line.policy.clone());
        }
        for (name, n) in &line.counts.0 {
            match counts.iter_mut().find(|(c, _)| c == name) {
                Some((_, total)) => *total += n,
                None => counts.push((name.clone(), *n)),
            }
        }
    }
    totals.counts = Counts(counts);
    if policies.len() == 1 {
        totals.policy = policies.into_iter().next().flatten();
    }
}

/// Where the merge's totals are written in its output folder.
pub const TOTALS_FILE: &str = "totals.json";

impl Merged {
    /// Write the merged summary (`summary.jsonl`, `summary.csv`), the reports of
    /// every line, `totals.json`, and a manifest of the merged batch (so that merged
    /// folders can be merged again). `out` must not be one of the merged folders.
    pub fn write(&self, out: &Path) -> anyhow::Result<()> {
        let reports = out.join(REPORTS_DIR);
        std::fs::create_dir_all(&reports)
            .map_err(|e| anyhow::anyhow!("cannot create `{}`: {e}", reports.display()))?;
        for (line, dir) in self.lines.iter().zip(&self.from) {
            for extension in ["json", "html"] {
                let from = files::report_path(dir, &line.id, extension);
                if !from.exists() {
                    continue;
                }
                let to = files::report_path(out, &line.id, extension);
                std::fs::copy(&from, &to).map_err(|e| {
                    anyhow::anyhow!(
                        "cannot copy `{}` to `{}`: {e}",
                        from.display(),
                        to.display()
                    )
                })?;
            }
        }
        files::write_summaries(out, &self.lines)?;
        let mut totals = serde_json::to_string_pretty(&self.totals)?;
        totals.push('\n');
        files::write_whole(&out.join(TOTALS_FILE), totals.as_bytes())?;
        Manifest {
            shard: None,
            batch_submissions: self.totals.batch_submissions,
            settings: self.settings.clone(),
            submissions: self.lines.iter().map(|l| l.id.clone()).collect(),
        }
        .write(out)
    }
}

#[cfg(test)]
mod tests;
