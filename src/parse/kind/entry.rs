//! The kind of a BibTeX/BibLaTeX entry (its type, refined by its fields: an `@misc`
//! with an `isbn` is a book, one with `school` a thesis, one with `version` software)
//! and of a CSL-JSON item (its `type`, refined the same way).

use super::{KindInfo, cues, is_conference_venue, is_preprint_venue, package};
use crate::model::{RefFields, WorkKind};
use crate::parse::ids::is_preprint_doi;

/// The kind an entry type names by itself; `None` for the catch-all types (`@misc`)
/// whose fields must say more.
fn type_kind(entry_type: &str) -> Option<WorkKind> {
    use WorkKind as K;
    Some(match entry_type {
        "article" | "periodical" | "suppperiodical" => K::Article,
        "inproceedings" | "conference" => K::ConferencePaper,
        "incollection" | "inbook" | "inreference" | "bookinbook" | "suppbook"
        | "suppcollection" => K::Chapter,
        "book" | "mvbook" | "booklet" => K::Book,
        "collection" | "mvcollection" | "proceedings" | "mvproceedings" | "reference"
        | "mvreference" => K::EditedVolume,
        "phdthesis" | "mastersthesis" | "thesis" => K::Thesis,
        "techreport" | "report" | "manual" => K::Report,
        "online" | "www" | "electronic" | "webpage" => K::WebPage,
        "software" | "codefragment" => K::Software,
        "dataset" | "data" => K::Dataset,
        "standard" => K::Standard,
        "patent" => K::Patent,
        "legislation" | "legal" | "jurisdiction" | "legislature" | "regulation" => K::Legal,
        "preprint" => K::Preprint,
        "artwork" | "audio" | "image" | "movie" | "music" | "performance" | "video" => K::Other,
        _ => return None,
    })
}

/// A field's decoded value by lowercase name.
type Getter<'a> = Box<dyn Fn(&str) -> Option<String> + 'a>;

/// What the fields of an entry say, gathered once.
struct Said<'a> {
    entry_type: &'a str,
    fields: &'a RefFields,
    /// Every free-text field but the title, joined: where kind words are written.
    notes: String,
    title: String,
    has: Box<dyn Fn(&str) -> bool + 'a>,
    get: Getter<'a>,
}

/// The kind of a BibTeX/BibLaTeX entry; `get` gives a field's decoded value.
pub fn of_entry(
    entry_type: &str,
    get: &dyn Fn(&str) -> Option<String>,
    fields: &RefFields,
) -> KindInfo {
    let entry_type = entry_type.to_ascii_lowercase();
    const NOTE_FIELDS: &[&str] = &[
        "howpublished",
        "note",
        "series",
        "type",
        "number",
        "institution",
        "organization",
        "publisher",
        "url",
        "doi",
        "eprinttype",
        "addendum",
        "annote",
        "journal",
        "journaltitle",
        "booktitle",
        "school",
        "version",
        "eventtitle",
    ];
    let notes: Vec<String> = NOTE_FIELDS.iter().filter_map(|n| get(n)).collect();
    let said = Said {
        entry_type: &entry_type,
        fields,
        notes: notes.join(" . "),
        title: fields.title.clone().unwrap_or_default(),
        has: Box::new(move |n: &str| get(n).is_some_and(|v| !v.trim().is_empty())),
        get: Box::new(move |n: &str| get(n).filter(|v| !v.trim().is_empty())),
    };
    classify(&said)
}

fn classify(s: &Said<'_>) -> KindInfo {
    use WorkKind as K;
    let t = s.entry_type;
    let base = type_kind(t);
    // Types that only say "a document of some sort": their fields decide.
    let open = matches!(base, None | Some(K::Report | K::WebPage | K::Other)) || t == "unpublished";
    if let Some(info) = numbered_kind(s, open) {
        return info;
    }
    let f = s.fields;
    let preprint = f.arxiv.is_some() || f.doi.as_deref().is_some_and(is_preprint_doi);
    let venue = f.venue.as_deref().unwrap_or("");
    match base {
        Some(K::Article) if preprint && (venue.is_empty() || is_preprint_venue(venue)) => {
            return KindInfo::of(K::Preprint);
        }
        Some(K::Chapter) if is_conference_venue(venue) => return KindInfo::of(K::ConferencePaper),
        Some(K::Book) if f.authors.is_empty() && !f.editors.is_empty() => {
            return KindInfo::of(K::EditedVolume);
        }
        Some(K::Software | K::Dataset) => {
            return KindInfo {
                version: version_of(s),
                package: package_of(s),
                ..KindInfo::of(base.unwrap_or(K::Software))
            };
        }
        Some(kind) if !open => return KindInfo::of(kind),
        _ => {}
    }
    // An open type (`@misc`, `@unpublished`, `@report`, `@online`): the fields decide.
    if preprint && !(s.has)("school") {
        return KindInfo::of(K::Preprint);
    }
    if (s.has)("school") || cues::is_thesis(&s.notes) {
        return KindInfo::of(K::Thesis);
    }
    if software_said(s) {
        return software(s);
    }
    let data_doi = f.doi.as_deref().is_some_and(is_data_repository_doi);
    if t != "techreport" && t != "report" && (cues::is_dataset(&s.notes) || data_doi) {
        return KindInfo {
            version: version_of(s),
            ..KindInfo::of(K::Dataset)
        };
    }
    // A talk's own title often says it is one (`Commencement Address`, `Keynote: …`).
    if cues::is_talk(&s.notes) || cues::is_talk(&s.title) {
        return KindInfo::of(K::Talk);
    }
    if base == Some(K::Report) || (s.has)("institution") || cues::is_report(&s.notes) {
        return KindInfo::numbered(K::Report, (s.get)("number"));
    }
    if f.isbn.is_some() || f.invalid_isbn.is_some() {
        let kind = if (s.has)("booktitle") {
            K::Chapter
        } else {
            K::Book
        };
        return KindInfo::of(kind);
    }
    if let Some(kind) = base {
        return KindInfo::of(kind);
    }
    // A catch-all entry whose one locator is a web address (not a publisher's article
    // page, not an identifier) cites the page.
    let web = f
        .url
        .as_deref()
        .is_some_and(|u| !cues::is_scholarly_host(u))
        && f.doi.is_none()
        && !(s.has)("journal")
        && !(s.has)("booktitle")
        && !(s.has)("publisher");
    if web {
        return KindInfo::of(K::WebPage);
    }
    let publisher = (s.get)("publisher").unwrap_or_default();
    if cues::is_publisher(&publisher) && !(s.has)("journal") && !(s.has)("booktitle") {
        return KindInfo::of(K::Book);
    }
    if t == "unpublished" {
        return KindInfo::of(K::Other);
    }
    // No container, publisher or identifier, from before most of the record was
    // digitised: an old report, memo or manuscript as likely as a paper.
    let bare = !(s.has)("journal") && !(s.has)("booktitle") && f.doi.is_none() && f.arxiv.is_none();
    if bare && f.year.is_some_and(|y| y < super::cues::OLD) {
        return KindInfo::of(K::Other);
    }
    KindInfo::default()
}

/// The kinds a number names, in any type that does not say otherwise: an RFC, a
/// standard, a patent, a legal text.
fn numbered_kind(s: &Said<'_>, open: bool) -> Option<KindInfo> {
    use WorkKind as K;
    let t = s.entry_type;
    // The designation in the title counts only where it leads it (`RFC 2119: Key
    // words …`), as in a standard's or an RFC's own title.
    let title_rfc = s
        .title
        .trim_start()
        .to_ascii_uppercase()
        .starts_with("RFC")
        .then(|| cues::rfc_number(&s.title))
        .flatten();
    // `series = {Request for Comments}, number = {791}`: the IETF's own BibTeX.
    let series_rfc = ["series", "type", "howpublished"]
        .iter()
        .filter_map(|n| (s.get)(n))
        .any(|v| {
            let v = v.trim().to_ascii_lowercase();
            v == "rfc" || v == "request for comments"
        })
        .then(|| (s.get)("number"))
        .flatten()
        .and_then(|n| cues::rfc_number(&format!("RFC {}", n.trim())));
    if let Some(n) = cues::rfc_number(&s.notes).or(title_rfc).or(series_rfc)
        && (open
            || matches!(
                t,
                "techreport" | "report" | "standard" | "manual" | "online"
            ))
    {
        return Some(KindInfo::numbered(K::Rfc, Some(n)));
    }
    if t == "patent" {
        let number = (s.get)("number")
            .and_then(|n| cues::patent_number(&format!("Patent {n}")).or(Some(n)))
            .or_else(|| cues::patent_number(&s.notes));
        return Some(KindInfo::numbered(K::Patent, number));
    }
    if open && let Some(n) = cues::patent_number(&s.notes) {
        return Some(KindInfo::numbered(K::Patent, Some(n)));
    }
    let designation = || {
        let organisation = (s.get)("organization")
            .or_else(|| (s.get)("institution"))
            .unwrap_or_default();
        let number = (s.get)("number").unwrap_or_default();
        cues::standard_number(&format!("{organisation} {number}"))
            .or_else(|| cues::standard_number(&s.notes))
            .or_else(|| cues::standard_number(&s.title))
    };
    if t == "standard" {
        return Some(KindInfo::numbered(
            K::Standard,
            designation().or_else(|| (s.get)("number")),
        ));
    }
    if open && let Some(n) = designation() {
        return Some(KindInfo::numbered(K::Standard, Some(n)));
    }
    if open && (cues::is_legal(&s.title) || cues::is_legal(&s.notes)) {
        return Some(KindInfo::of(K::Legal));
    }
    None
}

/// DOI prefixes of data repositories (UCI, Dryad, Harvard Dataverse, figshare,
/// Mendeley Data, GBIF, PANGAEA, ICPSR).
fn is_data_repository_doi(doi: &str) -> bool {
    [
        "10.24432/",
        "10.5061/",
        "10.7910/",
        "10.6084/",
        "10.17632/",
        "10.15468/",
        "10.1594/",
        "10.3886/",
    ]
    .iter()
    .any(|p| doi.starts_with(p))
}

fn software_said(s: &Said<'_>) -> bool {
    let says_software = ["howpublished", "type", "note"]
        .iter()
        .filter_map(|n| (s.get)(n))
        .any(|v| {
            let v = v.trim().trim_matches(['[', ']', '.']).to_ascii_lowercase();
            v == "software" || v == "computer software" || v == "computer program"
        });
    says_software || (s.has)("version") || package_of(s).is_some() || cues::is_software(&s.notes)
}

fn software(s: &Said<'_>) -> KindInfo {
    KindInfo {
        version: version_of(s),
        package: package_of(s),
        ..KindInfo::of(WorkKind::Software)
    }
}

fn version_of(s: &Said<'_>) -> Option<String> {
    (s.get)("version")
        .map(|v| v.trim().trim_start_matches(['v', 'V']).to_string())
        .or_else(|| cues::version(&s.notes))
}

fn package_of(s: &Said<'_>) -> Option<crate::model::PackageRef> {
    package::from_url(&s.notes)
        .or_else(|| package::from_named(&s.notes))
        .or_else(|| package::from_citation_form(s.fields.title.as_deref(), &s.notes))
}

/// The kind of a CSL-JSON item from its `type` and fields (`get` gives a field's
/// text: `genre`, `publisher`, `number`, `version`, `URL`, `note` …).
pub fn of_csl(
    csl_type: &str,
    get: &dyn Fn(&str) -> Option<String>,
    fields: &RefFields,
) -> KindInfo {
    use WorkKind as K;
    let entry_type = match csl_type {
        "article-journal" | "review" | "review-book" => "article",
        "paper-conference" => "inproceedings",
        "chapter" | "entry-encyclopedia" | "entry-dictionary" | "entry" => "incollection",
        "book" | "classic" => "book",
        "collection" | "periodical" => "collection",
        "thesis" => "thesis",
        "report" => "report",
        "standard" => "standard",
        "patent" => "patent",
        "software" => "software",
        "dataset" => "dataset",
        "webpage" | "post" | "post-weblog" => "online",
        "legislation" | "legal_case" | "bill" | "regulation" | "treaty" | "hearing" => {
            "legislation"
        }
        "speech" | "interview" | "broadcast" => "talk",
        "article" => "preprint",
        "motion_picture" | "song" | "graphic" | "musical_score" | "map" | "figure"
        | "performance" | "event" => "artwork",
        "article-magazine" | "article-newspaper" | "manuscript" | "personal_communication" => {
            "unpublished"
        }
        _ => "misc",
    };
    if entry_type == "talk" {
        return KindInfo::of(K::Talk);
    }
    // CSL spells BibTeX's fields its own way.
    let renamed = |name: &str| -> Option<String> {
        let csl = match name {
            "howpublished" | "type" => "genre",
            "institution" | "school" | "organization" => "publisher",
            "url" => "URL",
            "doi" => "DOI",
            "journal" | "journaltitle" | "booktitle" => "container-title",
            "series" => "collection-title",
            "eventtitle" => "event-title",
            other => other,
        };
        get(csl)
    };
    let thesis_publisher = entry_type == "thesis";
    let info = of_entry(entry_type, &renamed, fields);
    if thesis_publisher || info.kind.is_some() {
        return info;
    }
    // `article-magazine`, `manuscript` …: not scholarly records unless a cue says so.
    if entry_type == "unpublished" {
        return KindInfo::of(K::Other);
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn kind_of(entry_type: &str, pairs: &[(&str, &str)]) -> KindInfo {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut f = RefFields {
            title: map.get("title").cloned(),
            url: map.get("url").cloned(),
            isbn: map.get("isbn").cloned(),
            arxiv: map.get("eprint").cloned(),
            venue: map.get("journal").cloned(),
            ..RefFields::default()
        };
        if map.contains_key("author") {
            f.authors
                .push(crate::model::Person::new(Some("A"), "Author"));
        }
        if map.contains_key("editor") {
            f.editors
                .push(crate::model::Person::new(Some("E"), "Editor"));
        }
        let get = |n: &str| map.get(n).cloned();
        of_entry(entry_type, &get, &f)
    }

    #[test]
    fn entry_types_name_their_kinds() {
        use WorkKind as K;
        for (t, k) in [
            ("article", K::Article),
            ("inproceedings", K::ConferencePaper),
            ("book", K::Book),
            ("phdthesis", K::Thesis),
            ("mastersthesis", K::Thesis),
            ("techreport", K::Report),
            ("software", K::Software),
            ("dataset", K::Dataset),
            ("online", K::WebPage),
            ("standard", K::Standard),
            ("patent", K::Patent),
            ("legislation", K::Legal),
            ("incollection", K::Chapter),
        ] {
            assert_eq!(kind_of(t, &[("title", "A title")]).kind, Some(k), "{t}");
        }
        assert_eq!(kind_of("misc", &[("title", "A title")]).kind, None);
    }

    #[test]
    fn misc_fields_decide() {
        use WorkKind as K;
        let rfc = kind_of(
            "misc",
            &[
                (
                    "title",
                    "Key words for use in RFCs to Indicate Requirement Levels",
                ),
                ("howpublished", "RFC 2119"),
            ],
        );
        assert_eq!(
            (rfc.kind, rfc.number.as_deref()),
            (Some(K::Rfc), Some("2119"))
        );
        let series = kind_of(
            "techreport",
            &[
                ("title", "Internet Protocol"),
                ("series", "Request for Comments"),
                ("number", "791"),
            ],
        );
        assert_eq!(
            (series.kind, series.number.as_deref()),
            (Some(K::Rfc), Some("791"))
        );
        let series = kind_of(
            "techreport",
            &[
                ("title", "Internet Protocol"),
                ("type", "RFC"),
                ("number", "791"),
                ("url", "https://www.rfc-editor.org/rfc/rfc791"),
            ],
        );
        assert_eq!(series.number.as_deref(), Some("791"));
        assert_eq!(
            kind_of("misc", &[("title", "T"), ("isbn", "9780387310732")]).kind,
            Some(K::Book)
        );
        assert_eq!(
            kind_of("misc", &[("title", "T"), ("school", "MIT")]).kind,
            Some(K::Thesis)
        );
        let sw = kind_of(
            "misc",
            &[
                ("title", "scikit-learn"),
                ("version", "1.3.2"),
                ("url", "https://pypi.org/project/scikit-learn/"),
            ],
        );
        assert_eq!(sw.kind, Some(K::Software));
        assert_eq!(sw.version.as_deref(), Some("1.3.2"));
        assert_eq!(sw.package.map(|p| p.name), Some("scikit-learn".into()));
        assert_eq!(
            kind_of(
                "misc",
                &[
                    ("title", "The Illustrated Transformer"),
                    ("url", "https://jalammar.github.io/illustrated-transformer/"),
                    ("urldate", "2024-01-01")
                ]
            )
            .kind,
            Some(K::WebPage)
        );
        assert_eq!(
            kind_of("misc", &[("title", "T"), ("eprint", "1706.03762")]).kind,
            Some(K::Preprint)
        );
        let gdpr = kind_of(
            "misc",
            &[(
                "title",
                "Regulation (EU) 2016/679 of the European Parliament and of the Council",
            )],
        );
        assert_eq!(gdpr.kind, Some(K::Legal));
        let iso = kind_of(
            "misc",
            &[
                ("title", "Information security management systems"),
                ("organization", "ISO/IEC"),
                ("number", "27001:2013"),
            ],
        );
        assert_eq!(
            (iso.kind, iso.number.as_deref()),
            (Some(K::Standard), Some("ISO/IEC 27001:2013"))
        );
        assert_eq!(
            kind_of("book", &[("title", "Handbook"), ("editor", "E")]).kind,
            Some(K::EditedVolume)
        );
    }

    #[test]
    fn the_title_topic_does_not_make_the_kind() {
        use WorkKind as K;
        assert_eq!(
            kind_of(
                "article",
                &[
                    (
                        "title",
                        "An empirical study of RFC 2119 keywords in software"
                    ),
                    ("journal", "Software: Practice and Experience"),
                ]
            )
            .kind,
            Some(K::Article)
        );
        assert_eq!(
            kind_of(
                "misc",
                &[("title", "Patent law and software engineering education")]
            )
            .kind,
            None
        );
    }
}
