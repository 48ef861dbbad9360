//! The entries biber writes into a biblatex `.bbl`:
//!
//! ```text
//! \entry{devlin2019}{inproceedings}{}
//!   \name{author}{4}{}{%
//!     {{hash=…}{%
//!        family={Devlin},
//!        given={Jacob},
//!        …}}%
//!   }
//!   \list{publisher}{1}{%
//!     {Addison-Wesley}%
//!   }
//!   \field{title}{{BERT}: Pre-training of …}
//!   \field{pages}{4171\bibrangedash 4186}
//!   \verb{doi}
//!   \verb 10.18653/v1/N19-1423
//!   \endverb
//! \endentry
//! ```
//!
//! read as structured fields (names with their parts, lists, verbatim fields)
//! and turned into [`crate::model::RefFields`] by the rules of `.bib` entries.

use crate::model::{FileId, Reference, ReferenceOrigin, Span};
use crate::parse::bibtex::ref_fields_of;

/// Most entries read from one file (a `.bbl` of a book has a few thousand).
const MAX_ENTRIES: usize = 100_000;

/// Every `\entry … \endentry` of `text` (the first of each key).
pub fn entries(file: FileId, text: &str) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("\\entry{") {
        let at = from + found;
        let Some(entry) = entry(file, text, at) else {
            from = at + "\\entry{".len();
            continue;
        };
        from = entry.span.end.max(at + 1);
        if seen.insert(entry.key.clone()) {
            out.push(entry);
        }
        if out.len() >= MAX_ENTRIES {
            break;
        }
    }
    out
}

/// One entry starting at `at` (`\entry{…`); `None` when its head is broken.
fn entry(file: FileId, text: &str, at: usize) -> Option<Reference> {
    let bytes = text.as_bytes();
    let mut p = at + "\\entry".len();
    let (key_span, after) = group(bytes, p)?;
    let (type_span, after) = group(bytes, after)?;
    p = group(bytes, after).map_or(after, |(_, end)| end);
    let key = text[key_span.start..key_span.end].trim().to_string();
    let entry_type = text[type_span.start..type_span.end]
        .trim()
        .to_ascii_lowercase();
    if key.is_empty() {
        return None;
    }
    let mut values: Vec<(String, String)> = Vec::new();
    let mut verb: Option<(String, String)> = None;
    let end = loop {
        let Some(slash) = memchr::memchr(b'\\', &bytes[p..]).map(|i| p + i) else {
            break text.len();
        };
        let name_end = slash
            + 1
            + bytes[slash + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .count();
        let name = &text[slash + 1..name_end];
        p = name_end.max(slash + 1);
        match name {
            "endentry" => break name_end,
            // A second entry before this one's end: this one is cut short.
            "entry" => break slash,
            "field" => {
                let Some(((field, value), end)) = two_groups(text, p) else {
                    continue;
                };
                values.push((field.to_ascii_lowercase(), tidy_macros(value)));
                p = end;
            }
            "name" => {
                let Some((role, q)) = group(bytes, p) else {
                    continue;
                };
                let q = skip_groups(bytes, q, 2);
                let Some((list, end)) = group(bytes, q) else {
                    continue;
                };
                let role = text[role.start..role.end].trim().to_ascii_lowercase();
                values.push((role, names(&text[list.start..list.end])));
                p = end;
            }
            "list" => {
                let Some((field, q)) = group(bytes, p) else {
                    continue;
                };
                let q = skip_groups(bytes, q, 1);
                let Some((list, end)) = group(bytes, q) else {
                    continue;
                };
                let items: Vec<String> = groups(text, list)
                    .into_iter()
                    .map(|s| tidy_macros(&text[s.start..s.end]))
                    .collect();
                let field = text[field.start..field.end].trim().to_ascii_lowercase();
                values.push((field, items.join(" and ")));
                p = end;
            }
            "verb" => match group(bytes, p) {
                // `\verb{doi}` opens a verbatim field…
                Some((field, end)) => {
                    let field = text[field.start..field.end].trim().to_ascii_lowercase();
                    verb = Some((field, String::new()));
                    p = end;
                }
                // …whose value is written on `\verb <value>` lines.
                None => {
                    let line_end = memchr::memchr(b'\n', &bytes[p..]).map_or(text.len(), |i| p + i);
                    if let Some((_, value)) = verb.as_mut() {
                        value.push_str(text[p..line_end].trim());
                    }
                    p = line_end;
                }
            },
            "endverb" => values.extend(verb.take()),
            // `\strng`, `\range`, `\keyw`, `\true`, `\warn` …: not bibliographic.
            _ => p = skip_groups(bytes, p, usize::MAX),
        }
    };
    values.extend(verb.take());
    let span = Span::new(at, end.max(at));
    Some(Reference {
        fields: ref_fields_of(&entry_type, &values),
        key,
        origin: ReferenceOrigin::BibEntry,
        entry_type: Some(entry_type),
        file,
        span,
        key_span: Some(key_span),
        raw: text[span.start..span.end].to_string(),
        field_spans: Vec::new(),
    })
}

/// The content of the brace group that opens at `p` and where it ends (after
/// its `}`): `None` when no group opens there or it is never closed.
fn group(bytes: &[u8], p: usize) -> Option<(Span, usize)> {
    if bytes.get(p) != Some(&b'{') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = p;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((Span::new(p + 1, i), i + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn two_groups(text: &str, p: usize) -> Option<((&str, &str), usize)> {
    let bytes = text.as_bytes();
    let (a, q) = group(bytes, p)?;
    let (b, end) = group(bytes, q)?;
    Some(((text[a.start..a.end].trim(), &text[b.start..b.end]), end))
}

/// Past up to `n` brace groups written one after the other at `p`.
fn skip_groups(bytes: &[u8], mut p: usize, n: usize) -> usize {
    let mut skipped = 0;
    while skipped < n {
        match group(bytes, p) {
            Some((_, end)) => p = end,
            None => break,
        }
        skipped += 1;
    }
    p
}

/// The brace groups at the top level of `within` (comments and spaces between).
fn groups(text: &str, within: Span) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut p = within.start;
    while p < within.end {
        match bytes[p] {
            b'{' => match group(bytes, p) {
                Some((inner, end)) if end <= within.end => {
                    out.push(inner);
                    p = end;
                }
                _ => break,
            },
            b'%' => p = memchr::memchr(b'\n', &bytes[p..within.end]).map_or(within.end, |i| p + i),
            _ => p += 1,
        }
    }
    out
}

/// A `\name` list as a `.bib` name list: `Devlin, Jacob and Chang, Ming-Wei`.
fn names(list: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let whole = Span::new(0, list.len());
    for name in groups(list, whole) {
        // `{{options}{% family={…}, given={…}, …}}`: the parts are the second group.
        let inner = groups(list, name);
        let Some(parts) = inner.get(1).or(inner.first()) else {
            continue;
        };
        let part = |key: &str| part_value(&list[parts.start..parts.end], key);
        let Some(family) = part("family") else {
            continue;
        };
        let family = match part("prefix") {
            Some(prefix) => format!("{prefix} {family}"),
            None => family,
        };
        let family = if family.contains(',') || family.contains(" and ") {
            format!("{{{family}}}")
        } else {
            family
        };
        let mut written = family;
        if let Some(suffix) = part("suffix") {
            written.push_str(&format!(", {suffix}"));
        }
        if let Some(given) = part("given") {
            written.push_str(&format!(", {given}"));
        }
        out.push(written);
    }
    out.join(" and ")
}

/// The value of `key={…}` in a name's parts.
fn part_value(parts: &str, key: &str) -> Option<String> {
    let bytes = parts.as_bytes();
    let mut from = 0;
    while let Some(i) = parts[from..].find(key) {
        let at = from + i;
        from = at + key.len();
        let before_ok = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        let after = parts[from..].trim_start();
        if !before_ok || !after.starts_with('=') {
            continue;
        }
        let value_at = parts.len() - after.len() + 1;
        let value_at = value_at + parts[value_at..].len() - parts[value_at..].trim_start().len();
        let (value, _) = group(bytes, value_at)?;
        let value = tidy_macros(&parts[value.start..value.end]);
        return (!value.trim().is_empty()).then(|| value.trim().to_string());
    }
    None
}

/// biblatex's punctuation macros as the characters they print.
fn tidy_macros(value: &str) -> String {
    if !value.contains("\\bib") {
        return value.to_string();
    }
    let mut out = value.to_string();
    for (name, printed) in [
        ("\\bibrangedash", "--"),
        ("\\bibrangessep", ", "),
        ("\\bibinitperiod", "."),
        ("\\bibinitdelim", " "),
        ("\\bibinithyphendelim", "-"),
        ("\\bibnamedelima", " "),
        ("\\bibnamedelimb", " "),
        ("\\bibnamedelimc", " "),
        ("\\bibnamedelimd", " "),
        ("\\bibnamedelimi", " "),
        ("\\bibdatedash", "--"),
    ] {
        if out.contains(name) {
            // `\bibrangedash 4186`: the space ends the macro name.
            out = out
                .replace(&format!("{name} "), printed)
                .replace(name, printed);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str = r"\refsection{0}
  \datalist[entry]{nyt/global//global/global}
    \entry{devlin2019}{inproceedings}{}
      \name{author}{2}{}{%
        {{un=0,uniquepart=base,hash=1}{%
           family={Devlin},
           familyi={D\bibinitperiod},
           given={Jacob},
           giveni={J\bibinitperiod},
           givenun=0}}%
        {{un=0,uniquepart=base,hash=2}{%
           family={Berg},
           prefix={van\bibnamedelima den},
           given={Ming-Wei},
           giveni={M\bibinithyphendelim W\bibinitperiod}}}%
      }
      \list{publisher}{1}{%
        {Association for Computational Linguistics}%
      }
      \strng{namehash}{ad8e}
      \field{booktitle}{Proceedings of NAACL-HLT}
      \field{title}{{BERT}: Pre-training of Deep Bidirectional Transformers}
      \field{year}{2019}
      \field{pages}{4171\bibrangedash 4186}
      \range{pages}{16}
      \verb{doi}
      \verb 10.18653/v1/N19-1423
      \endverb
    \endentry
  \enddatalist
\endrefsection
";

    #[test]
    fn entries_are_read_as_fields() {
        let refs = entries(FileId(0), ENTRY);
        assert_eq!(refs.len(), 1);
        let r = &refs[0];
        assert_eq!(r.key, "devlin2019");
        assert_eq!(r.entry_type.as_deref(), Some("inproceedings"));
        assert_eq!(
            &ENTRY[r.key_span.unwrap().start..r.key_span.unwrap().end],
            "devlin2019"
        );
        assert!(r.raw.starts_with("\\entry{devlin2019}") && r.raw.ends_with("\\endentry"));
        let f = &r.fields;
        assert_eq!(
            f.title.as_deref(),
            Some("BERT: Pre-training of Deep Bidirectional Transformers")
        );
        assert_eq!(f.authors.len(), 2);
        assert_eq!(f.authors[0].family, "Devlin");
        assert_eq!(f.authors[1].family, "van den Berg");
        assert_eq!(f.authors[1].given.as_deref(), Some("Ming-Wei"));
        assert_eq!(f.year, Some(2019));
        assert_eq!(f.pages.as_deref(), Some("4171-4186"));
        assert_eq!(f.doi.as_deref(), Some("10.18653/v1/n19-1423"));
        assert_eq!(f.venue.as_deref(), Some("Proceedings of NAACL-HLT"));
        assert_eq!(
            f.publisher.as_deref(),
            Some("Association for Computational Linguistics")
        );
    }

    #[test]
    fn broken_entries_do_not_stop_the_rest() {
        let text = "\\entry{a}{article}{}\n\\field{title}{Unclosed\n\\entry{b}{book}{}\n\\field{title}{Fine}\n\\endentry\n\\entry{";
        let refs = entries(FileId(0), text);
        let keys: Vec<&str> = refs.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(refs[1].fields.title.as_deref(), Some("Fine"));
        assert!(refs[0].span.end <= text.find("\\entry{b}").unwrap());
    }
}
