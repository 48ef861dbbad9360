//! Citation markers inside one run of prose text, shared by the Markdown and the
//! plain-text (LLM answer) parsers: pandoc/Manubot `[@key]` groups and narrative
//! `@key`, numbered `[1, 3-5]` and footnote `[^1]` markers, author–year
//! parentheticals, links to scholarly pages and bare identifiers.
//!
//! The scanner works on source text directly, so every span it returns is a byte
//! range of the original file. It allocates only for what it finds.

mod author_year;
mod hits;
mod numeric;
mod pandoc;
pub mod web;

use smallvec::SmallVec;

use crate::model::{CitationKind, IdScheme, Span};

/// Which citation syntaxes a run of text may contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Syntax {
    /// `[@key]`, `[@a; @b, p. 3]`, `[-@key]`, `[@doi:…]`, `[@tag:x]`.
    pub pandoc: bool,
    /// In-text `@key`.
    pub narrative_keys: bool,
    /// `[1]`, `[1, 3]`, `[1-4]`.
    pub numeric: bool,
    /// `[^1]` written as text (an undefined footnote).
    pub footnotes: bool,
    /// `(Smith et al., 2020)`, `Smith and Jones (2019)`.
    pub author_year: bool,
    /// Bare URLs and identifiers (DOIs, `arXiv:` ids, PMIDs, PMCIDs).
    pub identifiers: bool,
    /// Every bare URL is a citation (LLM answers), not only scholarly ones.
    pub all_urls: bool,
}

impl Syntax {
    /// Markdown prose: everything but arbitrary URLs.
    pub const MARKDOWN: Syntax = Syntax {
        pandoc: true,
        narrative_keys: true,
        numeric: true,
        footnotes: true,
        author_year: true,
        identifiers: true,
        all_urls: false,
    };
    /// Footnote text and other places where only explicit keys count.
    pub const KEYS_ONLY: Syntax = Syntax {
        pandoc: true,
        narrative_keys: true,
        numeric: false,
        footnotes: false,
        author_year: false,
        identifiers: false,
        all_urls: false,
    };
    /// LLM answers and plain text: no narrative `@handles`, every URL is a source.
    pub const ANSWER: Syntax = Syntax {
        pandoc: true,
        narrative_keys: false,
        numeric: true,
        footnotes: true,
        author_year: true,
        identifiers: true,
        all_urls: true,
    };
    /// Typeset text (a PDF's or a Word file's body): numbered and author–year
    /// markers and scholarly identifiers; no pandoc keys, no arbitrary URLs.
    pub const TYPESET: Syntax = Syntax {
        pandoc: false,
        narrative_keys: false,
        numeric: true,
        footnotes: false,
        author_year: true,
        identifiers: true,
        all_urls: false,
    };
}

/// One citation inside a construct.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The key, marker or identifier as written (`smith2020`, `3`, `doi:10.1/x`).
    pub key: String,
    pub kind: CitationKind,
    /// Bytes of the key or marker (for `[1-4]` the range text).
    pub span: Span,
    pub id: Option<(IdScheme, String)>,
    pub narrative: bool,
    /// How it was written: `pandoc`, `numeric`, `footnote`, `author-year`, `url` …
    pub command: &'static str,
}

/// The citations of one construct: most constructs hold one, which is kept
/// without an allocation of its own.
pub type Items = SmallVec<[Item; 1]>;

/// One citation construct: a bracket group, a marker, a parenthetical, a URL.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Bytes of the whole construct.
    pub group: Span,
    pub items: Items,
}

/// Every citation construct in `text`, which starts at byte `base` of the file, in
/// order and without overlaps. `before` is the character written just before
/// `text` (a `\\` escapes a leading `[`; a letter makes a leading `@` an e-mail).
pub fn scan(text: &str, base: usize, syntax: Syntax, before: Option<char>) -> Vec<Found> {
    let mut scanner = Scanner::default();
    scanner
        .scan(text, base, syntax, before)
        .map(|(group, items)| Found {
            group,
            items: items.iter_mut().map(take_item).collect(),
        })
        .collect()
}

/// The item, its strings moved out of the scanner's list.
pub fn take_item(item: &mut Item) -> Item {
    Item {
        key: std::mem::take(&mut item.key),
        id: item.id.take(),
        ..*item
    }
}

/// The citation scanner with the buffers it reuses from one run of text to the
/// next: most runs hold no citation, and allocating per run cost more than
/// scanning them.
#[derive(Debug, Default)]
pub struct Scanner {
    /// Offsets of the bytes worth a look (see [`hits`]).
    hits: Vec<usize>,
    web: Vec<web::WebMatch>,
    constructs: Vec<Construct>,
    /// The items of every construct, each construct's in a range of its own, in
    /// the order of the constructs: one list for all, where a list per construct
    /// cost an allocation (or a large inline buffer to move) each.
    items: Vec<Item>,
}

/// One citation construct as the scanner keeps it: its bytes and the range of
/// [`Scanner::items`] that holds its items.
#[derive(Debug, Clone, Copy)]
struct Construct {
    group: Span,
    first: usize,
    end: usize,
}

impl Scanner {
    /// [`scan`], into the scanner's own buffers: each construct comes with its
    /// items, whose strings the caller may move out (see [`take_item`]).
    pub fn scan(
        &mut self,
        text: &str,
        base: usize,
        syntax: Syntax,
        before: Option<char>,
    ) -> Constructs<'_> {
        let Scanner {
            hits,
            web,
            constructs,
            items,
        } = self;
        hits.clear();
        web.clear();
        constructs.clear();
        items.clear();
        hits::find(text.as_bytes(), hits);
        if !hits.is_empty() {
            // URLs and identifiers first: they are the places where `@`, `[` and `(`
            // are not citation syntax.
            web::find_at(text, hits, web);
            find_constructs(text, syntax, before, hits, web, constructs, items);
            merge_web(text, constructs, items, web, syntax);
            drop_mentions(text, constructs, items);
            for construct in constructs.iter_mut() {
                construct.group = construct.group.offset(base);
            }
            for item in items.iter_mut() {
                item.span = item.span.offset(base);
            }
        }
        Constructs {
            constructs: constructs.iter(),
            items,
            offset: 0,
        }
    }
}

/// The constructs of one scanned run, in order, each with its items.
pub struct Constructs<'s> {
    constructs: std::slice::Iter<'s, Construct>,
    /// The items from `offset` on.
    items: &'s mut [Item],
    offset: usize,
}

impl<'s> Iterator for Constructs<'s> {
    type Item = (Span, &'s mut [Item]);

    fn next(&mut self) -> Option<Self::Item> {
        let construct = self.constructs.next()?;
        // The ranges come in order; items between them belonged to constructs
        // that were dropped.
        let rest = std::mem::take(&mut self.items);
        let (own, rest) =
            rest[construct.first - self.offset..].split_at_mut(construct.end - construct.first);
        self.items = rest;
        self.offset = construct.end;
        Some((construct.group, own))
    }
}

/// The bracket groups, markers and parentheticals at `hits` outside the URLs and
/// identifiers of `web`, appended to `constructs` (their items to `items`).
fn find_constructs(
    text: &str,
    syntax: Syntax,
    before: Option<char>,
    hits: &[usize],
    web: &[web::WebMatch],
    constructs: &mut Vec<Construct>,
    items: &mut Vec<Item>,
) {
    let mut zones = web.iter().map(|w| w.zone).peekable();
    let bytes = text.as_bytes();
    // Where the next construct may start: after the last one found.
    let mut at = 0;
    for &i in hits {
        if i < at || !matches!(bytes[i], b'[' | b'@' | b'(') {
            continue;
        }
        while zones.peek().is_some_and(|z| z.end <= i) {
            zones.next();
        }
        if zones.peek().is_some_and(|z| z.start <= i) {
            continue;
        }
        let first = items.len();
        let group = match bytes[i] {
            b'[' if i > 0 && bytes[i - 1] == b'\\' => None,
            b'[' if i == 0 && before == Some('\\') => None,
            b'[' => bracket(text, i, syntax, items)
                .map(|group| linked_marker(text, group, first, items, web, syntax)),
            b'@' if syntax.narrative_keys => pandoc::narrative(text, i, before, items),
            b'(' if syntax.author_year => author_year::parenthetical(text, i, items),
            _ => None,
        };
        // A narrative author–year citation starts before its `(`; never let it
        // reach back into the construct before it.
        let overlaps = |group: Span| constructs.last().is_some_and(|c| c.group.end > group.start);
        match group {
            Some(group) if !overlaps(group) => {
                at = group.end;
                constructs.push(Construct {
                    group,
                    first,
                    end: items.len(),
                });
            }
            _ => items.truncate(first),
        }
    }
}

/// A `[` … `]` construct starting at byte `i`: its bytes, its items pushed to `items`.
fn bracket(text: &str, i: usize, syntax: Syntax, items: &mut Vec<Item>) -> Option<Span> {
    let bytes = text.as_bytes();
    if bytes.get(i + 1) == Some(&b'^') {
        return syntax
            .footnotes
            .then(|| numeric::footnote(text, i, items))
            .flatten();
    }
    let close = closing_bracket(bytes, i)?;
    let content = &text[i + 1..close];
    let group = Span::new(i, close + 1);
    // The `@` of a group mostly comes first: a plain loop finds it soonest.
    if syntax.pandoc && content.bytes().any(|b| b == b'@') {
        return pandoc::group(content, i + 1, items).map(|()| group);
    }
    if syntax.numeric {
        return numeric::markers(content, i + 1, items).map(|()| group);
    }
    None
}

/// `[1](https://…)`: a numbered marker that links its source is a citation of
/// that URL (when it is one), not of a reference-list entry. The marker's items
/// are `items[first..]`.
fn linked_marker(
    text: &str,
    group: Span,
    first: usize,
    items: &mut Vec<Item>,
    web: &[web::WebMatch],
    syntax: Syntax,
) -> Span {
    let numeric = items
        .get(first)
        .is_some_and(|i| i.kind == CitationKind::Numeric);
    let after = group.end;
    if !numeric || text.as_bytes().get(after) != Some(&b'(') {
        return group;
    }
    let Some(link) = web.iter().find(|w| w.zone.start == after + 1) else {
        return group;
    };
    let Some(item) = web::item(text, link, syntax) else {
        return group;
    };
    let end = link.zone.end + usize::from(text.as_bytes().get(link.zone.end) == Some(&b')'));
    items.truncate(first);
    items.push(item);
    Span::new(group.start, end)
}

/// The `]` that closes the `[` at `open`: no nested `[`, no blank line, bounded length.
fn closing_bracket(bytes: &[u8], open: usize) -> Option<usize> {
    const MAX: usize = 2000;
    let end = bytes.len().min(open + MAX);
    let mut from = open + 1;
    while from < end {
        let at = from + memchr::memchr3(b']', b'[', b'\n', &bytes[from..end])?;
        match bytes[at] {
            b']' => return Some(at),
            b'[' => return None,
            _ => {
                // A blank line: nothing but spaces, tabs and carriage returns up to the
                // next newline.
                let filled = bytes[at + 1..end]
                    .iter()
                    .position(|&b| !matches!(b, b' ' | b'\t' | b'\r'))?;
                if bytes[at + 1 + filled] == b'\n' {
                    return None;
                }
                from = at + 1 + filled;
            }
        }
    }
    None
}

/// `Jensen et al. (2018) [@doi:…]` names the work that the bracket cites: the
/// narrative author–year text is a mention, not a second citation.
fn drop_mentions(text: &str, constructs: &mut Vec<Construct>, items: &[Item]) {
    let mut i = 0;
    while i + 1 < constructs.len() {
        let c = constructs[i];
        let mention = items[c.first..c.end]
            .iter()
            .all(|item| item.kind == CitationKind::AuthorYear && item.narrative);
        let between = &text[c.group.end..constructs[i + 1].group.start];
        if mention && between.trim().is_empty() {
            constructs.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Add the URL and identifier citations that no bracket or parenthetical covers.
fn merge_web(
    text: &str,
    constructs: &mut Vec<Construct>,
    items: &mut Vec<Item>,
    web: &[web::WebMatch],
    syntax: Syntax,
) {
    // Both lists are in order and without overlaps: one walk over the constructs
    // finds the one each match could overlap, and the one it goes before.
    let mut added = Vec::new();
    let mut next = 0;
    for w in web {
        while next < constructs.len() && constructs[next].group.end <= w.zone.start {
            next += 1;
        }
        if next < constructs.len() && constructs[next].group.start < w.zone.end {
            continue;
        }
        if let Some(item) = web::item(text, w, syntax) {
            added.push((next, item));
        }
    }
    if !added.is_empty() {
        insert_in_order(constructs, items, added);
    }
}

/// Insert each `(k, item)` of `added` as a construct of its own before
/// `constructs[k]`, keeping the items in the order of their constructs.
fn insert_in_order(
    constructs: &mut Vec<Construct>,
    items: &mut Vec<Item>,
    added: Vec<(usize, Item)>,
) {
    // Before any construct is dropped, the constructs' ranges cover the items
    // one after the other.
    let old_constructs = std::mem::take(constructs);
    let mut old_items = std::mem::take(items).into_iter();
    let mut added = added.into_iter().peekable();
    for (k, old) in old_constructs.iter().enumerate() {
        while let Some((_, item)) = added.next_if(|(before, _)| *before == k) {
            push_single(constructs, items, item);
        }
        let first = items.len();
        items.extend(old_items.by_ref().take(old.end - old.first));
        constructs.push(Construct {
            group: old.group,
            first,
            end: items.len(),
        });
    }
    for (_, item) in added {
        push_single(constructs, items, item);
    }
}

/// A construct of one item whose bytes are the item's.
fn push_single(constructs: &mut Vec<Construct>, items: &mut Vec<Item>, item: Item) {
    constructs.push(Construct {
        group: item.span,
        first: items.len(),
        end: items.len() + 1,
    });
    items.push(item);
}

/// Characters pandoc allows inside (not at the end of) a citation key.
pub(crate) const fn is_key_inner_punct(c: char) -> bool {
    matches!(
        c,
        ':' | '.' | '#' | '$' | '%' | '&' | '-' | '+' | '?' | '<' | '>' | '~' | '/'
    )
}

/// Longest prefix of a key that means something (`figure`).
const PREFIX_MAX: usize = 8;

/// Where the prefix of a key (`doi:`, `tag:`) ends: its colon, if it comes soon
/// enough to end a prefix. Keys are short and their colon comes early, where a
/// plain loop finds it sooner than a vector search.
fn prefix_end(key: &str) -> Option<usize> {
    let head = &key.as_bytes()[..key.len().min(PREFIX_MAX + 1)];
    head.iter().position(|&b| b == b':')
}

/// Kind and identifier of a pandoc key: Manubot prefixes make identifiers and tags.
/// `None` for pandoc-crossref labels (`fig:`, `tbl:` …), which are not citations.
pub(crate) fn classify_key(key: &str) -> Option<(CitationKind, Option<(IdScheme, String)>)> {
    let Some(colon) = prefix_end(key) else {
        return Some((CitationKind::Key, None));
    };
    // Prefixes are short ASCII words; lowercase them without allocating.
    let mut buf = [0u8; PREFIX_MAX];
    let prefix = &mut buf[..colon];
    for (b, c) in prefix.iter_mut().zip(key.bytes()) {
        *b = c.to_ascii_lowercase();
    }
    match &*prefix {
        b"fig" | b"tbl" | b"eq" | b"sec" | b"lst" | b"table" | b"figure" => None,
        b"tag" => Some((CitationKind::Tag, None)),
        b"doi" | b"arxiv" | b"pmid" | b"pubmed" | b"pmcid" | b"pmc" | b"isbn" | b"url"
        | b"http" | b"https" => match crate::parse::ids::parse_prefixed_at(key, colon) {
            Some(id) => Some((CitationKind::Identifier, Some(id))),
            // A malformed identifier is reported as an undefined key.
            None => Some((CitationKind::Key, None)),
        },
        _ => Some((CitationKind::Key, None)),
    }
}

#[cfg(test)]
mod tests;
