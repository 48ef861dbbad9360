//! YAML front matter: the `bibliography:` files a pandoc/Quarto document names.
//!
//! The YAML is read as a stream of events (no tree is built, so deeply nested
//! input costs no recursion) and only the top-level `bibliography` key is kept.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use crate::diagnostic::input;
use crate::model::{BibliographyRequest, FileId, Span};
use crate::parse::Parsed;

mod simple;

/// Collects the scalar values of the top-level `bibliography` key.
#[derive(Default)]
struct Bibliography {
    depth: usize,
    /// At depth 1, whether the next node is a key.
    key_next: bool,
    in_bibliography: bool,
    values: Vec<String>,
}

impl MarkedEventReceiver for Bibliography {
    fn on_event(&mut self, event: Event, _mark: Marker) {
        match event {
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                if self.depth == 0 {
                    self.key_next = true;
                }
                self.depth += 1;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 1 {
                    self.key_next = true;
                    self.in_bibliography = false;
                }
            }
            Event::Scalar(value, ..) => match self.depth {
                1 if self.key_next => {
                    self.in_bibliography = value == "bibliography";
                    self.key_next = false;
                }
                1 => {
                    if self.in_bibliography {
                        self.values.push(value);
                    }
                    self.in_bibliography = false;
                    self.key_next = true;
                }
                2 if self.in_bibliography => self.values.push(value),
                _ => {}
            },
            Event::Alias(_) if self.depth == 1 => {
                self.key_next = !self.key_next;
            }
            _ => {}
        }
    }
}

/// Read the bibliography requests of the front matter whose YAML text is
/// `text[span]`; a YAML syntax error is reported at the block.
pub fn read(file: FileId, text: &str, span: Span, out: &mut Parsed) {
    let yaml = &text[span.start..span.end];
    if !yaml.contains("bibliography") {
        return;
    }
    let values = simple::bibliography(yaml).unwrap_or_else(|| parsed(file, yaml, span, out));
    // Locate each value after the key so the request points at the path itself.
    let key_at = yaml.find("bibliography").unwrap_or(0);
    let mut from = key_at;
    for value in values {
        let at = match yaml[from..].find(value.as_str()) {
            Some(i) if !value.is_empty() => {
                let start = from + i;
                from = start + value.len();
                Span::new(start, start + value.len())
            }
            _ => Span::new(key_at, key_at + "bibliography".len()),
        };
        out.bibliographies.push(BibliographyRequest {
            path: value,
            at: Some((file, at.offset(span.start))),
        });
    }
}

/// The `bibliography` values as the YAML parser reads them; a syntax error is
/// reported at the block.
fn parsed(file: FileId, yaml: &str, span: Span, out: &mut Parsed) -> Vec<String> {
    let mut receiver = Bibliography::default();
    if let Err(error) = Parser::new_from_str(yaml).load(&mut receiver, false) {
        out.problems.push(input::malformed_entry(
            file,
            span,
            None,
            &format!(
                "YAML front matter does not parse ({} at line {}, column {})",
                error.info(),
                error.marker().line(),
                error.marker().col() + 1
            ),
        ));
    }
    receiver.values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(yaml: &str) -> Vec<(String, String)> {
        let mut out = Parsed::default();
        read(FileId(0), yaml, Span::new(0, yaml.len()), &mut out);
        out.bibliographies
            .into_iter()
            .map(|b| {
                let (_, at) = b.at.unwrap();
                (b.path, yaml[at.start..at.end].to_string())
            })
            .collect()
    }

    #[test]
    fn string_and_list_forms() {
        assert_eq!(
            paths("title: x\nbibliography: refs.bib\n"),
            vec![("refs.bib".into(), "refs.bib".into())]
        );
        assert_eq!(
            paths("bibliography:\n  - a.bib\n  - \"b.json\"\nauthor: y\n"),
            vec![
                ("a.bib".into(), "a.bib".into()),
                ("b.json".into(), "b.json".into())
            ]
        );
        assert_eq!(paths("bibliography: [a.bib, b.bib]\n").len(), 2);
        assert!(paths("meta:\n  bibliography: nested.bib\n").is_empty());
    }

    #[test]
    fn broken_yaml_is_reported() {
        let yaml = "bibliography: [a.bib\n";
        let mut out = Parsed::default();
        read(FileId(0), yaml, Span::new(0, yaml.len()), &mut out);
        assert_eq!(out.problems.len(), 1);
        assert!(out.problems[0].message.contains("YAML"));
    }
}
