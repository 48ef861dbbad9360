//! An edit that only moved what a file holds: typing in prose, or anywhere the
//! parse of the edited blocks is the old parse at new places. Such an edit cannot
//! change a finding except by where it points, so a language server brings its last
//! check up to date by moving the places in the edited file instead of checking
//! the root again: work proportional to the edited blocks, not to the project.
//!
//! What may differ is the text of the sentences the edit falls in (claims): claim
//! texts decide only verification, so [`super::Checker::recheck_edit`] takes this
//! way only when verification is off. Suppressions work by line: an edit that adds
//! or removes a line break in a file with suppressions is checked again.
//!
//! A citation key being typed is the other common keystroke: a citation that
//! linked to nothing and still links to nothing (`[@sm` → `[@smi`) changes only its
//! own finding (CP101), which is made again; its document's links, the other
//! findings and the background results stay. The caller proves that both link
//! nowhere and that no suppression could see the change.

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::document::FileLink;
use crate::load::Project;
use crate::model::{BibliographyRequest, Citation, Claim, FileId, Reference, Span, Suppression};
use crate::parse::IncludeRequest;
use crate::parse::splice::{Change, Window};
use crate::report::Facts;
use crate::rules::{ORPHAN_MARKER, UNDEFINED_CITATION};
use crate::source::LineIndex;

/// A proven move-only edit of one file: where its positions go.
#[derive(Debug, Clone)]
pub struct MovedEdit {
    file: FileId,
    change: Change,
    /// The sentences around the edit, with their new text, by new place.
    claims: Vec<(Span, String)>,
    /// Citations typed in, old (old places) and new: each links to nothing.
    retyped: Vec<(Citation, Citation)>,
    /// The findings of the new citations of `retyped`, as a check reports them.
    added: Vec<Diagnostic>,
}

/// Results whose places can be moved: `false` when a place of `file` falls inside
/// the changed bytes (the result is not a moved copy of itself).
trait Place {
    fn move_places(&mut self, file: FileId, edit: &MovedEdit) -> bool;
}

impl MovedEdit {
    /// The edit of `file` whose re-parse is `window`, when every new result of the
    /// window is an old one at its new place (claims may differ in their text).
    pub fn from_window(file: FileId, window: &Window) -> Option<MovedEdit> {
        let mut edit = MovedEdit {
            file,
            change: window.change,
            claims: Vec::new(),
            retyped: Vec::new(),
            added: Vec::new(),
        };
        let (old, new) = (&window.old, &window.new);
        if old.citations.len() != new.citations.len() {
            return None;
        }
        for (old, new) in old.citations.iter().zip(&new.citations) {
            let mut moved = old.clone();
            if moved.move_places(file, &edit) && moved == *new {
                continue;
            }
            if !retypable(old, new) {
                return None;
            }
            edit.retyped.push((old.clone(), new.clone()));
        }
        let same = edit.same_moved(&old.references, &new.references)
            && edit.same_moved(&old.suppressions, &new.suppressions)
            && edit.reads_the_same(window)
            && old.claims.len() == new.claims.len();
        if !same {
            return None;
        }
        for (old, new) in old.claims.iter().zip(&new.claims) {
            let mut moved = old.clone();
            if !moved.move_places(file, &edit) || moved.span != new.span || moved.file != new.file {
                return None;
            }
            if moved.text != new.text {
                edit.claims.push((new.span, new.text.clone()));
            }
        }
        Some(edit)
    }

    /// The edit of `file` that `change` made, moving places only (no claim texts,
    /// no retyped citations): what [`super::spliced`] moves the rest of a file by.
    pub(super) fn moving(file: FileId, change: Change) -> MovedEdit {
        MovedEdit {
            file,
            change,
            claims: Vec::new(),
            retyped: Vec::new(),
            added: Vec::new(),
        }
    }

    /// Whether the window's bibliography and include requests and reading problems
    /// are the old ones at their new places: the edit changes nothing else that is
    /// read.
    pub(super) fn reads_the_same(&self, window: &Window) -> bool {
        let (old, new) = (&window.old, &window.new);
        self.same_moved(&old.bibliographies, &new.bibliographies)
            && self.same_moved(&old.includes, &new.includes)
            && self.same_moved(&old.problems, &new.problems)
    }

    /// Whether each of `new` is the one of `old` at its new place.
    fn same_moved<T: Place + Clone + PartialEq>(&self, old: &[T], new: &[T]) -> bool {
        old.len() == new.len()
            && old.iter().zip(new).all(|(old, new)| {
                let mut moved = old.clone();
                moved.move_places(self.file, self) && moved == *new
            })
    }

    /// Whether the edit changed what a claim says (verification would differ).
    pub fn changes_claims(&self) -> bool {
        !self.claims.is_empty()
    }

    /// Citations typed in: old (old places) and new.
    pub fn retyped(&self) -> &[(Citation, Citation)] {
        &self.retyped
    }

    /// Set the findings of the retyped citations (see [`Self::move_findings`]).
    pub fn set_added(&mut self, added: Vec<Diagnostic>) {
        self.added = added;
    }

    /// Bring findings of the check before the edit up to it: the findings of the
    /// retyped citations go, the others move, and with `own` (the list holds the
    /// edited file's findings) the new citations' findings come in, in order.
    /// Whether the list changed.
    pub fn move_findings(&self, findings: &mut Vec<Diagnostic>, own: bool) -> bool {
        let before = findings.len();
        if !self.retyped.is_empty() {
            findings.retain(|d| !self.is_retyped_finding(d));
        }
        let mut touched = findings.len() != before;
        for d in findings.iter_mut() {
            touched |= self.move_diagnostic(d);
        }
        if own && !self.added.is_empty() {
            findings.extend(self.added.iter().cloned());
            findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
            touched = true;
        }
        touched
    }

    /// A finding on a citation as it was before it was retyped.
    fn is_retyped_finding(&self, d: &Diagnostic) -> bool {
        d.file == self.file
            && (d.rule.code == UNDEFINED_CITATION.code || d.rule.code == ORPHAN_MARKER.code)
            && self
                .retyped
                .iter()
                .any(|(old, _)| old.span == d.span && d.key.as_deref() == Some(&old.key))
    }

    /// Whether lines after the edit moved (the edit added or removed line breaks).
    pub fn moves_lines(&self, old_text: &str, new_text: &str) -> bool {
        let c = self.change;
        let removed = old_text.get(c.start..c.old_end).unwrap_or("");
        let added = new_text.get(c.start..c.new_end).unwrap_or("");
        removed.matches('\n').count() != added.matches('\n').count()
    }

    /// A place in the edited file after the edit: `None` inside the changed bytes.
    /// A place at an insertion point is the start of what follows it and the end of
    /// what precedes it.
    fn span(&self, span: Span) -> Option<Span> {
        let c = self.change;
        let delta = c.new_end as isize - c.old_end as isize;
        let shift = |p: usize| (p as isize + delta) as usize;
        let start = if span.start >= c.old_end {
            shift(span.start)
        } else if span.start <= c.start {
            span.start
        } else {
            return None;
        };
        let end = if span.end <= c.start {
            span.end
        } else if span.end >= c.old_end {
            shift(span.end)
        } else {
            return None;
        };
        (start <= end).then(|| Span::new(start, end))
    }

    /// Move a place of `file`; places of other files stay.
    fn place(&self, file: FileId, span: &mut Span) -> bool {
        if file != self.file {
            return true;
        }
        match self.span(*span) {
            Some(moved) => {
                *span = moved;
                true
            }
            None => false,
        }
    }

    /// Move a finding's places in the edited file (its own, related places, fix
    /// edits); whether any of them is in that file.
    pub fn move_diagnostic(&self, d: &mut Diagnostic) -> bool {
        let touches = d.files().any(|f| f == self.file);
        d.move_places(self.file, self);
        touches
    }

    /// Bring a project read before the edit to the edited text (`index` is its line
    /// index): every place in the file moves, the claims around the edit take their
    /// new text.
    pub fn move_project(&self, project: &mut Project, text: Arc<str>, index: LineIndex) {
        let file = self.file;
        for doc in &mut project.documents {
            let retyped: Vec<(usize, &Citation)> = doc
                .citations
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    let (_, new) = self.retyped.iter().find(|(old, _)| {
                        old.file == c.file && old.span == c.span && old.group_span == c.group_span
                    })?;
                    Some((i, new))
                })
                .collect();
            let retyped: Vec<(usize, Citation)> = retyped
                .into_iter()
                .map(|(i, new)| {
                    let claim = doc.citations[i].claim;
                    (
                        i,
                        Citation {
                            claim,
                            reference: None,
                            ..new.clone()
                        },
                    )
                })
                .collect();
            doc.citations.iter_mut().for_each(|c| {
                c.move_places(file, self);
            });
            for (i, citation) in retyped {
                doc.citations[i] = citation;
            }
            doc.entries.move_places(file, |d| d.move_places(file, self));
            doc.references.iter_mut().for_each(|r| {
                r.move_places(file, self);
            });
            doc.suppressions.iter_mut().for_each(|s| {
                s.move_places(file, self);
            });
            doc.bibliographies.iter_mut().for_each(|b| {
                b.move_places(file, self);
            });
            doc.file_links.iter_mut().for_each(|l| {
                l.move_places(file, self);
            });
            doc.problems.iter_mut().for_each(|d| {
                d.move_places(file, self);
            });
            for claim in doc.claims.iter_mut().filter(|c| c.file == file) {
                claim.move_places(file, self);
                if let Ok(i) = self.claims.binary_search_by_key(&claim.span, |(s, _)| *s) {
                    claim.text.clone_from(&self.claims[i].1);
                }
            }
        }
        project.problems.iter_mut().for_each(|d| {
            d.move_places(file, self);
        });
        project.sources.set_text_indexed(file, text, index);
    }

    /// Move what resolution and verification said about results of the file.
    pub fn move_facts(&self, facts: &mut Facts) {
        facts.move_places(self.file, |span| self.span(span).unwrap_or(span));
    }
}

/// Whether `new` may be `old` typed in: a citation of the same kind, in the same
/// sentence, that is no identifier (those make references) and no `\nocite{*}`.
fn retypable(old: &Citation, new: &Citation) -> bool {
    use crate::model::CitationKind;
    old.kind == new.kind
        && old.file == new.file
        && old.claim == new.claim
        && old.kind != CitationKind::Identifier
        && old.id.is_none()
        && new.id.is_none()
        && old.key != "*"
        && new.key != "*"
}

impl Place for Span {
    fn move_places(&mut self, file: FileId, edit: &MovedEdit) -> bool {
        edit.place(file, self)
    }
}

impl Place for Citation {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        let file = self.file;
        edit.place(file, &mut self.span) & edit.place(file, &mut self.group_span)
    }
}

impl Place for Claim {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        edit.place(self.file, &mut self.span)
    }
}

impl Place for Reference {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        let file = self.file;
        let mut ok = edit.place(file, &mut self.span);
        if let Some(span) = &mut self.key_span {
            ok &= edit.place(file, span);
        }
        for field in &mut self.field_spans {
            ok &= edit.place(file, &mut field.value) & edit.place(file, &mut field.whole);
        }
        ok
    }
}

impl Place for Suppression {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        edit.place(self.file, &mut self.span)
    }
}

impl Place for BibliographyRequest {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        match &mut self.at {
            Some((file, span)) => edit.place(*file, span),
            None => true,
        }
    }
}

/// Include requests are only compared within one file's parse.
impl Place for IncludeRequest {
    fn move_places(&mut self, file: FileId, edit: &MovedEdit) -> bool {
        edit.place(file, &mut self.at)
    }
}

impl Place for FileLink {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        edit.place(self.file, &mut self.span)
    }
}

impl Place for Diagnostic {
    fn move_places(&mut self, _: FileId, edit: &MovedEdit) -> bool {
        let mut ok = edit.place(self.file, &mut self.span);
        for related in &mut self.related {
            ok &= edit.place(related.file, &mut related.span);
        }
        for e in self.fix.iter_mut().flat_map(|f| &mut f.edits) {
            ok &= edit.place(e.file, &mut e.span);
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, old_end: usize, new_end: usize) -> MovedEdit {
        MovedEdit {
            file: FileId(0),
            change: Change {
                start,
                old_end,
                new_end,
            },
            claims: Vec::new(),
            retyped: Vec::new(),
            added: Vec::new(),
        }
    }

    #[test]
    fn places_before_stay_after_move_inside_are_refused() {
        // "abcdef": "cd" replaced by "XYZ".
        let e = edit(2, 4, 5);
        assert_eq!(e.span(Span::new(0, 2)), Some(Span::new(0, 2)));
        assert_eq!(e.span(Span::new(4, 6)), Some(Span::new(5, 7)));
        assert_eq!(e.span(Span::new(0, 6)), Some(Span::new(0, 7)));
        assert_eq!(e.span(Span::new(3, 6)), None);
        assert_eq!(e.span(Span::new(0, 3)), None);
    }

    #[test]
    fn an_insertion_point_ends_what_precedes_and_starts_what_follows() {
        let e = edit(3, 3, 5);
        assert_eq!(e.span(Span::new(1, 3)), Some(Span::new(1, 3)));
        assert_eq!(e.span(Span::new(3, 4)), Some(Span::new(5, 6)));
        // An empty place at the insertion point is ambiguous: refused.
        assert_eq!(e.span(Span::new(3, 3)), None);
    }

    #[test]
    fn line_breaks_added_or_removed_are_seen() {
        let e = edit(1, 2, 3);
        assert!(e.moves_lines("abc", "a\n\nc"));
        assert!(!edit(1, 2, 2).moves_lines("a\nc", "a\nc"));
        assert!(!edit(1, 1, 2).moves_lines("ac", "abc"));
    }
}
