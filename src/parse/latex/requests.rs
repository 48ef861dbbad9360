//! `\input`, `\include`, `\subfile`, `\import`: files to follow; `\bibliography`,
//! `\addbibresource`: bibliography files to read.

use crate::model::{BibliographyRequest, Span};
use crate::parse::IncludeRequest;

use super::args;
use super::scan::Scanner;

impl Scanner<'_> {
    /// An include command whose name ends at `p`.
    pub(super) fn include(&mut self, at: usize, p: usize, command: &str) -> usize {
        let bytes = self.bytes;
        let two_parts = matches!(
            command,
            "import"
                | "subimport"
                | "inputfrom"
                | "includefrom"
                | "subinputfrom"
                | "subincludefrom"
        );
        let p = if bytes.get(p) == Some(&b'*') {
            p + 1
        } else {
            p
        };
        let mut parts = Vec::new();
        let mut end = p;
        for _ in 0..if two_parts { 2 } else { 1 } {
            match args::mandatory(bytes, end, true) {
                Some(Ok((open, close))) => {
                    parts.push(self.text[open + 1..close - 1].trim());
                    end = close;
                }
                Some(Err(open)) => {
                    self.unterminated(
                        open,
                        &format!("argument of \\{command}: this `{{` is never closed"),
                    );
                    return open + 1;
                }
                None if command == "input" && parts.is_empty() => {
                    // TeX's own `\input file` syntax: the name runs to a space.
                    let start = args::skip_blanks(bytes, end);
                    let stop = bytes[start..]
                        .iter()
                        .position(|b| {
                            b.is_ascii_whitespace() || matches!(b, b'%' | b'}' | b'\\' | b'{')
                        })
                        .map_or(bytes.len(), |i| start + i);
                    if stop == start {
                        return p;
                    }
                    parts.push(&self.text[start..stop]);
                    end = stop;
                }
                None => return p,
            }
        }
        let path: String = parts.concat();
        if !path.is_empty() && !path.contains(['\\', '#']) {
            self.out.includes.push(IncludeRequest {
                path,
                command: command.to_string(),
                at: Span::new(at, end),
            });
        }
        end
    }

    /// `\bibliography{a,b}` (comma-separated names) or `\addbibresource[opts]{x.bib}`
    /// (one resource, commas allowed in its name).
    pub(super) fn bibliography(&mut self, p: usize, command: &str) -> usize {
        let bytes = self.bytes;
        let q = match args::skip_optionals(bytes, p) {
            Ok(q) => q,
            Err(open) => {
                self.unterminated(open, &format!("`[` argument of \\{command}"));
                return open + 1;
            }
        };
        let (open, close) = match args::mandatory(bytes, q, true) {
            Some(Ok(group)) => group,
            Some(Err(open)) => {
                self.unterminated(
                    open,
                    &format!("argument of \\{command}: this `{{` is never closed"),
                );
                return open + 1;
            }
            None => return p,
        };
        let inner = Span::new(open + 1, close - 1);
        let pieces: Vec<Span> = if command.ends_with("bibliography") {
            let mut out = Vec::new();
            let mut start = inner.start;
            for (i, b) in bytes[inner.start..inner.end].iter().enumerate() {
                if *b == b',' {
                    out.push(Span::new(start, inner.start + i));
                    start = inner.start + i + 1;
                }
            }
            out.push(Span::new(start, inner.end));
            out
        } else {
            vec![inner]
        };
        for piece in pieces {
            let raw = &self.text[piece.start..piece.end];
            let name = raw.trim();
            // Remote resources and macros are not files we can read.
            if name.is_empty() || name.contains("://") || name.contains(['\\', '#']) {
                continue;
            }
            let start = piece.start + (raw.len() - raw.trim_start().len());
            self.out.bibliographies.push(BibliographyRequest {
                path: name.to_string(),
                at: Some((self.file, Span::new(start, start + name.len()))),
            });
        }
        close
    }
}
