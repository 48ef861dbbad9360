//! The LaTeX parser: citations (the configurable `\cite` family, natbib and
//! biblatex forms), the sentence each one sits in, `\bibliography` and
//! `\addbibresource` requests, `\input`/`\include`/`\subfile` requests,
//! `thebibliography` items, and suppression comments.
//!
//! Two passes. The first ([`scan`]) jumps between `\` and `%` with memchr and reads
//! only the commands that matter; comments, verbatim environments and `\iffalse`
//! blocks are skipped. The second ([`prose`]) reads only the paragraphs that hold a
//! citation, to pair each citation with its sentence. Both are iterative.

mod args;
mod bibitem;
mod cite;
mod commands;
mod prose;
mod requests;
mod scan;
mod skips;

use crate::diagnostic::rule::UNTERMINATED;
use crate::model::{FileId, Span};
use crate::parse::outline::Outline;
use crate::parse::{ParseOptions, Parsed};

use commands::CiteTable;

/// Parse one LaTeX file. Never fails: half-typed constructs become
/// `unterminated-construct` problems and the rest of the file is still read.
pub fn parse(file: FileId, text: &str, options: &ParseOptions) -> Parsed {
    parse_outlined(file, text, options).0
}

/// Parse one LaTeX file with its outline (see [`crate::parse::splice`]): the
/// paragraphs that start after a blank line outside every region the scanner read
/// as one piece, none after a construct that is never closed (its search for a
/// closer read the whole rest of the file). A file that defines citation commands
/// is not spliced: the definitions change how everything after them reads.
pub fn parse_outlined(file: FileId, text: &str, options: &ParseOptions) -> (Parsed, Outline) {
    let cites = CiteTable::new(&options.cite_commands);
    let mut scan = scan::Scanner::new(file, text, cites).run();
    let mut claims = Vec::new();
    prose::attach(text, file, &scan.skips, &mut scan.citations, &mut claims);
    let open_end = scan
        .problems
        .iter()
        .filter(|p| p.rule.code == UNTERMINATED.code)
        .map(|p| p.span.start)
        .min()
        .unwrap_or(text.len());
    let mut regions = std::mem::take(&mut scan.regions);
    regions.extend(scan.skips.iter().map(|s| s.span));
    regions.extend(scan.citations.iter().map(|c| c.group_span));
    let clean = paragraph_starts(text, regions, open_end);
    let outline = Outline {
        clean,
        spliceable: scan.defined.is_empty(),
        globals: Vec::new(),
    };
    let parsed = Parsed {
        citations: scan.citations,
        references: scan.references,
        claims,
        suppressions: scan.suppressions,
        bibliographies: scan.bibliographies,
        includes: scan.includes,
        problems: scan.problems,
        cite_commands: scan.defined,
    };
    (parsed, outline)
}

/// Line starts after a blank line (as [`prose`] reads paragraphs), before `until`,
/// inside none of `regions`.
fn paragraph_starts(text: &str, mut regions: Vec<Span>, until: usize) -> Vec<usize> {
    regions.sort_unstable_by_key(|r| r.start);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut region = 0;
    // The furthest end of the regions that start before the candidate.
    let mut covered = 0;
    let mut line = 0;
    let mut blank_before = true;
    while line < bytes.len().min(until) {
        let end = memchr::memchr(b'\n', &bytes[line..]).map_or(bytes.len(), |i| line + i);
        let blank = bytes[line..end]
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        if blank_before && !blank {
            while region < regions.len() && regions[region].start < line {
                covered = covered.max(regions[region].end);
                region += 1;
            }
            if covered <= line {
                out.push(line);
            }
        }
        blank_before = blank;
        line = end + 1;
    }
    out
}
