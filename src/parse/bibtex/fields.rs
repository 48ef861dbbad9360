//! From an entry's field values (macros expanded, inheritance applied) to
//! [`RefFields`]: decoded title, names, year or biblatex date, the venue that fits
//! the entry type, and identifiers wherever BibTeX habits put them.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::{IdScheme, RefFields, Span};
use crate::parse::ids;
use crate::parse::markup::decode_latex;
use crate::parse::refstring::contains_ignore_case;

use super::names::{parse_names, tidied};

/// An entry's fields by lowercase name.
pub(super) trait Fields {
    fn get(&self, name: &str) -> Option<&str>;
}

/// A `journal` that only says the work is an arXiv preprint.
static ARXIV_VENUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:arxiv|arxiv\s+preprint|arxiv\s+e-prints|preprint)(?:\s*,?\s*(?:arxiv\s*:?\s*)?\S+)?\s*$")
        .expect("arXiv venue regex")
});

pub(super) fn ref_fields(entry_type: &str, f: &impl Fields) -> RefFields {
    let mut out = RefFields {
        title: title(f),
        ..RefFields::default()
    };
    if let Some(raw) = f.get("author") {
        (out.authors, out.authors_truncated) = parse_names(raw);
    }
    if let Some(raw) = f.get("editor") {
        out.editors = parse_names(raw).0;
    }
    out.year = f
        .get("year")
        .and_then(first_year)
        .or_else(|| f.get("date").and_then(date_year));
    out.venue = venue(entry_type, f);
    out.volume = f.get("volume").map(text).filter(|s| !s.is_empty());
    out.issue = f
        .get("number")
        .or(f.get("issue"))
        .map(text)
        .filter(|s| !s.is_empty());
    out.pages = f.get("pages").map(pages).filter(|s| !s.is_empty());
    out.publisher = f.get("publisher").map(text).filter(|s| !s.is_empty());
    identifiers(f, &mut out);
    if out
        .venue
        .as_deref()
        .is_some_and(|v| ARXIV_VENUE.is_match(v))
        && out.arxiv.is_some()
    {
        out.venue = Some("arXiv".to_string());
    }
    if out.venue.is_none() && out.arxiv.is_some() {
        out.venue = Some("arXiv".to_string());
    }
    if out.isbn.is_none() {
        out.invalid_isbn = f.get("isbn").and_then(|i| ids::invalid_isbn(&plain(i)));
    }
    let get = |name: &str| {
        let value = f.get(name)?;
        let identifier = matches!(name, "url" | "doi" | "eprint");
        Some(if identifier {
            plain(value)
        } else {
            text(value)
        })
    };
    crate::parse::kind::of_entry(entry_type, &get, &out).apply(&mut out);
    out
}

/// Decoded text: LaTeX to Unicode, braces dropped, whitespace collapsed.
pub(super) fn text(raw: &str) -> String {
    tidied(decode_latex(raw))
}

fn title(f: &impl Fields) -> Option<String> {
    let title = text(f.get("title")?);
    if title.is_empty() {
        return None;
    }
    match f.get("subtitle").map(text).filter(|s| !s.is_empty()) {
        Some(subtitle) => Some(format!(
            "{}: {subtitle}",
            title.trim_end_matches([':', ' '])
        )),
        None => Some(title),
    }
}

/// The first four-digit number: `2020`, `{2020a}`, `c. 1999`.
fn first_year(raw: &str) -> Option<i32> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if run == 4 {
                return raw[i..i + 4].parse().ok();
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// The (start) year of a biblatex `date` (`2020-05-01`, `2019/2020`, `2020~`).
fn date_year(raw: &str) -> Option<i32> {
    use biblatex::{Chunk, DateValue, Spanned};
    let chunks = [Spanned::zero(Chunk::Normal(raw.trim().to_string()))];
    match biblatex::Date::parse(&chunks).map(|d| d.value) {
        Ok(DateValue::At(d) | DateValue::After(d) | DateValue::Before(d)) => Some(d.year),
        Ok(DateValue::Between(d, _)) => Some(d.year),
        Err(_) => first_year(raw),
    }
}

/// `123--456` → `123-456`, as the reference-string parser writes pages.
fn pages(raw: &str) -> String {
    let decoded = text(raw);
    let mut out = String::with_capacity(decoded.len());
    let mut dash = false;
    for c in decoded.chars() {
        if matches!(c, '-' | '–' | '—') {
            if !dash {
                out.push('-');
            }
            dash = true;
        } else {
            dash = false;
            out.push(c);
        }
    }
    out.replace(" - ", "-")
}

/// The venue that fits the entry type: the journal of an article, the book of a
/// chapter or paper, the publisher of a book, the school of a thesis.
fn venue(entry_type: &str, f: &impl Fields) -> Option<String> {
    let order: &[&str] = match entry_type {
        "article" | "periodical" | "suppperiodical" => &["journal", "journaltitle", "booktitle"],
        "inproceedings" | "conference" | "incollection" | "inbook" | "inreference" | "suppbook"
        | "suppcollection" | "bookinbook" => &[
            "booktitle",
            "journal",
            "journaltitle",
            "eventtitle",
            "series",
        ],
        "book" | "mvbook" | "collection" | "mvcollection" | "proceedings" | "mvproceedings"
        | "reference" | "mvreference" | "manual" | "booklet" => {
            &["publisher", "organization", "institution", "howpublished"]
        }
        "phdthesis" | "mastersthesis" | "thesis" => &["school", "institution", "publisher"],
        "techreport" | "report" => &["institution", "organization", "publisher", "school"],
        _ => &[
            "journal",
            "journaltitle",
            "booktitle",
            "howpublished",
            "publisher",
            "organization",
            "institution",
            "school",
        ],
    };
    order
        .iter()
        .filter_map(|name| f.get(name))
        .map(text)
        .find(|v| !v.is_empty() && !v.contains("://"))
}

/// An identifier field as written, without LaTeX escapes or braces.
fn plain(raw: &str) -> String {
    if !raw.contains(['\\', '{', '}']) {
        return raw.trim().to_string();
    }
    let mut s = raw.trim().to_string();
    for (from, to) in [
        ("\\url{", ""),
        ("\\href{", ""),
        ("\\textunderscore", "_"),
        ("\\_", "_"),
        ("\\%", "%"),
        ("\\&", "&"),
        ("\\#", "#"),
        ("\\~{}", "~"),
        ("\\textasciitilde", "~"),
        ("{", ""),
        ("}", ""),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    s.trim().to_string()
}

fn identifiers(f: &impl Fields, out: &mut RefFields) {
    let url = f.get("url").map(plain).filter(|u| !u.is_empty());
    let from_url = url.as_deref().and_then(ids::identifier_from_url);
    let found = |scheme: IdScheme| {
        from_url
            .as_ref()
            .filter(|(s, _)| *s == scheme)
            .map(|(_, v)| v.clone())
    };
    let eprint_type = f
        .get("archiveprefix")
        .or(f.get("eprinttype"))
        .map(|t| plain(t).to_ascii_lowercase());
    let eprint = f.get("eprint").map(plain).filter(|e| !e.is_empty());
    let eprint_of = |types: &[&str]| {
        eprint
            .clone()
            .filter(|_| eprint_type.as_deref().is_some_and(|t| types.contains(&t)))
    };
    // Free text where BibTeX habits hide identifiers; searched only when a cheap
    // test says an identifier may be there.
    let notes: Vec<&str> = ["note", "howpublished", "annote", "journal", "addendum"]
        .iter()
        .filter_map(|n| f.get(n))
        .collect();

    out.doi = f
        .get("doi")
        .and_then(|d| ids::normalize_doi(&plain(d)))
        .or_else(|| found(IdScheme::Doi))
        .or_else(|| eprint_of(&["doi"]).and_then(|e| ids::normalize_doi(&e)))
        .or_else(|| in_notes(&notes, "10.", ids::find_dois));
    let arxiv_eprint = eprint.as_deref().filter(|e| {
        eprint_type.as_deref() == Some("arxiv") || (eprint_type.is_none() && looks_like_arxiv(e))
    });
    out.arxiv = arxiv_eprint
        .and_then(ids::normalize_arxiv)
        .or_else(|| {
            f.get("arxivid")
                .or(f.get("arxiv"))
                .and_then(|a| ids::normalize_arxiv(&plain(a)))
        })
        .or_else(|| found(IdScheme::Arxiv))
        .or_else(|| {
            out.doi.as_deref().and_then(|d| {
                d.strip_prefix("10.48550/arxiv.")
                    .and_then(ids::normalize_arxiv)
            })
        })
        .or_else(|| in_notes(&notes, "arxiv", ids::find_arxiv_ids));
    out.pmid = f
        .get("pmid")
        .and_then(|p| ids::normalize_pmid(&plain(p)))
        .or_else(|| eprint_of(&["pubmed", "pmid"]).and_then(|e| ids::normalize_pmid(&e)))
        .or_else(|| found(IdScheme::Pmid))
        .or_else(|| in_notes(&notes, "pmid", ids::find_pmids));
    out.pmcid = f
        .get("pmcid")
        .and_then(|p| ids::normalize_pmcid(&plain(p)))
        .or_else(|| {
            eprint_of(&["pmc", "pmcid", "pubmedcentral"]).and_then(|e| ids::normalize_pmcid(&e))
        })
        .or_else(|| found(IdScheme::Pmcid))
        .or_else(|| in_notes(&notes, "pmc", ids::find_pmcids));
    out.isbn = f.get("isbn").and_then(|i| ids::normalize_isbn(&plain(i)));
    out.url = url.or_else(|| {
        f.get("howpublished")
            .map(plain)
            .filter(|h| h.starts_with("http://") || h.starts_with("https://"))
    });
}

/// The first identifier `find` sees in the free-text fields that mention `hint`
/// (a cheap test that spares the regex most fields).
fn in_notes(notes: &[&str], hint: &str, find: fn(&str) -> Vec<(Span, String)>) -> Option<String> {
    notes
        .iter()
        .filter(|n| contains_ignore_case(n, hint))
        .find_map(|n| find(&plain(n)).into_iter().next().map(|(_, id)| id))
}

/// An `eprint` without a type that has the shape of an arXiv id.
fn looks_like_arxiv(eprint: &str) -> bool {
    let e = eprint.trim();
    let new_style = e.len() >= 9
        && e.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && e.as_bytes()[4] == b'.'
        && e.as_bytes()[5..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
            >= 4;
    new_style || (e.contains('/') && ids::normalize_arxiv(e).is_some() && !e.starts_with("10."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_and_dates() {
        assert_eq!(first_year("{2020a}"), Some(2020));
        assert_eq!(first_year("c. 1999"), Some(1999));
        assert_eq!(first_year("in press"), None);
        assert_eq!(date_year("2020-05-01"), Some(2020));
        assert_eq!(date_year("2019/2020"), Some(2019));
        assert_eq!(date_year("2021~"), Some(2021));
    }

    #[test]
    fn pages_use_one_hyphen() {
        assert_eq!(pages("436--444"), "436-444");
        assert_eq!(pages("e1002 -- e1010"), "e1002-e1010");
    }

    #[test]
    fn identifier_fields_lose_their_escapes() {
        assert_eq!(plain(r"{10.1000/a\_b}"), "10.1000/a_b");
        assert_eq!(plain(r"\url{https://x.org/a\%20b}"), "https://x.org/a%20b");
    }
}
