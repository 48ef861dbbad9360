//! LaTeX and HTML/XML markup in titles, names and venues, decoded to plain Unicode
//! text: what BibTeX entries and publisher records wrap around the words.

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Decode LaTeX markup into Unicode text: accent commands (`{\"u}`, `\c{c}`, `\v s`),
/// special letters (`\ss`, `\o`, `\ae`), Greek letter commands (`$\alpha$` → `α`),
/// escaped specials (`\&`), dashes (`--`), and formatting commands (`\emph{…}`), whose
/// argument is kept. Braces, `$` and `~` are dropped. Text without markup is returned
/// unchanged apart from NFC composition.
pub fn decode_latex(s: &str) -> String {
    if !s.contains(['\\', '{', '}', '$', '~', '-']) {
        return nfc(s.to_string());
    }
    if !s.contains(['\\', '$', '~']) && !s.contains("--") {
        // Only protective braces (the common case in titles): drop them.
        return nfc(s.chars().filter(|c| !matches!(c, '{' | '}')).collect());
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut in_math = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => i = decode_command(&chars, i + 1, &mut out),
            '{' | '}' => i += 1,
            '$' => {
                in_math = !in_math;
                i += 1;
            }
            '^' | '_' if in_math => i += 1,
            '~' => {
                out.push(' ');
                i += 1;
            }
            '-' if chars.get(i + 1) == Some(&'-') => {
                if chars.get(i + 2) == Some(&'-') {
                    out.push('—');
                    i += 3;
                } else {
                    out.push('–');
                    i += 2;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    nfc(out)
}

/// NFC composition, skipped for text that is already composed (ASCII always is).
fn nfc(s: String) -> String {
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        s
    } else {
        s.nfc().collect()
    }
}

/// The text a LaTeX command without arguments stands for (`\ss` → `ß`, `\alpha` →
/// `α`, `\TeX` → `TeX`); `None` for commands that are not text (`\emph`, `\label`).
pub fn command_text(name: &str) -> Option<String> {
    special_letter(name)
        .map(str::to_string)
        .or_else(|| greek_letter(name).map(String::from))
}

/// The combining mark a LaTeX accent command stands for.
fn accent_mark(command: &str) -> Option<char> {
    Some(match command {
        "\"" => '\u{308}',
        "'" => '\u{301}',
        "`" => '\u{300}',
        "^" => '\u{302}',
        "~" => '\u{303}',
        "=" => '\u{304}',
        "." => '\u{307}',
        "u" => '\u{306}',
        "v" => '\u{30C}',
        "H" => '\u{30B}',
        "c" => '\u{327}',
        "k" => '\u{328}',
        "r" => '\u{30A}',
        "d" => '\u{323}',
        "b" => '\u{331}',
        "t" => '\u{361}',
        _ => return None,
    })
}

/// Letters written as argument-less LaTeX commands.
fn special_letter(command: &str) -> Option<&'static str> {
    Some(match command {
        "ss" => "ß",
        "o" => "ø",
        "O" => "Ø",
        "aa" => "å",
        "AA" => "Å",
        "ae" => "æ",
        "AE" => "Æ",
        "oe" => "œ",
        "OE" => "Œ",
        "l" => "ł",
        "L" => "Ł",
        "i" => "i",
        "j" => "j",
        "textendash" => "–",
        "textemdash" => "—",
        "ldots" | "dots" | "textellipsis" => "…",
        "textquoteright" | "textquoteleft" => "'",
        "textregistered" | "texttrademark" | "textcopyright" => "",
        "TeX" => "TeX",
        "LaTeX" => "LaTeX",
        "BibTeX" => "BibTeX",
        _ => return None,
    })
}

/// Greek letter commands, as Unicode letters (folded to names later).
fn greek_letter(command: &str) -> Option<char> {
    const NAMES: &[(&str, char)] = &[
        ("alpha", 'α'),
        ("beta", 'β'),
        ("gamma", 'γ'),
        ("delta", 'δ'),
        ("epsilon", 'ε'),
        ("varepsilon", 'ε'),
        ("zeta", 'ζ'),
        ("eta", 'η'),
        ("theta", 'θ'),
        ("vartheta", 'θ'),
        ("iota", 'ι'),
        ("kappa", 'κ'),
        ("lambda", 'λ'),
        ("mu", 'μ'),
        ("nu", 'ν'),
        ("xi", 'ξ'),
        ("pi", 'π'),
        ("rho", 'ρ'),
        ("sigma", 'σ'),
        ("tau", 'τ'),
        ("upsilon", 'υ'),
        ("phi", 'φ'),
        ("varphi", 'φ'),
        ("chi", 'χ'),
        ("psi", 'ψ'),
        ("omega", 'ω'),
        ("Gamma", 'Γ'),
        ("Delta", 'Δ'),
        ("Theta", 'Θ'),
        ("Lambda", 'Λ'),
        ("Xi", 'Ξ'),
        ("Pi", 'Π'),
        ("Sigma", 'Σ'),
        ("Phi", 'Φ'),
        ("Psi", 'Ψ'),
        ("Omega", 'Ω'),
    ];
    NAMES.iter().find(|(n, _)| *n == command).map(|(_, c)| *c)
}

/// Decode the command whose name starts at `chars[i]` (just after the backslash);
/// returns the index after what was consumed.
fn decode_command(chars: &[char], mut i: usize, out: &mut String) -> usize {
    let Some(&first) = chars.get(i) else {
        return i;
    };
    let name: String = if first.is_ascii_alphabetic() {
        chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect()
    } else {
        first.to_string()
    };
    i += name.chars().count();
    if let Some(mark) = accent_mark(&name) {
        // A letter command such as `\c` is an accent only when an argument follows.
        let letter_command = first.is_ascii_alphabetic();
        let (base, next) = accent_argument(chars, i, letter_command);
        if let Some(base) = base {
            out.push_str(&base);
            out.push(mark);
            return next;
        }
        if !letter_command {
            return i;
        }
    }
    if let Some(letter) = special_letter(&name) {
        out.push_str(letter);
        // `\ss e` → `ße`: the space only ends the command name.
        if chars.get(i) == Some(&' ') && letter.chars().all(char::is_alphabetic) {
            i += 1;
        }
        return i;
    }
    if let Some(greek) = greek_letter(&name) {
        out.push(greek);
        return i;
    }
    match name.as_str() {
        "&" | "%" | "$" | "_" | "#" | "{" | "}" => out.push_str(&name),
        "\\" | " " | "," | ";" | ":" | "quad" | "qquad" | "newline" => out.push(' '),
        // Hyphenation hints, italic corrections and formatting commands vanish; the
        // braces of their argument are dropped by the caller, keeping the text.
        _ => {}
    }
    i
}

/// The argument of an accent command: `{u}`, `{\i}`, `u`, or ` u` after a letter command.
fn accent_argument(chars: &[char], mut i: usize, letter_command: bool) -> (Option<String>, usize) {
    if letter_command {
        while chars.get(i) == Some(&' ') {
            i += 1;
        }
    }
    match chars.get(i) {
        Some('{') => {
            let mut j = i + 1;
            let mut inner = String::new();
            while let Some(&c) = chars.get(j) {
                if c == '}' {
                    break;
                }
                inner.push(c);
                j += 1;
            }
            let base = inner.trim_start_matches('\\').to_string();
            let base = match base.as_str() {
                "i" => "i".to_string(),
                "j" => "j".to_string(),
                _ => base,
            };
            (Some(base), (j + 1).min(chars.len()))
        }
        Some('\\') if matches!(chars.get(i + 1), Some('i') | Some('j')) => {
            (Some(chars[i + 1].to_string()), i + 2)
        }
        Some(&c) if c.is_alphabetic() => (Some(c.to_string()), i + 1),
        _ => (None, i),
    }
}

/// Remove HTML/XML/MathML tags (keeping their text) and decode the common entities.
pub fn strip_markup(s: &str) -> String {
    if !s.contains(['<', '&']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find(['<', '&']) {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if let Some(after) = tail.strip_prefix('<') {
            if let Some(len) = tag_length(tail) {
                rest = &tail[len..];
                continue;
            }
            out.push('<');
            rest = after;
        } else if let Some((text, len)) = entity(tail) {
            out.push_str(&text);
            rest = &tail[len..];
        } else {
            out.push('&');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Length of a tag at the start of `s` (`<i>`, `</sub>`, `<mml:mi mathvariant="x">`).
fn tag_length(s: &str) -> Option<usize> {
    let body = s.strip_prefix('<')?;
    let body = body.strip_prefix('/').unwrap_or(body);
    if !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = s.find('>')?;
    let inside = &s[1..end];
    (!inside.contains('<') && end < 300).then_some(end + 1)
}

/// An entity at the start of `s`: its text and byte length.
fn entity(s: &str) -> Option<(String, usize)> {
    let end = s.find(';').filter(|&end| end <= 12)?;
    let name = &s[1..end];
    let text = match name {
        "amp" => "&".to_string(),
        "lt" => "<".to_string(),
        "gt" => ">".to_string(),
        "quot" => "\"".to_string(),
        "apos" => "'".to_string(),
        "nbsp" | "thinsp" | "ensp" | "emsp" => " ".to_string(),
        "ndash" => "–".to_string(),
        "mdash" => "—".to_string(),
        _ => {
            let code = if let Some(hex) = name.strip_prefix("#x").or(name.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16).ok()?
            } else {
                name.strip_prefix('#')?.parse().ok()?
            };
            char::from_u32(code)?.to_string()
        }
    };
    Some((text, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_accents_and_letters_decode() {
        assert_eq!(decode_latex(r#"{\"O}{\u{g}}men"#), "Öğmen");
        assert_eq!(decode_latex(r"Avalia{\c{c}}{\~a}o"), "Avaliação");
        assert_eq!(decode_latex(r"Dama{\v{s}}evi{\v{c}}ius"), "Damaševičius");
        assert_eq!(decode_latex(r"Stra\ss e"), "Straße");
        assert_eq!(decode_latex(r#"Sch\"{o}lkopf"#), "Schölkopf");
        assert_eq!(decode_latex(r"Ja\'{\i}n"), "Jaín");
        assert_eq!(decode_latex(r"\c c"), "ç");
        assert_eq!(decode_latex(r"Erd\H{o}s"), "Erdős");
    }

    #[test]
    fn latex_formatting_and_math_keep_their_text() {
        assert_eq!(decode_latex(r"{BERT}: Pre-training"), "BERT: Pre-training");
        assert_eq!(decode_latex(r"\emph{In vivo} study"), "In vivo study");
        assert_eq!(decode_latex(r"$\alpha$-synuclein"), "α-synuclein");
        assert_eq!(decode_latex(r"$O(n^2)$ time"), "O(n2) time");
        assert_eq!(decode_latex(r"Q\&A pages 1--3"), "Q&A pages 1–3");
    }

    #[test]
    fn markup_tags_and_entities_are_removed() {
        assert_eq!(
            strip_markup("<i>E. coli</i> &amp; H<sub>2</sub>O"),
            "E. coli & H2O"
        );
        assert_eq!(
            strip_markup("<mml:math><mml:mi>α</mml:mi></mml:math>-helix &#945;"),
            "α-helix α"
        );
        assert_eq!(strip_markup("p < 0.05 & more"), "p < 0.05 & more");
    }
}
