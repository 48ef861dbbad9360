//! Citation commands and the wrappers a document defines around them.
//!
//! `\cite[pre][post]{a, b}`, starred and capitalised forms, and biblatex's multicite
//! `\cites(pre)(post)[a][b]{k1}[c]{k2}`: every key becomes one [`Citation`] whose
//! span is the key itself and whose group span is the whole command.

use crate::model::{Citation, CitationKind, Span};

use super::args;
use super::commands::CiteCommand;
use super::scan::Scanner;
use super::skips::SkipKind;

impl Scanner<'_> {
    /// A citation command whose name ends at `p`; returns where scanning goes on.
    pub(super) fn citation(
        &mut self,
        at: usize,
        p: usize,
        name: &str,
        command: CiteCommand,
    ) -> usize {
        let bytes = self.bytes;
        let mut p = if bytes.get(p) == Some(&b'*') {
            p + 1
        } else {
            p
        };
        let mut groups: Vec<(usize, usize)> = Vec::new();
        if command.multi {
            // Global (pre)(post) notes.
            for _ in 0..2 {
                let q = args::skip_space(bytes, p);
                if bytes.get(q) != Some(&b'(') {
                    break;
                }
                match args::bracket_end(bytes, q) {
                    Ok(end) => p = end,
                    Err(_) => {
                        self.unterminated(q, &format!("`(` argument of \\{name}"));
                        return q + 1;
                    }
                }
            }
        }
        // A wrapper's text arguments before its key list.
        for _ in 0..command.before {
            match args::mandatory(bytes, args::skip_optionals(bytes, p).unwrap_or(p), false) {
                Some(Ok((_, end))) => p = end,
                _ => return p,
            }
        }
        loop {
            let after_optional = match args::skip_optionals(bytes, p) {
                Ok(q) => q,
                Err(open) => {
                    self.unterminated(open, &format!("`[` argument of \\{name}"));
                    return open + 1;
                }
            };
            match args::mandatory(bytes, after_optional, true) {
                Some(Ok((open, end))) => {
                    groups.push((open, end));
                    p = end;
                }
                Some(Err(open)) => {
                    self.unterminated(
                        open,
                        &format!("key list of \\{name}: this `{{` is never closed"),
                    );
                    return open + 1;
                }
                // Not a citation after all (`\let\oldcite\cite`), or the end of a multicite.
                None => break,
            }
            if !command.multi {
                break;
            }
        }
        let Some(&(_, group_end)) = groups.last() else {
            return p;
        };
        let group_span = Span::new(at, group_end);
        let before = self.out.citations.len();
        for (open, end) in groups {
            self.keys(open + 1, end - 1, group_span, name, command);
        }
        if self.out.citations.len() == before {
            // `\cite{}`, `\cite{#1}`: no key, and not text either.
            self.skip(at, group_end, SkipKind::Inline(None));
        }
        group_end
    }

    /// Split the key list between `from` and `to` on commas; one citation per key.
    fn keys(&mut self, from: usize, to: usize, group_span: Span, name: &str, command: CiteCommand) {
        let mut start = from;
        while start <= to {
            let comma = memchr::memchr(b',', &self.bytes[start..to]).map_or(to, |i| start + i);
            let piece = &self.text[start..comma];
            // A `%` comment may sit inside the list (`{a,% note⏎ b}`).
            let piece = match piece.find('%') {
                Some(i) if !piece[..i].ends_with('\\') => &piece[..i],
                _ => piece,
            };
            let trimmed = piece.trim();
            if !trimmed.is_empty() && !trimmed.contains(['#', '\\', '{', '}']) {
                let key_start = start + (piece.len() - piece.trim_start().len());
                self.out.citations.push(Citation {
                    key: trimmed.to_string(),
                    kind: CitationKind::Key,
                    file: self.file,
                    span: Span::new(key_start, key_start + trimmed.len()),
                    group_span,
                    command: Some(name.to_string().into()),
                    id: None,
                    narrative: command.narrative,
                    claim: None,
                    reference: None,
                });
            }
            start = comma + 1;
        }
    }

    /// `\newcommand{\name}[n][default]{body}`, `\def\name#1{body}`, `\let\a\b`: the
    /// body is not text. A command whose only mandatory argument goes into the key
    /// list of a citation command becomes a citation command itself.
    pub(super) fn definition(&mut self, at: usize, p: usize, kind: &str) -> usize {
        let bytes = self.bytes;
        let mut q = args::skip_space(bytes, p);
        if bytes.get(q) == Some(&b'*') {
            q = args::skip_space(bytes, q + 1);
        }
        // The defined name: `{\name}` or `\name`.
        let braced = bytes.get(q) == Some(&b'{');
        let name_at = if braced {
            args::skip_space(bytes, q + 1)
        } else {
            q
        };
        if bytes.get(name_at) != Some(&b'\\') {
            return p;
        }
        let name_end = args::name_end(bytes, name_at + 1);
        if name_end == name_at + 1 {
            return p;
        }
        let defined = self.text[name_at + 1..name_end].to_string();
        let mut q = name_end;
        if braced {
            q = args::skip_space(bytes, q);
            if bytes.get(q) != Some(&b'}') {
                return p;
            }
            q += 1;
        }
        if kind == "let" {
            return q;
        }
        let (arguments, has_default, body_at) = if kind.ends_with("def") {
            // `\def\name#1#2{…}`: the parameter text runs up to the body's brace.
            let Some(open) = memchr::memchr(b'{', &bytes[q..]).map(|i| q + i) else {
                return q;
            };
            let count = bytes[q..open].iter().filter(|&&b| b == b'#').count();
            (count, false, open)
        } else {
            let mut arguments = 0;
            let mut has_default = false;
            for slot in 0..2 {
                let r = args::skip_space(bytes, q);
                if bytes.get(r) != Some(&b'[') {
                    break;
                }
                let Ok(end) = args::bracket_end(bytes, r) else {
                    return r;
                };
                if slot == 0 {
                    arguments = self.text[r + 1..end - 1].trim().parse().unwrap_or(0);
                } else {
                    has_default = true;
                }
                q = end;
            }
            (arguments, has_default, args::skip_space(bytes, q))
        };
        if bytes.get(body_at) != Some(&b'{') {
            return body_at;
        }
        let Ok(body_end) = args::group_end(bytes, body_at, false) else {
            self.unterminated(body_at, &format!("body of the definition of \\{defined}"));
            return body_at + 1;
        };
        self.skip(at, body_end, SkipKind::Inline(None));
        if arguments > 0
            && self.cites.get(&defined).is_none()
            && let Some((like, parameter)) = self.wrapped_citation(body_at + 1, body_end - 1)
            && parameter > usize::from(has_default)
            && parameter <= arguments
        {
            let before = parameter - 1 - usize::from(has_default);
            self.cites.add(
                &defined,
                CiteCommand {
                    before,
                    multi: false,
                    ..like
                },
            );
            self.out.defined.push(defined);
        }
        body_end
    }

    /// The citation command in a definition body whose key list is a parameter
    /// `#n`, and `n`.
    fn wrapped_citation(&self, from: usize, to: usize) -> Option<(CiteCommand, usize)> {
        let body = &self.bytes[..to];
        let mut p = from;
        while let Some(i) = memchr::memchr(b'\\', &body[p..]) {
            let at = p + i;
            let end = args::name_end(body, at + 1);
            p = end.max(at + 1);
            let Some(command) = self.cites.get(&self.text[at + 1..end]) else {
                continue;
            };
            let mut q = if body.get(end) == Some(&b'*') {
                end + 1
            } else {
                end
            };
            q = args::skip_optionals(body, q).ok()?;
            if let Some(Ok((open, close))) = args::mandatory(body, q, true)
                && let Some(n) = self.text[open + 1..close - 1].trim().strip_prefix('#')
                && let Ok(n) = n.parse::<usize>()
            {
                return Some((command, n));
            }
        }
        None
    }
}
