//! HTML comments: skipped as text, but `<!-- citeproof: … -->` suppression
//! directives are read from them.

use crate::diagnostic::input;
use crate::model::{FileId, Span, Suppression, SuppressionKind};
use crate::parse::Parsed;

/// Read the suppression directives of the HTML comments in `text[span]`; an
/// unterminated comment is reported.
pub fn read(file: FileId, text: &str, span: Span, out: &mut Parsed) {
    let region = &text[span.start..span.end];
    let mut from = 0;
    while let Some(open) = memchr::memmem::find(&region.as_bytes()[from..], b"<!--") {
        let start = from + open;
        let body_start = start + 4;
        let Some(close) = memchr::memmem::find(&region.as_bytes()[body_start..], b"-->") else {
            out.problems.push(input::unterminated(
                file,
                Span::new(span.start + start, span.start + body_start),
                "HTML comment (no `-->`)",
            ));
            return;
        };
        let body_end = body_start + close;
        let end = body_end + 3;
        if let Some((kind, rules)) = parse_directive(&region[body_start..body_end]) {
            out.suppressions.push(Suppression {
                file,
                span: Span::new(span.start + start, span.start + end),
                kind,
                rules,
            });
        }
        from = end;
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn directives_and_unterminated_comments() {
        let text = "a <!-- plain --> b <!-- citeproof: ignore[CP101] --> c <!-- open";
        let mut out = Parsed::default();
        read(FileId(0), text, Span::new(0, text.len()), &mut out);
        assert_eq!(out.suppressions.len(), 1);
        let s = &out.suppressions[0];
        assert_eq!(s.kind, SuppressionKind::Ignore);
        assert_eq!(
            &text[s.span.start..s.span.end],
            "<!-- citeproof: ignore[CP101] -->"
        );
        assert_eq!(out.problems.len(), 1);
        assert_eq!(out.problems[0].rule.code, "CP003");
    }
}
