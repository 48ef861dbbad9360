//! Applying fixes: choose the fixes of the wanted applicability, drop the ones whose
//! edits overlap an edit already chosen (they are tried again on the next pass, once
//! the text has been re-checked), and splice the edits into the text. Nothing outside
//! an edit's range is ever changed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::diagnostic::{Applicability, Diagnostic, Edit};
use crate::model::{FileId, Span};
use crate::source::SourceMap;

/// The edits chosen for one pass, per file, sorted and non-overlapping.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct FixPlan {
    pub edits: BTreeMap<FileId, Vec<Edit>>,
    /// Diagnostics whose fix was chosen.
    pub fixed: usize,
    /// Fixes left out because they overlap a chosen one.
    pub deferred: usize,
    /// Fixes left out because an edit does not fit its file's text.
    pub invalid: usize,
}

impl FixPlan {
    pub fn is_empty(&self) -> bool {
        self.fixed == 0
    }
}

/// Whether a fix of `applicability` is applied when fixes down to `wanted` are asked for
/// (`Safe`: `--fix`; `Unsafe`: `--fix --unsafe-fixes`). Display-only fixes never are.
pub fn applies(applicability: Applicability, wanted: Applicability) -> bool {
    applicability != Applicability::DisplayOnly && applicability >= wanted
}

/// Choose the fixes to apply, in diagnostic order.
pub fn plan(sources: &SourceMap, diagnostics: &[Diagnostic], wanted: Applicability) -> FixPlan {
    let mut out = FixPlan::default();
    for fix in diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| applies(f.applicability, wanted) && !f.edits.is_empty())
    {
        if !fix.edits.iter().all(|e| fits(sources, e)) || overlaps_itself(&fix.edits) {
            out.invalid += 1;
            continue;
        }
        // An edit already chosen verbatim (two diagnostics with one fix) is not a conflict.
        let new: Vec<&Edit> = fix
            .edits
            .iter()
            .filter(|e| !out.edits.get(&e.file).is_some_and(|v| v.contains(e)))
            .collect();
        let conflicts = new.iter().any(|e| {
            out.edits
                .get(&e.file)
                .is_some_and(|chosen| chosen.iter().any(|c| conflict(c.span, e.span)))
        });
        if conflicts {
            out.deferred += 1;
            continue;
        }
        for edit in new {
            out.edits.entry(edit.file).or_default().push(edit.clone());
        }
        out.fixed += 1;
    }
    for edits in out.edits.values_mut() {
        edits.sort_by_key(|e| (e.span.start, e.span.end));
    }
    out
}

/// The span lies inside the text on character boundaries, and the text is the
/// file's own (not converted from a PDF or a Word file).
fn fits(sources: &SourceMap, edit: &Edit) -> bool {
    if edit.file.index() >= sources.len() || sources.get(edit.file).is_converted() {
        return false;
    }
    let text = &sources.get(edit.file).text;
    edit.span.start <= edit.span.end
        && edit.span.end <= text.len()
        && text.is_char_boundary(edit.span.start)
        && text.is_char_boundary(edit.span.end)
}

fn overlaps_itself(edits: &[Edit]) -> bool {
    edits.iter().enumerate().any(|(i, a)| {
        edits[i + 1..]
            .iter()
            .any(|b| a.file == b.file && conflict(a.span, b.span))
    })
}

/// Two edits conflict when their ranges share a byte, or both insert at one place
/// (their order would be arbitrary). Touching ranges do not conflict.
fn conflict(a: Span, b: Span) -> bool {
    (a.start < b.end && b.start < a.end) || (a.is_empty() && b.is_empty() && a.start == b.start)
}

/// `text` with sorted, non-overlapping `edits` applied.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The new text of every file the plan changes.
pub fn fixed_texts(sources: &SourceMap, plan: &FixPlan) -> Vec<(FileId, PathBuf, String)> {
    plan.edits
        .iter()
        .map(|(&file, edits)| {
            let source = sources.get(file);
            (file, source.path.clone(), apply_edits(&source.text, edits))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Fix;
    use crate::diagnostic::rule::{DOI_AS_URL, UNUSED_ENTRY};
    use crate::source::FileKind;

    fn edit(file: FileId, start: usize, end: usize, replacement: &str) -> Edit {
        Edit {
            file,
            span: Span::new(start, end),
            replacement: replacement.into(),
        }
    }

    fn with_fix(applicability: Applicability, edits: Vec<Edit>) -> Diagnostic {
        let file = edits[0].file;
        Diagnostic::new(&DOI_AS_URL, file, edits[0].span, "m").with_fix(Fix {
            applicability,
            description: "d".into(),
            edits,
        })
    }

    fn sources(text: &str) -> (SourceMap, FileId) {
        let mut map = SourceMap::new();
        let id = map.add("refs.bib".into(), FileKind::Bibtex, text);
        (map, id)
    }

    #[test]
    fn safe_fixes_only_unless_unsafe_asked_for() {
        let (map, f) = sources("0123456789");
        let diags = vec![
            with_fix(Applicability::Safe, vec![edit(f, 0, 1, "a")]),
            with_fix(Applicability::Unsafe, vec![edit(f, 2, 3, "b")]),
            with_fix(Applicability::DisplayOnly, vec![edit(f, 4, 5, "c")]),
        ];
        let safe = plan(&map, &diags, Applicability::Safe);
        assert_eq!(safe.fixed, 1);
        assert_eq!(apply_edits(&map.get(f).text, &safe.edits[&f]), "a123456789");
        let all = plan(&map, &diags, Applicability::Unsafe);
        assert_eq!(all.fixed, 2);
        assert_eq!(apply_edits(&map.get(f).text, &all.edits[&f]), "a1b3456789");
    }

    #[test]
    fn overlapping_fixes_are_deferred_and_touching_ones_kept() {
        let (map, f) = sources("abcdefghij");
        let diags = vec![
            with_fix(Applicability::Safe, vec![edit(f, 2, 5, "X")]),
            with_fix(Applicability::Safe, vec![edit(f, 4, 6, "Y")]),
            with_fix(Applicability::Safe, vec![edit(f, 5, 7, "Z")]),
            with_fix(Applicability::Safe, vec![edit(f, 2, 5, "X")]),
        ];
        let plan = plan(&map, &diags, Applicability::Safe);
        assert_eq!((plan.fixed, plan.deferred), (3, 1));
        assert_eq!(apply_edits(&map.get(f).text, &plan.edits[&f]), "abXZhij");
    }

    #[test]
    fn insertions_at_one_place_conflict_and_bad_spans_are_refused() {
        let (map, f) = sources("héllo");
        let diags = vec![
            with_fix(Applicability::Safe, vec![edit(f, 0, 0, "1")]),
            with_fix(Applicability::Safe, vec![edit(f, 0, 0, "2")]),
            with_fix(Applicability::Safe, vec![edit(f, 2, 3, "x")]),
            with_fix(Applicability::Safe, vec![edit(f, 4, 99, "x")]),
            with_fix(
                Applicability::Safe,
                vec![edit(f, 3, 5, "x"), edit(f, 4, 6, "y")],
            ),
        ];
        let plan = plan(&map, &diags, Applicability::Safe);
        assert_eq!((plan.fixed, plan.deferred, plan.invalid), (1, 1, 3));
        assert_eq!(apply_edits(&map.get(f).text, &plan.edits[&f]), "1héllo");
    }

    #[test]
    fn text_outside_edits_is_untouched() {
        let (map, f) = sources("keep [a] keep [bb] keep");
        let diags = vec![
            with_fix(Applicability::Safe, vec![edit(f, 15, 17, "")]),
            Diagnostic::new(&UNUSED_ENTRY, f, Span::new(5, 8), "no fix"),
            with_fix(Applicability::Safe, vec![edit(f, 6, 7, "A")]),
        ];
        let plan = plan(&map, &diags, Applicability::Safe);
        let texts = fixed_texts(&map, &plan);
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].2, "keep [A] keep [] keep");
    }

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(256))]
        /// Whatever fixes are offered, the chosen edits do not overlap and every byte
        /// outside them is kept, in order.
        #[test]
        fn chosen_edits_never_touch_text_outside_their_ranges(
            text in "[a-zé \\n]{0,40}",
            raw in proptest::collection::vec((0usize..48, 0usize..8, "[XY]{0,3}"), 0..8),
        ) {
            let (map, f) = sources(&text);
            let diags: Vec<Diagnostic> = raw
                .iter()
                .map(|(start, len, replacement)| {
                    let start = (*start).min(text.len());
                    with_fix(Applicability::Safe, vec![edit(f, start, start + len, replacement)])
                })
                .collect();
            let plan = plan(&map, &diags, Applicability::Safe);
            proptest::prop_assert_eq!(plan.fixed + plan.deferred + plan.invalid, diags.len());
            let chosen = plan.edits.get(&f).cloned().unwrap_or_default();
            for pair in chosen.windows(2) {
                proptest::prop_assert!(!conflict(pair[0].span, pair[1].span));
                proptest::prop_assert!(pair[0].span.end <= pair[1].span.start);
            }
            let out = apply_edits(&text, &chosen);
            let mut at_in = 0;
            let mut at_out = 0;
            for e in &chosen {
                let kept = &text[at_in..e.span.start];
                proptest::prop_assert_eq!(&out[at_out..at_out + kept.len()], kept);
                at_out += kept.len();
                proptest::prop_assert_eq!(&out[at_out..at_out + e.replacement.len()], e.replacement.as_str());
                at_out += e.replacement.len();
                at_in = e.span.end;
            }
            proptest::prop_assert_eq!(&out[at_out..], &text[at_in..]);
        }
    }
}
