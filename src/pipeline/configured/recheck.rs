//! An edit of one file brought into a check that this checker made, without
//! reading the project again: the language server's way for a keystroke.

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::load::Project;
use crate::model::FileId;
use crate::source::{FileKind, LineIndex};

use super::super::spliced::splice_project;
use super::super::{Checked, Learned, MovedEdit};
use super::Checker;

/// How an edit was brought into a kept check.
#[derive(Debug)]
pub enum Recheck {
    /// The edit only moved what the file holds: the caller moves its findings and
    /// facts with the edit; nothing else changes.
    Moved(MovedEdit),
    /// The edited blocks' results were spliced into the project, which was
    /// checked again with what was learned replayed: these are its findings.
    Spliced(Box<Checked>),
}

impl Checker {
    /// Bring `project` (loaded and checked by this checker) up to a new `text` of
    /// one of its files (`index`: the text's line index) in place; the project and
    /// the parse cache keep `text` itself (shared, not copied). An edit that
    /// only moved what the file holds ([`MovedEdit`]) is [`Recheck::Moved`]; one
    /// that changed it is spliced and the project checked again with `learned`
    /// replayed ([`Recheck::Spliced`]). `None` (nothing changed in `project`) when
    /// the edit must be read again: the caller loads and checks, and the parse
    /// made here is the one that load finds. (A spliced project whose check fails
    /// — a configuration error, which the same checker's last check did not meet —
    /// is `None` too, with the edit in `project`: the caller's load replaces it.)
    pub fn recheck_edit(
        &self,
        project: &mut Project,
        file: FileId,
        text: &Arc<str>,
        index: &LineIndex,
        learned: &Learned,
    ) -> Option<Recheck> {
        let cache = self.load.parse_cache.as_deref()?;
        let source = project.sources.files().get(file.index())?;
        let kind = source.kind;
        let spliceable = matches!(
            kind,
            FileKind::Markdown | FileKind::Latex | FileKind::Bibtex
        );
        if !spliceable || source.is_converted() {
            return None;
        }
        // A LaTeX file read with citation commands its document defines is parsed
        // with other options than these.
        let options = &self.load.parse;
        let read_alike = project
            .documents
            .iter()
            .filter(|d| d.files.contains(&file))
            .all(|d| kind != FileKind::Latex || d.cite_commands == options.cite_commands);
        if !read_alike {
            return None;
        }
        let window = cache.update_window(file, &source.path, kind, &source.text, text, options)?;
        if kind != FileKind::Bibtex
            && let Some(edit) = self.moved(project, file, text, index, &window)
        {
            return Some(Recheck::Moved(edit));
        }
        if !splice_project(project, file, window, text.clone(), index.clone()) {
            return None;
        }
        self.replay(project, learned)
            .ok()
            .map(|checked| Recheck::Spliced(Box::new(checked)))
    }

    /// The edit as a move, applied to `project`, when it only moved results and
    /// the findings cannot tell: claims' texts decide verification, suppressions
    /// hold by line and may silence a retyped citation's finding.
    fn moved(
        &self,
        project: &mut Project,
        file: FileId,
        text: &Arc<str>,
        index: &LineIndex,
        window: &crate::parse::splice::Window,
    ) -> Option<MovedEdit> {
        let mut edit = MovedEdit::from_window(file, window)?;
        let source = project.sources.files().get(file.index())?;
        let suppressed = project
            .documents
            .iter()
            .any(|d| d.suppressions.iter().any(|s| s.file == file));
        if (edit.changes_claims() && self.configs.run().verify_enabled())
            || (suppressed && edit.moves_lines(&source.text, text))
            || (suppressed && !edit.retyped().is_empty())
        {
            return None;
        }
        if !edit.retyped().is_empty() {
            let added = self.retyped_findings(project, file, &edit)?;
            edit.set_added(added);
        }
        edit.move_project(project, text.clone(), index.clone());
        Some(edit)
    }

    /// The findings of the citations an edit retyped, as a check of the edited
    /// text reports them; `None` when one of them linked, or would link, to a
    /// reference (its document's links and findings change: check again).
    fn retyped_findings(
        &self,
        project: &Project,
        file: FileId,
        edit: &MovedEdit,
    ) -> Option<Vec<Diagnostic>> {
        let mut found = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for doc in project.documents.iter().filter(|d| d.files.contains(&file)) {
            let has_bibliography = crate::rules::links::has_bibliography(doc);
            for (old, new) in edit.retyped() {
                let was_linked = doc
                    .citations
                    .iter()
                    .any(|c| c.span == old.span && c.file == old.file && c.reference.is_some());
                if was_linked || !crate::link::links_nowhere(doc, new) {
                    return None;
                }
                if let Some(d) = crate::rules::links::unlinked_citation(new, has_bibliography)
                    && seen.insert((d.rule.code, d.span, d.message.clone()))
                {
                    found.push(d);
                }
            }
        }
        self.configs.apply_rule_levels(&project.sources, found).ok()
    }
}
