//! In-document suppression comments.
//!
//! `citeproof: ignore[CP201, unused-entry]` silences the listed rules on the comment's
//! line and the next; `disable[…]` silences them until `enable[…]` or the end of the
//! file. An empty or missing list means every rule. Comments that suppress nothing,
//! or name unknown rules, are reported themselves.
//!
//! A run may ignore them ([`InlineSuppressions::Ignore`], for a programme chair who
//! checks submissions whose authors wrote the comments): then nothing is hidden, and
//! each comment that would have hidden a finding is reported (CP904) with what it
//! would have hidden.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Suppression, SuppressionKind};
use crate::rules::{self, Rule, meta};
use crate::source::SourceMap;

/// Whether in-document suppression comments hide findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InlineSuppressions {
    /// They hide what they name (the default).
    #[default]
    Honour,
    /// They hide nothing; each one that would have hidden a finding is reported.
    Ignore,
}

/// A suppression turned into a line range with resolved rules.
struct Active {
    index: usize,
    file: FileId,
    /// 0-based inclusive line range.
    lines: (usize, usize),
    /// `None` = every rule.
    rules: Option<Vec<&'static Rule>>,
    used: bool,
    /// What it matched, by rule (`CP201 reference-not-found`), for CP904.
    hidden: Vec<&'static Rule>,
}

impl Active {
    fn matches(&self, diagnostic: &Diagnostic, line: usize) -> bool {
        self.file == diagnostic.file
            && (self.lines.0..=self.lines.1).contains(&line)
            && self
                .rules
                .as_ref()
                .is_none_or(|rules| rules.iter().any(|r| r.code == diagnostic.rule.code))
    }
}

/// Drop suppressed diagnostics and add diagnostics for unused or invalid suppressions.
/// With [`InlineSuppressions::Ignore`], keep every diagnostic and report each
/// suppression that would have dropped one (CP904).
pub fn apply(
    sources: &SourceMap,
    suppressions: &[Suppression],
    diagnostics: Vec<Diagnostic>,
    mode: InlineSuppressions,
) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let mut actives = ranges(sources, suppressions, &mut problems);
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        let file = sources.get(diagnostic.file);
        let line = file.index.line_of(diagnostic.span.start);
        let mut suppressed = false;
        for active in actives.iter_mut().filter(|a| a.matches(&diagnostic, line)) {
            active.used = true;
            if !active.hidden.iter().any(|r| r.code == diagnostic.rule.code) {
                active.hidden.push(diagnostic.rule);
            }
            suppressed = true;
        }
        if !suppressed || mode == InlineSuppressions::Ignore {
            kept.push(diagnostic);
        }
    }
    if mode == InlineSuppressions::Ignore {
        for active in actives.iter_mut().filter(|a| a.used) {
            active.hidden.sort_by_key(|r| r.code);
            let hidden: Vec<String> = active
                .hidden
                .iter()
                .map(|r| format!("{} {}", r.code, r.name))
                .collect();
            let s = &suppressions[active.index];
            problems.push(meta::ignored_suppression(
                s.file,
                s.span,
                &hidden.join(", "),
            ));
        }
    }
    for active in actives.iter().filter(|a| !a.used) {
        let s = &suppressions[active.index];
        let what = if s.rules.is_empty() {
            "any rule".to_string()
        } else {
            s.rules.join(", ")
        };
        problems.push(meta::unused_suppression(s.file, s.span, &what));
    }
    kept.extend(problems);
    kept
}

/// Turn the comments into line ranges, reporting unknown rule names.
fn ranges(
    sources: &SourceMap,
    suppressions: &[Suppression],
    problems: &mut Vec<Diagnostic>,
) -> Vec<Active> {
    let mut out = Vec::new();
    // Open `disable` ranges per file, in order.
    let mut open: HashMap<FileId, Vec<usize>> = HashMap::new();
    let mut order: Vec<usize> = (0..suppressions.len()).collect();
    order.sort_by_key(|&i| (suppressions[i].file, suppressions[i].span.start));
    for i in order {
        let s = &suppressions[i];
        let file = sources.get(s.file);
        let first = file.index.line_of(s.span.start);
        let last = file
            .index
            .line_of(s.span.end.saturating_sub(1).max(s.span.start));
        let rules = match resolve_rules(s, problems) {
            Some(rules) => rules,
            None => continue,
        };
        match s.kind {
            SuppressionKind::Ignore => out.push(Active {
                index: i,
                file: s.file,
                lines: (first, last + 1),
                rules,
                used: false,
                hidden: Vec::new(),
            }),
            SuppressionKind::Disable => {
                open.entry(s.file).or_default().push(out.len());
                out.push(Active {
                    index: i,
                    file: s.file,
                    lines: (first, usize::MAX),
                    rules,
                    used: false,
                    hidden: Vec::new(),
                });
            }
            SuppressionKind::Enable => {
                let stack = open.entry(s.file).or_default();
                let closes = |active: &Active| match (&rules, &active.rules) {
                    (None, _) => true,
                    (Some(wanted), Some(disabled)) => disabled
                        .iter()
                        .any(|d| wanted.iter().any(|w| w.code == d.code)),
                    (Some(_), None) => false,
                };
                let before = stack.len();
                stack.retain(|&a| {
                    if closes(&out[a]) {
                        out[a].lines.1 = first;
                        false
                    } else {
                        true
                    }
                });
                if stack.len() == before {
                    problems.push(meta::unmatched_enable(s.file, s.span));
                }
            }
        }
    }
    out
}

/// Resolve the rule list; `Some(None)` = all rules, `None` = invalid (reported).
fn resolve_rules(
    s: &Suppression,
    problems: &mut Vec<Diagnostic>,
) -> Option<Option<Vec<&'static Rule>>> {
    if s.rules.is_empty() {
        return Some(None);
    }
    let mut found = Vec::new();
    for name in &s.rules {
        match rules::find(name) {
            Some(rule) => found.push(rule),
            None => {
                problems.push(meta::unknown_rule(s.file, s.span, name));
                return None;
            }
        }
    }
    Some(Some(found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Span;
    use crate::rules::{UNDEFINED_CITATION, UNUSED_ENTRY};
    use crate::source::FileKind;

    fn setup(text: &str) -> (SourceMap, FileId) {
        let mut sources = SourceMap::new();
        let id = sources.add("doc.md".into(), FileKind::Markdown, text.to_string());
        (sources, id)
    }

    fn at(text: &str, needle: &str) -> Span {
        let start = text.find(needle).unwrap();
        Span::new(start, start + needle.len())
    }

    #[test]
    fn ignore_covers_its_line_and_the_next() {
        let text = "<!-- citeproof: ignore[CP101] -->\n[@a]\n[@b]\n";
        let (sources, file) = setup(text);
        let sup = Suppression {
            file,
            span: at(text, "<!-- citeproof: ignore[CP101] -->"),
            kind: SuppressionKind::Ignore,
            rules: vec!["CP101".into()],
        };
        let diags = vec![
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "@a"), "a"),
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "@b"), "b"),
            Diagnostic::new(&UNUSED_ENTRY, file, at(text, "@a"), "other rule"),
        ];
        let kept = apply(&sources, &[sup], diags, InlineSuppressions::Honour);
        let messages: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, vec!["b", "other rule"]);
    }

    #[test]
    fn ignored_suppressions_hide_nothing_and_say_what_they_would_have_hidden() {
        let text = "% citeproof: disable\n[@a]\n[@b]\n% citeproof: ignore[CP102]\nx\n";
        let (sources, file) = setup(text);
        let comment = |written: &str, kind, rules: &[&str]| Suppression {
            file,
            span: at(text, written),
            kind,
            rules: rules.iter().map(|r| r.to_string()).collect(),
        };
        let sups = vec![
            comment("% citeproof: disable", SuppressionKind::Disable, &[]),
            comment(
                "% citeproof: ignore[CP102]",
                SuppressionKind::Ignore,
                &["CP102"],
            ),
        ];
        let diags = vec![
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "@a"), "a"),
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "@b"), "b"),
            Diagnostic::new(&UNUSED_ENTRY, file, at(text, "@a"), "entry"),
        ];
        let kept = apply(&sources, &sups, diags, InlineSuppressions::Ignore);
        let codes: Vec<&str> = kept.iter().map(|d| d.rule.code).collect();
        assert_eq!(codes, vec!["CP101", "CP101", "CP102", "CP904", "CP901"]);
        let ignored = &kept[3];
        assert_eq!(ignored.span, at(text, "% citeproof: disable"));
        assert_eq!(
            ignored.message,
            "suppression ignored (ignore-inline-suppressions): it would hide \
             CP101 undefined-citation, CP102 unused-entry"
        );
    }

    #[test]
    fn disable_until_enable_and_unused_reported() {
        let text = "% citeproof: disable[undefined-citation]\nx\ny\n% citeproof: enable[CP101]\nz\n% citeproof: ignore[CP102]\n";
        let (sources, file) = setup(text);
        let sups = vec![
            Suppression {
                file,
                span: at(text, "% citeproof: disable[undefined-citation]"),
                kind: SuppressionKind::Disable,
                rules: vec!["undefined-citation".into()],
            },
            Suppression {
                file,
                span: at(text, "% citeproof: enable[CP101]"),
                kind: SuppressionKind::Enable,
                rules: vec!["CP101".into()],
            },
            Suppression {
                file,
                span: at(text, "% citeproof: ignore[CP102]"),
                kind: SuppressionKind::Ignore,
                rules: vec!["CP102".into()],
            },
        ];
        let diags = vec![
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "y"), "inside"),
            Diagnostic::new(&UNDEFINED_CITATION, file, at(text, "z"), "after"),
        ];
        let kept = apply(&sources, &sups, diags, InlineSuppressions::Honour);
        let codes: Vec<(&str, &str)> = kept
            .iter()
            .map(|d| (d.rule.code, d.message.as_str()))
            .collect();
        assert_eq!(codes.len(), 2);
        assert_eq!(codes[0], ("CP101", "after"));
        assert_eq!(codes[1].0, "CP901");
    }

    #[test]
    fn unknown_rule_is_reported() {
        let text = "% citeproof: ignore[CP999]\n";
        let (sources, file) = setup(text);
        let sup = Suppression {
            file,
            span: Span::new(0, text.len() - 1),
            kind: SuppressionKind::Ignore,
            rules: vec!["CP999".into()],
        };
        let kept = apply(&sources, &[sup], vec![], InlineSuppressions::Honour);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].rule.code, "CP902");
    }
}
