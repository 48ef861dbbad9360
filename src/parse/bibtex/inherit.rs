//! `crossref` and `xdata` inheritance: a child takes the fields it lacks from its
//! parents (nearest first, chains followed to a bounded depth, cycles ignored).
//! As in biblatex, a parent's `title` becomes the child's `booktitle` (or
//! `journaltitle` for a periodical), never the child's own title.

use std::borrow::Cow;
use std::collections::HashMap;

use super::Entry;
use super::fields::Fields;

/// Fields a parent never passes on: biblatex's own exceptions, and identifiers,
/// which name the parent (the proceedings volume), not the child paper.
const NOT_INHERITED: &[&str] = &[
    "crossref",
    "xdata",
    "xref",
    "ids",
    "entryset",
    "label",
    "shorthand",
    "sortkey",
    "key",
    "title",
    "subtitle",
    "titleaddon",
    "shorttitle",
    "sorttitle",
    "indextitle",
    "execute",
    "options",
    "presort",
    "related",
    "doi",
    "url",
    "eprint",
    "eprinttype",
    "archiveprefix",
    "eprintclass",
    "primaryclass",
    "pmid",
    "pmcid",
    "arxiv",
    "arxivid",
    "isbn",
    "urldate",
];

/// Longest parent chain followed.
const MAX_DEPTH: usize = 8;

/// Fill the children's fields; whether any entry has a parent.
pub(super) fn inherit<'t>(text: &str, entries: &mut [Entry<'t>]) -> bool {
    let children: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].get("crossref").is_some() || entries[i].get("xdata").is_some())
        .collect();
    if children.is_empty() {
        return false;
    }
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        let key = text[entry.raw.key.start..entry.raw.key.end].to_lowercase();
        by_key.entry(key).or_insert(i);
    }
    for child in children {
        let ancestors = ancestors(entries, &by_key, child);
        let mut added: Vec<(Cow<'t, str>, Cow<'t, str>)> = Vec::new();
        for parent in ancestors {
            let parent = &entries[parent];
            let container_title = match parent.entry_type.as_str() {
                "periodical" => Some("journaltitle"),
                "book" | "mvbook" | "collection" | "mvcollection" | "proceedings"
                | "mvproceedings" | "reference" | "mvreference" => Some("booktitle"),
                _ => None,
            };
            for (name, value) in &parent.values {
                let target: &str = match (name.as_ref(), container_title) {
                    ("title", Some(as_name)) => as_name,
                    (n, _) if NOT_INHERITED.contains(&n) => continue,
                    (n, _) => n,
                };
                let present =
                    entries[child].get(target).is_some() || added.iter().any(|(n, _)| n == target);
                if !present {
                    added.push((Cow::Owned(target.to_string()), value.clone()));
                }
            }
        }
        entries[child].values.extend(added);
    }
    true
}

/// Parents of `child` in the order their fields count: its crossref, its xdata
/// entries, then theirs.
fn ancestors(entries: &[Entry<'_>], by_key: &HashMap<String, usize>, child: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut frontier = vec![child];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for &entry in &frontier {
            let e = &entries[entry];
            let keys = e
                .get("crossref")
                .into_iter()
                .chain(e.get("xdata").into_iter().flat_map(|x| x.split(',')));
            for key in keys {
                let Some(&parent) = by_key.get(&key.trim().to_lowercase()) else {
                    continue;
                };
                if parent != child && !out.contains(&parent) {
                    out.push(parent);
                    next.push(parent);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    out
}
