//! Author lists that differ only in how the record or the reference wrote the same
//! people: a family name transliterated two ways (`Kolmogorov` / `Kolmogoroff`,
//! `Chebyshev` / `Tschebyscheff`), or a record that put two people into one name's
//! given and family fields (`{given: "Ronny Kohavi", family: "Barry Becker"}`, as some
//! deposits do). Tried only after the lists disagree, and only ever to accept.

use crate::model::Person;
use crate::resolve::authors::{RecordAuthors, compare_authors};
use crate::resolve::normalize::fold;
use crate::resolve::sources::text::split_name;

/// Why the lists agree after all, when they do.
pub fn agree_after_all(cited: &[Person], truncated: bool, record: RecordAuthors) -> Option<String> {
    let as_record = |names| RecordAuthors {
        names,
        truncated: record.truncated,
    };
    let expanded: Vec<Person> = record.names.iter().flat_map(two_people).collect();
    if expanded.len() > record.names.len()
        && compare_authors(cited, truncated, as_record(&expanded))
            .issue
            .is_none()
    {
        return Some("the record writes two authors as one name".into());
    }
    let keyed = |people: &[Person]| -> Vec<Person> {
        people
            .iter()
            .map(|p| Person {
                given: p.given.clone(),
                family: transliteration_key(&p.family),
            })
            .collect()
    };
    let (c, r) = (keyed(cited), keyed(record.names));
    (c != cited
        && compare_authors(&c, truncated, as_record(&r))
            .issue
            .is_none())
    .then(|| "the names differ only in transliteration".into())
}

/// `{given: "Ronny Kohavi", family: "Barry Becker"}` → the two people; anything else
/// as it is.
fn two_people(p: &Person) -> Vec<Person> {
    let full = |s: &str| {
        let words: Vec<&str> = s.split_whitespace().collect();
        words.len() >= 2
            && words.iter().all(|w| {
                w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars().filter(|c| c.is_alphabetic()).count() > 1
            })
    };
    match &p.given {
        Some(given) if full(given) && full(&p.family) => {
            vec![split_name(&p.family), split_name(given)]
        }
        _ => vec![p.clone()],
    }
}

/// A family name folded to what its transliterations share (`kolmogorov`,
/// `chebyshev` for `Tschebyscheff`).
pub fn transliteration_key(family: &str) -> String {
    let mut s = fold(family).replace(' ', "");
    for (from, to) in [
        ("tsch", "ch"),
        ("sch", "sh"),
        ("tch", "ch"),
        ("kh", "h"),
        ("w", "v"),
    ] {
        s = s.replace(from, to);
    }
    for (ending, to) in [
        ("off", "ov"),
        ("eff", "ev"),
        ("skii", "ski"),
        ("skij", "ski"),
        ("skiy", "ski"),
        ("sky", "ski"),
        ("iy", "i"),
        ("ij", "i"),
    ] {
        if let Some(stem) = s.strip_suffix(ending) {
            s = format!("{stem}{to}");
            break;
        }
    }
    s.replace(['y', 'j'], "i")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transliterations_share_a_key() {
        assert_eq!(
            transliteration_key("Kolmogorov"),
            transliteration_key("Kolmogoroff")
        );
        assert_eq!(
            transliteration_key("Chebyshev"),
            transliteration_key("Tschebyscheff")
        );
        assert_eq!(
            transliteration_key("Dostoevsky"),
            transliteration_key("Dostoevskii")
        );
        assert_ne!(
            transliteration_key("Smith"),
            transliteration_key("Smyth-Jones")
        );
    }

    fn whole(names: &[Person]) -> RecordAuthors<'_> {
        RecordAuthors {
            names,
            truncated: false,
        }
    }

    #[test]
    fn a_record_that_wrote_two_people_as_one() {
        let cited = [
            Person::new(Some("Barry"), "Becker"),
            Person::new(Some("Ronny"), "Kohavi"),
        ];
        let garbled = [Person::new(Some("Ronny Kohavi"), "Barry Becker")];
        assert!(
            compare_authors(&cited, false, whole(&garbled))
                .issue
                .is_some()
        );
        assert!(agree_after_all(&cited, false, whole(&garbled)).is_some());
        let kolmogorov = [Person::new(Some("A. N."), "Kolmogorov")];
        let record = [Person::new(Some("A."), "Kolmogoroff")];
        assert!(agree_after_all(&kolmogorov, false, whole(&record)).is_some());
        let other = [Person::new(Some("J."), "Smith")];
        assert!(agree_after_all(&other, false, whole(&record)).is_none());
        // Splitting only ever accepts a list that then agrees.
        let spanish = [Person::new(Some("Gabriel José"), "García Márquez")];
        assert!(agree_after_all(&other, false, whole(&spanish)).is_none());
    }
}
