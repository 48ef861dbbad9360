//! Front matter written in the plain subset of YAML that nearly every pandoc or
//! Quarto document uses, read without a YAML parser: top-level `key: value` lines
//! and `- value` lists under a bare `key:`, with plain or quoted one-line scalars.
//! Anything else (comments, flow collections, nesting, escapes, tabs, trailing
//! spaces, …) is left to the YAML parser, so that what is read here is exactly
//! what the parser would have reported.

/// The values of the top-level `bibliography` key, in order, when `yaml` is in the
/// subset; `None` when it is not.
pub fn bibliography(yaml: &str) -> Option<Vec<String>> {
    let mut values = Vec::new();
    let mut lines = yaml.split('\n').peekable();
    let mut keys = 0;
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        if !is_plain_key(key) {
            return None;
        }
        keys += 1;
        let wanted = key == "bibliography";
        if value.is_empty() {
            // A bare key must open a list; a key without a value is left to the parser.
            let indent = list_indent(lines.peek()?)?;
            while let Some(item) = lines.next_if(|l| list_indent(l) == Some(indent)) {
                let value = scalar(&item[indent + 2..])?;
                if wanted {
                    values.push(value.to_string());
                }
            }
            continue;
        }
        let value = scalar(value.strip_prefix(' ')?)?;
        if wanted {
            values.push(value.to_string());
        }
    }
    (keys > 0).then_some(values)
}

/// The indentation of a `- ` list item line.
fn list_indent(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    line[indent..].starts_with("- ").then_some(indent)
}

/// A key written as a plain word: a letter, then letters, digits, `_` and `-`.
fn is_plain_key(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

/// The value of a one-line scalar: plain (a letter, digit or `_`, then letters,
/// digits, `_./-` and inner spaces), or quoted without escapes.
fn scalar(written: &str) -> Option<&str> {
    let quoted = |quote: char| {
        let inner = written.strip_prefix(quote)?.strip_suffix(quote)?;
        inner
            .bytes()
            .all(|b| is_safe(b) || matches!(b, b' ' | b':' | b',' | b'#'))
            .then_some(inner)
    };
    let bytes = written.as_bytes();
    match bytes.first()? {
        b'"' => quoted('"'),
        b'\'' => quoted('\''),
        b if b.is_ascii_alphanumeric() || *b == b'_' => {
            // YAML drops a plain scalar's trailing spaces.
            let trimmed = !written.ends_with(' ');
            (trimmed && bytes.iter().all(|&b| is_safe(b) || b == b' ')).then_some(written)
        }
        _ => None,
    }
}

/// Bytes that mean nothing to YAML inside a scalar.
fn is_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-')
}

#[cfg(test)]
mod tests {
    use super::super::parsed;
    use super::*;
    use crate::model::{FileId, Span};
    use crate::parse::Parsed;
    use proptest::prelude::*;

    /// What the YAML parser reads: the values, and whether it reported an error.
    fn parser_reads(yaml: &str) -> (Vec<String>, bool) {
        let mut out = Parsed::default();
        let values = parsed(FileId(0), yaml, Span::new(0, yaml.len()), &mut out);
        (values, !out.problems.is_empty())
    }

    #[test]
    fn reads_the_usual_forms() {
        let yaml = "title: \"A: study\"\nbibliography: refs.bib\ndate: 2021-01-02\n";
        assert_eq!(bibliography(yaml), Some(vec!["refs.bib".to_string()]));
        let yaml = "bibliography:\n  - a.bib\n  - 'b.json'\nauthor: Jo Doe\n";
        assert_eq!(
            bibliography(yaml),
            Some(vec!["a.bib".into(), "b.json".into()])
        );
        assert_eq!(
            bibliography("bibliography:\n- a.bib\n"),
            Some(vec!["a.bib".into()])
        );
    }

    #[test]
    fn leaves_the_rest_to_the_parser() {
        for yaml in [
            "bibliography: [a.bib, b.bib]\n",
            "bibliography: a.bib # main\n",
            "bibliography:\n",
            "bibliography: \"a\\\\b.bib\"\n",
            "meta:\n  bibliography: nested.bib\n",
            "authors:\n  - name: A\n    orcid: 1\nbibliography: a.bib\n",
            "bibliography: a.bib\n  continued\n",
            "bibliography: a.bib \n",
            "",
        ] {
            assert_eq!(bibliography(yaml), None, "{yaml:?}");
        }
    }

    /// Lines in the subset, now and then with a character or spacing that makes
    /// YAML read them otherwise.
    fn near_subset() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            6 => prop::sample::select(vec!["bibliography", "title", "a", "x-y", "b_2"]),
            1 => prop::sample::select(vec!["-k", "k k", "\"q\"", "? k", "k\t"]),
        ];
        let safe = prop::sample::select(vec!["a", "refs.bib", "x/y", "1", "_", "-", "."]);
        let odd = prop::sample::select(vec![
            " ", " ", " ", "  ", ":", ": ", "#", " #", "'", "\"", "\\", ",", "[", "]", "{", "}",
            "&", "*", "!", "|", ">", "%", "@", "`", "?", "~", "\t", "é", "- ",
        ]);
        let piece = prop_oneof![6 => safe, 2 => odd];
        let value = prop::collection::vec(piece, 0..5).prop_map(|p| p.concat());
        let indent = prop::sample::select(vec!["", " ", "  ", "   "]);
        let line = prop_oneof![
            4 => (key.clone(), prop::sample::select(vec![": ", ": ", ": ", ":", ":  "]), value.clone())
                .prop_map(|(k, sep, v)| format!("{k}{sep}{v}")),
            2 => (key.clone(), value.clone()).prop_map(|(k, v)| format!("{k}: \"{v}\"")),
            1 => (key.clone(), value.clone()).prop_map(|(k, v)| format!("{k}: '{v}'")),
            2 => (key, prop::collection::vec((indent, value), 0..4)).prop_map(|(k, items)| {
                let items: String = items.iter().map(|(i, v)| format!("\n{i}- {v}")).collect();
                format!("{k}:{items}")
            }),
            1 => Just(String::new()),
        ];
        prop::collection::vec(line, 0..6).prop_map(|lines| lines.join("\n") + "\n")
    }

    proptest! {
        #![proptest_config(crate::proptest_config::config(10000))]

        #[test]
        fn reads_what_the_yaml_parser_reads(yaml in near_subset()) {
            if let Some(values) = bibliography(&yaml) {
                prop_assert_eq!((values, false), parser_reads(&yaml), "{:?}", yaml);
            }
        }
    }
}
