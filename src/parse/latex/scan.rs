//! The first pass over a LaTeX file: jump from one `\` or `%` to the next (memchr),
//! read the commands that matter (citations, includes, bibliographies, skipped
//! regions, `thebibliography`, definitions of citation wrappers), comments with
//! suppression directives, and the balance of braces in between.

use crate::diagnostic::Diagnostic;
use crate::diagnostic::input;
use crate::model::{BibliographyRequest, Citation, FileId, Reference, Span, Suppression};
use crate::parse::IncludeRequest;
use crate::parse::comments;

use super::args;
use super::bibitem::BibList;
use super::commands::{CiteTable, is_verbatim_env};
use super::skips::{Skip, SkipKind};

/// What the first pass found.
#[derive(Debug, Default)]
pub(super) struct Scan {
    pub citations: Vec<Citation>,
    pub references: Vec<Reference>,
    pub suppressions: Vec<Suppression>,
    pub bibliographies: Vec<BibliographyRequest>,
    pub includes: Vec<IncludeRequest>,
    pub problems: Vec<Diagnostic>,
    /// Regions that are not running text, in order.
    pub skips: Vec<Skip>,
    /// Citation wrappers this file defines (`\newcommand{\mycite}[1]{\citep{#1}}`).
    pub defined: Vec<String>,
    /// Regions the scanner read as one piece (a command with its arguments, a
    /// top-level brace group, a `thebibliography` environment): no block starts
    /// inside one (see [`crate::parse::splice`]).
    pub regions: Vec<Span>,
}

/// The bytes the first pass stops at.
static MARKUP: [bool; 256] = crate::parse::byte_set(b"\\%{}");

pub(super) struct Scanner<'a> {
    pub text: &'a str,
    pub bytes: &'a [u8],
    pub file: FileId,
    pub cites: CiteTable,
    pub out: Scan,
    /// Positions of `{` not yet closed, outermost first.
    open_braces: Vec<usize>,
    /// The open `thebibliography` environment, if any.
    bib: Option<BibList>,
}

impl Scanner<'_> {
    /// Note a region read as one piece; only one that spans lines matters.
    fn region(&mut self, start: usize, end: usize) {
        let end = end.min(self.bytes.len());
        if start < end && memchr::memchr(b'\n', &self.bytes[start..end]).is_some() {
            self.out.regions.push(Span::new(start, end));
        }
    }

    /// A `thebibliography` list ends at `end`: its items are read, its region noted.
    fn close_bib(&mut self, list: BibList, end: usize) {
        self.out.regions.push(Span::new(list.begin.start, end));
        list.finish(self.text, self.file, end, &mut self.out.references);
    }

    /// `\bibitem[label]{key}` inside `thebibliography`; the name ends at `p`.
    fn bibitem(&mut self, at: usize, p: usize) -> usize {
        let bytes = self.bytes;
        let q = match args::skip_optionals(bytes, p) {
            Ok(q) => q,
            Err(open) => {
                self.unterminated(open, "`[` label of \\bibitem");
                return open + 1;
            }
        };
        // `\bibitem[label]%` + a line break, then the key (ACM-Reference-Format).
        let after = args::skip_blanks(bytes, q);
        let q = if bytes.get(after) == Some(&b'%') {
            args::line_end(bytes, after) + 1
        } else {
            q
        };
        let q = q.min(bytes.len());
        let (open, close) = match args::mandatory(bytes, q, true) {
            Some(Ok(group)) => group,
            Some(Err(open)) => {
                self.unterminated(open, "key of \\bibitem: this `{` is never closed");
                return open + 1;
            }
            None => return p,
        };
        let raw = &self.text[open + 1..close - 1];
        let key = raw.trim();
        let key_start = open + 1 + (raw.len() - raw.trim_start().len());
        let key_span = Span::new(key_start, key_start + key.len());
        if let Some(list) = self.bib.as_mut()
            && let Some(previous) = list.begin_item(self.text, self.file, at, key_span, close)
        {
            self.out.references.push(previous);
        }
        close
    }
}

impl<'a> Scanner<'a> {
    pub fn new(file: FileId, text: &'a str, cites: CiteTable) -> Scanner<'a> {
        Scanner {
            text,
            bytes: text.as_bytes(),
            file,
            cites,
            out: Scan::default(),
            open_braces: Vec::new(),
            bib: None,
        }
    }

    pub fn run(mut self) -> Scan {
        let bytes = self.bytes;
        let len = bytes.len();
        let mut pos = 0;
        // Commands sit a few dozen bytes apart: a table lookup per byte is cheaper
        // than a vectorised search restarted at each one.
        while pos < len {
            match bytes[pos] {
                b'\\' => {
                    let at = pos;
                    pos = self.command(pos);
                    self.region(at, pos);
                }
                b'%' => pos = self.comment(pos),
                b'{' => {
                    self.open_braces.push(pos);
                    pos += 1;
                }
                b'}' => {
                    // A stray `}` is LaTeX's error to report, not a half-typed construct.
                    if let Some(open) = self.open_braces.pop()
                        && self.open_braces.is_empty()
                    {
                        self.region(open, pos + 1);
                    }
                    pos += 1;
                }
                _ => {
                    pos += 1;
                    while pos < len && !MARKUP[bytes[pos] as usize] {
                        pos += 1;
                    }
                }
            }
        }
        self.finish()
    }

    fn finish(mut self) -> Scan {
        let len = self.bytes.len();
        if let Some(list) = self.bib.take() {
            self.out.problems.push(input::unterminated(
                self.file,
                list.begin,
                "`thebibliography` environment (no \\end{thebibliography})",
            ));
            self.close_bib(list, len);
        }
        if let Some(&first) = self.open_braces.first() {
            self.out.regions.push(Span::new(first, len));
            let more = self.open_braces.len() - 1;
            let what = if more == 0 {
                "brace group: this `{` is never closed".to_string()
            } else {
                format!("brace group: this `{{` is never closed ({more} more inside it)")
            };
            self.out.problems.push(input::unterminated(
                self.file,
                Span::new(first, first + 1),
                &what,
            ));
        }
        self.out
            .citations
            .sort_by_key(|c| (c.group_span.start, c.span.start));
        self.out.skips.sort_by_key(|s| s.span.start);
        self.out
    }

    /// A `%` comment: read a suppression directive; return the end of the line.
    fn comment(&mut self, at: usize) -> usize {
        let end = args::line_end(self.bytes, at);
        let body = self.text[at + 1..end].trim_start_matches('%');
        if body.trim_start().starts_with("citeproof:")
            && let Some((kind, rules)) = comments::parse_directive(body)
        {
            let span_end = at + 1 + self.text[at + 1..end].trim_end().len();
            self.out.suppressions.push(Suppression {
                file: self.file,
                span: Span::new(at, span_end),
                kind,
                rules,
            });
        }
        end
    }

    /// A command at `at` (the backslash); returns where scanning goes on.
    fn command(&mut self, at: usize) -> usize {
        let start = at + 1;
        let Some(&first) = self.bytes.get(start) else {
            return start;
        };
        if !first.is_ascii_alphabetic() {
            // `\%`, `\{`, `\\` …: the escaped byte is not markup. A non-ASCII
            // character after the backslash is left for the next search.
            return if first.is_ascii() { start + 1 } else { start };
        }
        let end = args::name_end(self.bytes, start);
        let name = &self.text[start..end];
        match name {
            "begin" => self.begin(at, end),
            "end" => self.end(at, end),
            "iffalse" => self.iffalse(at, end),
            "verb" | "lstinline" => self.inline_verbatim(at, end),
            "url" | "path" | "nolinkurl" | "href" => self.literal_argument(end),
            "input" | "include" | "subfile" | "import" | "subimport" | "inputfrom"
            | "includefrom" | "subinputfrom" | "subincludefrom" => self.include(at, end, name),
            "bibliography" | "nobibliography" | "addbibresource" | "addglobalbib"
            | "addsectionbib" => self.bibliography(end, name),
            "bibitem" if self.bib.is_some() => self.bibitem(at, end),
            "newcommand"
            | "renewcommand"
            | "providecommand"
            | "DeclareRobustCommand"
            | "def"
            | "gdef"
            | "edef"
            | "xdef"
            | "let" => self.definition(at, end, name),
            "endinput" => self.bytes.len(),
            _ => match self.cites.get(name) {
                Some(command) => self.citation(at, end, name, command),
                None => end,
            },
        }
    }

    /// The `{name}` argument of `\begin`/`\end` at `p`: (name, end of the group).
    fn env_name(&self, p: usize) -> Option<(&'a str, usize)> {
        let open = args::skip_space(self.bytes, p);
        if self.bytes.get(open) != Some(&b'{') {
            return None;
        }
        let close = memchr::memchr(b'}', &self.bytes[open..]).map(|i| open + i)?;
        let name = self.text[open + 1..close].trim();
        (name.len() < 64 && !name.contains(['{', '\\', '\n'])).then_some((name, close + 1))
    }

    fn begin(&mut self, at: usize, p: usize) -> usize {
        let Some((env, after)) = self.env_name(p) else {
            return p;
        };
        if is_verbatim_env(env) {
            let closing = format!("\\end{{{env}}}");
            return match args::find(self.bytes, after, closing.as_bytes()) {
                Some(end) => {
                    let end = end + closing.len();
                    self.skip(at, end, SkipKind::Block);
                    end
                }
                None => {
                    // Half-typed: report it and read on as if the \begin were not there.
                    self.out.problems.push(input::unterminated(
                        self.file,
                        Span::new(at, after),
                        &format!("`{env}` environment (no \\end{{{env}}})"),
                    ));
                    after
                }
            };
        }
        if env == "thebibliography" {
            if let Some(list) = self.bib.take() {
                self.close_bib(list, at);
            }
            // The widest-label argument `{99}` is not text.
            let after_label = match args::mandatory(self.bytes, after, true) {
                Some(Ok((_, end))) => end,
                _ => after,
            };
            self.bib = Some(BibList::new(Span::new(at, after)));
            return after_label;
        }
        after
    }

    fn end(&mut self, at: usize, p: usize) -> usize {
        let Some((env, after)) = self.env_name(p) else {
            return p;
        };
        if env == "thebibliography"
            && let Some(list) = self.bib.take()
        {
            self.close_bib(list, at);
        }
        after
    }

    /// `\iffalse … \fi` (an `\else` at the same level ends the dead part).
    fn iffalse(&mut self, at: usize, p: usize) -> usize {
        let mut depth = 0usize;
        let mut q = p;
        while let Some(i) = memchr::memchr2(b'\\', b'%', &self.bytes[q..]) {
            let found = q + i;
            if self.bytes[found] == b'%' {
                q = args::line_end(self.bytes, found);
                continue;
            }
            let end = args::name_end(self.bytes, found + 1);
            if end == found + 1 {
                q = (found + 2).min(self.bytes.len());
                continue;
            }
            let name = &self.text[found + 1..end];
            match name {
                "fi" if depth == 0 => {
                    self.skip(at, end, SkipKind::Inline(None));
                    return end;
                }
                "else" if depth == 0 => {
                    self.skip(at, end, SkipKind::Inline(None));
                    return end;
                }
                "fi" => depth -= 1,
                _ if name.starts_with("if") => depth += 1,
                _ => {}
            }
            q = end;
        }
        self.out.problems.push(input::unterminated(
            self.file,
            Span::new(at, p),
            "`\\iffalse` (no matching \\fi)",
        ));
        p
    }

    /// `\verb|…|`, `\lstinline!…!`: the text between the delimiters is literal.
    fn inline_verbatim(&mut self, at: usize, p: usize) -> usize {
        let p = if self.bytes.get(p) == Some(&b'*') {
            p + 1
        } else {
            p
        };
        let Some(&delim) = self.bytes.get(p) else {
            return p;
        };
        if delim == b'{' {
            // `\lstinline{…}` (listings ≥ 1.5) takes a brace group.
            return self.literal_argument(p);
        }
        if !delim.is_ascii() || delim.is_ascii_alphabetic() || delim.is_ascii_whitespace() {
            return p;
        }
        let eol = args::line_end(self.bytes, p + 1);
        match memchr::memchr(delim, &self.bytes[p + 1..eol]) {
            Some(i) => {
                let end = p + 1 + i + 1;
                let inner = Span::new(p + 1, end - 1);
                self.skip(at, end, SkipKind::Inline(Some(inner)));
                end
            }
            None => p + 1,
        }
    }

    /// `\url{…}`, `\href{…}`: a URL may hold `%` and `#`; skip its first argument.
    fn literal_argument(&mut self, p: usize) -> usize {
        match args::mandatory(self.bytes, p, true) {
            Some(Ok((_, end))) => end,
            _ => p,
        }
    }

    pub(super) fn skip(&mut self, start: usize, end: usize, kind: SkipKind) {
        self.out.skips.push(Skip {
            span: Span::new(start, end),
            kind,
        });
    }

    /// Report an argument that is never closed.
    pub(super) fn unterminated(&mut self, at: usize, what: &str) {
        self.out
            .problems
            .push(input::unterminated(self.file, Span::new(at, at + 1), what));
    }
}
