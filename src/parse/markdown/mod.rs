//! Markdown (CommonMark with pandoc, Quarto and Manubot citation syntax).
//!
//! pulldown-cmark finds the structure: which bytes are prose, code, HTML, math,
//! links, headings, footnotes and link definitions. Runs of prose are then scanned
//! for citations on the source text itself ([`crate::parse::inline`]), so spans are
//! exact. A reference section (a "References" heading or line, or a trailing block
//! of `[n]` lines) is read by [`crate::parse::reflist`].

mod defs;
mod frontmatter;
mod walk;

use pulldown_cmark::{Options, Parser};

use std::borrow::Cow;

use crate::model::{FileId, Reference, Span};
use crate::parse::outline::{Global, Outline};
use crate::parse::{ParseOptions, Parsed, reflist};

/// The pulldown-cmark extensions citeproof reads Markdown with.
pub fn options() -> Options {
    Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TABLES
        | Options::ENABLE_MATH
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// Parse one Markdown file.
pub fn parse(file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    parse_outlined(file, text, "", options).0
}

/// Parse one Markdown file (or a window of one, followed by `suffix`: the
/// file-wide definitions written elsewhere) with its outline (see
/// [`crate::parse::splice`]): the top-level blocks that start with nothing open,
/// and the link reference and footnote definitions, which every block sees.
pub fn parse_outlined(
    file: FileId,
    text: &str,
    suffix: &str,
    _options: &ParseOptions,
) -> (Parsed, Outline) {
    let joined: Cow<'_, str> = if suffix.is_empty() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{text}{suffix}"))
    };
    let text: &str = &joined;
    let mut out = Parsed::default();
    let parser = Parser::new_ext(text, options());
    let mut globals: Vec<Global> = parser
        .reference_definitions()
        .iter()
        .filter_map(|(_, def)| {
            Some(Global {
                span: Span::new(def.span.start, def.span.end),
                declaration: text.get(def.span.clone())?.trim_end().to_string(),
            })
        })
        .collect();
    let mut definitions: Vec<defs::LinkDefinition> = parser
        .reference_definitions()
        .iter()
        .filter(|(label, _)| {
            label.starts_with('@') || label.starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|(_, def)| defs::LinkDefinition {
            dest: def.dest.to_string(),
            title: def.title.as_ref().map(|t| t.to_string()),
            span: Span::new(def.span.start, def.span.end),
        })
        .collect();
    let mut walker = walk::Walker::new(file, text, &mut out);
    for (event, range) in parser.into_offset_iter() {
        walker.event(event, Span::new(range.start, range.end));
    }
    let walked = walker.finish();
    let (citations, claims, sections) = (walked.citations, walked.claims, walked.sections);
    globals.extend(walked.footnotes);
    globals.sort_by_key(|g| g.span.start);
    out.citations = citations;
    out.claims = claims;
    // Three runs, each in document order: footnotes (from the walk), the reference
    // sections' items, the link definitions (pulldown-cmark keeps them in a map).
    let footnotes = std::mem::take(&mut out.references);
    let mut listed = Vec::new();
    for section in sections {
        reflist::read_into(file, text, section, false, &mut listed);
    }
    definitions.sort_unstable_by_key(|def| def.span.start);
    let defined = definitions
        .iter()
        .filter_map(|def| defs::link_definition(file, text, def))
        .collect();
    out.references = merge_by_start([footnotes, listed, defined]);
    let spliceable = !open_metadata_fence(text, &walked.metadata_blocks);
    let outline = Outline {
        clean: walked.clean,
        spliceable,
        globals,
    };
    (out, outline)
}

/// Whether a line could open a metadata block (`---` or `+++` alone, the next line
/// not blank) outside every metadata block read: whether it does depends on a
/// closing line anywhere after it, so a parse that holds one is not spliced.
fn open_metadata_fence(text: &str, blocks: &[Span]) -> bool {
    let mut lines = text.split_inclusive('\n').peekable();
    let mut at = 0;
    while let Some(line) = lines.next() {
        let start = at;
        at += line.len();
        let fence = line.trim_end();
        if fence != "---" && fence != "+++" {
            continue;
        }
        let next_blank = lines.peek().is_none_or(|next| next.trim().is_empty());
        let inside = blocks.iter().any(|b| b.start <= start && start < b.end);
        if !next_blank && !inside {
            return true;
        }
    }
    false
}

/// The references of the runs in order of where they start, as a stable sort of the
/// runs one after the other orders them: merged when each run is in order, which
/// moves each (large) reference once.
fn merge_by_start<const N: usize>(runs: [Vec<Reference>; N]) -> Vec<Reference> {
    let total = runs.iter().map(Vec::len).sum();
    if !runs
        .iter()
        .all(|run| run.is_sorted_by_key(|r| r.span.start))
    {
        let mut all: Vec<Reference> = runs.into_iter().flatten().collect();
        all.sort_by_key(|r| r.span.start);
        return all;
    }
    let mut heads = runs.map(Vec::into_iter);
    let mut out = Vec::with_capacity(total);
    // The earliest next reference; on a tie, the one of the earlier run.
    while let Some((_, k)) = heads
        .iter()
        .enumerate()
        .filter_map(|(k, run)| run.as_slice().first().map(|r| (r.span.start, k)))
        .min()
    {
        out.extend(heads[k].next());
    }
    out
}

#[cfg(test)]
mod tests;
