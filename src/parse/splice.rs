//! Incremental re-parsing: after an edit, only the blocks the edit touches are
//! parsed again and the result is spliced into the previous parse.
//!
//! Each parser reports, with its parse, an [`Outline`]: the *clean points* of the
//! text — line starts where a block begins and the parser carries nothing over
//! from what came before (no open container, brace group, environment, verbatim
//! region, reference section or entry). Every parser here reads left to right and
//! looks ahead at most into the first line of the next block, so:
//!
//! - text before a clean point `a` that the edit leaves alone, with the line at `a`
//!   also untouched, parses as before, and the parser is clean again at `a`;
//! - a window `[a, e)` of the new text parsed on its own gives what the whole parse
//!   gives up to any clean point `c` it finds before `e`;
//! - from a clean point on, an unchanged rest of the text parses as before, shifted
//!   by the length difference.
//!
//! [`update`] builds the window from the previous outline (one clean block of slack
//! on each side), parses it, checks that the window parse is clean again at the
//! shifted old clean point after the edit, and splices. Whatever it cannot prove
//! (a parse that reads definitions from anywhere in the file — `@string` macros,
//! `crossref`, citation-command definitions —, a window whose definitions differ,
//! a search for a closer that ran off the window) is parsed whole.

use super::outline::{Global, Outline};
use crate::diagnostic::Diagnostic;
use crate::model::{FileId, Span};
use crate::parse::{ParseOptions, Parsed};
use crate::source::FileKind;

/// A parse and its outline.
#[derive(Debug, Clone, Default)]
pub struct Outlined {
    pub parsed: Parsed,
    pub outline: Outline,
}

/// Parse a whole file with its outline. Kinds without an outline (CSL-JSON, `.bbl`,
/// plain text) are never spliced.
pub fn parse_whole(kind: FileKind, file: FileId, text: &str, options: &ParseOptions) -> Outlined {
    parse_window(kind, file, text, options, "")
}

/// Parse `text` followed by `suffix` (file-wide definitions), outlining both.
fn parse_window(
    kind: FileKind,
    file: FileId,
    text: &str,
    options: &ParseOptions,
    suffix: &str,
) -> Outlined {
    let (parsed, outline) = match kind {
        FileKind::Markdown => super::markdown::parse_outlined(file, text, suffix, options),
        FileKind::Latex => super::latex::parse_outlined(file, text, options),
        FileKind::Bibtex => super::bibtex::parse_outlined(file, text, options),
        _ => (parse_plain(kind, file, text, options), Outline::default()),
    };
    Outlined { parsed, outline }
}

fn parse_plain(kind: FileKind, file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    match kind {
        FileKind::Text => super::answer::parse(file, text, options),
        FileKind::CslJson => super::csljson::parse(file, text, options),
        FileKind::Bbl => super::bbl::parse(file, text, options),
        _ => Parsed::default(),
    }
}

/// The parse of `new` given the parse of `old` (same file, kind and options): the
/// touched blocks parsed again and spliced in when that is provably what a whole
/// parse gives, else a whole parse.
pub fn update(
    kind: FileKind,
    file: FileId,
    old: &str,
    previous: Outlined,
    new: &str,
    options: &ParseOptions,
) -> Outlined {
    update_window(kind, file, old, previous, new, options).0
}

/// [`update`], and, when the result was spliced, the window that changed: what
/// the old parse held there and what the new one holds (so a caller can tell an
/// edit that only moved results from one that changed them).
pub fn update_window(
    kind: FileKind,
    file: FileId,
    old: &str,
    previous: Outlined,
    new: &str,
    options: &ParseOptions,
) -> (Outlined, Option<Window>) {
    match try_splice(kind, file, old, previous, new, options) {
        Ok((spliced, window)) => (spliced, Some(window)),
        Err(()) => (parse_whole(kind, file, new, options), None),
    }
}

/// The changed region: bytes `[start, old_end)` of the old text became
/// `[start, new_end)` of the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

/// The part of a parse an update replaced: the results of the old parse there
/// (`old`, old positions) and those of the new parse that took their place
/// (`new`, new positions, claim indices as in the whole new parse). Results
/// before the window are the old ones; results after it are the old ones moved
/// by the length difference.
#[derive(Debug, Clone)]
pub struct Window {
    pub change: Change,
    pub old: Parsed,
    pub new: Parsed,
}

fn change(old: &str, new: &str) -> Change {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let limit = a.len().min(b.len());
    let mut start = common_prefix(a, b);
    // On a character boundary of both (the common prefix may end inside one).
    while start > 0 && !(old.is_char_boundary(start) && new.is_char_boundary(start)) {
        start -= 1;
    }
    let tail = common_suffix(&a[start..], &b[start..]).min(limit - start);
    Change {
        start,
        old_end: a.len() - tail,
        new_end: b.len() - tail,
    }
}

/// Chunks compared as slices (a `memcmp` each), then bytes.
const CHUNK: usize = 64;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let chunks = a
        .chunks_exact(CHUNK)
        .zip(b.chunks_exact(CHUNK))
        .take_while(|(x, y)| x == y)
        .count();
    let at = chunks * CHUNK;
    at + a[at..]
        .iter()
        .zip(&b[at..])
        .take_while(|(x, y)| x == y)
        .count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let chunks = a
        .rchunks_exact(CHUNK)
        .zip(b.rchunks_exact(CHUNK))
        .take_while(|(x, y)| x == y)
        .count();
    let at = chunks * CHUNK;
    let (a, b) = (&a[..a.len() - at], &b[..b.len() - at]);
    at + a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

fn try_splice(
    kind: FileKind,
    file: FileId,
    old: &str,
    previous: Outlined,
    new: &str,
    options: &ParseOptions,
) -> Result<(Outlined, Window), ()> {
    if !previous.outline.spliceable {
        return Err(());
    }
    let change = change(old, new);
    let delta = change.new_end as isize - change.old_end as isize;
    let clean = &previous.outline.clean;
    // Start: the clean point before the last one at or before the change, so that
    // the line at the start (which the block before it may have looked at) is
    // untouched; the start of the file is always clean.
    let at_or_before = clean.partition_point(|&c| c <= change.start);
    let start = match at_or_before {
        0 | 1 => 0,
        n => clean[n - 2],
    };
    // End: the first clean point after the change (whose line the window must
    // hold whole), and the one after it as the window's end.
    let after = clean.partition_point(|&c| c <= change.old_end);
    let resume = clean.get(after).copied();
    let window_end_old = clean.get(after + 1).copied();
    let shift = |p: usize| (p as isize + delta) as usize;
    let window_end = window_end_old.map_or(new.len(), shift);
    let window = &new[start..window_end];
    let suffix = globals_outside(
        &previous.outline.globals,
        start,
        window_end_old.unwrap_or(usize::MAX),
    );
    let fresh = parse_window(kind, file, window, options, &suffix);
    if !fresh.outline.spliceable {
        return Err(());
    }
    // Where the window parse's results stop and the old ones take over.
    let keep_until = match (resume, window_end_old) {
        (Some(resume), Some(_)) => {
            let at = shift(resume) - start;
            if fresh.outline.clean.binary_search(&at).is_err() {
                return Err(());
            }
            Some(resume)
        }
        // The window runs to the end of the file: all of it is new, provided that
        // nothing in it runs on into the declarations after it.
        _ => {
            if !suffix.is_empty()
                && fresh
                    .outline
                    .clean
                    .binary_search(&(window.len() + 2))
                    .is_err()
            {
                return Err(());
            }
            None
        }
    };
    // A window that runs to the end of the file keeps what it found at its very
    // end (a half-typed entry reported at the end of the file), not what the
    // declarations after it hold (they start two line breaks further).
    let window_len = keep_until.map_or(window.len() + 1, |resume| shift(resume) - start);
    // The definitions other blocks see must be those the old window held.
    let old_window_end = keep_until.unwrap_or(usize::MAX);
    let old_globals: Vec<&str> = previous
        .outline
        .globals
        .iter()
        .filter(|g| g.span.start >= start && g.span.start < old_window_end)
        .map(|g| g.declaration.as_str())
        .collect();
    let new_globals: Vec<&str> = fresh
        .outline
        .globals
        .iter()
        .filter(|g| g.span.start < window_len)
        .map(|g| g.declaration.as_str())
        .collect();
    if old_globals != new_globals {
        return Err(());
    }
    let (outlined, old, new) = splice(
        previous,
        fresh,
        Cut {
            start,
            old_resume: keep_until.unwrap_or(usize::MAX),
            window_len,
            delta,
        },
    );
    Ok((outlined, Window { change, old, new }))
}

/// The declarations of the file-wide definitions outside the window, as text to
/// parse after it.
fn globals_outside(globals: &[Global], start: usize, window_end: usize) -> String {
    let mut out = String::new();
    for g in globals
        .iter()
        .filter(|g| g.span.start < start || g.span.start >= window_end)
    {
        out.push_str("\n\n");
        out.push_str(&g.declaration);
    }
    out
}

/// Where the window sits: it starts at `start` in both texts, its results up to
/// `window_len` (new text, relative) replace the old results in
/// `[start, old_resume)`; old results from `old_resume` on move by `delta`.
#[derive(Debug, Clone, Copy)]
struct Cut {
    start: usize,
    old_resume: usize,
    window_len: usize,
    delta: isize,
}

/// Which part of the old parse a position belongs to.
#[derive(PartialEq)]
enum Part {
    Before,
    Replaced,
    After,
}

impl Cut {
    fn old_part(&self, at: usize) -> Part {
        if at < self.start {
            Part::Before
        } else if at < self.old_resume {
            Part::Replaced
        } else {
            Part::After
        }
    }
}

fn moved(span: Span, by: isize) -> Span {
    Span::new(
        (span.start as isize + by) as usize,
        (span.end as isize + by) as usize,
    )
}

/// The spans a parse result holds, moved together.
trait Spans {
    /// Where it is, for deciding which part of a parse it belongs to.
    fn at(&self) -> usize;
    fn move_by(&mut self, by: isize);
}

/// [`Spans`] of a result placed by one span field.
macro_rules! one_span {
    ($($type:ty => $field:ident),* $(,)?) => {$(
        impl Spans for $type {
            fn at(&self) -> usize {
                self.$field.start
            }
            fn move_by(&mut self, by: isize) {
                self.$field = moved(self.$field, by);
            }
        }
    )*};
}

one_span!(
    crate::model::Claim => span,
    crate::model::Suppression => span,
    crate::parse::IncludeRequest => at,
);

impl Spans for crate::model::Citation {
    fn at(&self) -> usize {
        self.group_span.start
    }
    fn move_by(&mut self, by: isize) {
        self.span = moved(self.span, by);
        self.group_span = moved(self.group_span, by);
    }
}

impl Spans for crate::model::Reference {
    fn at(&self) -> usize {
        self.span.start
    }
    fn move_by(&mut self, by: isize) {
        self.span = moved(self.span, by);
        self.key_span = self.key_span.map(|s| moved(s, by));
        for field in &mut self.field_spans {
            field.value = moved(field.value, by);
            field.whole = moved(field.whole, by);
        }
    }
}

impl Spans for crate::model::BibliographyRequest {
    fn at(&self) -> usize {
        self.at.map_or(0, |(_, span)| span.start)
    }
    fn move_by(&mut self, by: isize) {
        if let Some((_, span)) = &mut self.at {
            *span = moved(*span, by);
        }
    }
}

impl Spans for Diagnostic {
    fn at(&self) -> usize {
        self.span.start
    }
    fn move_by(&mut self, by: isize) {
        let file = self.file;
        self.span = moved(self.span, by);
        for related in self.related.iter_mut().filter(|r| r.file == file) {
            related.span = moved(related.span, by);
        }
        if let Some(fix) = &mut self.fix {
            for edit in fix.edits.iter_mut().filter(|e| e.file == file) {
                edit.span = moved(edit.span, by);
            }
        }
    }
}

/// The old results before the window, the window's own (moved to `start`), then
/// the old results after it (moved by `delta`). Returns how many old results came
/// before the window and how many window results were kept (for re-basing
/// indices between lists).
fn splice_list<T: Spans>(
    mut old: Vec<T>,
    window: Vec<T>,
    cut: Cut,
    replaced: &mut Vec<T>,
) -> (Vec<T>, usize, usize) {
    let fresh: Vec<T> = window
        .into_iter()
        .filter(|i| i.at() < cut.window_len)
        .map(|mut item| {
            item.move_by(cut.start as isize);
            item
        })
        .collect();
    let kept = fresh.len();
    // A list in reading order (the usual case) is spliced where it is: the
    // results before and after the window are not moved in memory.
    let before = old
        .iter()
        .take_while(|i| cut.old_part(i.at()) == Part::Before)
        .count();
    let through = before
        + old[before..]
            .iter()
            .take_while(|i| cut.old_part(i.at()) == Part::Replaced)
            .count();
    if old[through..]
        .iter()
        .all(|i| cut.old_part(i.at()) == Part::After)
    {
        old[through..]
            .iter_mut()
            .for_each(|item| item.move_by(cut.delta));
        replaced.extend(old.splice(before..through, fresh));
        return (old, before, kept);
    }
    let mut out = Vec::with_capacity(old.len() + kept);
    let mut after = Vec::new();
    for item in old {
        match cut.old_part(item.at()) {
            Part::Before => out.push(item),
            Part::Replaced => replaced.push(item),
            Part::After => after.push(item),
        }
    }
    let before = out.len();
    out.extend(fresh);
    for mut item in after {
        item.move_by(cut.delta);
        out.push(item);
    }
    (out, before, kept)
}

/// The window's results in a spliced list (see [`splice_list`]).
fn fresh_part<T: Clone>(list: &(Vec<T>, usize, usize)) -> Vec<T> {
    list.0[list.1..list.1 + list.2].to_vec()
}

/// Splice a window's parse into the previous parse; also returns the old results
/// the window replaced and (copies of) the new ones that took their place.
fn splice(previous: Outlined, fresh: Outlined, cut: Cut) -> (Outlined, Parsed, Parsed) {
    let old = previous.parsed;
    let window = fresh.parsed;
    let mut replaced = Parsed::default();
    // Claims first: citations point into them.
    let old_claims_before = old
        .claims
        .iter()
        .take_while(|c| c.span.start < cut.start)
        .count();
    let old_claims_through = old
        .claims
        .iter()
        .take_while(|c| c.span.start < cut.old_resume)
        .count();
    let (claims, claims_before, claims_kept) =
        splice_list(old.claims, window.claims, cut, &mut replaced.claims);
    debug_assert_eq!(claims_before, old_claims_before);
    let after_base = claims_before + claims_kept;
    let (mut citations, cited_before, cited_kept) = splice_list(
        old.citations,
        window.citations,
        cut,
        &mut replaced.citations,
    );
    for (i, citation) in citations.iter_mut().enumerate() {
        if i < cited_before {
            continue;
        }
        citation.claim = citation.claim.map(|c| {
            if i < cited_before + cited_kept {
                c + claims_before
            } else {
                c - old_claims_through + after_base
            }
        });
    }
    let references = splice_list(
        old.references,
        window.references,
        cut,
        &mut replaced.references,
    );
    let suppressions = splice_list(
        old.suppressions,
        window.suppressions,
        cut,
        &mut replaced.suppressions,
    );
    let bibliographies = splice_list(
        old.bibliographies,
        window.bibliographies,
        cut,
        &mut replaced.bibliographies,
    );
    let includes = splice_list(old.includes, window.includes, cut, &mut replaced.includes);
    let problems = splice_list(old.problems, window.problems, cut, &mut replaced.problems);
    let new = Parsed {
        citations: citations[cited_before..cited_before + cited_kept].to_vec(),
        claims: claims[claims_before..after_base].to_vec(),
        references: fresh_part(&references),
        suppressions: fresh_part(&suppressions),
        bibliographies: fresh_part(&bibliographies),
        includes: fresh_part(&includes),
        problems: fresh_part(&problems),
        cite_commands: Vec::new(),
    };
    let parsed = Parsed {
        citations,
        claims,
        references: references.0,
        suppressions: suppressions.0,
        bibliographies: bibliographies.0,
        includes: includes.0,
        problems: problems.0,
        cite_commands: old.cite_commands,
    };
    let outline = Outline {
        clean: splice_points(&previous.outline.clean, &fresh.outline.clean, cut),
        spliceable: true,
        globals: splice_globals(previous.outline.globals, fresh.outline.globals, cut),
    };
    (Outlined { parsed, outline }, replaced, new)
}

fn splice_points(old: &[usize], window: &[usize], cut: Cut) -> Vec<usize> {
    let before = old.iter().copied().filter(|&c| c < cut.start);
    let fresh = window
        .iter()
        .filter(|&&c| c < cut.window_len)
        .map(|&c| c + cut.start);
    let after = old
        .iter()
        .filter(|&&c| c >= cut.old_resume)
        .map(|&c| (c as isize + cut.delta) as usize);
    before.chain(fresh).chain(after).collect()
}

fn splice_globals(old: Vec<Global>, window: Vec<Global>, cut: Cut) -> Vec<Global> {
    let mut out: Vec<Global> = Vec::with_capacity(old.len());
    let mut after = Vec::new();
    for g in old {
        match cut.old_part(g.span.start) {
            Part::Before => out.push(g),
            Part::Replaced => {}
            Part::After => after.push(Global {
                span: moved(g.span, cut.delta),
                declaration: g.declaration,
            }),
        }
    }
    out.extend(
        window
            .into_iter()
            .filter(|g| g.span.start < cut.window_len)
            .map(|g| Global {
                span: moved(g.span, cut.start as isize),
                declaration: g.declaration,
            }),
    );
    out.extend(after);
    out
}

#[cfg(test)]
#[path = "splice_tests.rs"]
mod tests;
