//! The pass over pulldown-cmark's events: which source bytes are prose (scanned
//! for citations), which are skipped, where reference sections begin and end.

use pulldown_cmark::{Event, HeadingLevel, LinkType, Tag, TagEnd};
use smallvec::smallvec;

use super::frontmatter;
use crate::model::{Citation, CitationKind, Claim, FileId, IdScheme, Span};
use crate::parse::collect::Collector;
use crate::parse::inline::{Found, Item, Syntax, web};
use crate::parse::outline::Global;
use crate::parse::{Parsed, comments, reflist};

/// A reference section being read: it ends at the next heading of its level or
/// higher (any heading, when it was opened by a line rather than a heading).
struct Section {
    level: Option<HeadingLevel>,
    start: usize,
}

/// What to do at the end of a link.
struct LinkState {
    cite: Option<Found>,
    /// The link text is not prose (`<https://…>`, `[1](https://…)`).
    hide_text: bool,
}

pub struct Walker<'t, 'o> {
    file: FileId,
    text: &'t str,
    out: &'o mut Parsed,
    collector: Collector<'t>,
    /// Contiguous prose not yet scanned.
    run: Option<Span>,
    syntax: Syntax,
    /// Depth of regions whose text is not prose: code blocks, HTML blocks, images,
    /// front matter.
    skip: u32,
    metadata: bool,
    /// Inside a link whose source is scanned as it is written (`[@tag:x]`, `[1]`).
    verbatim_link: bool,
    links: Vec<LinkState>,
    section: Option<Section>,
    sections: Vec<Span>,
    /// Depth of open blocks and inlines (0 between top-level blocks).
    depth: u32,
    /// Top-level blocks that start with nothing carried over (see
    /// [`crate::parse::splice`]).
    clean: Vec<usize>,
    /// Footnote definitions, which every block sees: where, and `[^label]: x`.
    footnotes: Vec<Global>,
    /// Front matter and other metadata blocks.
    metadata_blocks: Vec<Span>,
}

/// What a walk found.
pub struct Walked {
    pub citations: Vec<Citation>,
    pub claims: Vec<Claim>,
    /// Reference sections.
    pub sections: Vec<Span>,
    pub clean: Vec<usize>,
    pub footnotes: Vec<Global>,
    pub metadata_blocks: Vec<Span>,
}

impl<'t, 'o> Walker<'t, 'o> {
    pub fn new(file: FileId, text: &'t str, out: &'o mut Parsed) -> Walker<'t, 'o> {
        Walker {
            file,
            text,
            out,
            collector: Collector::new(file, text),
            run: None,
            syntax: Syntax::MARKDOWN,
            skip: 0,
            metadata: false,
            verbatim_link: false,
            links: Vec::new(),
            section: None,
            sections: Vec::new(),
            depth: 0,
            clean: Vec::new(),
            footnotes: Vec::new(),
            metadata_blocks: Vec::new(),
        }
    }

    /// Whether a top-level block starting now starts with nothing carried over.
    fn pristine(&self) -> bool {
        self.depth == 0
            && self.skip == 0
            && self.section.is_none()
            && !self.metadata
            && !self.verbatim_link
            && self.links.is_empty()
            && self.syntax == Syntax::MARKDOWN
    }

    /// Whether text events are prose to scan now.
    fn in_prose(&self) -> bool {
        self.skip == 0 && self.section.is_none() && !self.verbatim_link
    }

    /// Read one event. Text and line breaks, most of the events, are taken here;
    /// the rest in [`Walker::structure`], so that this stays small enough to inline.
    #[inline]
    pub fn event(&mut self, event: Event<'_>, span: Span) {
        match event {
            Event::Text(text) => self.text_event(&text, span),
            Event::SoftBreak if self.in_prose() => self.extend(span),
            event => self.structure(event, span),
        }
    }

    #[inline(never)]
    fn structure(&mut self, event: Event<'_>, span: Span) {
        match event {
            Event::Start(tag) => {
                if self.pristine() && line_start(self.text, span.start) {
                    self.clean.push(span.start);
                }
                self.depth += 1;
                self.start(tag, span)
            }
            Event::End(tag) => {
                self.depth = self.depth.saturating_sub(1);
                self.end(tag, span)
            }
            Event::HardBreak if self.in_prose() => {
                self.end_run();
                self.collector.synthetic("\n", span);
            }
            Event::Code(code) | Event::InlineMath(code) | Event::DisplayMath(code)
                if self.in_prose() =>
            {
                self.end_run();
                self.collector.synthetic(&code, span);
            }
            Event::InlineHtml(_) => {
                self.end_run();
                comments::read(self.file, self.text, span, self.out);
            }
            Event::FootnoteReference(label) if self.in_prose() => {
                self.end_run();
                let key_span = Span::new(span.start + 1, span.end.saturating_sub(1));
                let written = self.text.get(key_span.start..key_span.end);
                let key = written
                    .filter(|w| w.strip_prefix('^') == Some(&*label))
                    .map_or_else(|| format!("^{label}"), str::to_string);
                self.collector.construct(Found {
                    group: span,
                    items: smallvec![item(
                        key,
                        CitationKind::Footnote,
                        key_span,
                        None,
                        "footnote",
                    )],
                });
            }
            Event::Rule => self.flush(),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, span: Span) {
        match tag {
            Tag::Paragraph => {
                self.flush();
                if self.section.is_none() {
                    self.maybe_open_section_at_paragraph(span);
                }
            }
            Tag::Heading { level, .. } => {
                self.flush();
                if let Some(section) = &self.section
                    && section.level.is_none_or(|l| level <= l)
                {
                    self.close_section(span.start);
                }
                let first_line = self.text[span.start..span.end].lines().next().unwrap_or("");
                if self.section.is_none() && reflist::is_section_title(first_line) {
                    self.section = Some(Section {
                        level: Some(level),
                        start: span.end,
                    });
                }
            }
            Tag::CodeBlock(_) | Tag::Image { .. } => {
                self.end_run();
                self.skip += 1;
            }
            Tag::HtmlBlock => {
                self.flush();
                self.skip += 1;
                comments::read(self.file, self.text, span, self.out);
            }
            Tag::MetadataBlock(_) => {
                self.flush();
                self.skip += 1;
                self.metadata = true;
                self.metadata_blocks.push(span);
            }
            Tag::FootnoteDefinition(label) => {
                self.flush();
                let written = &self.text[span.start..span.end];
                if let Some(colon) = written.find("]:") {
                    self.footnotes.push(Global {
                        span,
                        declaration: format!("{} x", &written[..colon + 2]),
                    });
                }
                if let Some(reference) = reflist::footnote(self.file, self.text, &label, span) {
                    self.out.references.push(reference);
                }
                self.syntax = Syntax::KEYS_ONLY;
            }
            Tag::Link {
                link_type,
                dest_url,
                id,
                ..
            } => self.start_link(link_type, &dest_url, &id, span),
            Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript => {}
            _ => self.flush(),
        }
    }

    fn end(&mut self, tag: TagEnd, _span: Span) {
        match tag {
            TagEnd::CodeBlock | TagEnd::Image | TagEnd::HtmlBlock => {
                self.skip = self.skip.saturating_sub(1);
            }
            TagEnd::MetadataBlock(_) => {
                self.skip = self.skip.saturating_sub(1);
                self.metadata = false;
            }
            TagEnd::FootnoteDefinition => {
                self.flush();
                self.syntax = Syntax::MARKDOWN;
            }
            TagEnd::Link => self.end_link(),
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => {}
            _ => self.flush(),
        }
    }

    #[inline]
    fn text_event(&mut self, text: &str, span: Span) {
        if self.metadata {
            frontmatter::read(self.file, self.text, span, self.out);
            return;
        }
        if !self.in_prose() || self.links.last().is_some_and(|l| l.hide_text) {
            return;
        }
        if is_written_at(self.text, text, span) {
            self.extend(span);
        } else {
            self.not_as_written(text, span);
        }
    }

    /// An entity or escape: the text is not written as it reads.
    #[inline(never)]
    fn not_as_written(&mut self, text: &str, span: Span) {
        self.end_run();
        self.collector.synthetic(text, span);
    }

    /// A link either cites (DOI/arXiv/PubMed/publisher URL, `[text][3]`), is a
    /// citation written as a link because a definition matched it (`[@tag:x]`,
    /// `[1]`), or is plain prose.
    fn start_link(&mut self, link_type: LinkType, dest: &str, id: &str, span: Span) {
        if !self.in_prose() || !self.syntax.identifiers {
            // Outside prose nothing is read; in footnote text the link is prose only.
            self.links.push(LinkState {
                cite: None,
                hide_text: !self.in_prose(),
            });
            return;
        }
        let numeric_id = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
        match link_type {
            LinkType::Shortcut | LinkType::Collapsed if id.starts_with('@') || numeric_id => {
                self.extend(span);
                self.verbatim_link = true;
                return;
            }
            _ => {}
        }
        self.end_run();
        let written = &self.text[span.start..span.end];
        let state = match link_type {
            LinkType::Reference if numeric_id => {
                // `[text][3]`: the marker is the label in the second brackets.
                let key_span = written
                    .rfind(&format!("[{id}]"))
                    .map(|at| Span::new(span.start + at + 1, span.start + at + 1 + id.len()));
                LinkState {
                    cite: key_span.map(|key_span| Found {
                        group: span,
                        items: smallvec![item(
                            id.to_string(),
                            CitationKind::Numeric,
                            key_span,
                            None,
                            "numeric",
                        )],
                    }),
                    hide_text: false,
                }
            }
            LinkType::Email => LinkState {
                cite: None,
                hide_text: true,
            },
            LinkType::Autolink => LinkState {
                cite: web::citable_url(dest).map(|id| {
                    let inner_end = span.end.saturating_sub(1).max(span.start + 1);
                    let url_span = Span::new(span.start + 1, inner_end);
                    link_citation(self.text, url_span, span, id)
                }),
                hide_text: true,
            },
            _ => {
                let label = written
                    .get(1..)
                    .and_then(|w| w.split(']').next())
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['[', ']']);
                let numbered = !label.is_empty() && label.bytes().all(|b| b.is_ascii_digit());
                let id = web::citable_url(dest).or_else(|| {
                    (numbered && dest.starts_with("http"))
                        .then(|| (IdScheme::Url, dest.to_string()))
                });
                let url_span = dest_offset(written, dest).map_or(span, |at| {
                    Span::new(span.start + at, span.start + at + dest.len())
                });
                LinkState {
                    cite: id.map(|id| link_citation(self.text, url_span, span, id)),
                    hide_text: numbered,
                }
            }
        };
        self.links.push(state);
    }

    fn end_link(&mut self) {
        if self.verbatim_link {
            self.verbatim_link = false;
            return;
        }
        let Some(state) = self.links.pop() else {
            return;
        };
        self.end_run();
        if let Some(found) = state.cite {
            self.collector.construct(found);
        }
    }

    /// A paragraph opens a reference section when its first line is a section
    /// title ("References:", "**Sources**") or when it is a block of `[n] …` lines.
    fn maybe_open_section_at_paragraph(&mut self, span: Span) {
        let block = &self.text[span.start..span.end];
        let first_line = block.lines().next().unwrap_or("");
        if first_line.len() <= 60 && reflist::is_section_title(first_line) {
            self.section = Some(Section {
                level: None,
                start: span.start + first_line.len(),
            });
        } else if block.starts_with('[') && reflist::is_bracket_list(block) {
            self.section = Some(Section {
                level: None,
                start: span.start,
            });
        }
    }

    fn close_section(&mut self, end: usize) {
        if let Some(section) = self.section.take()
            && section.start < end
        {
            self.sections.push(Span::new(section.start, end));
        }
    }

    /// Add prose bytes to the current run; runs join across whitespace only.
    #[inline]
    fn extend(&mut self, span: Span) {
        match &mut self.run {
            Some(run)
                if run.end <= span.start
                    && self.text.as_bytes()[run.end..span.start]
                        .iter()
                        .all(u8::is_ascii_whitespace) =>
            {
                run.end = span.end;
            }
            _ => self.start_run(span),
        }
    }

    #[inline(never)]
    fn start_run(&mut self, span: Span) {
        self.end_run();
        self.run = Some(span);
    }

    fn end_run(&mut self) {
        if let Some(run) = self.run.take() {
            self.collector.run(run, self.syntax);
        }
    }

    /// End the current block.
    fn flush(&mut self) {
        self.end_run();
        self.collector.flush();
    }

    pub fn finish(mut self) -> Walked {
        self.flush();
        self.close_section(self.text.len());
        let (citations, claims) = self.collector.finish();
        Walked {
            citations,
            claims,
            sections: self.sections,
            clean: self.clean,
            footnotes: self.footnotes,
            metadata_blocks: self.metadata_blocks,
        }
    }
}

/// Whether `at` starts a line.
fn line_start(text: &str, at: usize) -> bool {
    at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n')
}

fn item(
    key: String,
    kind: CitationKind,
    span: Span,
    id: Option<(IdScheme, String)>,
    command: &'static str,
) -> Item {
    Item {
        key,
        kind,
        span,
        id,
        narrative: false,
        command,
    }
}

/// Whether `text` reads exactly as the source bytes `span` are written. Text that
/// pulldown-cmark borrows from the source is those very bytes: then no byte needs
/// comparing.
fn is_written_at(source: &str, text: &str, span: Span) -> bool {
    match source.get(span.start..span.end) {
        Some(written) if std::ptr::eq(written, text) => true,
        written => written == Some(text),
    }
}

/// Where the destination `dest` is written in a link's source text: most often just
/// before its closing `)`, else its last occurrence.
fn dest_offset(written: &str, dest: &str) -> Option<usize> {
    if dest.is_empty() {
        return None;
    }
    let inner = written.strip_suffix(')').unwrap_or(written);
    if inner.ends_with(dest) {
        return Some(inner.len() - dest.len());
    }
    written.rfind(dest)
}

/// A citation by link: the key is the URL as written.
fn link_citation(text: &str, url_span: Span, group: Span, id: (IdScheme, String)) -> Found {
    Found {
        group,
        items: smallvec![item(
            text[url_span.start..url_span.end].to_string(),
            CitationKind::Identifier,
            url_span,
            Some(id),
            "link",
        )],
    }
}
