//! Turning scanned prose into citations and claims: the part of parsing shared by
//! the Markdown and the plain-text parsers. A parser feeds one block (paragraph,
//! list item, heading) at a time and calls [`Collector::flush`] at its end.

use crate::model::{Citation, Claim, FileId, Span};
use crate::parse::inline::{Found, Item, Scanner, Syntax, take_item};
use crate::parse::sentence::{Prose, attach_claims};

pub struct Collector<'t> {
    file: FileId,
    text: &'t str,
    pub citations: Vec<Citation>,
    pub claims: Vec<Claim>,
    prose: Prose,
    scanner: Scanner,
}

impl<'t> Collector<'t> {
    pub fn new(file: FileId, text: &'t str) -> Collector<'t> {
        Collector {
            file,
            text,
            citations: Vec::new(),
            claims: Vec::new(),
            prose: Prose::new(),
            scanner: Scanner::default(),
        }
    }

    /// Add the source text `span` to the current block, with the citations in it.
    pub fn run(&mut self, span: Span, syntax: Syntax) {
        let Collector {
            file,
            text,
            citations,
            prose,
            scanner,
            ..
        } = self;
        let text: &str = text;
        let before = text[..span.start].chars().next_back();
        let mut pos = span.start;
        for (group, items) in scanner.scan(&text[span.start..span.end], span.start, syntax, before)
        {
            prose.push_source(&text[pos..group.start], pos);
            pos = group.end;
            for item in items {
                add(*file, citations, prose, group, take_item(item));
            }
        }
        prose.push_source(&text[pos..span.end], pos);
    }

    /// Add source text that holds no citation.
    pub fn plain(&mut self, span: Span) {
        self.prose
            .push_source(&self.text[span.start..span.end], span.start);
    }

    /// Add text that stands for `span` without being written there (an entity, a
    /// line break).
    pub fn synthetic(&mut self, text: &str, span: Span) {
        self.prose.push_synthetic(text, span);
    }

    /// Add one citation construct at the current place of the block.
    pub fn construct(&mut self, found: Found) {
        for item in found.items {
            add(
                self.file,
                &mut self.citations,
                &mut self.prose,
                found.group,
                item,
            );
        }
    }

    /// End the current block: make claims of its sentences that carry citations.
    pub fn flush(&mut self) {
        if self.prose.has_citations() {
            attach_claims(
                self.file,
                &self.prose,
                &mut self.citations,
                &mut self.claims,
            );
        }
        self.prose.clear();
    }

    pub fn finish(mut self) -> (Vec<Citation>, Vec<Claim>) {
        self.flush();
        (self.citations, self.claims)
    }
}

/// Add the citation `item` of the construct `group` at the current place of the block.
fn add(file: FileId, citations: &mut Vec<Citation>, prose: &mut Prose, group: Span, item: Item) {
    prose.push_citation(group, citations.len());
    citations.push(Citation {
        key: item.key,
        kind: item.kind,
        file,
        span: item.span,
        group_span: group,
        command: Some(item.command.into()),
        id: item.id,
        narrative: item.narrative,
        claim: None,
        reference: None,
    });
}
