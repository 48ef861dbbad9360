//! `thebibliography` environments: each `\bibitem[label]{key} text` becomes a
//! reference whose fields come from the reference-string parser, run on the item's
//! text with its LaTeX markup decoded.

use crate::model::{FileId, RefFields, Reference, ReferenceOrigin, Span};
use crate::parse::markup::decode_latex;
use crate::parse::refstring;

use super::args;

/// An open `thebibliography` environment.
#[derive(Debug)]
pub(super) struct BibList {
    /// Where `\begin{thebibliography}` is written.
    pub begin: Span,
    current: Option<Item>,
}

#[derive(Debug)]
struct Item {
    start: usize,
    key: String,
    key_span: Span,
    text_start: usize,
}

impl BibList {
    pub fn new(begin: Span) -> BibList {
        BibList {
            begin,
            current: None,
        }
    }

    /// An item begins: `\bibitem` is written at `at`, its key at `key_span` and its
    /// text starts at `text_start`. The item before it ends at `at`: its reference.
    pub fn begin_item(
        &mut self,
        text: &str,
        file: FileId,
        at: usize,
        key_span: Span,
        text_start: usize,
    ) -> Option<Reference> {
        let item = Item {
            start: at,
            key: text[key_span.start..key_span.end].to_string(),
            key_span,
            text_start,
        };
        let previous = self.current.replace(item)?;
        Some(reference(text, file, previous, at))
    }

    /// Close the item being read (it ends at `end`).
    pub fn finish(mut self, text: &str, file: FileId, end: usize, out: &mut Vec<Reference>) {
        if let Some(item) = self.current.take() {
            out.push(reference(text, file, item, end));
        }
    }
}

fn reference(text: &str, file: FileId, item: Item, end: usize) -> Reference {
    let end = end.max(item.text_start);
    let body = without_trailing_comments(&text[item.text_start..end]);
    let span = Span::new(item.start, item.text_start + body.len());
    let plain = item_text(body);
    let fields = if plain.is_empty() {
        RefFields::default()
    } else {
        refstring::parse(&plain)
    };
    Reference {
        key: item.key,
        origin: ReferenceOrigin::BibItem,
        entry_type: None,
        file,
        span,
        key_span: Some(item.key_span),
        raw: text[span.start..span.end].to_string(),
        fields,
        field_spans: Vec::new(),
    }
}

/// An item's text without the blank and comment-only lines that end it (they sit
/// between this item and the next).
fn without_trailing_comments(mut body: &str) -> &str {
    loop {
        body = body.trim_end();
        let last_line = body.rfind('\n').map_or(0, |i| i + 1);
        if !body[last_line..].trim_start().starts_with('%') || last_line == 0 {
            return body;
        }
        body = &body[..last_line];
    }
}

/// The text of a `\bibitem` as a plain reference string: comments dropped, URLs and
/// DOIs kept as written, `\bibinfo{field}{value}` reduced to its value, the rest of
/// the markup decoded to Unicode.
pub(super) fn item_text(body: &str) -> String {
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(body.len());
    let mut latex = String::new();
    let mut p = 0;
    let mut copied = 0;
    while let Some(i) = memchr::memchr2(b'\\', b'%', &bytes[p..]) {
        let at = p + i;
        if bytes[at] == b'%' {
            latex.push_str(&body[copied..at]);
            p = args::line_end(bytes, at);
            copied = p;
            continue;
        }
        let end = args::name_end(bytes, at + 1);
        if end == at + 1 {
            p = (at + 2).min(bytes.len());
            while !body.is_char_boundary(p) {
                p += 1;
            }
            continue;
        }
        let name = &body[at + 1..end];
        // ACM's `\showeprint[arxiv]{2205.11916}`: the optional type says which kind.
        let (end, eprint_type) = match name {
            "showeprint" => {
                let q = args::skip_optionals(bytes, end).unwrap_or(end);
                let written = body[end..q].trim().trim_matches(['[', ']']).trim();
                (q, written.to_ascii_lowercase())
            }
            _ => (end, String::new()),
        };
        let (prefix, raw) = match name {
            "url" | "path" | "nolinkurl" | "href" | "showURL" => ("", true),
            "doi" | "showDOI" => ("doi:", true),
            "eprint" | "arxiv" => ("arXiv:", true),
            "showeprint" if matches!(eprint_type.as_str(), "" | "arxiv") => ("arXiv:", true),
            "showeprint" => ("", true),
            "bibinfo" | "bibfield" | "bibAnnoteFile" => ("", false),
            _ => {
                p = end;
                continue;
            }
        };
        let Some(Ok((open, close))) = args::mandatory(bytes, end, true) else {
            p = end;
            continue;
        };
        latex.push_str(&body[copied..at]);
        if raw {
            out.push_str(&decode_latex(&latex));
            latex.clear();
            out.push(' ');
            out.push_str(prefix);
            out.push_str(body[open + 1..close - 1].trim());
            out.push(' ');
            // `\href{url}{text}`: the text is usually the URL again; drop it.
            p = match (name, args::mandatory(bytes, close, true)) {
                ("href", Some(Ok((_, text_end)))) => text_end,
                _ => close,
            };
        } else {
            // `\bibinfo{title}{…}`: the field name is not text; the value follows.
            p = close;
        }
        copied = p;
    }
    latex.push_str(&body[copied..]);
    out.push_str(&decode_latex(&latex));
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_text_decodes_markup_and_keeps_urls() {
        let body = r#"A.~M{\"u}ller and B.~Smith.
\newblock {\em Deep learning}. % a comment \cite{x}
\newblock Nature, 521:436--444, 2015. \url{https://x.org/a%20b_c} \doi{10.1038/nature14539}"#;
        let text = item_text(body);
        assert_eq!(
            text,
            "A. Müller and B. Smith. Deep learning. Nature, 521:436–444, 2015. \
             https://x.org/a%20b_c doi:10.1038/nature14539"
        );
        assert_eq!(
            item_text(r"\bibinfo{author}{J. Doe}, \bibinfo{title}{On {X}}"),
            "J. Doe, On X"
        );
        // ACM-Reference-Format's identifiers.
        assert_eq!(
            item_text(r"\newblock \showeprint[arxiv]{2205.11916} \showDOI{10.1/x}"),
            "arXiv:2205.11916 doi:10.1/x"
        );
    }
}
