//! Splitting reference text on the bytes, where the separators are ASCII: UTF-8
//! never holds an ASCII byte inside another character.

use crate::parse::is_space;

/// `str::split_whitespace`, on the bytes: a non-ASCII character is decoded only to
/// test whether it is a space.
pub(super) fn words(s: &str) -> impl Iterator<Item = &str> {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let mut start = None;
        while let Some(&c) = b.get(i) {
            let (len, space) = if c.is_ascii() {
                (1, is_space(c))
            } else {
                let c = s[i..].chars().next()?;
                (c.len_utf8(), c.is_whitespace())
            };
            match (space, start) {
                // The space after the word is passed over by the next call.
                (true, Some(from)) => return Some(&s[from..i]),
                (false, None) => start = Some(i),
                _ => {}
            }
            i += len;
        }
        start.map(|from| &s[from..])
    })
}

/// `str::split` on a set of ASCII characters, on the bytes.
pub(super) fn split_ascii(s: &str, sep: impl Fn(u8) -> bool) -> impl Iterator<Item = &str> {
    let b = s.as_bytes();
    let mut from = Some(0);
    std::iter::from_fn(move || {
        let start = from?;
        match b[start..].iter().position(|&c| sep(c)) {
            Some(k) => {
                from = Some(start + k + 1);
                Some(&s[start..start + k])
            }
            None => {
                from = None;
                Some(&s[start..])
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::any_text;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::proptest_config::config(3000))]

        #[test]
        fn words_split_as_split_whitespace(s in any_text()) {
            prop_assert_eq!(words(&s).collect::<Vec<_>>(), s.split_whitespace().collect::<Vec<_>>());
        }


        #[test]
        fn split_ascii_splits_as_split(s in any_text()) {
            let sep = |c: char| matches!(c, ',' | '.' | ';' | '(' | ')');
            prop_assert_eq!(
                split_ascii(&s, |b| sep(char::from(b))).collect::<Vec<_>>(),
                s.split(sep).collect::<Vec<_>>()
            );
        }
    }
}
