//! Claims: the sentence around each citation.
//!
//! Only paragraphs that hold a citation are read. Each becomes a [`Prose`]: commands
//! that are not text (`\label`, `\ref`, math, environment options) are dropped,
//! accents and `~` decoded, citation commands replaced by a placeholder. Footnotes,
//! captions and headings are blocks of their own, read on a stack (no recursion).

use crate::model::{Citation, Claim, FileId, Span};
use crate::parse::markup::{command_text, decode_latex};
use crate::parse::sentence::{Prose, attach_claims};

use super::args;
use super::commands::{ProseRole, env_arguments, is_math_env, prose_role, symbol_text};
use super::skips::{Skip, SkipKind};

/// Bytes the builder must look at; everything else is copied as it is.
static SPECIAL: [bool; 256] = crate::parse::byte_set(b"\\%{}$~&`'-");

/// Set `claim` on every citation that sits in running text.
pub(super) fn attach(
    text: &str,
    file: FileId,
    skips: &[Skip],
    citations: &mut [Citation],
    claims: &mut Vec<Claim>,
) {
    let mut done_until = 0;
    for i in 0..citations.len() {
        let group = citations[i].group_span;
        if group.start < done_until || is_nocite(&citations[i]) {
            continue;
        }
        let (start, end) = paragraph(text.as_bytes(), skips, group);
        let mut builder = Builder {
            text,
            bytes: text.as_bytes(),
            file,
            skips,
            citations: &mut *citations,
            claims: &mut *claims,
            frames: Vec::new(),
            depth: 0,
            next_cite: 0,
            next_skip: 0,
        };
        builder.run(start, end);
        done_until = end.max(group.end);
    }
}

fn is_nocite(citation: &Citation) -> bool {
    citation
        .command
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case("nocite"))
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

fn line_start(bytes: &[u8], p: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..p]).map_or(0, |i| i + 1)
}

/// The paragraph around a citation group: blank lines and skipped blocks end it.
fn paragraph(bytes: &[u8], skips: &[Skip], group: Span) -> (usize, usize) {
    let mut start = line_start(bytes, group.start);
    while start > 0 {
        let previous = line_start(bytes, start - 1);
        if is_blank(&bytes[previous..start - 1]) {
            break;
        }
        start = previous;
    }
    let mut end = args::line_end(bytes, group.end);
    while end < bytes.len() {
        let next_end = args::line_end(bytes, end + 1);
        if is_blank(&bytes[end + 1..next_end]) {
            break;
        }
        end = next_end;
    }
    // Skips are sorted and do not overlap: look only at the neighbours.
    let at = skips.partition_point(|s| s.span.start < group.start);
    for skip in skips[..at].iter().rev().take_while(|s| s.span.end > start) {
        if skip.kind == SkipKind::Block && skip.span.end <= group.start {
            start = skip.span.end;
            break;
        }
    }
    for skip in skips[at..].iter().take_while(|s| s.span.start < end) {
        if skip.kind == SkipKind::Block && skip.span.start >= group.end {
            end = skip.span.start;
            break;
        }
    }
    (start, end)
}

/// One block of text being assembled: the paragraph, or a footnote/caption/heading
/// inside it, which closes at the brace depth it opened at.
struct Frame {
    prose: Prose,
    depth: usize,
    cited: bool,
}

impl Frame {
    fn new(depth: usize) -> Frame {
        Frame {
            prose: Prose::new(),
            depth,
            cited: false,
        }
    }
}

struct Builder<'t, 'c> {
    text: &'t str,
    bytes: &'t [u8],
    file: FileId,
    skips: &'t [Skip],
    citations: &'c mut [Citation],
    claims: &'c mut Vec<Claim>,
    frames: Vec<Frame>,
    depth: usize,
    next_cite: usize,
    next_skip: usize,
}

impl Builder<'_, '_> {
    fn run(&mut self, start: usize, end: usize) {
        let mut paragraph = Frame::new(0);
        paragraph.prose.text.reserve(end - start);
        self.frames.push(paragraph);
        self.next_cite = self
            .citations
            .partition_point(|c| c.group_span.start < start);
        self.next_skip = self.skips.partition_point(|s| s.span.end <= start);
        let mut p = start;
        let mut run = start;
        while p < end {
            // Regions jumped over with a command's arguments are behind us.
            while self
                .skips
                .get(self.next_skip)
                .is_some_and(|s| s.span.end <= p)
            {
                self.next_skip += 1;
            }
            let skip_at = self
                .skips
                .get(self.next_skip)
                .map_or(end, |s| s.span.start.max(p))
                .min(end);
            let mut q = p;
            while q < skip_at && !SPECIAL[self.bytes[q] as usize] {
                q += 1;
            }
            if q == skip_at {
                self.copy(run, q);
                p = if q == end { end } else { self.take_skip() };
                run = p;
                continue;
            }
            let b = self.bytes[q];
            // A lone quote or hyphen is ordinary text: keep the run going.
            if matches!(b, b'\'' | b'`' | b'-') && self.bytes.get(q + 1) != Some(&b) {
                p = q + 1;
                continue;
            }
            self.copy(run, q);
            p = self.special(q, end).max(q + 1);
            run = p;
        }
        self.copy(run, p.min(end));
        while let Some(frame) = self.frames.pop() {
            self.finish(frame);
        }
    }

    fn top(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("the paragraph frame is never popped early")
    }

    fn copy(&mut self, from: usize, to: usize) {
        if to > from {
            let text = &self.text[from..to];
            self.top().prose.push_source(text, from);
        }
    }

    fn synthetic(&mut self, text: &str, from: usize, to: usize) {
        self.top().prose.push_synthetic(text, Span::new(from, to));
    }

    fn finish(&mut self, frame: Frame) {
        if frame.cited {
            attach_claims(self.file, &frame.prose, self.citations, self.claims);
        }
    }

    /// End the current block: what was read so far is one piece of prose.
    fn boundary(&mut self) {
        let depth = self.top().depth;
        let done = std::mem::replace(self.top(), Frame::new(depth));
        self.finish(done);
    }

    /// Handle the skipped region at the cursor; returns the position after it.
    fn take_skip(&mut self) -> usize {
        let skip = self.skips[self.next_skip];
        self.next_skip += 1;
        match skip.kind {
            SkipKind::Block => self.boundary(),
            SkipKind::Inline(Some(inner)) => {
                let text = &self.text[inner.start..inner.end];
                self.top().prose.push_source(text, inner.start);
            }
            SkipKind::Inline(None) => {}
        }
        skip.span.end
    }

    /// A special byte at `q`; returns where reading goes on.
    fn special(&mut self, q: usize, end: usize) -> usize {
        match self.bytes[q] {
            b'~' | b'&' => {
                self.synthetic(" ", q, q + 1);
                q + 1
            }
            b'`' | b'\'' => {
                self.synthetic("\"", q, q + 2);
                q + 2
            }
            b'-' if self.bytes.get(q + 2) == Some(&b'-') => {
                self.synthetic("—", q, q + 3);
                q + 3
            }
            b'-' => {
                self.synthetic("–", q, q + 2);
                q + 2
            }
            b'{' => {
                self.depth += 1;
                q + 1
            }
            b'}' => {
                if self.frames.len() > 1 && self.top().depth == self.depth {
                    let frame = self.frames.pop().expect("checked above");
                    self.finish(frame);
                }
                self.depth = self.depth.saturating_sub(1);
                q + 1
            }
            b'%' => {
                // A comment also swallows the line break and the next line's indent.
                let eol = args::line_end(self.bytes, q);
                args::skip_blanks(self.bytes, (eol + 1).min(end))
            }
            b'$' => self.math(q, end),
            _ => self.command(q, end),
        }
    }

    /// `$…$` (its text kept, decoded) or `$$…$$` (dropped).
    fn math(&mut self, q: usize, end: usize) -> usize {
        if self.bytes.get(q + 1) == Some(&b'$') {
            return match args::find(&self.bytes[..end], q + 2, b"$$") {
                Some(close) => {
                    self.synthetic(" ", q, close + 2);
                    close + 2
                }
                None => q + 2,
            };
        }
        let mut r = q + 1;
        while let Some(i) = memchr::memchr2(b'$', b'\\', &self.bytes[r..end]) {
            let at = r + i;
            if self.bytes[at] == b'\\' {
                r = (at + 2).min(end);
                continue;
            }
            let decoded = decode_latex(&self.text[q..at + 1]);
            self.synthetic(&decoded, q, at + 1);
            return at + 1;
        }
        q + 1
    }

    /// The citations whose group starts at `q`, if any: placeholders in the prose.
    fn citation_at(&mut self, q: usize) -> Option<usize> {
        while self
            .citations
            .get(self.next_cite)
            .is_some_and(|c| c.group_span.start < q)
        {
            self.next_cite += 1;
        }
        let group = self.citations.get(self.next_cite)?.group_span;
        if group.start != q {
            return None;
        }
        if self.opens_sentence(group) {
            // `… first. \citet{x} showed …`: the citation is the next sentence's
            // subject, not a marker trailing the previous one.
            self.synthetic("\n", q, q);
        }
        while self
            .citations
            .get(self.next_cite)
            .is_some_and(|c| c.group_span.start == q)
        {
            let index = self.next_cite;
            if !is_nocite(&self.citations[index]) {
                let frame = self.top();
                frame.prose.push_citation(group, index);
                frame.cited = true;
            }
            self.next_cite += 1;
        }
        Some(group.end)
    }

    /// A citation after a sentence end and a space, followed by a lowercase word.
    fn opens_sentence(&mut self, group: Span) -> bool {
        let before = self.top().prose.text.as_str();
        let trimmed = before.trim_end();
        if trimmed.len() == before.len() || !trimmed.ends_with(['.', '!', '?']) {
            return false;
        }
        let after = args::skip_blanks(self.bytes, group.end);
        self.text[after..]
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
    }

    fn command(&mut self, q: usize, end: usize) -> usize {
        if let Some(after) = self.citation_at(q) {
            return after;
        }
        let Some(&next) = self.bytes.get(q + 1) else {
            return q + 1;
        };
        if next.is_ascii_alphabetic() {
            return self.word_command(q, end);
        }
        match next {
            b'\\' => {
                self.boundary();
                args::skip_optionals(self.bytes, q + 2).unwrap_or(q + 2)
            }
            b'(' | b'[' => {
                let closer: &[u8] = if next == b'(' { b"\\)" } else { b"\\]" };
                match args::find(&self.bytes[..end], q + 2, closer) {
                    Some(close) if next == b'(' => {
                        let decoded = decode_latex(&format!("${}$", &self.text[q + 2..close]));
                        self.synthetic(&decoded, q, close + 2);
                        close + 2
                    }
                    Some(close) => {
                        self.synthetic(" ", q, close + 2);
                        close + 2
                    }
                    None => q + 2,
                }
            }
            b'%' | b'&' | b'#' | b'_' | b'$' | b'{' | b'}' => {
                let text = &self.text[q + 1..q + 2];
                self.synthetic(text, q, q + 2);
                q + 2
            }
            b',' | b';' | b':' | b' ' | b'\n' | b'\t' => {
                self.synthetic(" ", q, q + 2);
                q + 2
            }
            b'\'' | b'"' | b'`' | b'^' | b'~' | b'=' | b'.' => {
                let after = self.accent_end(q + 2, false);
                self.decoded(q, after);
                after
            }
            _ if !next.is_ascii() => q + 1,
            _ => q + 2,
        }
    }

    /// Where the argument of an accent command starting at `p` ends.
    fn accent_end(&self, p: usize, letter_command: bool) -> usize {
        let p = if letter_command {
            args::skip_blanks(self.bytes, p)
        } else {
            p
        };
        match self.bytes.get(p) {
            Some(b'{') => args::group_end(self.bytes, p, true).unwrap_or(p + 1),
            Some(b'\\') => args::name_end(self.bytes, p + 1),
            Some(_) => p + self.text[p..].chars().next().map_or(1, char::len_utf8),
            None => p,
        }
    }

    /// Decode the markup between `from` and `to` and add its text.
    fn decoded(&mut self, from: usize, to: usize) {
        let decoded = decode_latex(&self.text[from..to]);
        if !decoded.is_empty() {
            self.synthetic(&decoded, from, to);
        }
    }

    fn word_command(&mut self, q: usize, end: usize) -> usize {
        let name_end = args::name_end(self.bytes, q + 1);
        let name = &self.text[q + 1..name_end];
        let after = if self.bytes.get(name_end) == Some(&b'*') {
            name_end + 1
        } else {
            name_end
        };
        if matches!(name, "begin" | "end") {
            return self.environment(q, after, name == "begin", end);
        }
        if name.len() == 1 && matches!(name, "c" | "v" | "u" | "H" | "k" | "r" | "d" | "b" | "t") {
            let arg_end = self.accent_end(name_end, true);
            self.decoded(q, arg_end);
            return arg_end;
        }
        let Some(role) = prose_role(name) else {
            if let Some(symbol) = symbol_text(name) {
                self.synthetic(symbol, q, name_end);
            } else if let Some(text) = command_text(name).filter(|t| !t.is_empty()) {
                self.synthetic(&text, q, name_end);
            }
            // As in TeX, the spaces after a command name only end the name.
            return args::skip_space(self.bytes, name_end).min(end);
        };
        let bytes = self.bytes;
        let after_optional = args::skip_optionals(bytes, after).unwrap_or(after);
        match role {
            ProseRole::Drop(count) => {
                let mut p = after_optional;
                for _ in 0..count {
                    match args::mandatory(bytes, p, false) {
                        Some(Ok((_, close))) => {
                            p = args::skip_optionals(bytes, close).unwrap_or(close)
                        }
                        _ => break,
                    }
                }
                p
            }
            ProseRole::Aside | ProseRole::Heading => {
                if role == ProseRole::Heading {
                    self.boundary();
                }
                let open = args::skip_space(bytes, after_optional);
                if bytes.get(open) != Some(&b'{') {
                    return after_optional;
                }
                self.depth += 1;
                self.frames.push(Frame::new(self.depth));
                open + 1
            }
            ProseRole::Break => {
                self.boundary();
                after_optional
            }
            ProseRole::Literal => match args::mandatory(bytes, after, true) {
                Some(Ok((open, close))) => {
                    let inner = &self.text[open + 1..close - 1];
                    self.top().prose.push_source(inner, open + 1);
                    close
                }
                _ => after,
            },
            ProseRole::Space => {
                self.synthetic(" ", q, name_end);
                name_end
            }
        }
    }

    /// `\begin{env}` / `\end{env}`: a block boundary; display math is dropped whole.
    fn environment(&mut self, q: usize, p: usize, begin: bool, end: usize) -> usize {
        let bytes = self.bytes;
        let Some(Ok((open, close))) = args::mandatory(bytes, p, true) else {
            return p;
        };
        let env = self.text[open + 1..close - 1].trim();
        if begin && is_math_env(env) {
            let closing = format!("\\end{{{env}}}");
            if let Some(at) = args::find(&bytes[..end], close, closing.as_bytes()) {
                let after = at + closing.len();
                self.synthetic(" ", q, after);
                return after;
            }
        }
        self.boundary();
        if !begin {
            return close;
        }
        let mut after = args::skip_optionals(bytes, close).unwrap_or(close);
        for _ in 0..env_arguments(env) {
            match args::mandatory(bytes, after, true) {
                Some(Ok((_, group_end))) => after = group_end,
                _ => break,
            }
        }
        after
    }
}
