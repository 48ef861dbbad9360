//! An edit that changed what one file holds (a citation added or retyped, an entry
//! of a reference list, a sentence split in two), applied to a project read before
//! it: the results of the edited blocks (the parse [`Window`]) take the place of
//! the old ones in every document that reads the file, and everything else in the
//! file moves. The caller then links and checks the project again
//! ([`super::replay`]): the rules run, but no file is read or parsed again and no
//! parse is copied, which is most of a check's time on a large manuscript.
//!
//! Only what a parse alone decides is spliced: citations, claims, references and
//! suppressions. An edit that changes a bibliography or include request, or a
//! reading problem, changes what else is read and is loaded again.

use std::collections::HashMap;
use std::sync::Arc;

use super::moved::MovedEdit;
use crate::document::Document;
use crate::load::Project;
use crate::model::{Citation, FileId, ReferenceOrigin};
use crate::parse::splice::Window;
use crate::source::LineIndex;

/// The results of the edited file that the window replaced, in a document's list.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: usize,
    len: usize,
}

impl Run {
    fn end(&self) -> usize {
        self.start + self.len
    }

    fn contains(&self, i: usize) -> bool {
        (self.start..self.end()).contains(&i)
    }
}

/// Where the window goes in one document.
struct DocPlan {
    doc: usize,
    citations: Run,
    claims: Run,
    /// Where the edited file's claims start: a parse's claim indices count from it.
    claim_base: usize,
    references: Run,
    suppressions: Run,
    /// The references read from files; those after them were made by linking
    /// (identifier citations) and are made again.
    parsed_references: usize,
}

/// Bring `project` (read and linked before the edit) up to the new `text` of
/// `file`, whose re-parse is `window`; `index` is the text's line index. `false`,
/// with `project` unchanged, when the edit cannot be spliced: load again.
pub fn splice_project(
    project: &mut Project,
    file: FileId,
    window: Window,
    text: Arc<str>,
    index: LineIndex,
) -> bool {
    let edit = MovedEdit::moving(file, window.change);
    if !edit.reads_the_same(&window) {
        return false;
    }
    let mut plans = Vec::new();
    for (i, doc) in project.documents.iter().enumerate() {
        if !doc.files.contains(&file) {
            continue;
        }
        match plan(i, doc, file, &window) {
            Some(plan) => plans.push(plan),
            None => return false,
        }
    }
    if plans.is_empty() {
        return false;
    }
    for plan in &plans {
        let doc = &mut project.documents[plan.doc];
        doc.references.truncate(plan.parsed_references);
    }
    // Everything of the file moves; what the window replaced is replaced next.
    edit.move_project(project, text, index);
    for plan in &plans {
        replace(&mut project.documents[plan.doc], plan, &window);
    }
    true
}

/// Where the window's results go in `doc`, checked against what it holds: `None`
/// when the document's lists are not the file-by-file merge a load makes.
fn plan(i: usize, doc: &Document, file: FileId, window: &Window) -> Option<DocPlan> {
    if doc.files.iter().filter(|&&f| f == file).count() != 1 {
        return None;
    }
    let order: HashMap<FileId, usize> =
        doc.files.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let pos = order[&file];
    let at = window.change.start;
    let (old, new) = (&window.old, &window.new);
    let parsed_references = doc
        .references
        .iter()
        .position(|r| r.origin == ReferenceOrigin::Inline)
        .unwrap_or(doc.references.len());
    if doc.references[parsed_references..]
        .iter()
        .any(|r| r.origin != ReferenceOrigin::Inline)
        || new
            .references
            .iter()
            .any(|r| r.origin == ReferenceOrigin::Inline)
    {
        return None;
    }
    let placed = |f: FileId, start: usize| Some((*order.get(&f)?, start));
    let (claim_base, claims) = run(
        &doc.claims,
        pos,
        at,
        &old.claims,
        |c| placed(c.file, c.span.start),
        |a, b| a == b,
    )?;
    let (_, citations) = run(
        &doc.citations,
        pos,
        at,
        &old.citations,
        |c| placed(c.file, c.group_span.start),
        |kept, old| same_citation(kept, old, claim_base),
    )?;
    let (_, references) = run(
        &doc.references[..parsed_references],
        pos,
        at,
        &old.references,
        |r| placed(r.file, r.span.start),
        |a, b| a == b,
    )?;
    let (_, suppressions) = run(
        &doc.suppressions,
        pos,
        at,
        &old.suppressions,
        |s| placed(s.file, s.span.start),
        |a, b| a == b,
    )?;
    // Only the window's own citations may be in the sentences it replaced.
    let outside_points_in = doc
        .citations
        .iter()
        .enumerate()
        .any(|(i, c)| !citations.contains(i) && c.claim.is_some_and(|k| claims.contains(k)));
    if outside_points_in {
        return None;
    }
    Some(DocPlan {
        doc: i,
        citations,
        claims,
        claim_base,
        references,
        suppressions,
        parsed_references,
    })
}

/// The results of the edited file (the file at reading position `pos`) in `list`
/// and, within them, the run equal to `old` (or where results at `at` would go
/// when `old` is empty); also where the file's results start. `place` gives an
/// item's file (by reading position) and where it starts; `None` when the list is
/// not grouped by file in reading order or holds no such run.
fn run<T>(
    list: &[T],
    pos: usize,
    at: usize,
    old: &[T],
    place: impl Fn(&T) -> Option<(usize, usize)>,
    same: impl Fn(&T, &T) -> bool,
) -> Option<(usize, Run)> {
    let (mut start, mut end) = (list.len(), list.len());
    let mut last = 0;
    for (i, item) in list.iter().enumerate() {
        let (order, _) = place(item)?;
        if order < last {
            return None;
        }
        last = order;
        if order >= pos && start == list.len() {
            start = i;
        }
        if order > pos && end == list.len() {
            end = i;
        }
    }
    let block = &list[start..end];
    let offset = match old.first() {
        Some(first) => {
            let i = block.iter().position(|item| same(item, first))?;
            let run = block.get(i..i + old.len())?;
            if !run.iter().zip(old).all(|(item, old)| same(item, old)) {
                return None;
            }
            i
        }
        None => block
            .iter()
            .filter(|item| place(item).is_some_and(|(_, s)| s < at))
            .count(),
    };
    Some((
        start,
        Run {
            start: start + offset,
            len: old.len(),
        },
    ))
}

/// A document's citation (linked, its claim counted in the document) is the parse's
/// `old` (its claim counted in the file, which starts at `claim_base`).
fn same_citation(kept: &Citation, old: &Citation, claim_base: usize) -> bool {
    *kept
        == Citation {
            reference: kept.reference,
            claim: old.claim.map(|k| k + claim_base),
            ..old.clone()
        }
}

/// Put the window's new results in place of the old ones in `doc` (its other
/// places already moved); the claims of the citations after the window shift.
fn replace(doc: &mut Document, plan: &DocPlan, window: &Window) {
    let new = &window.new;
    let shift = new.claims.len() as isize - plan.claims.len as isize;
    for (i, citation) in doc.citations.iter_mut().enumerate() {
        if plan.citations.contains(i) {
            continue;
        }
        if let Some(k) = &mut citation.claim
            && *k >= plan.claims.end()
        {
            *k = (*k as isize + shift) as usize;
        }
    }
    let citations = new.citations.iter().map(|c| Citation {
        claim: c.claim.map(|k| k + plan.claim_base),
        ..c.clone()
    });
    doc.citations
        .splice(plan.citations.start..plan.citations.end(), citations);
    doc.claims.splice(
        plan.claims.start..plan.claims.end(),
        new.claims.iter().cloned(),
    );
    if plan.references.len > 0 || !new.references.is_empty() {
        doc.entries.forget();
        doc.references.splice(
            plan.references.start..plan.references.end(),
            new.references.iter().cloned(),
        );
    }
    doc.suppressions.splice(
        plan.suppressions.start..plan.suppressions.end(),
        new.suppressions.iter().cloned(),
    );
}
