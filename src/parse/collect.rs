//! Turning scanned prose into citations and claims: the part of parsing shared by
//! the Markdown and the plain-text parsers. A parser feeds one block (paragraph,
//! list item, heading) at a time and calls [`Collector::flush`] at its end.

use crate::model::{Citation, Claim, FileId, Span};
use crate::parse::inline::{Found, Scanner, Syntax};
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
        let slice = &self.text[span.start..span.end];
        let before = self.text[..span.start].chars().next_back();
        let mut pos = span.start;
        // The scanner's buffers are taken out while its constructs are added.
        let mut scanner = std::mem::take(&mut self.scanner);
        for found in scanner.scan(slice, span.start, syntax, before) {
            self.prose
                .push_source(&self.text[pos..found.group.start], pos);
            pos = found.group.end;
            self.construct(found);
        }
        self.scanner = scanner;
        self.prose.push_source(&self.text[pos..span.end], pos);
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
            let index = self.citations.len();
            self.citations.push(Citation {
                key: item.key,
                kind: item.kind,
                file: self.file,
                span: item.span,
                group_span: found.group,
                command: Some(item.command.into()),
                id: item.id,
                narrative: item.narrative,
                claim: None,
                reference: None,
            });
            self.prose.push_citation(found.group, index);
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
