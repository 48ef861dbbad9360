//! A keystroke that only moved what the edited file holds (typing in prose) is
//! applied to the root's last check in place — its project, findings, converted
//! diagnostics and facts move with the text — instead of checking the root again
//! ([`crate::pipeline::MovedEdit`]). The bibliography's findings, converted once,
//! stay as they are unless one of them points into the edited file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::completion_index;
use super::diagnostics::to_lsp;
use super::roots::RootSpec;
use super::server::Server;
use crate::fs::normalize;
use crate::load::Project;
use crate::model::FileId;

impl Server {
    /// Apply the batch's edit to `spec`'s last check when the edit is the only
    /// change the root sees and it only moved results; `false`: check the root.
    pub(super) fn moved_in_place(&mut self, spec: &RootSpec, changed: &HashSet<PathBuf>) -> bool {
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
        let learned_version = self
            .resolution
            .learned(&kept.engines_key)
            .map_or(0, |l| l.version());
        let Some(doc) = self.documents.by_path(&file) else {
            return false;
        };
        let (text, index) = (doc.text.clone(), doc.index.clone());
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
        let moved = Arc::get_mut(&mut check.project).and_then(|project| {
            let id = file_id(project, &file)?;
            let edit = kept.checker.recheck_moved(project, id, &text, &index)?;
            Some((id, edit))
        });
        if let Some(index_kept) = index_kept {
            completion_index::restore(&check.project, index_kept);
        }
        let Some((_, edit)) = moved else {
            return false;
        };
        // The edited file's list takes the findings of retyped citations.
        check.found.entry(file.clone()).or_default();
        let sources = &check.project.sources;
        let policy = check.policy.as_deref();
        for (path, found) in check.found.iter_mut() {
            let own = *path == file;
            let touches = edit.move_findings(found, own) || own;
            if touches {
                let converted = found
                    .iter()
                    .map(|d| to_lsp(d, sources, encoding, policy))
                    .collect();
                check.diagnostics.insert(path.clone(), Arc::new(converted));
            }
        }
        edit.move_facts(Arc::make_mut(&mut check.facts));
        true
    }
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
