//! A PDF's layout ([`PdfLayout`]: the body's lines and the reference list, from
//! the layout engine) as a converted text: the body's paragraphs, a `References`
//! line, then one line per entry (`[12] …` where the entry has a label). The
//! citation markers of the body are read by the scanners every prose parser uses;
//! the entries are reference-list references parsed by the reference-string parser,
//! with the DOIs and URLs of their link annotations; every byte keeps its page and
//! line.

use crate::model::{FileId, RefFields, Reference, ReferenceOrigin};
use crate::parse::{Parsed, ids, refstring};

use super::Converted;
use super::compose::{Composer, Paragraph, read_prose};
use super::pdf_layout::{PdfLayout, PdfReference, TextLine};
use crate::source::locations::Origin;

/// A line shorter than this share of its page's typical line ends a paragraph
/// (the last line of a paragraph, a heading, a caption).
const SHORT_LINE: f64 = 0.75;

/// The converted text of a PDF read as `file`. Fails only when the layout holds
/// no text at all (a scanned PDF the engine did not see through): an empty report
/// must never read as "all clear".
pub fn convert(file: FileId, layout: &PdfLayout) -> Result<Converted, String> {
    let has_text = |s: &str| s.chars().any(char::is_alphanumeric);
    if !layout.body.iter().any(|l| has_text(&l.text))
        && !layout.references.iter().any(|r| has_text(&r.text))
    {
        return Err(format!(
            "no text found on its {} page(s) (a scanned PDF?): nothing to check",
            layout.pages
        ));
    }
    let mut composer = Composer::new();
    let mut paragraphs = Vec::new();
    let typical = typical_lengths(&layout.body);
    for line in &layout.body {
        if !has_text(&line.text) && line.text.trim().is_empty() {
            paragraphs.extend(composer.end_line());
            continue;
        }
        composer.append(
            Origin::PageLine {
                page: line.page,
                line: line.line,
            },
            &line.text,
        );
        let length = line.text.trim().chars().count() as f64;
        let page_typical = typical
            .iter()
            .find(|(page, _)| *page == line.page)
            .map_or(0.0, |(_, t)| *t);
        if length < SHORT_LINE * page_typical {
            paragraphs.extend(composer.end_line());
        }
    }
    paragraphs.extend(composer.end_line());
    let mut references = Vec::new();
    if let Some(first) = layout.references.first() {
        composer.blank();
        let (page, line) = first.first;
        composer.line(Origin::PageLine { page, line }, "References");
        for (k, entry) in layout.references.iter().enumerate() {
            references.push(reference(file, &mut composer, entry, k + 1));
        }
    }
    let (text, locations) = composer.finish();
    let paragraphs = paragraphs.into_iter().map(Paragraph::plain).collect();
    let (citations, claims) = read_prose(file, &text, paragraphs);
    for reference in &mut references {
        reference.raw = text[reference.span.start..reference.span.end].to_string();
    }
    let unread = layout
        .unreadable_pages
        .iter()
        .map(|(page, why)| {
            format!("page {page} could not be read ({why}); the other pages are checked")
        })
        .collect();
    Ok(Converted {
        text,
        locations,
        parsed: Parsed {
            citations,
            claims,
            references,
            ..Parsed::default()
        },
        unread,
    })
}

/// Each page's typical line length (characters): the 75th percentile of its
/// lines, so that short lines stand out from full ones.
fn typical_lengths(body: &[TextLine]) -> Vec<(u32, f64)> {
    let mut out: Vec<(u32, Vec<usize>)> = Vec::new();
    for line in body {
        let length = line.text.trim().chars().count();
        if length == 0 {
            continue;
        }
        match out.last_mut() {
            Some((page, lengths)) if *page == line.page => lengths.push(length),
            _ => out.push((line.page, vec![length])),
        }
    }
    out.into_iter()
        .map(|(page, mut lengths)| {
            lengths.sort_unstable();
            let at = (lengths.len() * 3 / 4).min(lengths.len() - 1);
            (page, lengths[at] as f64)
        })
        .collect()
}

/// One entry as a line of the text and the reference it makes. The key is the
/// printed label (what numbered markers cite), else the LaTeX cite key of its
/// named destination, else its position in the list.
fn reference(
    file: FileId,
    composer: &mut Composer,
    entry: &PdfReference,
    position: usize,
) -> Reference {
    let (page, line) = entry.first;
    let origin = Origin::PageLine { page, line };
    let label = entry
        .label
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty());
    let (span, key_span) = match label {
        Some(label) => {
            let (span, label_span) = composer.labelled_line(origin, label, &entry.text);
            (span, Some(label_span))
        }
        None => (composer.line(origin, &entry.text), None),
    };
    let key = match (key_span, &entry.key) {
        (Some(k), _) => composer.text()[k.start..k.end].to_string(),
        (None, Some(key)) if !key.trim().is_empty() => key.trim().to_string(),
        _ => position.to_string(),
    };
    let mut fields = refstring::parse(&entry.text);
    add_link_targets(&mut fields, &entry.uris);
    Reference {
        key,
        origin: ReferenceOrigin::ReferenceList,
        entry_type: None,
        file,
        span,
        key_span,
        raw: String::new(),
        fields,
        field_spans: Vec::new(),
    }
}

/// The identifiers of an entry's link annotations where its text gave none (a
/// DOI printed as a "[link]" or cut at a line end).
fn add_link_targets(fields: &mut RefFields, uris: &[String]) {
    for uri in uris {
        let uri = uri.trim();
        match ids::identifier_from_url(uri).or_else(|| ids::parse_prefixed(uri)) {
            Some((scheme, value)) => {
                let slot = fields.identifier_mut(scheme);
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
            None if fields.url.is_none() && uri.starts_with("http") => {
                fields.url = Some(uri.to_string());
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CitationKind;
    use crate::read::pdf_layout::PdfLink;

    fn line(page: u32, line: u32, text: &str) -> TextLine {
        TextLine {
            page,
            line,
            text: text.into(),
        }
    }

    fn entry(label: Option<&str>, text: &str, first: (u32, u32)) -> PdfReference {
        PdfReference {
            label: label.map(str::to_string),
            text: text.into(),
            first,
            key: None,
            uris: Vec::new(),
        }
    }

    fn numbered() -> PdfLayout {
        PdfLayout {
            pages: 3,
            body: vec![
                line(1, 1, "1 Introduction"),
                line(1, 2, "Transformers replaced recurrent networks for machine"),
                line(1, 3, "translation [1], and pretraining made them general-"),
                line(1, 4, "purpose [2, 3]. Nothing cites the fourth work."),
                line(2, 1, "The model was applied to vision as well [5]."),
            ],
            references: vec![
                entry(
                    Some("1"),
                    "A. Vaswani, N. Shazeer, N. Parmar, et al. Attention is all you need. In NeurIPS, 2017.",
                    (3, 2),
                ),
                PdfReference {
                    uris: vec!["https://doi.org/10.18653/v1/N19-1423".into()],
                    ..entry(
                        Some("2"),
                        "J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional transformers for language understanding. In NAACL, 2019.",
                        (3, 4),
                    )
                },
                entry(
                    Some("3"),
                    "T. Brown et al. Language models are few-shot learners. In NeurIPS, 2020.",
                    (3, 7),
                ),
                entry(
                    Some("4"),
                    "K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
                    (3, 9),
                ),
            ],
            links: vec![PdfLink {
                page: 1,
                line: 3,
                dest_key: Some("vaswani2017".into()),
                uri: None,
            }],
            unreadable_pages: Vec::new(),
        }
    }

    #[test]
    fn numbered_markers_and_entries_keep_their_pages() {
        let converted = convert(FileId(0), &numbered()).unwrap();
        let text = &converted.text;
        let parsed = &converted.parsed;
        let keys: Vec<&str> = parsed.citations.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["1", "2", "3", "5"]);
        assert!(
            parsed
                .citations
                .iter()
                .all(|c| c.kind == CitationKind::Numeric)
        );
        let place = |offset| {
            converted
                .locations
                .locate(text, offset)
                .unwrap()
                .to_string()
        };
        assert_eq!(place(parsed.citations[0].span.start), "page 1, line 3");
        assert_eq!(place(parsed.citations[1].span.start), "page 1, line 4");
        assert_eq!(place(parsed.citations[3].span.start), "page 2, line 1");
        let claim = &parsed.claims[parsed.citations[1].claim.unwrap()];
        assert!(
            claim.text.contains("general-purpose") || claim.text.contains("generalpurpose"),
            "{}",
            claim.text
        );
        let refs = &parsed.references;
        assert_eq!(refs.len(), 4);
        assert_eq!(refs[0].key, "1");
        assert_eq!(
            refs[0].raw,
            format!("[1] {}", numbered().references[0].text)
        );
        assert_eq!(
            refs[0].fields.title.as_deref(),
            Some("Attention is all you need")
        );
        assert_eq!(refs[1].fields.doi.as_deref(), Some("10.18653/v1/n19-1423"));
        assert_eq!(place(refs[3].span.start), "page 3, line 9");
        assert_eq!(&text[refs[2].key_span.unwrap().start..][..1], "3");
    }

    #[test]
    fn author_year_markers_across_lines_and_unlabelled_entries() {
        let layout = PdfLayout {
            pages: 2,
            body: vec![
                line(1, 1, "Earlier work studied citation errors (Smith et al.,"),
                line(
                    1,
                    2,
                    "2020) and their repair (Jones and Lee, 2019). The end.",
                ),
            ],
            references: vec![
                PdfReference {
                    key: Some("smith2020".into()),
                    ..entry(
                        None,
                        "Smith, J., Brown, K., and White, L. (2020). Citation errors in science. Nature, 580:1–5.",
                        (2, 1),
                    )
                },
                entry(
                    None,
                    "Jones, A. and Lee, B. (2019). Repairing references. Science, 364:10–12.",
                    (2, 3),
                ),
            ],
            links: Vec::new(),
            unreadable_pages: Vec::new(),
        };
        let converted = convert(FileId(0), &layout).unwrap();
        let parsed = &converted.parsed;
        let keys: Vec<&str> = parsed.citations.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["Smith et al., 2020", "Jones and Lee, 2019"]);
        assert_eq!(parsed.references[0].key, "smith2020");
        assert_eq!(parsed.references[1].key, "2");
        assert_eq!(parsed.references[0].fields.year, Some(2020));
        let smith = parsed.citations[0].span;
        assert_eq!(
            converted
                .locations
                .locate(&converted.text, smith.start)
                .unwrap()
                .to_string(),
            "page 1, line 1"
        );
    }

    #[test]
    fn pages_the_engine_could_not_read_are_named() {
        let layout = PdfLayout {
            unreadable_pages: vec![(2, "a broken content stream".into())],
            ..numbered()
        };
        let converted = convert(FileId(0), &layout).unwrap();
        assert_eq!(
            converted.unread,
            ["page 2 could not be read (a broken content stream); the other pages are checked"]
        );
        assert_eq!(converted.parsed.references.len(), 4);
    }

    #[test]
    fn a_layout_without_text_is_an_error() {
        let layout = PdfLayout {
            pages: 4,
            body: vec![line(1, 1, "  "), line(2, 1, "·")],
            ..PdfLayout::default()
        };
        let error = convert(FileId(0), &layout).unwrap_err();
        assert!(error.contains("4 page(s)"), "{error}");
    }
}
