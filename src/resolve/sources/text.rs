//! Text clean-up shared by the source parsers: markup in titles and abstracts, HTML
//! entities, display names split into given/family, retraction title prefixes, years.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{Person, Work};
use crate::parse::ids::{normalize_arxiv, normalize_doi, normalize_pmcid, normalize_pmid};

static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"</?[A-Za-z][A-Za-z0-9:_.-]*(?:\s[^<>]*)?/?>").expect("tag regex")
});
static ENTITY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});").expect("entity regex")
});
static RETRACTED_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:\[\s*retracted(?:\s+article)?\s*\]|retracted(?:\s+(?:article|paper|publication))?\s*[:：.\-–—])")
        .expect("retraction regex")
});
static YEAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(1[5-9]\d\d|20\d\d|21\d\d)\b").expect("year regex"));

/// Decode HTML/XML character references and the common named entities.
pub fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    ENTITY
        .replace_all(text, |c: &regex::Captures<'_>| {
            let name = &c[1];
            let decoded =
                if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                    u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
                } else if let Some(dec) = name.strip_prefix('#') {
                    dec.parse::<u32>().ok().and_then(char::from_u32)
                } else {
                    named_entity(name)
                };
            decoded.map_or_else(|| c[0].to_string(), |ch| ch.to_string())
        })
        .into_owned()
}

fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "times" => '×',
        "deg" => '°',
        "plusmn" => '±',
        "micro" => 'µ',
        "alpha" => 'α',
        "beta" => 'β',
        "gamma" => 'γ',
        "delta" => 'δ',
        "kappa" => 'κ',
        "lambda" => 'λ',
        "mu" => 'μ',
        "sigma" => 'σ',
        "tau" => 'τ',
        "omega" => 'ω',
        _ => return None,
    })
}

/// Collapse runs of whitespace (including non-breaking spaces) to one space and trim.
pub fn collapse_whitespace(text: &str) -> String {
    text.split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Remove markup tags (`<i>`, `<jats:p>`, `<sub>` …), decode entities, collapse spaces.
pub fn strip_markup(text: &str) -> String {
    if !text.contains('<') {
        return collapse_whitespace(&decode_entities(text));
    }
    // Inline formatting (`H<sub>2</sub>O`, `<i>TERT</i>`) goes without a trace so words
    // stay whole; any other tag (paragraphs, titles) becomes a space.
    let inline_removed = INLINE_TAG.replace_all(text, "");
    let spaced = TAG.replace_all(&inline_removed, " ");
    collapse_whitespace(&decode_entities(&spaced))
}

static INLINE_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)</?(?:[a-z]+:)?(?:i|b|u|em|strong|sub|sup|sc|scp|italic|bold|span|a|inline-formula|tex-math|mml:[a-z]+)(?:\s[^<>]*)?/?>")
        .expect("inline tag regex")
});

/// Lowercase particles that belong to the family name (`van der Berg`, `de la Cruz`).
const PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "del", "della", "dei", "degli", "di", "da", "dos", "das",
    "do", "du", "la", "le", "ter", "ten", "zu", "zur", "af", "bin", "binti", "ibn", "al", "el",
    "st.", "y",
];
const SUFFIXES: &[&str] = &["jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"];

/// Split a display name into given and family names. `Family, Given` is honoured; else
/// the last word is the family name, with lowercase particles before it and a
/// generational suffix after it kept in the family name. A single word has no given name.
pub fn split_name(name: &str) -> Person {
    let name = collapse_whitespace(name);
    if let Some((family, given)) = name.split_once(',') {
        let (family, given) = (family.trim(), given.trim());
        if !family.is_empty()
            && !given.is_empty()
            && !SUFFIXES.contains(&given.to_lowercase().as_str())
        {
            return Person::new(Some(given), family);
        }
    }
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    if words.len() <= 1 {
        return Person::new(None, &name);
    }
    let mut family_start = words.len() - 1;
    let last = words[family_start].trim_end_matches(',').to_lowercase();
    if SUFFIXES.contains(&last.as_str()) && family_start >= 2 {
        family_start -= 1;
    }
    while family_start > 1
        && PARTICLES.contains(&words[family_start - 1].to_lowercase().as_str())
        && words[family_start - 1]
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
    {
        family_start -= 1;
    }
    let given = words[..family_start].join(" ");
    let family = words[family_start..].join(" ").replace(" ,", ",");
    Person::new(
        Some(given.trim_end_matches(',')),
        family.trim_end_matches(','),
    )
}

/// A Medline-style name, family name first and initials last (`LoPresti PJ`,
/// `Hambrick GW Jr`, `Haas-Kogan DA`). Without trailing initials the whole string is
/// the family name (organisations, single names).
pub fn medline_name(name: &str) -> Person {
    let name = collapse_whitespace(name);
    let mut words: Vec<&str> = name.split(' ').collect();
    let suffix = words
        .last()
        .filter(|w| words.len() > 2 && SUFFIXES.contains(&w.to_lowercase().as_str()))
        .copied();
    if suffix.is_some() {
        words.pop();
    }
    let is_initials =
        |w: &str| !w.is_empty() && w.chars().count() <= 4 && w.chars().all(|c| c.is_uppercase());
    match words.split_last() {
        Some((initials, family)) if !family.is_empty() && is_initials(initials) => {
            let mut family = family.join(" ");
            if let Some(s) = suffix {
                family = format!("{family} {s}");
            }
            Person::new(Some(initials), &family)
        }
        _ => Person::new(None, &name),
    }
}

/// A person from given/family fields, falling back to splitting a full name.
pub fn person(given: Option<&str>, family: Option<&str>, full: Option<&str>) -> Option<Person> {
    let clean = |s: Option<&str>| s.map(strip_markup).filter(|s| !s.is_empty());
    match (clean(given), clean(family)) {
        (given, Some(family)) => Some(Person::new(given.as_deref(), &family)),
        (Some(given), None) => match clean(full) {
            Some(full) => Some(split_name(&full)),
            None => Some(Person::new(None, &given)),
        },
        (None, None) => clean(full).map(|f| split_name(&f)),
    }
}

/// Whether the publisher prefixed the title as retracted (`RETRACTED:`, `RETRACTED
/// ARTICLE:`, `[Retracted]`). A notice titled "Retraction: …" is not itself retracted.
pub fn has_retracted_prefix(title: &str) -> bool {
    RETRACTED_PREFIX.is_match(title)
}

/// The first plausible year (1500–2199) in a date string (`2017-06`, `1965 Aug`,
/// `Spring 1990`, `1998 Dec-1999 Jan`).
pub fn year_in(text: &str) -> Option<i32> {
    YEAR.captures(text).and_then(|c| c[1].parse().ok())
}

/// The most authors that OpenAlex (in lists and searches) and other sources give
/// before cutting a list: a record with exactly this many may have more.
pub const AUTHOR_CAP: usize = 100;

/// An author entry that stands for the authors left out: `et al.`, `others`, `and
/// others`, `et al` (some deposits end long lists so).
fn stands_for_the_rest(person: &Person) -> bool {
    let words: String = [person.given.as_deref().unwrap_or(""), &person.family]
        .join(" ")
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphabetic() || c.is_whitespace())
        .collect();
    matches!(
        words.split_whitespace().collect::<Vec<_>>().as_slice(),
        ["et", "al"] | ["others"] | ["and", "others"] | ["et", "alii"] | ["etal"]
    )
}

/// One "author" that is a list of people (`Barry Becker, Ronny Kohavi`, as some
/// deposits write them), as those people; anything else (`University of California,
/// Irvine`, `Smith, John`) as it is.
fn split_name_list(person: Person) -> Vec<Person> {
    if person.given.is_some() || !person.family.contains(", ") {
        return vec![person];
    }
    let parts: Vec<&str> = person
        .family
        .split(", ")
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
        .collect();
    let all_names = parts.iter().all(|p| {
        let words: Vec<&str> = p.split_whitespace().collect();
        (2..=4).contains(&words.len())
            && words
                .iter()
                .all(|w| w.chars().next().is_some_and(char::is_uppercase))
            && !words.iter().any(|w| {
                matches!(
                    *w,
                    "University" | "Institute" | "Department" | "Center" | "Centre"
                )
            })
    });
    if parts.len() < 2 || !all_names {
        return vec![person];
    }
    parts.into_iter().map(split_name).collect()
}

/// Normalise the identifiers of a parsed record and apply the title retraction flag:
/// DOIs lowercase and bare, arXiv ids without version (also derived from an arXiv
/// DataCite DOI), PMCIDs as `PMC` + digits, empty strings dropped; a closing
/// `et al.` author entry dropped and the list marked as cut; the other years without
/// the main one.
pub fn finish(mut work: Work) -> Work {
    let keep = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    work.title = collapse_whitespace(&work.title);
    work.doi = keep(work.doi).and_then(|d| normalize_doi(&d));
    work.arxiv = keep(work.arxiv)
        .and_then(|a| normalize_arxiv(&a))
        .or_else(|| {
            work.doi
                .as_deref()
                .filter(|d| d.starts_with("10.48550/arxiv."))
                .and_then(normalize_arxiv)
        });
    work.pmid = keep(work.pmid).and_then(|p| normalize_pmid(&p));
    work.pmcid = keep(work.pmcid).and_then(|p| normalize_pmcid(&p));
    work.venue = keep(work.venue).map(|v| collapse_whitespace(&v));
    work.work_type = keep(work.work_type);
    work.url = keep(work.url);
    work.oa_url = keep(work.oa_url);
    work.abstract_text = keep(work.abstract_text);
    work.authors.retain(|p| !p.family.trim().is_empty());
    work.authors = work.authors.into_iter().flat_map(split_name_list).collect();
    // A closing `et al.` or `others` entry says the list was cut, and names nobody.
    while work.authors.last().is_some_and(stands_for_the_rest) {
        work.authors.pop();
        work.authors_truncated = true;
    }
    work.authors_truncated |= work.authors.len() == AUTHOR_CAP;
    let year = work.year;
    work.other_years.retain(|y| Some(*y) != year);
    work.other_years.sort_unstable();
    work.other_years.dedup();
    if has_retracted_prefix(&work.title) {
        work.is_retracted = true;
    }
    work
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_entities() {
        assert_eq!(
            strip_markup("Leucocyte telomere length at the <i>TERT</i> gene &amp; risk"),
            "Leucocyte telomere length at the TERT gene & risk"
        );
        assert_eq!(
            strip_markup("H<sub>2</sub>O in <jats:p>cold</jats:p>water"),
            "H2O in cold water"
        );
        assert_eq!(
            decode_entities("&#xe0; &#233; &unknown; &lt;"),
            "à é &unknown; <"
        );
    }

    #[test]
    fn names_keep_particles_and_suffixes() {
        assert_eq!(
            split_name("Heather Piwowar"),
            Person::new(Some("Heather"), "Piwowar")
        );
        assert_eq!(
            split_name("Joost van der Putten"),
            Person::new(Some("Joost"), "van der Putten")
        );
        assert_eq!(
            split_name("Peter H. N. de With"),
            Person::new(Some("Peter H. N."), "de With")
        );
        assert_eq!(
            split_name("Martin Luther King Jr."),
            Person::new(Some("Martin Luther"), "King Jr.")
        );
        assert_eq!(
            split_name("Vaswani, Ashish"),
            Person::new(Some("Ashish"), "Vaswani")
        );
        assert_eq!(split_name("Aristotle"), Person::new(None, "Aristotle"));
        // A capitalised "Van" is a given name here, not a particle.
        assert_eq!(
            split_name("Van Morrison"),
            Person::new(Some("Van"), "Morrison")
        );
    }

    #[test]
    fn medline_names() {
        assert_eq!(
            medline_name("LoPresti PJ"),
            Person::new(Some("PJ"), "LoPresti")
        );
        assert_eq!(
            medline_name("Hambrick GW Jr"),
            Person::new(Some("GW"), "Hambrick Jr")
        );
        assert_eq!(
            medline_name("Haas-Kogan DA"),
            Person::new(Some("DA"), "Haas-Kogan")
        );
        assert_eq!(
            medline_name("van der Berg J"),
            Person::new(Some("J"), "van der Berg")
        );
        assert_eq!(
            medline_name("Cochrane Collaboration"),
            Person::new(None, "Cochrane Collaboration")
        );
    }

    #[test]
    fn retraction_prefixes() {
        assert!(has_retracted_prefix(
            "RETRACTED: A 1D CNN for classification"
        ));
        assert!(has_retracted_prefix(
            "RETRACTED ARTICLE: Artificial intelligence in disease"
        ));
        assert!(has_retracted_prefix("[Retracted] Some title"));
        assert!(!has_retracted_prefix("Retraction: Some title"));
        assert!(!has_retracted_prefix(
            "Retracted publications in medicine: a survey"
        ));
    }

    #[test]
    fn years_in_dates() {
        assert_eq!(year_in("1998 Dec-1999 Jan"), Some(1998));
        assert_eq!(year_in("Spring 1990"), Some(1990));
        assert_eq!(year_in("2017-06-01"), Some(2017));
        assert_eq!(year_in("n.d."), None);
    }

    #[test]
    fn finish_normalises_identifiers() {
        let w = finish(Work {
            title: "  RETRACTED:  Old\n title ".into(),
            doi: Some("https://doi.org/10.48550/arXiv.1706.03762".into()),
            pmcid: Some("5815332".into()),
            venue: Some(" ".into()),
            ..Work::default()
        });
        assert_eq!(w.title, "RETRACTED: Old title");
        assert!(w.is_retracted);
        assert_eq!(w.doi.as_deref(), Some("10.48550/arxiv.1706.03762"));
        assert_eq!(w.arxiv.as_deref(), Some("1706.03762"));
        assert_eq!(w.pmcid.as_deref(), Some("PMC5815332"));
        assert_eq!(w.venue, None);
    }
}
