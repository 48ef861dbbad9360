//! A keystroke is brought into the root's last check instead of reading the root
//! again ([`crate::pipeline::Recheck`]). One that only moved what the edited file
//! holds (typing in prose) moves the check's project, findings, converted
//! diagnostics and facts with the text. One that changed it (a key retyped, a
//! sentence split) is spliced into the project, which is checked again without
//! reading or parsing a file. Either way the bibliography's findings, converted
//! once, stay as they are unless one of them changed or points into the edited
//! file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::completion_index;
use super::diagnostics::to_lsp;
use super::encoding::Encoding;
use super::roots::RootSpec;
use super::server::Server;
use super::workspace::{Reuse, RootCheck, root_check};
use crate::fs::normalize;
use crate::load::Project;
use crate::model::FileId;
use crate::pipeline::{Checked, Learned, MovedEdit, Recheck};

impl Server {
    /// Apply the batch's edit to `spec`'s last check when the edit is the only
    /// change the root sees and it can be brought in; `false`: check the root.
    pub(super) fn edited_in_place(&mut self, spec: &RootSpec, changed: &HashSet<PathBuf>) -> bool {
        let Some(check) = self.workspace.roots.get(&spec.key) else {
            return false;
        };
        let touched: Vec<&PathBuf> = changed
            .iter()
            .filter(|p| **p == spec.key || check.files.contains(p) || spec.inputs.contains(p))
            .collect();
        let [file] = touched.as_slice() else {
            return false;
        };
        let file = (*file).clone();
        if check.inputs != spec.inputs || check.encoding != self.encoding {
            return false;
        }
        // The checker must be the one that made the check (configuration files
        // unchanged on disk), and what was learned must be what it replayed.
        let Ok(kept) = self.checker_for(spec) else {
            return false;
        };
        let none = Learned::default();
        let learned = self.resolution.learned(&kept.engines_key).unwrap_or(&none);
        let learned_version = learned.version();
        let Some(doc) = self.documents.by_path(&file) else {
            return false;
        };
        // Borrowed, not copied: the documents and the checks are apart.
        let (text, index) = (&doc.text, &doc.index);
        let encoding = self.encoding;
        let Some(check) = self.workspace.roots.get_mut(&spec.key) else {
            return false;
        };
        let same_checker = check
            .checker
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, &kept.checker));
        if !same_checker || check.learned_version != learned_version {
            return false;
        }
        let index_kept = completion_index::take(&check.project);
        let brought = Arc::get_mut(&mut check.project).and_then(|project| {
            let id = file_id(project, &file)?;
            let recheck = kept
                .checker
                .recheck_edit(project, id, text, index, learned)?;
            Some(match recheck {
                Recheck::Moved(edit) => Brought::Moved(edit),
                // A spliced project is checked anew: it leaves the old check.
                Recheck::Spliced(checked) => Brought::Spliced(id, std::mem::take(project), checked),
            })
        });
        match brought {
            Some(Brought::Spliced(id, project, checked)) => {
                // The completion index described the old entries: it is made again.
                *check = spliced_check(check, project, *checked, id, encoding);
                true
            }
            Some(Brought::Moved(edit)) => {
                if let Some(index_kept) = index_kept {
                    completion_index::restore(&check.project, index_kept);
                }
                move_check(check, &edit, &file, encoding);
                true
            }
            None => {
                if let Some(index_kept) = index_kept {
                    completion_index::restore(&check.project, index_kept);
                }
                false
            }
        }
    }
}

/// An edit brought into a kept check: moved, or spliced (the edited file, the
/// project taken out of the old check, its findings).
enum Brought {
    Moved(MovedEdit),
    Spliced(FileId, Project, Box<Checked>),
}

/// Move a check's findings, converted diagnostics and facts with an edit that
/// only moved what `file` holds.
fn move_check(check: &mut RootCheck, edit: &MovedEdit, file: &Path, encoding: Encoding) {
    // The edited file's list takes the findings of retyped citations.
    check.found.entry(file.to_path_buf()).or_default();
    let sources = &check.project.sources;
    let policy = check.policy.as_deref();
    for (path, found) in check.found.iter_mut() {
        let own = path == file;
        let touches = edit.move_findings(found, own) || own;
        if touches {
            let converted = found
                .iter()
                .map(|d| Arc::new(to_lsp(d, sources, encoding, policy)))
                .collect();
            check.diagnostics.insert(path.clone(), Arc::new(converted));
        }
    }
    edit.move_facts(Arc::make_mut(&mut check.facts));
}

/// The check of a spliced `project` (its findings `checked`), keeping the previous
/// check's conversions of the lists that did not change and place nothing in the
/// edited `file`.
fn spliced_check(
    previous: &RootCheck,
    project: Project,
    checked: Checked,
    file: FileId,
    encoding: Encoding,
) -> RootCheck {
    let (inputs, policy) = (previous.inputs.clone(), previous.policy.clone());
    let reuse = Reuse::Except(file);
    let mut check = root_check(
        project,
        checked,
        encoding,
        inputs,
        policy,
        Some(previous),
        reuse,
    );
    check.resolves = previous.resolves;
    check.engines_key = previous.engines_key.clone();
    check.checker = previous.checker.clone();
    check.learned_version = previous.learned_version;
    check
}

/// The id of the file at `path` (as the workspace keys it) in a project.
fn file_id(project: &Project, path: &Path) -> Option<FileId> {
    project
        .sources
        .files()
        .iter()
        .find(|f| normalize(&f.path) == path)
        .map(|f| f.id)
}
