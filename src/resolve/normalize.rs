//! Text normalisation shared by the title gate and the field comparison: LaTeX and
//! HTML/MathML markup decoded, accents and Greek letters folded, case, punctuation,
//! hyphens and dashes (Unicode included) made uniform, so that two renderings of the
//! same title, name or venue fold to the same words.

use strsim::damerau_levenshtein;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Decode LaTeX markup into Unicode text: accent commands (`{\"u}`, `\c{c}`, `\v s`),
/// special letters (`\ss`, `\o`, `\ae`), Greek letter commands (`$\alpha$` → `α`),
/// escaped specials (`\&`), dashes (`--`), and formatting commands (`\emph{…}`), whose
/// argument is kept. Braces, `$` and `~` are dropped. Text without markup is returned
/// unchanged apart from NFC composition.
pub fn decode_latex(s: &str) -> String {
    if !s.contains(['\\', '{', '}', '$', '~', '-']) {
        return s.nfc().collect();
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
    out.nfc().collect()
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
        if tail.starts_with('<') {
            if let Some(len) = tag_length(tail) {
                rest = &tail[len..];
                continue;
            }
            out.push('<');
            rest = &tail[1..];
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

/// The Latin name of a (lowercase) Greek letter, so `α` and `alpha` fold alike.
fn greek_name(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "alpha",
        'β' | 'ϐ' => "beta",
        'γ' => "gamma",
        'δ' => "delta",
        'ε' | 'ϵ' => "epsilon",
        'ζ' => "zeta",
        'η' => "eta",
        'θ' | 'ϑ' => "theta",
        'ι' => "iota",
        'κ' | 'ϰ' => "kappa",
        'λ' => "lambda",
        'μ' => "mu",
        'ν' => "nu",
        'ξ' => "xi",
        'ο' => "omicron",
        'π' | 'ϖ' => "pi",
        'ρ' | 'ϱ' => "rho",
        'σ' | 'ς' => "sigma",
        'τ' => "tau",
        'υ' => "upsilon",
        'φ' | 'ϕ' => "phi",
        'χ' => "chi",
        'ψ' => "psi",
        'ω' => "omega",
        _ => return None,
    })
}

/// Letters that NFKD does not decompose into a base letter and a mark.
fn special_fold(c: char) -> Option<&'static str> {
    Some(match c {
        'ß' => "ss",
        'ø' => "o",
        'đ' | 'ð' => "d",
        'ł' => "l",
        'æ' => "ae",
        'œ' => "oe",
        'þ' => "th",
        'ı' => "i",
        'ħ' => "h",
        _ => return None,
    })
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | '‘' | 'ʼ' | 'ʻ' | '`' | '´' | '′')
}

/// Fold text for matching: LaTeX and markup decoded, NFKD with marks dropped, Greek
/// letters spelled out, lowercase, `&` → `and`, apostrophes removed (`Alzheimer's` →
/// `alzheimers`), every other non-alphanumeric character (hyphens and dashes of every
/// kind, punctuation, symbols) a single space; trimmed.
pub fn fold(s: &str) -> String {
    let decoded = strip_markup(&decode_latex(s));
    let mut out = String::with_capacity(decoded.len());
    let mut pending_space = false;
    let push = |out: &mut String, text: &str, pending_space: &mut bool| {
        if *pending_space && !out.is_empty() {
            out.push(' ');
        }
        *pending_space = false;
        out.push_str(text);
    };
    for c in decoded.nfkd() {
        if is_combining_mark(c) || is_apostrophe(c) {
            continue;
        }
        for lower in c.to_lowercase() {
            if let Some(name) = greek_name(lower).or_else(|| special_fold(lower)) {
                push(&mut out, name, &mut pending_space);
            } else if lower == '&' {
                pending_space = true;
                push(&mut out, "and", &mut pending_space);
                pending_space = true;
            } else if lower.is_alphanumeric() {
                let mut buf = [0u8; 4];
                push(&mut out, lower.encode_utf8(&mut buf), &mut pending_space);
            } else {
                pending_space = true;
            }
        }
    }
    out
}

/// The folded words of a text.
pub fn words(s: &str) -> Vec<String> {
    fold(s).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect()
}

/// The folded text with every space removed: `Pre-Training` and `pretraining` agree.
pub fn compact(s: &str) -> String {
    fold(s).replace(' ', "")
}

/// A word with British spellings mapped to American ones (`optimisation` →
/// `optimization`, `colour` → `color`, `modelling` → `modeling`, `centre` →
/// `center`, `anaemia` → `anemia`), so that both spellings compare equal.
fn american(word: &str) -> String {
    let mut w = word.replace("isation", "ization").replace("yse", "yze").replace("ae", "e").replace("oe", "e");
    for (british, american) in [("ise", "ize"), ("ised", "ized"), ("ises", "izes"), ("ising", "izing"), ("tre", "ter"), ("tres", "ters")] {
        if let Some(stem) = w.strip_suffix(british)
            && stem.len() >= 3
        {
            w = format!("{stem}{american}");
            break;
        }
    }
    w.replace("our", "or").replace("ll", "l")
}

/// Two folded words that are one spelling apart: equal, British and American
/// spellings of one word, or for words of five letters or more one edit apart
/// (`network`/`networks`, a typo); numbers only when equal.
pub fn spelling_variant(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la.min(lb) < 5 || la.abs_diff(lb) > 3 || a.chars().chain(b.chars()).any(|c| c.is_ascii_digit()) {
        return false;
    }
    let (a, b) = (american(a), american(b));
    a == b || damerau_levenshtein(&a, &b) <= 1
}

/// English function words that carry no identity in a title (DeepSciVerify filters
/// titles the same way before measuring word overlap).
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
    "as", "at", "be", "been", "before", "being", "below", "between", "both", "but", "by", "can",
    "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from",
    "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how",
    "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my",
    "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out",
    "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
    "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too",
    "under", "until", "up", "upon", "very", "via", "was", "we", "were", "what", "when", "where",
    "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
];

pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Folded words without stop words; all words when nothing else is left
/// (`"What is it?"` keeps its words rather than becoming empty).
pub fn content_words(s: &str) -> Vec<String> {
    content_of_folded(&fold(s))
}

/// [`content_words`] of text that is already folded.
pub fn content_of_folded(folded: &str) -> Vec<String> {
    let all: Vec<String> = folded.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect();
    let content: Vec<String> = all.iter().filter(|w| !is_stop_word(w)).cloned().collect();
    if content.is_empty() { all } else { content }
}

/// How a record's title announces a retraction or withdrawal.
const RETRACTION_PREFIXES: &[&str] = &[
    "retracted article",
    "retracted",
    "withdrawn article",
    "withdrawn",
];

/// Strip a `RETRACTED:` / `RETRACTED ARTICLE:` / `[Retracted]` / `WITHDRAWN:` prefix
/// from a record's title. Returns the remaining title and whether a prefix was there.
/// Retraction *notices* (`Retraction: …`, `Retraction Note to: …`) are separate
/// works and keep their titles.
pub fn strip_retraction_prefix(title: &str) -> (&str, bool) {
    let trimmed = title.trim_start();
    let (inner, bracketed) = match trimmed.strip_prefix('[') {
        Some(rest) => (rest, true),
        None => (trimmed, false),
    };
    for prefix in RETRACTION_PREFIXES {
        let Some(head) = inner.get(..prefix.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(prefix) {
            continue;
        }
        let rest = &inner[prefix.len()..];
        let rest = if bracketed {
            match rest.trim_start().strip_prefix(']') {
                Some(r) => r,
                None => continue,
            }
        } else {
            match rest.trim_start().strip_prefix(':') {
                Some(r) => r,
                None => continue,
            }
        };
        let rest = rest.trim_start_matches([' ', ':', '-', '–', '—']);
        if !rest.is_empty() {
            return (rest, true);
        }
    }
    (title, false)
}

/// Split a title into its main title and subtitle at the first `:`, spaced dash,
/// `?`/`!` followed by more words, or `. ` inside the title. `None` when there is no
/// such separator or either side would be empty.
pub fn split_subtitle(title: &str) -> Option<(&str, &str)> {
    let bytes = title.as_bytes();
    let mut best: Option<(usize, usize)> = None;
    for (pos, c) in title.char_indices() {
        let len = c.len_utf8();
        let next = bytes.get(pos + len).copied();
        let prev = pos.checked_sub(1).and_then(|p| bytes.get(p)).copied();
        let found = match c {
            ':' => true,
            '?' | '!' | '.' => next == Some(b' '),
            '-' | '–' | '—' => prev == Some(b' ') && next == Some(b' '),
            _ => false,
        };
        // `p. 3`, `U.S. Army`: a period after a single letter is an abbreviation.
        let abbreviation = c == '.'
            && title[..pos]
                .rsplit(' ')
                .next()
                .is_some_and(|w| w.chars().count() <= 1 || w.contains('.'));
        if found && !abbreviation {
            best = Some((pos, pos + len));
            break;
        }
    }
    let (start, end) = best?;
    let main = title[..start].trim();
    let keep_mark = matches!(&title[start..end], "?" | "!");
    let main = if keep_mark { title[..end].trim() } else { main };
    let sub = title[end..].trim();
    (!fold(main).is_empty() && !fold(sub).is_empty()).then_some((main, sub))
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
        assert_eq!(strip_markup("<i>E. coli</i> &amp; H<sub>2</sub>O"), "E. coli & H2O");
        assert_eq!(
            strip_markup("<mml:math><mml:mi>α</mml:mi></mml:math>-helix &#945;"),
            "α-helix α"
        );
        assert_eq!(strip_markup("p < 0.05 & more"), "p < 0.05 & more");
    }

    #[test]
    fn fold_unifies_case_accents_greek_dashes_and_apostrophes() {
        assert_eq!(fold("α-Synuclein"), "alpha synuclein");
        assert_eq!(fold(r"$\alpha$-synuclein"), "alpha synuclein");
        assert_eq!(fold("TNF‐α"), "tnf alpha");
        assert_eq!(fold("Müller–Lyer illusion"), "muller lyer illusion");
        assert_eq!(fold("Alzheimer’s disease"), "alzheimers disease");
        assert_eq!(fold("Søren Łukasz"), "soren lukasz");
        assert_eq!(fold("Q&A"), "q and a");
        assert_eq!(fold("  Deep   Learning. "), "deep learning");
        assert_eq!(fold("µm"), "mum");
        assert_eq!(compact("Pre-Training"), compact("pretraining"));
    }

    #[test]
    fn spelling_variants_are_one_word() {
        for (a, b) in [
            ("optimisation", "optimization"),
            ("modelling", "modeling"),
            ("colour", "color"),
            ("centre", "center"),
            ("anaemia", "anemia"),
            ("analyse", "analyze"),
            ("networks", "network"),
        ] {
            assert!(spelling_variant(a, b), "{a} {b}");
        }
        for (a, b) in [("intelligence", "intelligent"), ("data", "date"), ("2019", "2018"), ("learning", "reasoning")] {
            assert!(!spelling_variant(a, b), "{a} {b}");
        }
    }

    #[test]
    fn content_words_drop_stop_words_but_never_everything() {
        assert_eq!(content_words("Attention Is All You Need"), ["attention", "need"]);
        assert_eq!(content_words("What is it"), ["what", "is", "it"]);
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS, "binary search needs a sorted list");
    }

    #[test]
    fn retraction_prefixes_are_stripped_but_notices_are_not() {
        assert_eq!(
            strip_retraction_prefix("RETRACTED: A 1D CNN"),
            ("A 1D CNN", true)
        );
        assert_eq!(
            strip_retraction_prefix("RETRACTED ARTICLE: Artificial intelligence"),
            ("Artificial intelligence", true)
        );
        assert_eq!(strip_retraction_prefix("[Retracted] Foo bar"), ("Foo bar", true));
        assert_eq!(
            strip_retraction_prefix("Retraction Note: Foo"),
            ("Retraction Note: Foo", false)
        );
        assert_eq!(
            strip_retraction_prefix("Retracted memories in sleep"),
            ("Retracted memories in sleep", false)
        );
    }

    #[test]
    fn subtitles_split_at_colon_dash_and_question() {
        assert_eq!(
            split_subtitle("BERT: Pre-training of deep transformers"),
            Some(("BERT", "Pre-training of deep transformers"))
        );
        assert_eq!(
            split_subtitle("Can AI be creative? Evidence from art"),
            Some(("Can AI be creative?", "Evidence from art"))
        );
        assert_eq!(split_subtitle("Listen to look - action"), Some(("Listen to look", "action")));
        assert_eq!(split_subtitle("Rao-Blackwellized particle filtering"), None);
        assert_eq!(split_subtitle("U.S. Army data"), None);
        assert_eq!(split_subtitle("Why?"), None);
    }
}
