//! Lines changed since a git revision, for `check --changed-since REF`: the added and
//! modified lines of `git diff -U0 REF` plus every line of files git does not track
//! yet (new files not yet added are new in the pull request too).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;

/// Which lines of a file changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    /// A new or untracked file: every line.
    All,
    /// 1-based inclusive ranges of added or modified lines.
    Ranges(Vec<(u32, u32)>),
}

impl Lines {
    pub fn contains(&self, line: u32) -> bool {
        match self {
            Lines::All => true,
            Lines::Ranges(ranges) => ranges.iter().any(|&(a, b)| a <= line && line <= b),
        }
    }
}

/// Changed lines per file, paths relative to the repository root.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedLines {
    pub root: PathBuf,
    pub files: HashMap<PathBuf, Lines>,
}

fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| anyhow::anyhow!("--changed-since needs git, which could not be run: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        anyhow::bail!("`git {}` failed: {}", args.join(" "), stderr.trim());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

impl ChangedLines {
    /// Ask git, in the repository that holds `dir`, what changed since `reference`.
    pub fn since(dir: &Path, reference: &str) -> anyhow::Result<ChangedLines> {
        if reference.starts_with('-') {
            anyhow::bail!("--changed-since: `{reference}` is not a git revision");
        }
        let root = git(dir, &["rev-parse", "--show-toplevel"]).map_err(|e| {
            anyhow::anyhow!(
                "--changed-since works only inside a git repository ({} is not in one): {e}",
                dir.display()
            )
        })?;
        let root = PathBuf::from(root.trim());
        let verify = format!("{reference}^{{commit}}");
        git(&root, &["rev-parse", "--verify", "--quiet", &verify])
            .map_err(|_| anyhow::anyhow!("--changed-since: unknown git revision `{reference}`"))?;
        let diff = git(
            &root,
            &[
                "-c",
                "core.quotePath=false",
                "diff",
                "-U0",
                "--no-color",
                "--no-ext-diff",
                "--no-renames",
                reference,
                "--",
            ],
        )?;
        let mut files = parse_diff(&diff);
        let untracked = git(&root, &["ls-files", "--others", "--exclude-standard", "-z"])?;
        for path in untracked.split('\0').filter(|p| !p.is_empty()) {
            files.insert(PathBuf::from(path), Lines::All);
        }
        Ok(ChangedLines { root, files })
    }

    /// Whether a path (as the run names it) has changed lines containing `line`.
    pub fn contains(&self, path: &Path, line: u32) -> bool {
        let Ok(absolute) = path.canonicalize() else {
            return false;
        };
        let root = self
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.root.clone());
        absolute
            .strip_prefix(&root)
            .ok()
            .and_then(|rel| self.files.get(rel))
            .is_some_and(|lines| lines.contains(line))
    }

    /// Keep the diagnostics whose span touches a changed line.
    pub fn filter(&self, sources: &SourceMap, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .filter(|d| {
                let file = sources.get(d.file);
                let first = file.line_col(d.span.start).line;
                let last = file.line_col(d.span.end.max(d.span.start + 1) - 1).line;
                (first..=last.max(first)).any(|line| self.contains(&file.path, line))
            })
            .collect()
    }
}

/// Added lines per file from `git diff -U0` output.
pub fn parse_diff(diff: &str) -> HashMap<PathBuf, Lines> {
    let mut files: HashMap<PathBuf, Lines> = HashMap::new();
    let mut current: Option<PathBuf> = None;
    for line in diff.lines() {
        if let Some(path) = line.strip_prefix("+++ ") {
            current = if path.starts_with('"') {
                Some(PathBuf::from(unquote(path)))
            } else {
                path.strip_prefix("b/").map(PathBuf::from)
            };
            if let Some(path) = &current {
                files
                    .entry(path.clone())
                    .or_insert(Lines::Ranges(Vec::new()));
            }
        } else if let Some(hunk) = line.strip_prefix("@@ ") {
            let (Some(path), Some((start, count))) = (&current, added_range(hunk)) else {
                continue;
            };
            if count == 0 {
                continue;
            }
            if let Some(Lines::Ranges(ranges)) = files.get_mut(path) {
                ranges.push((start, start + count - 1));
            }
        }
    }
    files
}

/// `-12,3 +14,2 @@ …` → (14, 2); a missing count means 1.
fn added_range(hunk: &str) -> Option<(u32, u32)> {
    let plus = hunk.split_whitespace().find(|w| w.starts_with('+'))?;
    let mut parts = plus[1..].splitn(2, ',');
    let start = parts.next()?.parse().ok()?;
    let count = match parts.next() {
        Some(c) => c.parse().ok()?,
        None => 1,
    };
    Some((start, count))
}

/// git quotes paths with control characters, quotes or backslashes (`"b/a\tb.md"`;
/// other non-ASCII is left alone with `core.quotePath=false`); undo the escapes.
fn unquote(path: &str) -> String {
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.to_string();
    };
    let inner = inner.strip_prefix("b/").unwrap_or(inner);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_become_added_line_ranges() {
        let diff = "diff --git a/paper.md b/paper.md\n\
                    --- a/paper.md\n\
                    +++ b/paper.md\n\
                    @@ -3 +3 @@ Intro\n\
                    -old\n\
                    +new\n\
                    @@ -10,0 +11,2 @@\n\
                    +added\n\
                    +added\n\
                    @@ -20,3 +22,0 @@\n\
                    diff --git a/gone.md b/gone.md\n\
                    --- a/gone.md\n\
                    +++ /dev/null\n\
                    @@ -1,2 +0,0 @@\n";
        let files = parse_diff(diff);
        assert_eq!(files.len(), 1);
        let lines = &files[Path::new("paper.md")];
        assert_eq!(lines, &Lines::Ranges(vec![(3, 3), (11, 12)]));
        assert!(lines.contains(12) && !lines.contains(13) && !lines.contains(22));
    }

    #[test]
    fn quoted_paths_are_unquoted() {
        assert_eq!(unquote("\"b/my\\tpaper.md\""), "my\tpaper.md");
        assert_eq!(unquote("plain.md"), "plain.md");
    }
}
