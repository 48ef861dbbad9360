//! Markers around names: `et al.`, editor and role labels (`(Eds.)`, `(Director)`),
//! name suffixes, initials in parentheses.

use super::tokens::{Kind, Tok, Tokenized};

pub(super) fn is_editor_word(w: &str) -> bool {
    matches!(
        w,
        "ed" | "eds"
            | "editor"
            | "editors"
            | "hrsg"
            | "hg"
            | "hgg"
            | "dir"
            | "dirs"
            | "éd"
            | "éds"
            | "coord"
            | "coords"
            | "comp"
            | "comps"
            | "edd"
            | "red"
    )
}

/// Whether `w` may be an editor word, before lowering it: those have at most seven
/// bytes, and an ASCII word keeps its length in lowercase.
pub(super) fn may_be_editor_word(w: &str) -> bool {
    w.len() <= 7 || !w.is_ascii()
}

/// Whether a whole alphabetic run of `s` (as a token is) is an editor word.
pub(super) fn has_editor_word(tokens: &Tokenized, s: &str) -> bool {
    if !s.is_ascii() {
        return s
            .split(|c: char| !c.is_alphabetic())
            .any(|w| may_be_editor_word(w) && is_editor_word(&tokens.lower_of(w)));
    }
    // On the bytes; the ASCII editor words have at most seven letters, the first of
    // them one of these.
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i == start {
            i += 1;
            continue;
        }
        if i - start <= 7
            && matches!(b[start] | 0x20, b'e' | b'h' | b'd' | b'c' | b'r')
            && is_editor_word(&tokens.lower_of(&s[start..i]))
        {
            return true;
        }
    }
    false
}

/// `et al.`, `and others`, `et. al.`, `...`: returns the index after the marker.
pub(super) fn et_al(toks: &[Tok], i: usize) -> Option<usize> {
    let t = toks.get(i)?;
    if t.kind != Kind::Word {
        return None;
    }
    let is = |t: &Tok, w: &str| t.text.eq_ignore_ascii_case(w);
    if is(t, "et.al") || is(t, "etal") {
        return Some(i + 1);
    }
    let next = toks.get(i + 1)?;
    if (is(t, "et") && is(next, "al"))
        || (is(t, "and") && (is(next, "others") || is(next, "colleagues")))
        || (is(t, "u") && t.dot && is(next, "a"))
    {
        return Some(i + 2);
    }
    None
}

pub(super) fn role_marker(toks: &[Tok], i: usize) -> Option<usize> {
    let t = toks.get(i)?;
    // `Soderbergh, Steven, director.`: a role set off by a comma, closed by a period.
    if t.kind == Kind::Word
        && matches!(
            t.lower().as_str(),
            "director" | "producer" | "narrator" | "performer"
        )
        && (t.dot || toks.get(i + 1).is_some_and(|n| n.is('.')))
    {
        return Some(i + 1);
    }
    if !t.is('(') {
        return None;
    }
    let close = (i + 1..toks.len().min(i + 6)).find(|&k| toks[k].is(')'))?;
    let role = |w: &str| {
        matches!(
            w.trim_end_matches('s'),
            "producer"
                | "director"
                | "writer"
                | "host"
                | "performer"
                | "composer"
                | "illustrator"
                | "photographer"
                | "narrator"
                | "interviewer"
                | "speaker"
                | "presenter"
                | "creator"
        )
    };
    let words: Vec<super::tokens::Lower<'_>> = toks[i + 1..close]
        .iter()
        .filter(|t| t.kind == Kind::Word)
        .map(|t| t.lower())
        .collect();
    (!words.is_empty() && words.iter().all(|w| role(w))).then_some(close + 1)
}

pub(super) fn editor_marker(toks: &[Tok], i: usize) -> Option<usize> {
    let t = toks.get(i)?;
    if t.is('(') || t.is('[') {
        let w = toks.get(i + 1)?;
        let close = toks.get(i + 2)?;
        if w.kind == Kind::Word
            && may_be_editor_word(w.text)
            && is_editor_word(&w.lower())
            && (close.is(')') || close.is(']'))
        {
            return Some(i + 3);
        }
        return None;
    }
    if t.kind == Kind::Word
        && may_be_editor_word(t.text)
        && is_editor_word(&t.lower())
        && (t.dot || t.text.len() > 3)
    {
        return Some(i + 1);
    }
    None
}

/// `III`, `IV`, `Jr`: a suffix, never initials.
pub(super) fn is_roman_suffix(t: &Tok) -> bool {
    t.kind == Kind::Word && matches!(t.text, "II" | "III" | "IV" | "Jr" | "Sr")
}

/// `ALY (M.I.)`, `Bugnon (A.-L.)`: French bibliographies put the initials in parentheses.
/// Returns the token range of the initials and the index after `)`.
pub(super) fn initials_in_parens(toks: &[Tok], at: usize) -> Option<(usize, usize, usize)> {
    if !toks.get(at)?.is('(') {
        return None;
    }
    let close = (at + 1..toks.len().min(at + 6)).find(|&k| toks[k].is(')'))?;
    let inner = &toks[at + 1..close];
    (!inner.is_empty() && inner.iter().all(|t| t.is_initial())).then_some((
        at + 1,
        close,
        close + 1,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::any_text;
    use super::*;

    proptest::proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn editor_word_scan_is_the_split(s in any_text()) {
            let folded = s.to_ascii_lowercase();
            let tokens = Tokenized::new(&s, &folded);
            let by_split = s
                .split(|c: char| !c.is_alphabetic())
                .any(|w| is_editor_word(&w.to_lowercase()));
            proptest::prop_assert_eq!(has_editor_word(&tokens, &s), by_split);
        }
    }
}
