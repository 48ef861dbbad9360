//! In-document suppression comments.
//!
//! `citeproof: ignore[CP201, unused-entry]` silences the listed rules on the comment's
//! line and the next; `disable[…]` silences them until `enable[…]` or the end of the
//! file. An empty or missing list means every rule. Comments that suppress nothing,
//! or name unknown rules, are reported themselves.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Suppression, SuppressionKind};
use crate::rules::{self, Rule, meta};
use crate::source::SourceMap;

/// Parse the text of a comment (without its delimiters). `None` when the comment is
/// not a citeproof directive.
pub fn parse_directive(comment: &str) -> Option<(SuppressionKind, Vec<String>)> {
    let body = comment.trim();
    let rest = body.strip_prefix("citeproof:")?.trim_start();
    let (word, tail) = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .map_or((rest, ""), |i| (&rest[..i], &rest[i..]));
    let kind = match word {
        "ignore" => SuppressionKind::Ignore,
        "disable" => SuppressionKind::Disable,
        "enable" => SuppressionKind::Enable,
        _ => return None,
    };
    let tail = tail.trim_start();
    let rules = match tail.strip_prefix('[') {
        Some(list) => list
            .split(']')
            .next()
            .unwrap_or("")
            .split(',')
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty())
            .collect(),
        None => Vec::new(),
    };
    Some((kind, rules))
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
pub fn apply(
    sources: &SourceMap,
    suppressions: &[Suppression],
    diagnostics: Vec<Diagnostic>,
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
            suppressed = true;
        }
        if !suppressed {
            kept.push(diagnostic);
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
            }),
            SuppressionKind::Disable => {
                open.entry(s.file).or_default().push(out.len());
                out.push(Active {
                    index: i,
                    file: s.file,
                    lines: (first, usize::MAX),
                    rules,
                    used: false,
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

    #[test]
    fn directives_parse() {
        assert_eq!(
            parse_directive(" citeproof: ignore[CP201, unused-entry] "),
            Some((
                SuppressionKind::Ignore,
                vec!["CP201".to_string(), "unused-entry".to_string()]
            ))
        );
        assert_eq!(
            parse_directive("citeproof: disable"),
            Some((SuppressionKind::Disable, vec![]))
        );
        assert_eq!(parse_directive("just a comment"), None);
        assert_eq!(parse_directive("citeproof: frobnicate"), None);
    }

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
        let kept = apply(&sources, &[sup], diags);
        let messages: Vec<&str> = kept.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, vec!["b", "other rule"]);
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
        let kept = apply(&sources, &sups, diags);
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
        let kept = apply(&sources, &[sup], vec![]);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].rule.code, "CP902");
    }
}
