//! Linking citations to references within one document: keys to bibliography
//! entries, numbered markers to reference-list items, tags to their definitions,
//! author–year citations to entries by first author and year, and inline identifiers
//! to references made from the citation itself.

use std::collections::HashMap;
use std::sync::Arc;

use crate::document::{Document, Entries};
use crate::model::{Citation, CitationKind, IdScheme, RefFields, Reference, ReferenceOrigin, Span};
use unicode_normalization::UnicodeNormalization;

/// Set `Citation::reference` for every citation that can be linked; add one
/// `Inline` reference per distinct identifier cited inline.
pub fn link(doc: &mut Document) {
    // The references as read are indexed once and kept while they do not change;
    // a document linked before (inline references made) is indexed whole.
    let relinked = doc
        .references
        .last()
        .is_some_and(|r| r.origin == ReferenceOrigin::Inline);
    let entries = if relinked {
        Arc::new(Entries::new(&doc.references))
    } else {
        doc.entries.of(&doc.references)
    };
    // The first definition wins, as in BibTeX; duplicates are reported elsewhere.
    let (by_key, by_folded_key) = (&entries.by_key, &entries.by_folded_key);
    let mut inline: HashMap<(IdScheme, String), usize> = HashMap::new();
    for c in 0..doc.citations.len() {
        let citation = &doc.citations[c];
        let target = match citation.kind {
            CitationKind::Key
            | CitationKind::Tag
            | CitationKind::Numeric
            | CitationKind::Footnote => by_key
                .get(&citation.key)
                .or_else(|| by_folded_key.get(&citation.key.to_lowercase()))
                .copied()
                .filter(|&r| accepts(citation.kind, doc.references[r].origin))
                .map(|r| alias_target(&doc.references, r, by_folded_key).unwrap_or(r)),
            CitationKind::AuthorYear => author_year_target(&doc.references, &citation.key),
            CitationKind::Identifier => match &citation.id {
                Some((scheme, value)) => {
                    // A bibliography entry may define the identifier as its key
                    // (Manubot's manual references use `url:…` ids).
                    let defined = by_key
                        .get(&citation.key)
                        .or_else(|| by_folded_key.get(&citation.key.to_lowercase()));
                    match defined {
                        Some(&r) => Some(r),
                        None => {
                            let key = (*scheme, value.clone());
                            let next = doc.references.len();
                            let r = *inline.entry(key).or_insert(next);
                            if r == next {
                                let reference = inline_reference(
                                    &citation.key,
                                    *scheme,
                                    value,
                                    citation.file,
                                    citation.span,
                                );
                                doc.references.push(reference);
                            }
                            Some(r)
                        }
                    }
                }
                None => None,
            },
        };
        doc.citations[c].reference = target;
    }
}

/// Whether [`link`] surely links `citation` to none of the references of `doc`
/// (linked): no reference has its key (or the key in other case) and no
/// author–year match. Identifier citations (which make references of their own)
/// and `\nocite{*}` are never said to link nowhere.
pub fn links_nowhere(doc: &Document, citation: &Citation) -> bool {
    let references = &doc.references;
    match citation.kind {
        CitationKind::Identifier => false,
        CitationKind::Key if citation.key == "*" => false,
        CitationKind::AuthorYear => author_year_target(references, &citation.key).is_none(),
        _ => {
            let key = &citation.key;
            let folded = key.to_lowercase();
            // The references as read are looked up in their index; only those
            // made by linking are gone through.
            let (indexed, rest) = match doc.entries.kept(references) {
                Some(entries) => (
                    entries.by_folded_key.contains_key(&folded),
                    &references[entries.count()..],
                ),
                None => (false, &references[..]),
            };
            !indexed
                && !rest.iter().any(|r| {
                    r.key == *key
                        || if r.key.is_ascii() && key.is_ascii() {
                            r.key.eq_ignore_ascii_case(key)
                        } else {
                            r.key.to_lowercase() == folded
                        }
                })
        }
    }
}

/// Which reference origins a citation kind may point to.
fn accepts(kind: CitationKind, origin: ReferenceOrigin) -> bool {
    use ReferenceOrigin::*;
    match kind {
        // Manubot aliases (`[@alias]: doi:…`) are tag definitions without `tag:`.
        CitationKind::Key => matches!(origin, BibEntry | CslJson | BibItem | TagDefinition),
        CitationKind::Tag => matches!(origin, TagDefinition | CslJson | BibEntry),
        CitationKind::Numeric => matches!(origin, ReferenceList | BibItem),
        CitationKind::Footnote => origin == Footnote,
        CitationKind::AuthorYear | CitationKind::Identifier => true,
    }
}

/// The bibliography entry a Manubot tag definition stands for: `[@tag:x]:
/// url:https://…` names the entry whose key is `url:https://…` (as in Manubot's
/// manual-references.json). `None` when `r` is no tag definition or names no entry.
pub fn alias_target(
    references: &[Reference],
    r: usize,
    by_folded_key: &HashMap<String, usize>,
) -> Option<usize> {
    let reference = &references[r];
    if reference.origin != ReferenceOrigin::TagDefinition {
        return None;
    }
    let f = &reference.fields;
    [
        f.doi.as_deref().map(|v| format!("doi:{v}")),
        f.url.as_deref().map(|v| format!("url:{v}")),
        f.arxiv.as_deref().map(|v| format!("arxiv:{v}")),
        f.pmid.as_deref().map(|v| format!("pmid:{v}")),
        f.pmcid.as_deref().map(|v| format!("pmcid:{v}")),
    ]
    .into_iter()
    .flatten()
    .find_map(|key| by_folded_key.get(&key.to_lowercase()).copied())
    .filter(|&t| {
        matches!(
            references[t].origin,
            ReferenceOrigin::BibEntry | ReferenceOrigin::CslJson
        )
    })
}

/// The reference whose first author's family name and year match an author–year
/// citation (`Smith et al., 2020a` → Smith, 2020, suffix a). With a year suffix the
/// n-th such reference in bibliography order is taken. Without one, several
/// references of one first author and year are told apart by the rest of the
/// citation: `Kingma and Ba 2015` is the one whose second author is Ba, `Kingma et
/// al. 2015` one with three authors or more.
fn author_year_target(references: &[Reference], key: &str) -> Option<usize> {
    let (family, year, suffix) = author_year_parts(key)?;
    let candidates: Vec<usize> = references
        .iter()
        .enumerate()
        .filter(|(_, r)| r.fields.year == Some(year))
        .filter(|(_, r)| {
            r.fields
                .authors
                .first()
                .or(r.fields.editors.first())
                .is_some_and(|p| {
                    fold(&p.family) == family || fold(&p.family).ends_with(&format!(" {family}"))
                })
        })
        .map(|(i, _)| i)
        .collect();
    match suffix {
        Some(letter) => candidates
            .get((letter as u8).wrapping_sub(b'a') as usize)
            .copied(),
        None if candidates.len() > 1 => {
            let fit = |&&i: &&usize| names_fit(&references[i], key);
            candidates
                .iter()
                .max_by_key(|i| (fit(i), std::cmp::Reverse(**i)))
                .copied()
        }
        None => candidates.first().copied(),
    }
}

/// How well the names of an author–year citation fit a reference's authors: the
/// other family names it writes that the authors hold, and whether "et al." or a
/// pair of names agrees with the number of authors.
fn names_fit(reference: &Reference, key: &str) -> (usize, bool) {
    let authors: Vec<String> = reference
        .fields
        .authors
        .iter()
        .map(|p| fold(&p.family))
        .collect();
    let names = key.split(|c: char| c.is_ascii_digit()).next().unwrap_or("");
    let et_al = names.contains("et al");
    let words: Vec<String> = names
        .split(|c: char| !c.is_alphabetic() && c != '-' && c != '\'')
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .map(fold)
        .collect();
    let named = words
        .iter()
        .skip(1)
        .filter(|w| {
            authors
                .iter()
                .skip(1)
                .any(|a| a == *w || a.ends_with(&format!(" {w}")))
        })
        .count();
    let count_agrees = if et_al {
        authors.len() >= 3 || reference.fields.authors_truncated
    } else {
        authors.len() <= words.len().max(1)
    };
    (named, count_agrees)
}

fn inline_reference(
    key: &str,
    scheme: IdScheme,
    value: &str,
    file: crate::model::FileId,
    span: Span,
) -> Reference {
    let mut fields = RefFields::default();
    *fields.identifier_mut(scheme) = Some(value.to_string());
    Reference {
        key: key.to_string(),
        origin: ReferenceOrigin::Inline,
        entry_type: None,
        file,
        span,
        key_span: Some(span),
        raw: key.to_string(),
        fields,
        field_spans: Vec::new(),
    }
}

/// Lowercase without accents, for comparing family names.
pub fn fold(name: &str) -> String {
    name.nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// First author's folded family name, year and year suffix of an author–year key:
/// `Smith et al., 2020a` → (`smith`, 2020, Some('a')); `van der Berg & Lee 2019`
/// → (`van der berg`, 2019, None).
pub fn author_year_parts(key: &str) -> Option<(String, i32, Option<char>)> {
    let year_at = key
        .char_indices()
        .find(|&(i, c)| {
            c.is_ascii_digit()
                && key[i..]
                    .chars()
                    .take(4)
                    .filter(char::is_ascii_digit)
                    .count()
                    == 4
        })?
        .0;
    let year: i32 = key[year_at..year_at + 4].parse().ok()?;
    let suffix = key[year_at + 4..]
        .chars()
        .next()
        .filter(|c| c.is_ascii_lowercase());
    let names = &key[..year_at];
    let first = names
        .split(" et al")
        .next()?
        .split(['&', ',', '('])
        .next()?
        .split(" and ")
        .next()?
        .trim();
    (!first.is_empty()).then(|| (fold(first), year, suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn author_year_keys_split() {
        assert_eq!(
            author_year_parts("Smith et al., 2020a"),
            Some(("smith".into(), 2020, Some('a')))
        );
        assert_eq!(
            author_year_parts("van der Berg & Lee 2019"),
            Some(("van der berg".into(), 2019, None))
        );
        assert_eq!(
            author_year_parts("Müller and Jones (2018)"),
            Some(("muller".into(), 2018, None))
        );
        assert_eq!(author_year_parts("no year here"), None);
    }

    #[test]
    fn one_first_author_and_year_told_apart_by_the_other_names() {
        let reference = |key: &str, families: &[&str]| Reference {
            key: key.into(),
            origin: ReferenceOrigin::ReferenceList,
            entry_type: None,
            file: crate::model::FileId(0),
            span: Span::default(),
            key_span: None,
            raw: String::new(),
            fields: RefFields {
                authors: families
                    .iter()
                    .map(|f| crate::model::Person::new(Some("A."), f))
                    .collect(),
                year: Some(2015),
                ..RefFields::default()
            },
            field_spans: Vec::new(),
        };
        let refs = [
            reference("adam", &["Kingma", "Ba"]),
            reference("vd", &["Kingma", "Salimans", "Welling"]),
        ];
        assert_eq!(author_year_target(&refs, "Kingma and Ba 2015"), Some(0));
        assert_eq!(
            author_year_target(&refs, "Kingma, Salimans, and Welling 2015"),
            Some(1)
        );
        assert_eq!(author_year_target(&refs, "Kingma et al., 2015"), Some(1));
        assert_eq!(author_year_target(&refs, "Kingma 2015"), Some(0));
        assert_eq!(author_year_target(&refs, "Kingma et al., 2015b"), Some(1));
    }
}
