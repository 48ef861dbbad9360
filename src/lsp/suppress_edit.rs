//! "Suppress this rule on this line": the in-document comment of the file's kind,
//! placed where the parsers read it and where it covers the line (an `ignore`
//! covers its own line and the next, see `crate::suppress`), without changing
//! what the document says:
//!
//! - Markdown and plain text: `<!-- citeproof: ignore[CP101] -->` at the end of
//!   the line (a comment on a line of its own would split a paragraph or a list);
//!   nothing in YAML front matter, which has no such comment.
//! - LaTeX: `% citeproof: ignore[CP101]` on a line of its own above (TeX drops a
//!   comment line with its line break).
//! - BibTeX: the same above an entry's first line; for a finding on a later line of
//!   an entry, `disable[…]` above the entry and `enable[…]` after it, since a
//!   comment inside an entry is not BibTeX.
//! - A suppression comment that already covers the line gets the rule added to
//!   its list instead.

use lsp_types::{Position, TextEdit};

use super::view::{Read, View};
use crate::model::{ReferenceOrigin, Span, SuppressionKind};
use crate::rules::Rule;
use crate::source::{FileKind, LineIndex, SourceFile};

/// A suppression edit: what the action is called and its edits in the file.
pub struct Suppress {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

fn insert(view: &View, source: &SourceFile, at: usize, text: String) -> TextEdit {
    let position: Position = view.encoding.position(&source.text, &source.index, at);
    TextEdit::new(lsp_types::Range::new(position, position), text)
}

fn line_ending(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// The edit that keeps `rule` from reporting the line of byte `offset`.
pub fn suppress(view: &View, read: Read, offset: usize, rule: &Rule) -> Option<Suppress> {
    let source = read.source();
    let text = &source.text;
    let index: &LineIndex = &source.index;
    let line = index.line_of(offset);
    let on_line = format!("Suppress {} ({}) on this line", rule.code, rule.name);
    if let Some(at) = existing_list_end(read, line) {
        return Some(Suppress {
            title: on_line,
            edits: vec![insert(view, source, at, format!(", {}", rule.code))],
        });
    }
    let directive = |kind: &str| format!("citeproof: {kind}[{}]", rule.code);
    let eol = line_ending(text);
    let line_span = index.line_span(text, line);
    let indent: String = text[line_span.start..line_span.end]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let comment_above = |at_line: usize| {
        insert(
            view,
            source,
            index.line_start(at_line),
            format!("{indent}% {}{eol}", directive("ignore")),
        )
    };
    match source.kind {
        FileKind::Markdown | FileKind::Text => {
            if source.kind == FileKind::Markdown && in_front_matter(text, index, line) {
                return None;
            }
            let content = &text[line_span.start..line_span.end];
            let end = line_span.start + content.trim_end().len();
            Some(Suppress {
                title: on_line,
                edits: vec![insert(
                    view,
                    source,
                    end,
                    format!(" <!-- {} -->", directive("ignore")),
                )],
            })
        }
        FileKind::Latex => Some(Suppress {
            title: on_line,
            edits: vec![comment_above(line)],
        }),
        FileKind::Bibtex => {
            let entry = read.documents().flat_map(|d| &d.references).find(|r| {
                r.file == read.file
                    && r.origin == ReferenceOrigin::BibEntry
                    && r.span.contains(offset)
            });
            let Some(entry) = entry.filter(|e| index.line_of(e.span.start) != line) else {
                return Some(Suppress {
                    title: on_line,
                    edits: vec![comment_above(line)],
                });
            };
            let first = index.line_of(entry.span.start);
            let last = index.line_of(entry.span.end.saturating_sub(1).max(entry.span.start));
            let after = if last + 1 < index.line_count() {
                insert(
                    view,
                    source,
                    index.line_start(last + 1),
                    format!("% {}{eol}", directive("enable")),
                )
            } else {
                insert(
                    view,
                    source,
                    text.len(),
                    format!("{eol}% {}{eol}", directive("enable")),
                )
            };
            Some(Suppress {
                title: format!(
                    "Suppress {} ({}) for the entry `{}`",
                    rule.code, rule.name, entry.key
                ),
                edits: vec![
                    insert(
                        view,
                        source,
                        index.line_start(first),
                        format!("% {}{eol}", directive("disable")),
                    ),
                    after,
                ],
            })
        }
        // JSON has no comments; a .bbl is written by the build; a converted file (a
        // PDF, a Word file) is not edited.
        FileKind::CslJson | FileKind::Bbl | FileKind::Pdf | FileKind::Docx | FileKind::Odt => None,
    }
}

/// Where to add a rule to an `ignore[…]` comment that already covers `line`: just
/// before its `]`.
fn existing_list_end(read: Read, line: usize) -> Option<usize> {
    let source = read.source();
    read.documents()
        .flat_map(|d| &d.suppressions)
        .filter(|s| s.file == read.file && s.kind == SuppressionKind::Ignore && !s.rules.is_empty())
        .find_map(|s| {
            let first = source.index.line_of(s.span.start);
            let last = source
                .index
                .line_of(s.span.end.saturating_sub(1).max(s.span.start));
            if !(first..=last + 1).contains(&line) {
                return None;
            }
            let written = source.slice(Span::new(s.span.start, s.span.end));
            written.rfind(']').map(|i| s.span.start + i)
        })
}

/// Whether `line` is inside the YAML front matter at the top of a Markdown file.
fn in_front_matter(text: &str, index: &LineIndex, line: usize) -> bool {
    let first = index.line_span(text, 0);
    if &text[first.start..first.end] != "---" {
        return false;
    }
    for l in 1..index.line_count() {
        let span = index.line_span(text, l);
        let written = text[span.start..span.end].trim_end();
        if written == "---" || written == "..." {
            return line <= l;
        }
    }
    false
}
