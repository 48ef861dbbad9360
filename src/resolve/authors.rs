//! Author names and author lists: is a cited name the record's person, and does a
//! cited list faithfully render the record's list? Tolerant of the forms names take
//! (accents, transliteration, particles, hyphens, initials, given/family order) and
//! strict about what really misattributes a work (names of other people, dropped
//! authors without "et al.", placeholder names).

use crate::model::Person;
use crate::resolve::normalize::{self, decode_latex, fold};
use serde::{Deserialize, Serialize};

/// Name particles that one rendering keeps and another drops (`van der Berg`,
/// `De Nadai`, `do Nascimento`, `Al Khalil`).
const PARTICLES: &[&str] = &[
    "al", "bin", "d", "da", "das", "de", "dei", "del", "della", "delle", "dello", "den", "der",
    "des", "di", "do", "dos", "du", "el", "ibn", "la", "le", "les", "st", "te", "ten", "ter",
    "van", "vander", "von", "y", "zu", "zur",
];

/// Generational suffixes written with the family name.
const SUFFIXES: &[&str] = &["ii", "iii", "iv", "jr", "jnr", "junior", "senior", "sr"];

/// Words that mark an organisation rather than a person.
const ORGANISATION_WORDS: &[&str] = &[
    "agency",
    "alliance",
    "association",
    "board",
    "center",
    "centre",
    "collaboration",
    "commission",
    "committee",
    "company",
    "consortium",
    "corporation",
    "council",
    "department",
    "federation",
    "foundation",
    "group",
    "inc",
    "initiative",
    "institute",
    "laboratory",
    "ltd",
    "ministry",
    "network",
    "office",
    "organisation",
    "organization",
    "panel",
    "program",
    "programme",
    "project",
    "society",
    "team",
    "university",
    "working",
];

/// A person's name folded for comparison.
#[derive(Debug, Clone)]
struct Name {
    /// Family name words without particles and suffixes (all words if nothing is left).
    core: Vec<String>,
    /// Every family name word.
    family: Vec<String>,
    /// Given name words (initials included, folded).
    given: Vec<String>,
    /// First letters of the given names (`D.-I.` → d, i; Medline `SK` → s, k).
    initials: Vec<char>,
    organisation: bool,
}

impl Name {
    fn new(person: &Person) -> Name {
        let family: Vec<String> = fold(&person.family)
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        let core: Vec<String> = family
            .iter()
            .filter(|w| !PARTICLES.contains(&w.as_str()) && !SUFFIXES.contains(&w.as_str()))
            .cloned()
            .collect();
        let core = if core.is_empty() {
            family.clone()
        } else {
            core
        };
        let given_raw = person.given.as_deref().unwrap_or("");
        let given: Vec<String> = fold(given_raw)
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        let organisation = person.given.is_none()
            && (family.len() >= 5
                || family
                    .iter()
                    .any(|w| ORGANISATION_WORDS.contains(&w.as_str())));
        Name {
            core,
            family,
            given,
            initials: initials(given_raw),
            organisation,
        }
    }

    fn core_compact(&self) -> String {
        self.core.concat()
    }
}

/// First letters of given names. `SK`/`JD` (Medline style, two or three capitals
/// without periods) are read as initials, as are `J.-P.` and `Jean-Pierre`.
fn initials(given: &str) -> Vec<char> {
    let decoded = decode_latex(given);
    let mut out = Vec::new();
    for part in decoded.split([' ', '.', '-', '‐', '–', '\u{a0}']) {
        let letters: Vec<char> = part.chars().filter(|c| c.is_alphabetic()).collect();
        if letters.is_empty() {
            continue;
        }
        let all_caps = letters.iter().all(|c| c.is_uppercase());
        if all_caps && (2..=3).contains(&letters.len()) {
            out.extend(letters.iter().map(|c| fold_char(*c)));
        } else {
            out.push(fold_char(letters[0]));
        }
    }
    out
}

fn fold_char(c: char) -> char {
    fold(&c.to_string()).chars().next().unwrap_or(c)
}

/// Two spellings of one name: a spelling variant, or German umlaut transliteration
/// (`Mueller` / `Muller`).
fn spelling_variant(a: &str, b: &str) -> bool {
    let german = |s: &str| s.replace("ue", "u").replace("oe", "o").replace("ae", "a");
    normalize::spelling_variant(a, b) || (a.len() >= 4 && german(a) == german(b))
}

/// Family names that name the same person: equal once folded, particles dropped,
/// hyphens/spaces ignored; one a word-subset of the other (`García Márquez` /
/// `García`); or a transliteration apart.
fn families_match(a: &Name, b: &Name) -> bool {
    if a.core.is_empty() || b.core.is_empty() {
        return false;
    }
    if a.core_compact() == b.core_compact() || a.family.concat() == b.family.concat() {
        return true;
    }
    let subset =
        |x: &[String], y: &[String]| x.iter().all(|w| w.chars().count() >= 3 && y.contains(w));
    if subset(&a.core, &b.family) || subset(&b.core, &a.family) {
        return true;
    }
    spelling_variant(&a.core_compact(), &b.core_compact())
}

/// Given names that cannot belong to one person (`J.` vs `Robert`). Missing given
/// names never conflict.
fn initials_conflict(a: &Name, b: &Name) -> bool {
    match (a.initials.first(), b.initials.first()) {
        (Some(x), Some(y)) => x != y && !a.initials.contains(y) && !b.initials.contains(x),
        _ => false,
    }
}

/// Whether a cited name and a record name are the same person. Family names decide;
/// given names only break a tie when the record swapped given and family names (as
/// some sources do for Chinese, Japanese and Korean names) or wrote the whole name
/// as the family name.
pub fn same_person(cited: &Person, record: &Person) -> bool {
    let c = Name::new(cited);
    let r = Name::new(record);
    if c.organisation || r.organisation {
        return organisations_match(&c, &r);
    }
    if families_match(&c, &r) {
        return true;
    }
    // Swapped order: the cited family name is the record's given name and vice versa.
    let swapped = |x: &Name, y: &Name| {
        !y.given.is_empty()
            && spelling_variant(&x.core_compact(), &y.given.concat())
            && (x.given.is_empty()
                || spelling_variant(&x.given.concat(), &y.core_compact())
                || x.initials.first() == y.core_compact().chars().next().as_ref())
    };
    if swapped(&c, &r) || swapped(&r, &c) {
        return true;
    }
    // A whole name in one field (`Quan Thoi Minh Nguyen` as a family name).
    let whole = |x: &Name, y: &Name| {
        x.given.is_empty()
            && x.family.len() >= 2
            && x.family
                .iter()
                .any(|w| spelling_variant(w, &y.core_compact()))
            && !initials_conflict_with_words(&y.initials, &x.family, &y.core_compact())
    };
    whole(&c, &r) || whole(&r, &c)
}

/// For a whole name written as one string: the other side's first initial must start
/// one of the remaining words.
fn initials_conflict_with_words(initials: &[char], words: &[String], family: &str) -> bool {
    let Some(first) = initials.first() else {
        return false;
    };
    !words
        .iter()
        .filter(|w| !spelling_variant(w, family))
        .any(|w| w.starts_with(*first))
}

fn organisations_match(a: &Name, b: &Name) -> bool {
    if a.organisation != b.organisation {
        return false;
    }
    let significant = |n: &Name| -> Vec<String> {
        n.family
            .iter()
            .filter(|w| !crate::resolve::normalize::is_stop_word(w))
            .cloned()
            .collect()
    };
    let (x, y) = (significant(a), significant(b));
    let shared = x.iter().filter(|w| y.contains(w)).count();
    shared > 0 && shared * 2 >= x.len().min(y.len())
}

/// Placeholder names that stand in for real authors: `Firstname Lastname`,
/// `John Doe`, `A. Author`, `Anonymous`, `Lastname A`, `Name A`, `N. N.`.
pub fn is_placeholder(person: &Person) -> bool {
    let family = fold(&person.family);
    let given = person.given.as_deref().map(fold).unwrap_or_default();
    let placeholder_given = [
        "firstname",
        "first name",
        "first",
        "given",
        "givenname",
        "name",
    ];
    if placeholder_given.contains(&given.as_str()) {
        return true;
    }
    match family.as_str() {
        "lastname" | "last name" | "surname" | "familyname" | "family name" | "anonymous"
        | "anon" | "unknown" | "unknown author" | "placeholder" | "et al" | "others" => true,
        "author" | "name" | "authorname" => given.chars().count() <= 1 || given == "the",
        "doe" => matches!(given.as_str(), "" | "j" | "john" | "jane"),
        "n" | "x" | "xx" | "xxx" => given == family || given.is_empty(),
        _ => false,
    }
}

/// What is wrong with a cited author list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthorIssue {
    /// The cited names are (mostly) not the record's authors.
    SwappedAuthors,
    /// Record authors are missing and the list does not say "et al.".
    PartialAuthorList,
    /// Placeholder names stand in for authors.
    PlaceholderAuthors,
    /// Some cited names are not on the record.
    UnknownAuthors,
}

/// The verdict on an author list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuthorCheck {
    pub issue: Option<(AuthorIssue, String)>,
    pub notes: Vec<String>,
}

fn display(person: &Person) -> String {
    match &person.given {
        Some(g) => format!("{g} {}", person.family),
        None => person.family.clone(),
    }
}

/// A record's author list and whether the source cut it short.
#[derive(Debug, Clone, Copy)]
pub struct RecordAuthors<'a> {
    pub names: &'a [Person],
    pub truncated: bool,
}

/// Compare a cited author list (with its "et al." flag) with the record's.
pub fn compare_authors(
    cited: &[Person],
    truncated: bool,
    record_authors: RecordAuthors<'_>,
) -> AuthorCheck {
    let record = record_authors.names;
    let mut check = AuthorCheck::default();
    if cited.is_empty() || record.is_empty() {
        return check;
    }
    let placeholders: Vec<&Person> = cited.iter().filter(|p| is_placeholder(p)).collect();
    if let Some(p) = placeholders
        .iter()
        .find(|p| !record.iter().any(|r| same_person(p, r)))
    {
        check.issue = Some((
            AuthorIssue::PlaceholderAuthors,
            format!("placeholder author name \"{}\"", display(p)),
        ));
        return check;
    }
    let cited_orgs = cited.iter().all(|p| Name::new(p).organisation);
    let record_orgs = record.iter().all(|p| Name::new(p).organisation);
    if cited_orgs != record_orgs {
        check
            .notes
            .push("one side lists an organisation as author; names not compared".into());
        return check;
    }
    let matches = align(cited, record);
    let matched: Vec<(usize, usize)> = matches
        .iter()
        .enumerate()
        .filter_map(|(i, j)| j.map(|j| (i, j)))
        .collect();
    // A record that cut its list short cannot deny the names that come after as many
    // names as it lists.
    let beyond_record = |i: usize| record_authors.truncated && i >= record.len();
    let unmatched: Vec<&Person> = matches
        .iter()
        .zip(cited)
        .enumerate()
        .filter(|(i, (j, _))| j.is_none() && !beyond_record(*i))
        .map(|(_, (_, p))| p)
        .collect();
    let unlisted = (0..cited.len())
        .filter(|&i| matches[i].is_none() && beyond_record(i))
        .count();
    if unlisted > 0 {
        check.notes.push(format!(
            "{unlisted} cited name(s) after the record's {} (the record's list is cut short)",
            record.len()
        ));
    }
    let n = cited.len() - unlisted;
    let first_ok = matches[0].is_some();
    if matched.is_empty() || (!first_ok && matched.len() * 2 < n) {
        check.issue = Some((
            AuthorIssue::SwappedAuthors,
            format!(
                "{} of {} cited authors are on the record (record's first author: {})",
                matched.len(),
                n,
                display(&record[0])
            ),
        ));
        return check;
    }
    if !unmatched.is_empty() {
        let names: Vec<String> = unmatched.iter().map(|p| display(p)).collect();
        if unmatched.len() * 3 >= n {
            check.issue = Some((
                AuthorIssue::UnknownAuthors,
                format!("not on the record: {}", names.join(", ")),
            ));
            return check;
        }
        check.notes.push(format!(
            "cited name(s) not found on the record: {}",
            names.join(", ")
        ));
    }
    if matched.windows(2).any(|w| w[1].1 < w[0].1) {
        check
            .notes
            .push("cited author order differs from the record".into());
    }
    let listed = matched.len();
    if listed < record.len() && !truncated {
        let used: Vec<usize> = matched.iter().map(|(_, j)| *j).collect();
        let omitted: Vec<String> = (0..record.len())
            .filter(|j| !used.contains(j))
            .map(|j| display(&record[j]))
            .collect();
        let how = if !used.contains(&0) {
            "first author omitted"
        } else if used.iter().all(|&j| j < listed) {
            "list cut short"
        } else {
            "author(s) omitted from the middle"
        };
        check.issue = Some((
            AuthorIssue::PartialAuthorList,
            format!(
                "{listed} of {} authors listed without \"et al.\" ({how}: {})",
                record.len(),
                omitted.join(", ")
            ),
        ));
    }
    check
}

/// For each cited author, the record author it names (each record author used once),
/// preferring the same position, then the nearest.
fn align(cited: &[Person], record: &[Person]) -> Vec<Option<usize>> {
    let mut used = vec![false; record.len()];
    let mut out = vec![None; cited.len()];
    for (i, person) in cited.iter().enumerate() {
        let mut order: Vec<usize> = (0..record.len()).collect();
        order.sort_by_key(|&j| j.abs_diff(i));
        if let Some(j) = order
            .into_iter()
            .find(|&j| !used[j] && same_person(person, &record[j]))
        {
            used[j] = true;
            out[i] = Some(j);
        }
    }
    out
}

/// Whether the cited first author is the record's first author (used to corroborate a
/// title that is close but not equal).
pub fn first_author_agrees(cited: &[Person], record: &[Person]) -> bool {
    match (cited.first(), record.first()) {
        (Some(c), Some(r)) => {
            !is_placeholder(c)
                && same_person(c, r)
                && !initials_conflict(&Name::new(c), &Name::new(r))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(given: &str, family: &str) -> Person {
        Person::new(Some(given).filter(|g| !g.is_empty()), family)
    }

    #[test]
    fn name_forms_of_one_person_agree() {
        let same = [
            (
                p("Thiago", "do Nascimento"),
                p("Thiago Gomes", "Nascimento"),
            ),
            (p("M.", "De Nadai"), p("Marco", "Nadai")),
            (p("L.", "van der Maaten"), p("Laurens", "Van Der Maaten")),
            (p("", "Damaševičius"), p("R", "Damasevicius")),
            (
                p("R.", r"Dama{\v{s}}evi{\v{c}}ius"),
                p("Robertas", "Damaševičius"),
            ),
            (p("D.-I.", "Kwon"), p("Dong-Il", "Kwon")),
            (p("Dana Rae", "Tardiel-Cyril"), p("D. R.", "Tardiel Cyril")),
            (p("K.", "Müller"), p("Klaus", "Mueller")),
            (p("Martin Luther", "King Jr."), p("M. L.", "King")),
            (p("Wei", "Zhang"), p("Zhang", "Wei")),
            (p("", "Quan Thoi Minh Nguyen"), p("Q. T. M.", "Nguyen")),
            (p("A.", "Al Khalil"), p("Yasmina", "Khalil")),
        ];
        for (a, b) in &same {
            assert!(same_person(a, b), "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn different_people_differ() {
        assert!(!same_person(&p("W.", "Wang"), &p("W.", "Wan")));
        assert!(!same_person(&p("X.", "Chen"), &p("X.", "Cheng")));
        assert!(!same_person(&p("A.", "Turing"), &p("T.", "Chang")));
    }

    #[test]
    fn placeholders_are_recognised() {
        for (g, f) in [
            ("Firstname", "Lastname"),
            ("John", "Doe"),
            ("Jane", "Doe"),
            ("A.", "Author"),
            ("", "Anonymous"),
            ("A", "Lastname"),
            ("A", "Name"),
            ("N.", "N."),
        ] {
            assert!(is_placeholder(&p(g, f)), "{g} {f}");
        }
        assert!(!is_placeholder(&p("Frank", "Doe")));
        assert!(!is_placeholder(&p("A.", "Turing")));
    }

    fn list(names: &[(&str, &str)]) -> Vec<Person> {
        names.iter().map(|(g, f)| p(g, f)).collect()
    }

    fn whole(names: &[Person]) -> RecordAuthors<'_> {
        RecordAuthors {
            names,
            truncated: false,
        }
    }

    #[test]
    fn names_beyond_a_record_list_cut_short_are_not_unknown() {
        // A record at the 100-name cap, a consortium paper cited with 250 names.
        let record: Vec<Person> = (0..100).map(|i| p("A.", &format!("Author{i}"))).collect();
        let mut cited = record.clone();
        cited.extend((100..250).map(|i| p("B.", &format!("Later{i}"))));
        let cut = |names| RecordAuthors {
            names,
            truncated: true,
        };
        let check = compare_authors(&cited, false, cut(&record));
        assert_eq!(check.issue, None, "{check:?}");
        assert!(
            check.notes.iter().any(|n| n.contains("cut short")),
            "{check:?}"
        );
        // The same list against a record that lists everyone: unknown names.
        assert_eq!(
            compare_authors(&cited, false, whole(&record))
                .issue
                .map(|i| i.0),
            Some(AuthorIssue::UnknownAuthors)
        );
        // A deposit of three names and "et al.", cited with six.
        let three = list(&[("G.", "Chen"), ("C.", "Wiede"), ("R.", "Kokozinski")]);
        let six = list(&[
            ("G.", "Chen"),
            ("C.", "Wiede"),
            ("R.", "Kokozinski"),
            ("M.", "Okafor"),
            ("L.", "Brandt"),
            ("S.", "Iyer"),
        ]);
        assert_eq!(compare_authors(&six, false, cut(&three)).issue, None);
        // Unknown names within the record's list still count.
        let wrong = list(&[
            ("G.", "Chen"),
            ("T.", "Nobody"),
            ("U.", "Noone"),
            ("M.", "Okafor"),
        ]);
        assert_eq!(
            compare_authors(&wrong, false, cut(&three))
                .issue
                .map(|i| i.0),
            Some(AuthorIssue::UnknownAuthors)
        );
    }

    #[test]
    fn list_verdicts() {
        let record = list(&[
            ("Guang", "Chen"),
            ("Christoph", "Wiede"),
            ("Rainer", "Kokozinski"),
        ]);
        let full = list(&[("G.", "Chen"), ("C.", "Wiede"), ("R.", "Kokozinski")]);
        assert_eq!(compare_authors(&full, false, whole(&record)).issue, None);
        let first = list(&[("G.", "Chen")]);
        assert_eq!(compare_authors(&first, true, whole(&record)).issue, None);
        let middle_dropped = list(&[("G.", "Chen"), ("R.", "Kokozinski")]);
        let issue = compare_authors(&middle_dropped, false, whole(&record))
            .issue
            .unwrap();
        assert_eq!(issue.0, AuthorIssue::PartialAuthorList);
        assert!(issue.1.contains("Wiede"), "{}", issue.1);
        let swapped = list(&[("A.", "Turing")]);
        assert_eq!(
            compare_authors(&swapped, false, whole(&record))
                .issue
                .unwrap()
                .0,
            AuthorIssue::SwappedAuthors
        );
        let placeholder = list(&[("Firstname", "Lastname")]);
        assert_eq!(
            compare_authors(&placeholder, true, whole(&record))
                .issue
                .unwrap()
                .0,
            AuthorIssue::PlaceholderAuthors
        );
        let mixed = list(&[("G.", "Chen"), ("J.", "Smith"), ("K.", "Jones")]);
        assert_eq!(
            compare_authors(&mixed, false, whole(&record))
                .issue
                .unwrap()
                .0,
            AuthorIssue::UnknownAuthors
        );
    }

    #[test]
    fn organisations_are_compared_as_names() {
        let record = vec![Person::new(None, "The Gene Ontology Consortium")];
        let cited = vec![Person::new(None, "Gene Ontology Consortium")];
        assert_eq!(compare_authors(&cited, false, whole(&record)).issue, None);
        let person = list(&[("M.", "Ashburner")]);
        assert_eq!(compare_authors(&person, true, whole(&record)).issue, None);
    }
}
