//! Name lists (`author`, `editor`): split on `and` outside braces, `and others` for a
//! truncated list, each name read by the biblatex crate's BibTeX name rules ("von
//! Last, Jr, First", "First von Last", extended `family=…, given=…`). A braced
//! name (`{World Health Organization}`) is one family name.

use biblatex::{Chunk, Spanned};

use crate::model::Person;
use crate::parse::markup::decode_latex;

/// The names of a list and whether it ends in `and others`.
pub(super) fn parse_names(raw: &str) -> (Vec<Person>, bool) {
    let mut people = Vec::new();
    let mut truncated = false;
    for piece in split_and(raw) {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        if piece.eq_ignore_ascii_case("others") || piece == "et al." || piece == "et al" {
            truncated = true;
            continue;
        }
        if let Some(person) = parse_name(piece) {
            people.push(person);
        }
    }
    (people, truncated)
}

/// Split on the word `and` (any case) at brace depth 0.
fn split_and(raw: &str) -> Vec<&str> {
    let bytes = raw.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b if depth == 0 && b.is_ascii_whitespace() => {
                let word = i + 1;
                if bytes.len() > word + 3
                    && bytes[word..word + 3].eq_ignore_ascii_case(b"and")
                    && bytes[word + 3].is_ascii_whitespace()
                {
                    out.push(&raw[start..i]);
                    start = word + 4;
                    i = word + 4;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&raw[start..]);
    out
}

/// One name. The comma forms without braces or commands ("von Last, First",
/// "von Last, Jr, First") are split here directly: the biblatex crate reads the
/// same (von part and last name together make our family name), and skipping its
/// chunk machinery keeps the parser fast. Everything else goes to the crate.
fn parse_name(raw: &str) -> Option<Person> {
    if raw.contains(',') && !raw.contains(['{', '}', '\\', '=']) {
        let mut parts = raw.splitn(3, ',').map(|p| tidied(decode_latex(p)));
        let last = parts.next().unwrap_or_default();
        let second = parts.next().unwrap_or_default();
        let (family, given) = match parts.next() {
            Some(first) if second.is_empty() => (last, first),
            Some(first) => (format!("{last} {second}"), first),
            None => (last, second),
        };
        return named(family, given);
    }
    parse_name_with_crate(raw)
}

fn named(family: String, given: String) -> Option<Person> {
    if family.is_empty() {
        return (!given.is_empty()).then(|| Person::new(None, &given));
    }
    Some(Person {
        given: Some(given).filter(|g| !g.is_empty()),
        family,
    })
}

/// One name, as the biblatex crate reads it from chunks: text outside braces is
/// normal, a braced group is verbatim (one word, never split), except a group that
/// starts with a command (`{\"u}`), which BibTeX reads as a letter.
fn parse_name_with_crate(raw: &str) -> Option<Person> {
    let bytes = raw.as_bytes();
    let mut chunks: Vec<Spanned<Chunk>> = Vec::new();
    let mut normal = String::new();
    let mut p = 0;
    while let Some(i) = memchr::memchr(b'{', &bytes[p..]) {
        let open = p + i;
        let close = group_close(bytes, open);
        let closed = close > open + 1 && bytes[close - 1] == b'}';
        let inner = &raw[open + 1..if closed { close - 1 } else { close }];
        // `{\"u}` is a letter to BibTeX; so is the argument of `\H{o}`.
        if inner.starts_with('\\') || ends_with_command(&raw[..open]) {
            normal.push_str(&raw[p..close]);
        } else {
            normal.push_str(&raw[p..open]);
            flush(&mut normal, &mut chunks);
            chunks.push(Spanned::zero(Chunk::Verbatim(tidied(decode_latex(inner)))));
        }
        p = close;
    }
    normal.push_str(&raw[p..]);
    flush(&mut normal, &mut chunks);
    if chunks.is_empty() {
        return None;
    }
    let person = biblatex::Person::parse(&chunks);
    let family: Vec<&str> = [
        person.prefix.as_str(),
        person.name.as_str(),
        person.suffix.as_str(),
    ]
    .into_iter()
    .map(str::trim)
    .filter(|s| !s.is_empty())
    .collect();
    named(tidy(&family.join(" ")), tidy(&person.given_name))
}

/// Whether `before` ends with a control sequence (`\H`, `\"`), whose argument follows.
fn ends_with_command(before: &str) -> bool {
    let letters = before.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if letters.len() < before.len() {
        return letters.ends_with('\\');
    }
    let mut chars = before.chars().rev();
    matches!((chars.next(), chars.next()), (Some(c), Some('\\')) if !c.is_alphanumeric())
}

fn flush(normal: &mut String, chunks: &mut Vec<Spanned<Chunk>>) {
    if !normal.is_empty() {
        chunks.push(Spanned::zero(Chunk::Normal(decode_latex(normal))));
        normal.clear();
    }
}

/// The position after the `}` matching the `{` at `open` (or the end).
fn group_close(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, &b) in bytes[open..].iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    bytes.len()
}

/// Collapse runs of whitespace to one space and trim, reusing `s` when it is tidy.
pub(super) fn tidied(s: String) -> String {
    let bytes = s.as_bytes();
    let untidy = bytes.first().is_some_and(u8::is_ascii_whitespace)
        || bytes.last().is_some_and(u8::is_ascii_whitespace)
        || bytes
            .windows(2)
            .any(|w| w[0].is_ascii_whitespace() && w[1].is_ascii_whitespace())
        || bytes.iter().any(|&b| matches!(b, b'\n' | b'\t' | b'\r'))
        || !s.is_ascii();
    if untidy { tidy(&s) } else { s }
}

/// Collapse runs of whitespace to one space and trim.
pub(super) fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(raw: &str) -> Vec<(Option<String>, String)> {
        parse_names(raw)
            .0
            .into_iter()
            .map(|p| (p.given, p.family))
            .collect()
    }

    fn p(given: Option<&str>, family: &str) -> (Option<String>, String) {
        (given.map(str::to_string), family.to_string())
    }

    #[test]
    fn bibtex_name_forms() {
        assert_eq!(
            names("von Neumann, Jr, John and Ludwig van Beethoven and Knuth, Donald E."),
            vec![
                p(Some("John"), "von Neumann Jr"),
                p(Some("Ludwig"), "van Beethoven"),
                p(Some("Donald E."), "Knuth"),
            ]
        );
        assert_eq!(
            names(r"Erd\H{o}s, Paul and Dama{\v{s}}evi\v{c}ius, Robertas"),
            vec![
                p(Some("Paul"), "Erdős"),
                p(Some("Robertas"), "Damaševičius")
            ]
        );
        assert_eq!(
            names(r#"M{\"u}ller, J{\"o}rg and {\O}stergaard, S{\o}ren"#),
            vec![p(Some("Jörg"), "Müller"), p(Some("Søren"), "Østergaard")]
        );
    }

    #[test]
    fn comma_forms_read_as_the_crate_reads_them() {
        for raw in [
            "Smith, John",
            "van der Berg, Jan",
            "de la cruz, maria",
            "von Neumann, Jr., John",
            "Smith,",
            " Doe ,  Jane  Q. ",
            "Garc\u{ed}a-L\u{f3}pez, Mar\u{ed}a",
            "Last, Jr, First, Extra",
        ] {
            assert_eq!(parse_name(raw), parse_name_with_crate(raw), "{raw}");
        }
    }

    #[test]
    fn organisations_and_truncation() {
        let (people, truncated) =
            parse_names("{World Health Organization} and {do Nascimento}, Thiago and others");
        assert!(truncated);
        assert_eq!(people[0], Person::new(None, "World Health Organization"));
        assert_eq!(people[1], Person::new(Some("Thiago"), "do Nascimento"));
        assert_eq!(people.len(), 2);
        // `and` inside braces does not split.
        assert_eq!(
            names("{Barnes and Noble} AND Smith, A."),
            vec![p(None, "Barnes and Noble"), p(Some("A."), "Smith")]
        );
    }
}
