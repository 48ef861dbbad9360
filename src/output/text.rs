//! rustc/ruff-style terminal output with source excerpts.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::Span;
use crate::source::{SourceFile, SourceMap};

/// Whether to colour the output: on a terminal, unless `NO_COLOR` is set and not empty.
pub fn use_colour(is_terminal: bool) -> bool {
    colour_for(is_terminal, std::env::var_os("NO_COLOR").as_deref())
}

fn colour_for(is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    is_terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Render every diagnostic followed by a summary line.
pub fn render(sources: &SourceMap, diagnostics: &[Diagnostic], colour: bool) -> String {
    let renderer = if colour {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&render_one(&renderer, sources, diagnostic));
        out.push_str("\n\n");
    }
    out.push_str(&summary(diagnostics));
    out.push('\n');
    if let Some(hint) = fix_hint(diagnostics) {
        out.push_str(&hint);
        out.push('\n');
    }
    out
}

/// "2 fixable with `--fix` (1 more with `--fix --unsafe-fixes`)."
pub fn fix_hint(diagnostics: &[Diagnostic]) -> Option<String> {
    use crate::diagnostic::Applicability;
    let count = |a: Applicability| {
        diagnostics
            .iter()
            .filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability == a))
            .count()
    };
    let (safe, unsafe_) = (count(Applicability::Safe), count(Applicability::Unsafe));
    match (safe, unsafe_) {
        (0, 0) => None,
        (0, u) => Some(format!("{u} fixable with `--fix --unsafe-fixes`.")),
        (s, 0) => Some(format!("{s} fixable with `--fix`.")),
        (s, u) => Some(format!(
            "{s} fixable with `--fix` ({u} more with `--fix --unsafe-fixes`)."
        )),
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
        Severity::Hint => Level::HELP.with_name("hint"),
    }
}

/// The lines a span touches, as (first line number, text, span relative to the text).
fn excerpt(file: &SourceFile, start: usize, end: usize) -> (usize, &str, std::ops::Range<usize>) {
    let first = file.index.line_of(start);
    let last = file.index.line_of(end.saturating_sub(1).max(start));
    let from = file.index.line_start(first);
    let to = file.index.line_span(&file.text, last).end;
    (
        first + 1,
        &file.text[from..to],
        start - from..end.min(to).max(start) - from,
    )
}

/// Characters of context shown on each side of a span in a converted file, whose
/// lines are whole paragraphs.
const CONVERTED_CONTEXT: usize = 60;

/// `= text: …` under a place in a converted file.
fn text_note(excerpt: String) -> annotate_snippets::Message<'static> {
    Level::NOTE.with_name("text").message(excerpt)
}

/// The words around `span` on its line of a converted file, cut at most
/// [`CONVERTED_CONTEXT`] characters away (with `…` where cut).
fn converted_excerpt(file: &SourceFile, span: Span) -> String {
    let line = file
        .index
        .line_span(&file.text, file.index.line_of(span.start));
    let start = span.start.clamp(line.start, line.end);
    let end = span.end.clamp(start, line.end);
    let text = &file.text;
    let from = text[line.start..start]
        .char_indices()
        .rev()
        .nth(CONVERTED_CONTEXT - 1)
        .map_or(line.start, |(i, _)| line.start + i);
    let to = text[end..line.end]
        .char_indices()
        .nth(CONVERTED_CONTEXT)
        .map_or(line.end, |(i, _)| end + i);
    let mut excerpt = String::new();
    if from > line.start {
        excerpt.push('…');
    }
    excerpt.push_str(&text[from..to]);
    if to < line.end {
        excerpt.push('…');
    }
    excerpt
}

fn render_one(renderer: &Renderer, sources: &SourceMap, d: &Diagnostic) -> String {
    let file = sources.get(d.file);
    let path = file.display_path();
    let title = level(d.severity)
        .primary_title(d.message.as_str())
        .id(d.rule.code);
    let mut groups: Vec<Group> = Vec::new();
    // Related places on the diagnostic's own lines are labelled in its excerpt; the
    // others get an excerpt of their own.
    let (same_lines, elsewhere): (Vec<_>, Vec<_>) = d.related.iter().partition(|r| {
        r.file == d.file
            && !file.is_converted()
            && file.index.line_of(r.span.start) == file.index.line_of(d.span.start)
            && !file.text.is_empty()
    });
    if file.text.is_empty() {
        groups.push(title.element(Origin::path(path)));
    } else if file.is_converted() {
        // The text is not the file's: name the page and line, and show the words
        // around the span without line numbers of the converted text.
        let label = super::place_label(sources, d.file, d.span);
        groups.push(
            title
                .element(Origin::path(label))
                .element(text_note(converted_excerpt(file, d.span))),
        );
    } else {
        let (line_start, text, range) = excerpt(file, d.span.start, d.span.end);
        let base = d.span.start - range.start;
        let mut snippet = Snippet::source(text)
            .line_start(line_start)
            .path(path)
            .annotation(AnnotationKind::Primary.span(range).label(d.rule.name));
        for related in same_lines {
            let range = related.span.start - base..related.span.end.min(base + text.len()) - base;
            snippet = snippet.annotation(
                AnnotationKind::Context
                    .span(range)
                    .label(related.message.as_str()),
            );
        }
        groups.push(title.element(snippet));
    }
    for related in elsewhere {
        let other = sources.get(related.file);
        if other.text.is_empty() {
            continue;
        }
        if other.is_converted() {
            let label = super::place_label(sources, related.file, related.span);
            groups.push(
                Level::NOTE
                    .secondary_title(related.message.as_str())
                    .element(Origin::path(label))
                    .element(text_note(converted_excerpt(other, related.span))),
            );
            continue;
        }
        let (line, text, range) = excerpt(other, related.span.start, related.span.end);
        groups.push(
            Level::NOTE
                .secondary_title(related.message.as_str())
                .element(
                    Snippet::source(text)
                        .line_start(line)
                        .path(other.display_path())
                        .annotation(AnnotationKind::Context.span(range)),
                ),
        );
    }
    if let Some(fix) = &d.fix {
        let label = match fix.applicability {
            crate::diagnostic::Applicability::Safe => "fix",
            crate::diagnostic::Applicability::Unsafe => "unsafe fix",
            crate::diagnostic::Applicability::DisplayOnly => "suggestion",
        };
        groups.push(Group::with_title(
            Level::HELP
                .with_name(label)
                .secondary_title(fix.description.as_str()),
        ));
    }
    renderer.render(&groups)
}

/// "Found 2 errors and 1 warning." / "No problems found."
pub fn summary<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> String {
    let severities: Vec<Severity> = diagnostics.into_iter().map(|d| d.severity).collect();
    if severities.is_empty() {
        return "No problems found.".to_string();
    }
    let count = |s: Severity| severities.iter().filter(|&&x| x == s).count();
    let parts: Vec<String> = [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "info"),
        (Severity::Hint, "hint"),
    ]
    .into_iter()
    .filter_map(|(s, word)| {
        let n = count(s);
        (n > 0).then(|| {
            format!(
                "{n} {word}{}",
                if n == 1 || word == "info" { "" } else { "s" }
            )
        })
    })
    .collect();
    format!("Found {}.", join_words(&parts))
}

fn join_words(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn converted_files_show_the_page_and_line() {
        use crate::read::{LocationMap, Origin};
        let mut sources = SourceMap::new();
        let id = sources.add(
            "paper.pdf".into(),
            crate::source::FileKind::Pdf,
            String::new(),
        );
        let paragraph = format!("{} cited here [7] and {}", "w".repeat(90), "z".repeat(90));
        let mut map = LocationMap::new();
        map.mark(0, Origin::PageLine { page: 3, line: 11 });
        let at = paragraph.find("[7]").unwrap();
        map.mark(at - 6, Origin::PageLine { page: 3, line: 12 });
        sources.set_converted(id, format!("{paragraph}\n"), map);
        let span = crate::model::Span::new(at + 1, at + 2);
        let d = Diagnostic::new(&crate::rules::UNREADABLE_FILE, id, span, "a finding");
        let out = render(&sources, &[d], false);
        assert!(out.contains("paper.pdf: page 3, line 12"), "{out}");
        assert!(out.contains("cited here [7] and"), "{out}");
        assert!(out.contains('…'), "{out}");
        assert!(!out.contains(&"w".repeat(90)), "{out}");
    }

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(colour_for(true, None));
        assert!(colour_for(true, Some(OsStr::new(""))));
        assert!(!colour_for(true, Some(OsStr::new("1"))));
        assert!(!colour_for(false, None));
    }
}
