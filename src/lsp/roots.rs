//! Which root an open document is checked within, so that what the editor shows
//! is what `citeproof check` reports for the whole document:
//!
//! - a LaTeX file that another file `\input`s (a chapter opened alone) is checked
//!   within its main document: the one a `% !TEX root = main.tex` magic comment
//!   names, else the top of the chain of `.tex` files in the workspace folders that
//!   include it (as texlab finds it);
//! - a Manubot section (`content/02.intro.md`) is checked with the other sections
//!   of its folder and their `manual-references.json`, as `citeproof check content/`
//!   groups them;
//! - every other document is a root of its own.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use crate::fs::{FileSystem, normalize};
use crate::model::FileId;
use crate::parse::{self, ParseOptions};
use crate::source::FileKind;

/// Most `.tex` files read when looking for parents (a workspace folder that is a
/// home directory must not stall the server).
const MAX_SCANNED_FILES: usize = 5_000;
/// Most directory entries visited when looking for them.
const MAX_VISITED: usize = 50_000;
/// Lines searched for a magic comment.
const MAGIC_LINES: usize = 100;
/// Files of a main document larger than this are not read when looking for parents.
const MAX_SCANNED_SIZE: u64 = 8 << 20;

/// A root to check: the key the workspace knows it by, and the inputs a
/// `citeproof check` of it would be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSpec {
    pub key: PathBuf,
    pub inputs: Vec<PathBuf>,
}

impl RootSpec {
    pub fn single(path: &Path) -> RootSpec {
        RootSpec {
            key: path.to_path_buf(),
            inputs: vec![path.to_path_buf()],
        }
    }
}

/// The main file a `% !TEX root = …` comment in the first lines names, relative
/// to the file's folder.
pub fn magic_root(text: &str, path: &Path) -> Option<PathBuf> {
    for line in text.lines().take(MAGIC_LINES) {
        let Some(comment) = line.trim_start().strip_prefix('%') else {
            continue;
        };
        let comment = comment.trim_start_matches(['%', ' ', '\t']);
        let Some(rest) = strip_prefix_ignore_case(comment, "!tex") else {
            continue;
        };
        let Some(rest) = strip_prefix_ignore_case(rest.trim_start(), "root") else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = value.trim();
        if value.is_empty() {
            continue;
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let target = normalize(&dir.join(value));
        return (target != path).then_some(target);
    }
    None
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The Manubot sections of the folder of `path`, when it is one of at least two.
pub fn manubot_sections(path: &Path, fs: &dyn FileSystem) -> Option<Vec<PathBuf>> {
    if !crate::walk::is_manubot_section(path) {
        return None;
    }
    let dir = path.parent()?;
    let sections: Vec<PathBuf> = fs
        .supported_files(dir)
        .into_iter()
        .filter(|p| p.parent() == Some(dir) && crate::walk::is_manubot_section(p))
        .collect();
    (sections.len() > 1).then_some(sections)
}

/// Which `.tex` file of the workspace includes which, read once and again after a
/// `.tex` file changes on disk (see [`LatexParents::invalidate`]).
#[derive(Debug, Default)]
pub struct LatexParents {
    /// Included file → the file that includes it (the first found).
    parent: HashMap<PathBuf, PathBuf>,
    scanned_folders: Option<Vec<PathBuf>>,
}

impl LatexParents {
    pub fn invalidate(&mut self) {
        self.scanned_folders = None;
        self.parent.clear();
    }

    /// The top of the chain of files that include `path`, if any does.
    pub fn main_of(
        &mut self,
        path: &Path,
        folders: &[PathBuf],
        fs: &dyn FileSystem,
    ) -> Option<PathBuf> {
        if self.scanned_folders.as_deref() != Some(folders) {
            self.scan(folders, fs);
        }
        let mut seen = HashSet::new();
        let mut current = path.to_path_buf();
        while let Some(up) = self.parent.get(&current) {
            if !seen.insert(up.clone()) {
                break;
            }
            current = up.clone();
        }
        (current != path).then_some(current)
    }

    fn scan(&mut self, folders: &[PathBuf], fs: &dyn FileSystem) {
        self.parent.clear();
        self.scanned_folders = Some(folders.to_vec());
        let options = ParseOptions::default();
        for file in tex_files(folders) {
            let Ok(text) = fs.read_text(&file, MAX_SCANNED_SIZE) else {
                continue;
            };
            if !["\\input", "\\include", "\\subfile", "\\import"]
                .iter()
                .any(|needle| text.contains(needle))
            {
                continue;
            }
            let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
            let parsed = parse::latex::parse(FileId(0), &text, &options);
            for include in parsed.includes {
                let mut candidates = crate::load::include_candidates(&include.path, &dir, &dir);
                for folder in folders {
                    candidates.extend(crate::load::include_candidates(
                        &include.path,
                        folder,
                        folder,
                    ));
                }
                if let Some(child) = candidates.into_iter().find(|p| fs.is_file(p)) {
                    let child = normalize(&child);
                    if child != file {
                        self.parent.entry(child).or_insert_with(|| file.clone());
                    }
                }
            }
        }
    }
}

/// `.tex` files under the folders, breadth first, skipping hidden and build
/// folders as a directory check does, within the scan's bounds.
fn tex_files(folders: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut visited = 0;
    let mut pending: VecDeque<PathBuf> = folders.iter().cloned().collect();
    while let Some(dir) = pending.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for path in entries {
            visited += 1;
            if visited > MAX_VISITED || out.len() >= MAX_SCANNED_FILES {
                return out;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') {
                continue;
            }
            if path.is_dir() {
                if !crate::walk::is_skipped(Path::new(name).join("x").as_path()) {
                    pending.push_back(path);
                }
            } else if FileKind::from_path(&path) == Some(FileKind::Latex) {
                out.push(normalize(&path));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_comments_name_the_main_file() {
        let chapter = Path::new("/w/chapters/intro.tex");
        assert_eq!(
            magic_root("% !TEX root = ../main.tex\n\\section{A}", chapter),
            Some(PathBuf::from("/w/main.tex"))
        );
        assert_eq!(
            magic_root("%!TeX root=main.tex", chapter),
            Some(PathBuf::from("/w/chapters/main.tex"))
        );
        assert_eq!(magic_root("% !TEX program = xelatex", chapter), None);
        assert_eq!(magic_root("% !TEX root = intro.tex", chapter), None);
        assert_eq!(magic_root("text % !TEX root = a.tex", chapter), None);
    }

    #[test]
    fn the_top_of_an_include_chain_is_the_main_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("chapters/parts")).unwrap();
        std::fs::write(
            root.join("main.tex"),
            "\\documentclass{article}\\begin{document}\\input{chapters/one}\\end{document}",
        )
        .unwrap();
        std::fs::write(
            root.join("chapters/one.tex"),
            "\\include{chapters/parts/two}",
        )
        .unwrap();
        std::fs::write(root.join("chapters/parts/two.tex"), "Text \\cite{a}.").unwrap();
        std::fs::write(root.join("alone.tex"), "Alone.").unwrap();
        let mut parents = LatexParents::default();
        let folders = vec![root.to_path_buf()];
        let fs = crate::fs::Disk;
        assert_eq!(
            parents.main_of(&root.join("chapters/parts/two.tex"), &folders, &fs),
            Some(root.join("main.tex"))
        );
        assert_eq!(
            parents.main_of(&root.join("alone.tex"), &folders, &fs),
            None
        );
        assert_eq!(parents.main_of(&root.join("main.tex"), &folders, &fs), None);
    }
}
