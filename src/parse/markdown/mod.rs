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

use crate::model::{FileId, Span};
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
pub fn parse(file: FileId, text: &str, _options: &ParseOptions) -> Parsed {
    let mut out = Parsed::default();
    let parser = Parser::new_ext(text, options());
    let definitions: Vec<defs::LinkDefinition> = parser
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
    let (citations, claims, sections) = walker.finish();
    out.citations = citations;
    out.claims = claims;
    for section in sections {
        out.references
            .extend(reflist::read(file, text, section, false));
    }
    out.references.extend(
        definitions
            .iter()
            .filter_map(|def| defs::link_definition(file, text, def)),
    );
    out.references.sort_by_key(|r| r.span.start);
    out
}

#[cfg(test)]
mod tests;
