//! Which submissions a batch checks, and the id each is known by: every entry of a
//! folder named on the command line (a sub-folder, an archive, a document: one
//! submission each), a file named on the command line, or the paths of a list file
//! (one per line; a folder there is one submission). Ids come from the
//! entries' names, are unique within the batch and are the order of the summary, so a
//! rerun or a shard sees the same submissions in the same order.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::read::archive::ArchiveFormat;
use crate::source::FileKind;

/// One submission: its id and the file or folder that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub id: String,
    pub path: PathBuf,
}

/// What was found, and the folder entries that are no submissions (told to the user,
/// never dropped silently).
#[derive(Debug, Default)]
pub struct Found {
    /// Sorted by id.
    pub submissions: Vec<Submission>,
    pub skipped: Vec<PathBuf>,
}

/// Whether a path names a list file by its extension (`.list`, `.lst`).
pub fn is_list_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("list") || e.eq_ignore_ascii_case("lst"))
}

/// The submissions of `inputs` (folders of submissions, single submissions, list
/// files by extension) and of `lists` (list files whatever their names); `exclude`
/// (the output folder) is never a submission. A path that does not exist is an error
/// naming it, as is a list file that cannot be read; a path a list file names that
/// does not exist is still a submission (it fails alone, not the batch).
pub fn find(inputs: &[PathBuf], lists: &[PathBuf], exclude: &Path) -> anyhow::Result<Found> {
    let exclude = std::path::absolute(exclude).unwrap_or_else(|_| exclude.to_path_buf());
    let mut found = Found::default();
    let mut paths = Vec::new();
    for input in inputs {
        if is_list_file(input) {
            paths.extend(read_list(input)?);
        } else if input.is_dir() {
            folder_entries(input, &exclude, &mut paths, &mut found.skipped)?;
        } else if input.exists() {
            paths.push(input.clone());
        } else {
            anyhow::bail!("`{}` does not exist", input.display());
        }
    }
    for list in lists {
        paths.extend(read_list(list)?);
    }
    found.submissions = with_ids(paths);
    Ok(found)
}

fn folder_entries(
    dir: &Path,
    exclude: &Path,
    paths: &mut Vec<PathBuf>,
    skipped: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot read the folder `{}`: {e}", dir.display()))?;
    let mut listed: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    listed.sort();
    for path in listed {
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_none_or(|n| n.starts_with('.'));
        let absolute = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
        if hidden || absolute == exclude {
            continue;
        }
        if path.is_dir() || is_submission_file(&path) {
            paths.push(path);
        } else {
            skipped.push(path);
        }
    }
    Ok(())
}

/// A file that is a submission on its own: an archive or a document `check` reads.
fn is_submission_file(path: &Path) -> bool {
    ArchiveFormat::from_path(path).is_some()
        || FileKind::from_path(path).is_some_and(|k| k.is_document() || k == FileKind::Bibtex)
}

/// The paths of a list file: one per line, relative to the list's folder; blank
/// lines and lines starting with `#` are not paths.
fn read_list(list: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let text = std::fs::read_to_string(list)
        .map_err(|e| anyhow::anyhow!("cannot read the list file `{}`: {e}", list.display()))?;
    let base = list.parent().unwrap_or(Path::new(""));
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| base.join(l))
        .collect())
}

/// Ids for the paths, in the order given: the name without its archive or document
/// extension, in file-name-safe characters; a name taken already gets `-2`, `-3` …
/// Sorted by id.
fn with_ids(paths: Vec<PathBuf>) -> Vec<Submission> {
    let mut taken = HashSet::new();
    let mut out: Vec<Submission> = paths
        .into_iter()
        .map(|path| {
            let base = base_id(&path);
            let mut id = base.clone();
            let mut n = 2;
            while !taken.insert(id.clone()) {
                id = format!("{base}-{n}");
                n += 1;
            }
            Submission { id, path }
        })
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

fn base_id(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned());
    let lower = name.to_ascii_lowercase();
    let stem_len = [".tar.gz", ".tgz", ".tar", ".zip", ".gz"]
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map(|ext| name.len() - ext.len())
        .or_else(|| {
            FileKind::from_path(path)
                .and_then(|_| name.rfind('.'))
                .filter(|&dot| dot > 0)
        })
        .unwrap_or(name.len());
    let id: String = name[..stem_len]
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if id.is_empty() || id.chars().all(|c| c == '.') {
        "submission".to_string()
    } else {
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_drop_the_extension_and_stay_unique() {
        let paths = [
            "b/paper 1.tar.gz",
            "a/paper 1.pdf",
            "x/Q.zip",
            "y/dir",
            "z/q.tex",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let ids: Vec<(String, String)> = with_ids(paths)
            .into_iter()
            .map(|s| (s.id, s.path.display().to_string()))
            .collect();
        assert_eq!(
            ids,
            [
                ("Q".to_string(), "x/Q.zip".to_string()),
                ("dir".into(), "y/dir".into()),
                ("paper_1".into(), "b/paper 1.tar.gz".into()),
                ("paper_1-2".into(), "a/paper 1.pdf".into()),
                ("q".into(), "z/q.tex".into()),
            ]
        );
    }

    #[test]
    fn a_folder_of_submissions_and_a_list_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("subs/alpha")).unwrap();
        std::fs::write(root.join("subs/alpha/main.tex"), "x").unwrap();
        std::fs::write(root.join("subs/beta.zip"), "PK").unwrap();
        std::fs::write(root.join("subs/gamma.pdf"), "%PDF-").unwrap();
        std::fs::write(root.join("subs/notes.xyz"), "?").unwrap();
        std::fs::write(root.join("subs/.hidden.tex"), "x").unwrap();
        std::fs::create_dir_all(root.join("subs/out")).unwrap();
        std::fs::write(
            root.join("more.list"),
            "# chairs' picks\n\nsubs/alpha\nmissing.pdf\n",
        )
        .unwrap();
        let found = find(
            &[root.join("subs"), root.join("more.list")],
            &[],
            &root.join("subs/out"),
        )
        .unwrap();
        let ids: Vec<&str> = found.submissions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alpha", "alpha-2", "beta", "gamma", "missing"]);
        assert_eq!(found.skipped, [root.join("subs/notes.xyz")]);
        // A folder on the command line is a folder of submissions, one per entry.
        let inner = find(&[root.join("subs/alpha")], &[], &root.join("out")).unwrap();
        assert_eq!(inner.submissions[0].id, "main");
        let missing = find(&[root.join("nope")], &[], &root.join("out")).unwrap_err();
        assert!(missing.to_string().contains("nope"), "{missing}");
    }
}
